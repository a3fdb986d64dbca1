/**
 * A person opening the side panel of a Work Object card: the signed `entity_details_requested` event Slack
 * sends (shape: @slack/types' EntityDetailsRequestedEvent), and the `entity.presentDetails` call Vigil answers
 * it with.
 */
import type { RecordedCall } from '../../packages/playground/src/sim/slack/index.js';
import type { Stack } from './stack.js';

export interface PanelRequest {
  userId: string;
  /** The card's link. */
  url: string;
  /** The event the card shows (its external reference). */
  uid: string;
  /** The message the card was opened from, when it was one. */
  channel?: string;
  ts?: string;
  /** Further fields of the event, as Slack may add them (`app_unfurl_url`). */
  extra?: Record<string, unknown>;
}

export async function openEntityPanel(
  stack: Pick<Stack, 'slack' | 'sender'>,
  req: PanelRequest,
): Promise<RecordedCall> {
  const triggerId = stack.slack.triggerId();
  await stack.sender.event({
    type: 'entity_details_requested',
    userId: req.userId,
    fields: {
      user: req.userId,
      trigger_id: triggerId,
      link: { url: req.url, domain: new URL(req.url).hostname },
      entity_url: req.url,
      user_locale: 'en-US',
      external_ref: { id: req.uid, type: 'flare_event' },
      ...(req.channel === undefined ? {} : { channel: req.channel }),
      ...(req.ts === undefined ? {} : { message_ts: req.ts }),
      ...req.extra,
    },
  });
  return stack.slack.waitFor((c) => c.method === 'entity.presentDetails' && c.body.trigger_id === triggerId);
}
