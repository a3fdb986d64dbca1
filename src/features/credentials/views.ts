/**
 * `creds password`: a modal takes the password (never the command line); the search runs on submission and
 * the masked results reach the requester privately. The password is registered with the logger's redaction
 * and never stored: the context keeps no query, so Next page, Reveal and Export are not offered.
 */
import type { App } from '@slack/bolt';
import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { VigilError } from '../../kernel/errors.js';
import { registerSecret } from '../../kernel/logger.js';
import { privateMetadata, viewButton, viewTitle } from '../../slack/kit/budget.js';
import { onView } from '../../slack/listen.js';
import { ephemeralPoster } from '../../slack/respond.js';
import type { CredentialsDeps } from './deps.js';
import { credsPage } from './page.js';

const CREDS_PASSWORD_CALLBACK = 'creds_password_search';
const MAX_PASSWORD = 1000;
const MetadataSchema = z.object({ c: z.string().regex(/^[CDG][A-Z0-9]{2,30}$/) });

function passwordSearchView(channelId: string): View {
  return {
    type: 'modal',
    callback_id: CREDS_PASSWORD_CALLBACK,
    private_metadata: privateMetadata(JSON.stringify({ c: channelId })),
    title: viewTitle('Search a password'),
    submit: viewButton('Search'),
    close: viewButton('Cancel'),
    clear_on_close: true,
    blocks: [
      {
        type: 'section',
        text: { type: 'plain_text', text: 'Find leaked credentials whose value is this password or hash.' },
      },
      {
        type: 'input',
        block_id: 'password',
        label: { type: 'plain_text', text: 'Password or hash' },
        hint: {
          type: 'plain_text',
          text: 'Sent only to the threat-intel API; never shown, stored or logged.',
        },
        element: { type: 'plain_text_input', action_id: 'value', max_length: MAX_PASSWORD },
      },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: 'Results arrive as a message only you can see, values masked.' }],
      },
    ],
  };
}

export async function openPasswordModal(
  client: WebClient,
  triggerId: string,
  channelId: string,
): Promise<void> {
  await client.views.open({ trigger_id: triggerId, view: passwordSearchView(channelId) });
}

type StateValues = Record<string, Record<string, { value?: string | null }>>;

/** An error must not carry the password either (a 422 may quote the input). */
function scrub(err: unknown, secret: string): unknown {
  if (!(err instanceof Error)) return err;
  const extra = err as { hint?: unknown; fields?: unknown };
  const all = [err.message, String(extra.hint ?? ''), JSON.stringify(extra.fields ?? [])].join('\n');
  if (!all.includes(secret)) return err;
  return new VigilError(
    'The threat-intel API refused this search.',
    'Check the value and try again with the form.',
  );
}

export function registerPasswordModal(app: App, deps: CredentialsDeps): void {
  onView(
    app,
    deps,
    CREDS_PASSWORD_CALLBACK,
    ({ who, view, client }) => {
      const meta = MetadataSchema.safeParse(safeJson(view.private_metadata));
      if (!meta.success) return {};
      const values = view.state.values as StateValues;
      const secret = (values.password?.value?.value ?? '').trim();
      if (secret === '') {
        return {
          ack: {
            response_action: 'errors',
            errors: { password: 'Enter the password or hash to search for.' },
          },
        };
      }
      if (secret.length > MAX_PASSWORD) {
        return {
          ack: { response_action: 'errors', errors: { password: `At most ${MAX_PASSWORD} characters.` } },
        };
      }
      registerSecret(secret);
      const respond = ephemeralPoster(client, meta.data.c, who.userId);
      return {
        respond,
        scrub: (err) => scrub(err, secret),
        work: async () => {
          const { ctx, ctxId } = await deps.credentials.search({
            workspaceId: who.workspaceId,
            userId: who.userId,
            channelId: meta.data.c,
            commandText: '/vigil creds password',
            input: { query: { type: 'secret', secret }, size: 10 },
            limit: 10,
          });
          await respond({
            response_type: 'ephemeral',
            ...(await credsPage(deps, ctx, ctxId)),
          });
        },
      };
    },
    'creds',
  );
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
