/** One open event of identifier 3001, as the services tests use it. */
import type { Event } from '../../../src/api/index.js';

export const event = (over: Partial<NonNullable<Event['tenant_metadata']>> = {}): Event => ({
  metadata: {
    uid: 'leak/combo/100001',
    type: 'leak',
    severity: 'high',
    estimated_created_at: '2026-11-20T10:00:00Z',
  },
  tenant_metadata: { ignored_at: null, remediated_at: null, ...over },
  identifiers: [{ id: 3001, name: 'acme.example' }],
  highlights: { title: ['Leak of <mark>acme.example</mark>'] },
});
