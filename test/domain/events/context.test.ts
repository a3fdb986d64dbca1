/** The events search context: button values, what is stored (never a secret), loading and expiry. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type EventsContextOf,
  EventsContextSchema,
  EventsContextStore,
  eventRef,
  parseRef,
  searchInputOf,
  storedSearchOf,
} from '../../../src/domain/events/context.js';
import { ExpiredError } from '../../../src/kernel/errors.js';
import { silentLogger } from '../../../src/kernel/logger.js';
import { createRepositories, openStore, Sealer, type Store } from '../../../src/store/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { event } from '../../support/services/event.js';
import { V1_ALERT, V1_ALERT_CLICKED, V1_DIGEST, V1_REST_PAGE, V1_TENANT_SEARCH } from './v1-contexts.js';

function baseContext(over: Partial<EventsContextOf<'search'>> = {}): EventsContextOf<'search'> {
  return {
    v: 2,
    kind: 'search',
    workspaceId: 'T0001',
    userId: 'U0MEMBER1',
    channelId: 'C0GENERAL',
    commandText: '/vigil events 3001 severity:high',
    identifierId: 3001,
    query: { kind: 'none' },
    pageNumber: 1,
    events: [{ event: event(), generation: 0 }],
    ...over,
  };
}

describe('button values', () => {
  it('are the context id and an index, and nothing else parses', () => {
    const id = 'abcdefGHIJ_-';
    expect(eventRef(id, 3)).toBe('abcdefGHIJ_-:3');
    expect(parseRef(eventRef(id, 3))).toEqual({ ctxId: id, index: 3 });
    expect(parseRef(id)).toEqual({ ctxId: id, index: undefined });
    for (const bad of ['', 'short:1', `${id}:x`, `${id}:123`, `${id}:1:2`, '../../etc:1', 42, undefined]) {
      expect(parseRef(bad)).toBeUndefined();
    }
  });
});

describe('search context schema', () => {
  it('accepts a context and refuses a stored secret of either kind', () => {
    expect(EventsContextSchema.safeParse(baseContext()).success).toBe(true);
    const secret = baseContext({ query: { kind: 'text', query: { type: 'secret', secret: 'AKIA0000' } } });
    expect(EventsContextSchema.safeParse(secret).success).toBe(false);
    const creds = baseContext({
      query: { kind: 'text', query: { type: 'credentials', username: 'u', password: 'p' } },
    });
    expect(EventsContextSchema.safeParse(creds).success).toBe(false);
  });

  it('stores a secret search as a marker only, and never the cursor', () => {
    const stored = storedSearchOf({
      identifierId: 3001,
      query: { type: 'secret', secret: 'AKIA1234567890' },
      size: 10,
      from: 'cursor-1',
    });
    expect(stored).toEqual({ identifierId: 3001, query: { kind: 'withheld', type: 'secret' }, size: 10 });
    expect(JSON.stringify(stored)).not.toContain('AKIA');
  });

  it('gives back exactly the input it stored (every parameter but from)', () => {
    const input = {
      identifierId: 3001,
      query: { type: 'domain' as const, fqdn: 'acme.example' },
      filters: {
        severity: ['high' as const, 'critical' as const],
        estimated_created_at: { gte: '2026-11-01T00:00:00Z' },
      },
      order: 'asc' as const,
      size: 5,
    };
    const ctx = baseContext(storedSearchOf({ ...input, from: 'c1' }));
    expect(searchInputOf(ctx)).toEqual(input);
  });
});

describe('stored contexts on SQLite', () => {
  let dir: string;
  let store: Store;
  let clock: ManualClock;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-events-'));
    clock = new ManualClock();
    store = await openStore(`sqlite://${join(dir, 'vigil.sqlite')}`, { logger: silentLogger, clock });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads a context only for its own workspace, and after expiry names the command to run again', async () => {
    const repos = createRepositories(store, { clock, sealer: new Sealer(randomBytes(32)) });
    const contexts = new EventsContextStore(repos);
    const id = await contexts.save(baseContext());
    expect((await contexts.load(id, 'T0001')).commandText).toBe('/vigil events 3001 severity:high');
    await expect(contexts.load(id, 'T0OTHER')).rejects.toBeInstanceOf(ExpiredError);
    clock.advance(24 * 3600 * 1000 + 1);
    const err = await contexts.load(id, 'T0001').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExpiredError);
    expect((err as ExpiredError).hint).toBe(
      'Run `/vigil events 3001 severity:high` again for fresh results.',
    );
    const unknown = await contexts.load('AAAAAAAAAAAA', 'T0001').catch((e: unknown) => e);
    expect((unknown as ExpiredError).hint).toContain('/vigil events <identifier-id>');
  });
});

describe('contexts stored before they had kinds (v: 1)', () => {
  let dir: string;
  let store: Store;
  const clock = new ManualClock();

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-events-v1-'));
    store = await openStore(`sqlite://${join(dir, 'vigil.sqlite')}`, { logger: silentLogger, clock });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The records as they are in the store: written as they were, read back as they are. */
  function stored() {
    const repos = createRepositories(store, { clock, sealer: new Sealer(randomBytes(32)) });
    const raw = repos.searchContexts(z.looseObject({ workspaceId: z.string() }));
    return { contexts: new EventsContextStore(repos), raw };
  }

  it('reads an alert and a digest as their kind, with their heading and none of the made-up search', async () => {
    const { contexts, raw } = stored();
    for (const [record, kind, heading] of [
      [V1_ALERT, 'alert', V1_ALERT.alert],
      [V1_ALERT_CLICKED, 'alert', V1_ALERT_CLICKED.alert],
      [V1_DIGEST, 'digest', V1_DIGEST.digest],
    ] as const) {
      const ctx = await contexts.load(await raw.save(record), 'T0001');
      expect(ctx).toMatchObject({ v: 2, kind, heading, tenantId: 2001, events: record.events });
      expect(ctx).not.toHaveProperty('identifierId');
      expect(ctx).not.toHaveProperty('query');
      expect(ctx).not.toHaveProperty(kind);
    }
    const clicked = await contexts.load(await raw.save(V1_ALERT_CLICKED), 'T0001');
    expect(clicked.message).toEqual(V1_ALERT_CLICKED.message);
  });

  it('reads a search and a page of "+N more" as results, every field kept', async () => {
    const { contexts, raw } = stored();
    for (const record of [V1_TENANT_SEARCH, V1_REST_PAGE]) {
      const ctx = await contexts.load(await raw.save(record), 'T0001');
      expect(ctx).toEqual({ ...record, v: 2, kind: 'search' });
    }
  });

  it("stores today's shape once a click saves it again", async () => {
    const { contexts, raw } = stored();
    const id = await contexts.save(await contexts.load(await raw.save(V1_DIGEST), 'T0001'));
    const again = await raw.get(id);
    expect(again).toMatchObject({ v: 2, kind: 'digest', heading: V1_DIGEST.digest });
    expect(again).not.toHaveProperty('digest');
  });
});
