/**
 * The searching steps: leaked credentials of a domain or an email (optionally a masked summary posted in a
 * channel), and the events of one identifier (by id or by name). The same parser, services and masking as
 * `/vigil creds` and `/vigil events`; the same fair admission of searches and rate budget.
 */

import { effectiveSeverity, eventTitle } from '../../domain/events/model.js';
import { InvalidInputError } from '../../kernel/errors.js';
import {
  type Command,
  type Grammar,
  toCredentialSearchInput,
  toEventSearchInput,
} from '../../slack/grammar/index.js';
import { credentialsSummary, eventsSummary, renderCredentialsSummary } from './blocks.js';
import type { CredentialSearchStepDeps, EventSearchStepDeps } from './deps.js';
import { requiredInput, requireSearcher, type StepResult, type StepRun, textInput } from './run.js';

/** Who a search is counted against in the fair admission of searches without a person: the workflows. */
const WORKFLOW_SEARCHER = 'workflow';

/** A `/vigil` command built from a step's inputs, parsed as typed: the same checks, secrets refused. */
function parsed<K extends Command['kind']>(
  grammar: Grammar,
  text: string,
  kinds: readonly K[],
): Extract<Command, { kind: K }> {
  const result = grammar.parse(text);
  if (!result.ok)
    throw new InvalidInputError(
      result.error.message.replaceAll('/vigil ', ''),
      'Check the step’s inputs in Workflow Builder.',
    );
  const command = result.command;
  if (!(kinds as readonly string[]).includes(command.kind))
    throw new InvalidInputError(
      'Vigil could not read the step’s inputs as a search.',
      'Check them in Workflow Builder.',
    );
  return command as Extract<Command, { kind: K }>;
}

/** A value kept as one word of a command: quoted when it holds spaces, without quotes of its own. */
function word(value: string): string {
  const clean = value.replace(/["“”'‘’]/g, '');
  return /\s/.test(clean) ? `"${clean}"` : clean;
}

export async function searchCredentials(run: StepRun<CredentialSearchStepDeps>): Promise<StepResult> {
  const { deps, inputs } = run;
  const query = requiredInput(inputs, 'query', 'Domain or email');
  const channel = textInput(inputs, 'channel');
  const type = query.includes('@') ? 'email' : 'domain';
  const command = parsed(deps.inputs.grammar, `creds ${type} ${word(query)}`, ['creds']);
  const person = await requireSearcher(run, 'creds');
  const searcher = person ?? WORKFLOW_SEARCHER;
  const page = await deps.credentials.search({
    workspaceId: run.workspaceId,
    userId: searcher,
    channelId: channel ?? '',
    commandText: `/vigil creds ${type} ${query}`,
    input: toCredentialSearchInput(command, new Date(deps.clock.now())),
    limit: 10,
  });
  const { rows } = page.ctx;
  const summary = credentialsSummary(query, rows, page.ctx.cursor !== undefined);
  if (channel !== undefined) {
    const message = renderCredentialsSummary(summary);
    await run.client.chat.postMessage({
      channel,
      ...message,
      unfurl_links: false,
      unfurl_media: false,
    });
    // As a search shared from `/vigil creds`: masked values in a channel, audited (via the workflow).
    await deps.credentials.recordShare({
      teamId: run.workspaceId,
      userId: searcher,
      action: 'credentials.share',
      target: type,
      detail: `summary (masked) in ${channel}, step search_credentials`,
    });
  }
  const newest = Math.max(...rows.map((r) => Date.parse(r.importedAt)).filter(Number.isFinite));
  return {
    outputs: {
      count: rows.length,
      summary,
      ...(Number.isFinite(newest) ? { newest_import: Math.floor(newest / 1000) } : {}),
    },
  };
}

/** The identifier input: an id, or a name resolved as `/vigil events <name>` resolves it. */
async function identifierId(run: StepRun<EventSearchStepDeps>, identifier: string): Promise<number> {
  if (/^\d{1,12}$/.test(identifier)) {
    const id = Number(identifier);
    // An id the tenant lacks would search nothing and complete as "0 found": the author could not tell.
    if ((await run.deps.inputs.identifiers.missing(run.workspaceId, [id])).length > 0)
      throw new InvalidInputError(
        `The step's Identifier input names identifier ${id}, which this tenant does not have.`,
        'Find the identifier’s id with `/vigil identifiers [words]` (in the tenant the step searches), and put it, or its exact name, in the step’s Identifier input.',
      );
    return id;
  }
  const { resolution } = await run.deps.inputs.identifiers.resolve(run.workspaceId, identifier);
  if (resolution.kind === 'one') return resolution.identifier.id;
  const names = (resolution.kind === 'several' ? resolution.candidates : resolution.suggestions)
    .slice(0, 5)
    .map((i) => `${i.name} (${i.id})`)
    .join(', ');
  throw new InvalidInputError(
    resolution.kind === 'several'
      ? `Several identifiers match “${identifier.slice(0, 80)}”: ${names}.`
      : `No identifier is named “${identifier.slice(0, 80)}”${names ? `; the closest: ${names}` : ''}.`,
    'Find it with `/vigil identifiers [words]`, and put its id (or its exact name) in the step’s Identifier input.',
  );
}

export async function searchEvents(run: StepRun<EventSearchStepDeps>): Promise<StepResult> {
  const { deps, inputs } = run;
  const identifier = requiredInput(inputs, 'identifier', 'Identifier');
  const person = await requireSearcher(run, 'use');
  const id = await identifierId(run, identifier);
  const severity = textInput(inputs, 'severity');
  const since = textInput(inputs, 'since');
  const filters = [severity ? `severity:${word(severity)}` : '', since ? `since:${word(since)}` : '']
    .filter(Boolean)
    .join(' ');
  const command = parsed(run.deps.inputs.grammar, `events ${id} ${filters}`.trim(), ['events']);
  const context = await deps.events.searchToContext({
    workspaceId: run.workspaceId,
    userId: person ?? WORKFLOW_SEARCHER,
    channelId: '',
    commandText: `/vigil events ${id} ${filters}`.trim(),
    input: toEventSearchInput(command, new Date(deps.clock.now())),
    pageNumber: 1,
    sort: 'severity',
  });
  const events = context.events.map(({ event }) => ({
    uid: event.metadata.uid,
    severity: effectiveSeverity(event),
    title: eventTitle(event),
  }));
  const [first] = events;
  return {
    outputs: {
      count: events.length,
      summary: eventsSummary(identifier, events, context.cursor !== undefined),
      ...(first ? { highest_severity: first.severity, first_event_uid: first.uid } : {}),
    },
  };
}
