/**
 * Events contexts as release 0.4.0 stored them (`v: 1`, before contexts had kinds), copied from its store
 * after real use (a posted alert and digest, a click on the alert, its "+N more", `events all sort:severity`
 * shared in the channel), one event each. Stores keep such records for up to 30 days after an upgrade.
 */

/** A grouped alert as posted (7 events, 5 shown, the rest behind "+N more"), in tenant 2001. */
export const V1_ALERT = {
  v: 1,
  workspaceId: 'T0001',
  userId: 'alert',
  channelId: 'C0GENERAL',
  commandText: '/vigil alerts list',
  pageNumber: 1,
  identifierId: 3001,
  query: { kind: 'none' },
  tenantId: 2001,
  events: [
    {
      event: {
        metadata: {
          uid: 'leak/dump/0',
          type: 'stealer_log',
          severity: 'critical',
          estimated_created_at: '2026-11-23T08:01:00.000Z',
          matched_at: '2026-11-23T08:01:00.000Z',
          flare_url: 'https://app.flare.io/#/feed/2001/event/leak%2Fdump%2F0',
        },
        tenant_metadata: { tags: [], remediated_at: null, ignored_at: null },
        identifiers: [{ id: 3001, name: 'acme.example' }],
        highlights: { title: ['Admin credentials 0'] },
      },
      generation: 0,
    },
  ],
  alert: {
    counts: { severity: { critical: 7 }, type: { stealer_log: 7 } },
    scope: 'identifier 3001',
    filters: 'severity ≥ high',
    moreRef: 'fnvJm7aGlVb2',
    subscriptionIds: ['FLPeFJqFCtSx'],
    total: 7,
  },
};

/** The same alert after a click in its channel: the event ignored, where the message is recorded. */
export const V1_ALERT_CLICKED = {
  v: 1,
  workspaceId: 'T0001',
  userId: 'alert',
  channelId: 'C0GENERAL',
  commandText: '/vigil alerts list',
  pageNumber: 1,
  identifierId: 3001,
  query: { kind: 'none' },
  tenantId: 2001,
  events: [
    {
      event: {
        metadata: {
          uid: 'leak/dump/0',
          type: 'stealer_log',
          severity: 'critical',
          estimated_created_at: '2026-11-23T08:01:00.000Z',
          matched_at: '2026-11-23T08:01:00.000Z',
          flare_url: 'https://app.flare.io/#/feed/2001/event/leak%2Fdump%2F0',
        },
        tenant_metadata: { tags: [], remediated_at: null, ignored_at: '2026-11-23T09:00:00.000Z' },
        identifiers: [{ id: 3001, name: 'acme.example' }],
        highlights: { title: ['Admin credentials 0'] },
      },
      generation: 1,
      acted: { action: 'ignore', by: 'U0ADMIN01', at: 1795424400000 },
    },
  ],
  message: { channel: 'C0GENERAL', ts: '1795733518.000003' },
  alert: {
    counts: { severity: { critical: 7 }, type: { stealer_log: 7 } },
    scope: 'identifier 3001',
    filters: 'severity ≥ high',
    moreRef: 'fnvJm7aGlVb2',
    subscriptionIds: ['FLPeFJqFCtSx'],
    total: 7,
  },
};

/** A digest as posted. */
export const V1_DIGEST = {
  v: 1,
  workspaceId: 'T0001',
  userId: 'digest',
  channelId: 'C0GENERAL',
  commandText: '/vigil digest preview jhkFOTw7lIc2',
  pageNumber: 1,
  identifierId: 3001,
  query: { kind: 'none' },
  tenantId: 2001,
  events: [
    {
      event: {
        metadata: {
          uid: 'leak/dump/0',
          type: 'stealer_log',
          severity: 'critical',
          estimated_created_at: '2026-11-23T08:01:00.000Z',
          matched_at: '2026-11-23T08:01:00.000Z',
          flare_url: 'https://app.flare.io/#/feed/2001/event/leak%2Fdump%2F0',
        },
        tenant_metadata: { tags: [], remediated_at: null, ignored_at: null },
        identifiers: [{ id: 3001, name: 'acme.example' }],
        highlights: { title: ['Admin credentials 0'] },
      },
      generation: 0,
    },
  ],
  digest: {
    counts: { severity: { critical: 7 }, type: { stealer_log: 7 } },
    scope: 'identifier 3001',
    filters: '',
    moreRef: '9ayteAy-rkSy',
    subscriptionId: 'jhkFOTw7lIc2',
    localDate: '2026-11-23',
    late: false,
    total: 7,
    truncated: false,
  },
};

/** A page of the alert's "+N more", opened privately by a member. */
export const V1_REST_PAGE = {
  v: 1,
  workspaceId: 'T0001',
  userId: 'U0MEMBER1',
  channelId: 'C0GENERAL',
  commandText: '/vigil alerts list',
  pageNumber: 1,
  identifierId: 3001,
  query: { kind: 'none' },
  offset: 0,
  events: [
    {
      event: {
        metadata: {
          uid: 'leak/dump/5',
          type: 'stealer_log',
          severity: 'critical',
          estimated_created_at: '2026-11-23T08:01:00.000Z',
          matched_at: '2026-11-23T08:01:00.000Z',
          flare_url: 'https://app.flare.io/#/feed/2001/event/leak%2Fdump%2F5',
        },
        tenant_metadata: { tags: [], remediated_at: null, ignored_at: null },
        identifiers: [{ id: 3001, name: 'acme.example' }],
        highlights: { title: ['Admin credentials 5'] },
      },
      generation: 0,
    },
  ],
};

/** `/vigil events all sort:severity`, shared in the channel (the cursor is the API's, for page 2). */
export const V1_TENANT_SEARCH = {
  v: 1,
  workspaceId: 'T0001',
  userId: 'U0MEMBER1',
  channelId: 'C0GENERAL',
  commandText: '/vigil events all sort:severity',
  cursor:
    'eyJ2IjoxLCJkIjoicjlKNllHZ1JTV2NsS2E3VyIsInAiOjEsImsiOlsxNzk1MTQ2NjA5MDAwLCJzb2NpYWxfbWVkaWFfYWNjb3VudC92ay8xMDAwNTkiXX0',
  pageNumber: 1,
  identifierId: 0,
  scope: 'tenant',
  query: { kind: 'none' },
  size: 10,
  offset: 0,
  sort: 'severity',
  apiHost: '127.0.0.1:40889',
  tenantId: 2001,
  events: [
    {
      event: {
        metadata: {
          uid: 'leak/dump/6',
          type: 'stealer_log',
          severity: 'critical',
          estimated_created_at: '2026-11-23T08:01:00.000Z',
          matched_at: '2026-11-23T08:01:00.000Z',
          flare_url: 'https://app.flare.io/#/feed/2001/event/leak%2Fdump%2F6',
        },
        tenant_metadata: { tags: [], remediated_at: null, ignored_at: null },
        identifiers: [{ id: 3001, name: 'acme.example' }],
        highlights: { title: ['Admin credentials 6'] },
      },
      generation: 0,
    },
  ],
  message: { channel: 'C0GENERAL', ts: '1795733519.000009', sharedBy: 'U0MEMBER1' },
};
