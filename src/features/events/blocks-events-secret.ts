/**
 * The private form of a secret search (`events <id> secret|credentials`): the secret never sits in command
 * text. Pure: the view, and the metadata it carries (identifier, query kind, channel; never the secret).
 */
import type { KnownBlock, View } from '@slack/types';
import { z } from 'zod';
import type { WithheldQueryType } from '../../domain/events/context.js';
import { privateMetadata, viewButton, viewTitle } from '../../slack/kit/budget.js';

export const SECRET_SEARCH_CALLBACK = 'events_secret_search';
export const MAX_SECRET = 1000;

export const SecretSearchMetadataSchema = z.object({
  i: z.number().int().positive(),
  q: z.enum(['secret', 'credentials']),
  c: z.string().regex(/^[CDG][A-Z0-9]{2,30}$/),
});
type Metadata = z.infer<typeof SecretSearchMetadataSchema>;

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
