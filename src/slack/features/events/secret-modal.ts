/**
 * `events <id> secret|credentials`: a modal takes the secret (never the command line), the search runs on
 * submission and the results reach the requester as an ephemeral message. The secret is masked out of the
 * results, registered with the logger's redaction and never stored: the context keeps only its kind.
 */
import type { App, RespondArguments, RespondFn } from '@slack/bolt';
import type { KnownBlock, View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { EventQuery } from '../../../api/index.js';
import { VigilError } from '../../../errors.js';
import { registerSecret } from '../../../logger.js';
import { privateMetadata, viewButton, viewTitle } from '../../blocks/budget.js';
import type { SlackDeps } from '../../context.js';
import { reportError } from '../../error-reply.js';
import { requesterOfAction } from '../../listen.js';
import { secretCommandText } from './command-text.js';
import type { WithheldQueryType } from '../../../services/events-context.js';
import { renderPage } from './page-message.js';
import { searchToContext } from './run-search.js';
import { servicesOf } from './services.js';

export const SECRET_SEARCH_CALLBACK = 'events_secret_search';
const MAX_SECRET = 1000;

const MetadataSchema = z.object({
  i: z.number().int().positive(),
  q: z.enum(['secret', 'credentials']),
  c: z.string(),
});
type Metadata = z.infer<typeof MetadataSchema>;

function input(blockId: string, label: string, hint: string): KnownBlock {
  return {
    type: 'input',
    block_id: blockId,
    label: { type: 'plain_text', text: label },
    hint: { type: 'plain_text', text: hint },
    element: { type: 'plain_text_input', action_id: 'value', max_length: MAX_SECRET },
  };
}

/** The modal: no network needed first, so it opens at once with the trigger id. */
export function secretSearchView(
  identifierId: number,
  queryType: WithheldQueryType,
  channelId: string,
): View {
  const meta: Metadata = { i: identifierId, q: queryType, c: channelId };
  const intro =
    queryType === 'secret'
      ? `Search the events of identifier ${identifierId} for a secret (an API key, a token…).`
      : `Search the events of identifier ${identifierId} for a username and password pair.`;
  const fields =
    queryType === 'secret'
      ? [input('secret', 'Secret', 'Sent only to the threat-intel API; never shown, stored or logged.')]
      : [
          input('username', 'Username', 'The account name or email, as it would appear in a leak.'),
          input('password', 'Password', 'Sent only to the threat-intel API; never shown, stored or logged.'),
        ];
  return {
    type: 'modal',
    callback_id: SECRET_SEARCH_CALLBACK,
    private_metadata: privateMetadata(JSON.stringify(meta)),
    title: viewTitle('Search events'),
    submit: viewButton('Search'),
    close: viewButton('Cancel'),
    clear_on_close: true,
    blocks: [
      { type: 'section', text: { type: 'plain_text', text: intro } },
      ...fields,
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: 'Results arrive as a message only you can see.' }],
      },
    ],
  };
}

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

type StateValues = Record<string, Record<string, { value?: string | null }>>;

function fieldValue(values: StateValues, blockId: string): string {
  return (values[blockId]?.value?.value ?? '').trim();
}

/** The query from the submitted fields, or the errors to show next to them. */
export function submittedQuery(
  queryType: WithheldQueryType,
  values: StateValues,
): { query: EventQuery } | { errors: Record<string, string> } {
  if (queryType === 'secret') {
    const secret = fieldValue(values, 'secret');
    if (secret === '') return { errors: { secret: 'Enter the secret to search for.' } };
    return { query: { type: 'secret', secret } };
  }
  const username = fieldValue(values, 'username');
  const password = fieldValue(values, 'password');
  const errors: Record<string, string> = {};
  if (username === '') errors.username = 'Enter the username.';
  if (password === '') errors.password = 'Enter the password.';
  if (Object.keys(errors).length > 0) return { errors };
  return { query: { type: 'credentials', username, password } };
}

/** A RespondFn for a surface without a response_url: ephemeral in the channel, or a DM when that fails. */
export function ephemeralPoster(client: WebClient, channelId: string, userId: string): RespondFn {
  return (async (message: string | RespondArguments) => {
    const m = typeof message === 'string' ? { text: message } : message;
    const text = typeof m.text === 'string' ? m.text : 'Vigil';
    const blocks = 'blocks' in m && Array.isArray(m.blocks) ? { blocks: m.blocks } : {};
    if (channelId !== '') {
      try {
        return await client.chat.postEphemeral({ channel: channelId, user: userId, text, ...blocks });
      } catch {
        // Not in that channel (or a DM with someone else): the app's DM with the user still works.
      }
    }
    return client.chat.postMessage({
      channel: userId,
      text,
      ...blocks,
      unfurl_links: false,
      unfurl_media: false,
    });
  }) as RespondFn;
}

export function registerSecretModal(app: App, deps: SlackDeps): void {
  app.view(SECRET_SEARCH_CALLBACK, async ({ ack, body, view, client }) => {
    const meta = MetadataSchema.safeParse(safeJson(view.private_metadata));
    if (!meta.success) {
      await ack();
      return;
    }
    const result = submittedQuery(meta.data.q, view.state.values as StateValues);
    if ('errors' in result) {
      await ack({ response_action: 'errors', errors: result.errors });
      return;
    }
    await ack();
    const secrets = secretsOf(result.query);
    for (const s of secrets) registerSecret(s);
    const who = requesterOfAction(body);
    const respond = ephemeralPoster(client, meta.data.c, who.userId);
    deps.tracker.run(
      async () => {
        const ctx = await searchToContext(deps, {
          workspaceId: who.workspaceId,
          userId: who.userId,
          channelId: meta.data.c,
          commandText: secretCommandText({ identifierId: meta.data.i, queryType: meta.data.q }),
          input: { identifierId: meta.data.i, query: result.query },
          pageNumber: 1,
          secrets,
        });
        const id = await servicesOf(deps).contexts.save(ctx);
        const page = renderPage(ctx, id, deps.clock.now());
        await respond({ response_type: 'ephemeral', text: page.text, blocks: page.blocks });
      },
      (err) => void reportError(deps, scrub(err, secrets), respond, { view: SECRET_SEARCH_CALLBACK }),
    );
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
