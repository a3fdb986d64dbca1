import type { Event } from '../../../src/api/index.js';

/** 2026-11-21 09:00 UTC, the same instant ManualClock starts at. */
export const NOW = Date.UTC(2026, 10, 21, 9, 0, 0);

type EventOverrides = {
  metadata?: Partial<Event['metadata']>;
  tenant_metadata?: Event['tenant_metadata'];
  identifiers?: Event['identifiers'];
  highlights?: Event['highlights'];
};

/** A realistic open event; override any part. */
export function makeEvent(overrides: EventOverrides = {}): Event {
  const event: Event = {
    metadata: {
      uid: 'leak/pastebin/a1b2c3',
      type: 'leak',
      severity: 'high',
      estimated_created_at: '2026-11-19T14:30:00Z',
      matched_at: '2026-11-20T08:15:00Z',
      flare_url: 'https://app.flare.io/#/activity/leak/pastebin/a1b2c3',
      ...overrides.metadata,
    },
    tenant_metadata:
      overrides.tenant_metadata === undefined
        ? { tags: ['vip'], ignored_at: null, remediated_at: null, severity: null }
        : overrides.tenant_metadata,
    identifiers: overrides.identifiers ?? [{ id: 42, name: 'acme.com' }],
    highlights: overrides.highlights ?? {
      title: ['Combo list with <mark>acme.com</mark> accounts'],
      description: ['1,204 lines such as <mark>j.doe@acme.com</mark>:hunter2 &amp; more'],
    },
  };
  return event;
}
