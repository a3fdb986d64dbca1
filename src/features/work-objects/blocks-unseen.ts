/**
 * The card of a portal link to an event the API knows but Vigil has not seen in this workspace's tenant.
 * Pure. The lookup by uid cannot say whose event it is, so the card vouches for nothing: no title, severity,
 * dates or tags of the event, only what the link itself says (its uid and so its type) and why there is no
 * more. Its side panel is the "not known to Vigil" error panel, as for any event Vigil has not seen here.
 */
import type { EntityMetadata } from '@slack/types';
import { typeLabel } from '../../domain/events/type-labels.js';
import { escapeMrkdwn, plainText } from '../../slack/kit/text.js';
import type { UnseenEvent } from './service.js';

const upstream = (s: string, max: number) => plainText(escapeMrkdwn(s), max);

export function unseenEventEntity(unseen: UnseenEvent, opts: { appUnfurlUrl: string }): EntityMetadata {
  return {
    entity_type: 'slack#/entities/incident',
    url: opts.appUnfurlUrl,
    app_unfurl_url: opts.appUnfurlUrl,
    external_ref: { id: unseen.uid, type: 'flare_event' },
    entity_payload: {
      attributes: {
        title: { text: 'Event not in this workspace’s feed' },
        display_type: 'Threat-intel event',
        display_id: upstream(unseen.uid, 200),
        product_name: 'Vigil',
      },
      fields: { status: { value: 'Not verified', tag_color: 'gray' } },
      custom_fields: [
        ...(unseen.eventType === undefined
          ? []
          : [
              {
                key: 'event_type',
                label: 'Type',
                type: 'string',
                value: upstream(typeLabel(unseen.eventType), 200),
              },
            ]),
        {
          key: 'why',
          label: 'Why no details',
          type: 'string',
          value:
            'Vigil has not shown this event in this workspace, and the API cannot confirm it belongs to ' +
            'this workspace’s tenant, so none of its content is shown. Search for it with /vigil events.',
        },
      ],
      display_order: ['status', 'event_type', 'why'],
    },
  };
}
