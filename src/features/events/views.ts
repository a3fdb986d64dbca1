/**
 * `events <id> secret|credentials`: a modal takes the secret (never the command line), the search runs on
 * submission and the results reach the requester as an ephemeral message. The secret is masked out of the
 * results, registered with the logger's redaction and never stored: the context keeps only its kind.
 */
import type { App, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { EventQuery } from '../../api/index.js';
import type { WithheldQueryType } from '../../domain/events/context.js';
import { type RenderedMessage, renderPage } from '../../domain/events/page.js';
import { VigilError } from '../../kernel/errors.js';
import { registerSecret } from '../../kernel/logger.js';
import { ephemeral } from '../../slack/context.js';
import { onView } from '../../slack/listen.js';
import { ephemeralPoster } from '../../slack/respond.js';
import {
  MAX_SECRET,
  SECRET_SEARCH_CALLBACK,
  SecretSearchMetadataSchema,
  secretSearchView,
} from './blocks-events-secret.js';
import { secretCommandText } from './command-text.js';
import type { EventsDeps } from './deps.js';

export async function openSecretModal(
  client: WebClient,
  triggerId: string,
  meta: { identifierId: number; queryType: WithheldQueryType; channelId: string },
): Promise<void> {
  await client.views.open({
    trigger_id: triggerId,
    view: secretSearchView(meta.identifierId, meta.queryType, meta.channelId),
  });
}

/** A response_url takes 5 posts: very long texts stop there. */
const MAX_EXPLAIN_PARTS = 5;

/** Sends every part of an explanation; the first may replace a progress message. */
export async function sendExplain(
  respond: RespondFn,
  messages: readonly RenderedMessage[],
  replaceFirst: boolean,
): Promise<void> {
  for (const [i, message] of messages.slice(0, MAX_EXPLAIN_PARTS).entries()) {
    await respond(ephemeral(message, replaceFirst && i === 0));
  }
}

type StateValues = Record<string, Record<string, { value?: string | null }>>;

function fieldValue(values: StateValues, blockId: string): string {
  return (values[blockId]?.value?.value ?? '').trim();
}

const tooLong = `At most ${MAX_SECRET} characters.`;

/** The query from the submitted fields, or the errors to show next to them. @internal */
export function submittedQuery(
  queryType: WithheldQueryType,
  values: StateValues,
): { query: EventQuery } | { errors: Record<string, string> } {
  if (queryType === 'secret') {
    const secret = fieldValue(values, 'secret');
    if (secret === '') return { errors: { secret: 'Enter the secret to search for.' } };
    if (secret.length > MAX_SECRET) return { errors: { secret: tooLong } };
    return { query: { type: 'secret', secret } };
  }
  const username = fieldValue(values, 'username');
  const password = fieldValue(values, 'password');
  const errors: Record<string, string> = {};
  if (username === '') errors.username = 'Enter the username.';
  if (password === '') errors.password = 'Enter the password.';
  if (username.length > MAX_SECRET) errors.username = tooLong;
  if (password.length > MAX_SECRET) errors.password = tooLong;
  if (Object.keys(errors).length > 0) return { errors };
  return { query: { type: 'credentials', username, password } };
}

export function registerSecretModal(app: App, deps: EventsDeps): void {
  onView(app, deps, SECRET_SEARCH_CALLBACK, ({ who, view, client }) => {
    const meta = SecretSearchMetadataSchema.safeParse(safeJson(view.private_metadata));
    if (!meta.success) return {};
    const result = submittedQuery(meta.data.q, view.state.values as StateValues);
    if ('errors' in result) return { ack: { response_action: 'errors', errors: result.errors } };
    const secrets = secretsOf(result.query);
    for (const s of secrets) registerSecret(s);
    const respond = ephemeralPoster(client, meta.data.c, who.userId);
    return {
      respond,
      scrub: (err) => scrub(err, secrets),
      async work() {
        const ctx = await deps.events.searchToContext({
          workspaceId: who.workspaceId,
          userId: who.userId,
          channelId: meta.data.c,
          commandText: secretCommandText({ identifierId: meta.data.i, queryType: meta.data.q }),
          input: { identifierId: meta.data.i, query: result.query },
          pageNumber: 1,
          secrets,
        });
        const id = await deps.events.contexts.save(ctx);
        const page = renderPage(ctx, id, deps.clock.now());
        await respond({ response_type: 'ephemeral', text: page.text, blocks: page.blocks });
      },
    };
  });
}

function secretsOf(query: EventQuery): string[] {
  if (query.type === 'secret') return [query.secret];
  if (query.type === 'credentials') return [query.password];
  return [];
}

/** An error message must not carry the secret either (a 422 may quote the input). */
function scrub(err: unknown, secrets: readonly string[]): unknown {
  if (!(err instanceof Error)) return err;
  const leaks = (s: string) => secrets.some((secret) => secret !== '' && s.includes(secret));
  const extra = err as { hint?: unknown; fields?: unknown };
  if (!leaks([err.message, String(extra.hint ?? ''), JSON.stringify(extra.fields ?? [])].join('\n')))
    return err;
  return new VigilError(
    'The threat-intel API refused this search.',
    'Check the value and try again with the form.',
  );
}

function safeJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}
