/**
 * Whether a posted portal link may become a card at all, before anything is looked up: the card is seen by
 * everyone in the conversation, so the poster must be someone who may `use` Vigil here (not a guest, not a
 * user Slack does not know), and the conversation must not be shared with another organization, unless an
 * admin opened cards there (`/vigil settings cards #channel open`).
 */
import type { WebClient } from '@slack/web-api';
import { NotAllowedError } from '../../kernel/errors.js';
import type { Authz, Who } from '../../slack/permission-checks.js';

/** Why no card (for the log), or undefined when the link may unfurl. */
export async function whyNoCard(
  deps: { authz: Pick<Authz, 'may'>; cardsOpenedIn(workspaceId: string, channel: string): Promise<boolean> },
  client: WebClient,
  poster: Who,
  channel: string,
): Promise<'poster' | 'shared-channel' | 'channel-unknown' | undefined> {
  if (!poster.userId) return 'poster';
  const may = await deps.authz.may(client, poster, 'use').catch((err: unknown) => {
    if (err instanceof NotAllowedError) return false;
    throw err;
  });
  if (!may) return 'poster';
  // A conversation Vigil cannot look up cannot be shown to be unshared: no card.
  const info = await client.conversations.info({ channel }).catch(() => undefined);
  const c = info?.channel;
  if (c === undefined) return 'channel-unknown';
  // Slack Connect (or on its way to it); `is_shared` without `is_org_shared` is another workspace's too.
  if (c.is_ext_shared || c.is_pending_ext_shared || (c.is_shared && !c.is_org_shared))
    return (await deps.cardsOpenedIn(poster.workspaceId, channel)) ? undefined : 'shared-channel';
  return undefined;
}
