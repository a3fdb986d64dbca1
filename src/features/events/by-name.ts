/**
 * Events found without knowing an identifier's number: `events <name>` (one match: its events; several: a
 * picker; none: the closest names), `events all` (the tenant feed), and the Events buttons of identifier
 * lists and recommendations. The picker's buttons carry a short ref to the stored search, never the search.
 */
import { z } from 'zod';
import { renderPage } from '../../domain/events/page.js';
import {
  EVENTS_PICK,
  IDENTIFIER_EVENTS,
  renderIdentifierPicker,
  renderNoIdentifier,
} from '../../domain/identifier-blocks.js';
import type { KnownIdentifier } from '../../domain/identifiers.js';
import { parseRowRef } from '../../domain/list-context.js';
import { ExpiredError, VigilError } from '../../kernel/errors.js';
import type { CommandHandler, Requester } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import type { EventsSearchSpec } from '../../slack/grammar/index.js';
import { toEventSearchInput } from '../../slack/grammar/index.js';
import { type Click, onAction } from '../../slack/listen.js';
import { eventsCommandText } from './command-text.js';
import type { EventsDeps } from './deps.js';

/** Candidates a picker shows. */
const PICKER_SIZE = 10;

const CandidateSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  type: z.string(),
  kinds: z.array(z.string()),
  disabled: z.boolean(),
});

const PickSchema = z.object({
  kind: z.literal('events-pick'),
  workspaceId: z.string().min(1),
  userId: z.string(),
  candidates: z.array(CandidateSchema).max(PICKER_SIZE),
  /** The query and filters as parsed (no secrets: those never come by name). */
  spec: z.looseObject({ filters: z.record(z.string(), z.unknown()) }),
});

/** The first page of one identifier's events (or the tenant feed) for `spec`, rendered. */
async function firstPage(
  deps: EventsDeps,
  who: Pick<Requester, 'workspaceId' | 'userId' | 'channelId'>,
  target: number | 'all',
  spec: EventsSearchSpec,
) {
  const all = target === 'all';
  const input = toEventSearchInput({ ...spec, identifierId: all ? 0 : target }, new Date(deps.clock.now()));
  const context = await deps.events.searchToContext({
    workspaceId: who.workspaceId,
    userId: who.userId,
    channelId: who.channelId,
    commandText: eventsCommandText({ ...spec, identifierId: target }),
    input,
    pageNumber: 1,
    ...(spec.sort === undefined ? {} : { sort: spec.sort }),
    ...(all ? { scope: 'tenant' as const } : {}),
  });
  const id = await deps.events.contexts.save(context);
  return renderPage(context, id, deps.clock.now());
}

function savePick(
  deps: EventsDeps,
  who: Pick<Requester, 'workspaceId' | 'userId'>,
  candidates: readonly KnownIdentifier[],
  spec: EventsSearchSpec,
): Promise<string> {
  return deps.lists.save(PickSchema, {
    kind: 'events-pick',
    workspaceId: who.workspaceId,
    userId: who.userId,
    candidates: candidates.slice(0, PICKER_SIZE).map((c) => ({ ...c })),
    spec: structuredClone(spec) as z.input<typeof PickSchema>['spec'],
  });
}

const specOf = ({ kind: _k, name: _n, ...spec }: { kind: string; name?: string } & EventsSearchSpec) =>
  spec as EventsSearchSpec;

export const eventsByNameCommand: CommandHandler<'events-name', EventsDeps> = {
  progress: () => 'Looking up the identifier by its name…',
  async run(ctx) {
    const { deps, command } = ctx;
    const spec = specOf(command);
    const { resolution } = await deps.identifiers.resolve(ctx.workspaceId, command.name);
    if (resolution.kind === 'one') {
      const page = await firstPage(deps, ctx, resolution.identifier.id, spec);
      await ctx.respond(ephemeral(page, true));
      return;
    }
    if (resolution.kind === 'several') {
      const pickRef = await savePick(deps, ctx, resolution.candidates, spec);
      const message = renderIdentifierPicker({
        name: command.name,
        candidates: resolution.candidates.slice(0, PICKER_SIZE),
        pickRef,
        total: resolution.candidates.length,
      });
      await ctx.respond(ephemeral(message, true));
      return;
    }
    const suggestions = resolution.suggestions;
    const pickRef = suggestions.length > 0 ? await savePick(deps, ctx, suggestions, spec) : undefined;
    await ctx.respond(ephemeral(renderNoIdentifier({ name: command.name, suggestions, pickRef }), true));
  },
};

export const eventsAllCommand: CommandHandler<'events-all', EventsDeps> = {
  progress: () => 'Searching the events of every identifier…',
  async run(ctx) {
    const page = await firstPage(ctx.deps, ctx, 'all', specOf(ctx.command));
    await ctx.respond(ephemeral(page, true));
  },
};

/** A picker's Events: the stored search, with the chosen identifier; the picker is replaced by the results. */
async function pick(click: Click<EventsDeps>): Promise<void> {
  const { deps, who } = click;
  const ref = parseRowRef(click.action.value);
  const ctx = ref
    ? await deps.lists.load(PickSchema, ref.ctxId, who.workspaceId, '/vigil events <name>')
    : undefined;
  const chosen = ref && ctx ? ctx.candidates[ref.index] : undefined;
  if (!ctx || !chosen) {
    throw new ExpiredError(
      'This choice no longer points at a search Vigil knows.',
      'Run `/vigil events <name>` again.',
    );
  }
  const page = await firstPage(deps, who, chosen.id, ctx.spec as unknown as EventsSearchSpec);
  await click.respond(ephemeral(page, true));
}

/** An identifier's Events button (identifier lists, accepted recommendations): its recent events, in a new message. */
async function identifierEvents(click: Click<EventsDeps>): Promise<void> {
  const id = Number(click.action.value);
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new VigilError('This button does not name an identifier.', 'Run `/vigil identifiers` again.');
  }
  const page = await firstPage(click.deps, click.who, id, { filters: {} });
  await click.respond(ephemeral(page, false));
}

export function registerByNameActions(app: Parameters<typeof onAction>[0], deps: EventsDeps): void {
  onAction(app, deps, { action_id: new RegExp(`^${EVENTS_PICK}:\\d{1,3}$`) }, pick);
  onAction(app, deps, { action_id: new RegExp(`^${IDENTIFIER_EVENTS}:\\d{1,3}$`) }, identifierEvents);
}
