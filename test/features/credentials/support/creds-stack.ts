/** The shared end-to-end stack for the credentials tests, and what they read from it. */

import type { SimCredential } from '../../../../packages/playground/src/sim/api/types.js';
import type { Clock } from '../../../../src/kernel/clock.js';
import { type Stack, startStack } from '../../../support/stack.js';

export function startCredsStack(opts: { clock?: Clock; emptyPageEvery?: number; quota?: number } = {}) {
  return startStack({
    sim: {
      emptyPageEvery: opts.emptyPageEvery ?? 0,
      ...(opts.quota === undefined ? {} : { initialSearchQuota: opts.quota }),
    },
    ...(opts.clock ? { clock: opts.clock } : {}),
    // The tests search as a plain member: `creds` is opened to everyone, as an admin would.
    open: ['creds'],
  });
}

/** Bodies of the credentials searches the simulated API received, in order. */
export function credsBodies(stack: Stack): Record<string, unknown>[] {
  return stack.sim.log.entries
    .filter((e) => e.path.endsWith('/v4/credentials/global/_search'))
    .map((e) => e.body as Record<string, unknown>);
}

let nextId = 70_000_000;

/** Adds a credential to the simulated API's data; returns it. */
export function addCredential(
  stack: Stack,
  c: Partial<SimCredential> & { identity_name: string },
): SimCredential {
  const full: SimCredential = {
    id: nextId++,
    domain: c.identity_name.split('@')[1] ?? null,
    source_id: 'test_source',
    imported_at: new Date(stack.clock.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    hash: 'Sup3r-Secret-Value-0001',
    hash_type: null,
    source: {
      id: 'test_source',
      name: 'Test combo list',
      description_en: null,
      description_fr: null,
      breached_at: null,
      leaked_at: '2026-01-02T00:00:00+00:00',
      is_alert_enabled: false,
      pii_tags: null,
      url: null,
    },
    known_password_id: null,
    credential_hash: null,
    event_uid: null,
    auth_domains: [],
    urls: [],
    ...c,
  };
  stack.sim.state.credentials.push(full);
  return full;
}
