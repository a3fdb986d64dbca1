import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Event } from '../../../../src/api/index.js';
import { ManualClock } from '../../../../src/clock.js';
import { ExpiredError } from '../../../../src/errors.js';
import { silentLogger } from '../../../../src/logger.js';
import { compactEvent } from '../../../../src/services/compact-event.js';
import {
  applyAction,
  claimKey,
  EventStateStore,
  intendedAction,
  isApplicable,
  reverseOf,
} from '../../../../src/services/event-state.js';
import {
  type EventsContext,
  EventsContextSchema,
  EventsContextStore,
  eventRef,
  parseRef,
  searchInputOf,
  storedSearchOf,
} from '../../../../src/services/events-context.js';
import { eventsCommandText } from '../../../../src/slack/features/events/command-text.js';
import { submittedQuery } from '../../../../src/slack/features/events/secret-modal.js';
import type { Command } from '../../../../src/slack/parser/index.js';
import { parseCommand } from '../../../../src/slack/parser/index.js';
import { createRepositories, openStore, Sealer, type Store } from '../../../../src/store/index.js';

const event = (over: Partial<NonNullable<Event['tenant_metadata']>> = {}): Event => ({
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

function baseContext(over: Partial<EventsContext> = {}): EventsContext {
  return {
    v: 1,
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

function eventsCommand(text: string): Extract<Command, { kind: 'events' }> {
  const parsed = parseCommand(text);
  if (!parsed.ok || parsed.command.kind !== 'events') throw new Error(`not an events command: ${text}`);
  return parsed.command;
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

describe('command text', () => {
  it.each([
    '/vigil events 3001',
    '/vigil events 3001 domain:acme.example severity:high since:7d',
    '/vigil events 3001 keyword:"acme corp" severity:high,critical type:leak,paste status:open,ignored',
    '/vigil events 3001 name:"Ada Lovelace" strict order:asc size:5',
    '/vigil events 3001 github:acme/website until:2026-11-01',
    '/vigil events 3001 query:"acme AND leak" tag:vip,finance since:24h',
  ])('round-trips %s', (text) => {
    const cmd = eventsCommand(text.replace('/vigil ', ''));
    const again = eventsCommandText(cmd);
    expect(again).toBe(text);
    expect(eventsCommand(again.replace('/vigil ', ''))).toEqual(cmd);
  });
});

describe('state transitions', () => {
  it('maps buttons to actions and Undo to the reverse of what the message shows', () => {
    const shown = { event: event(), generation: 1, acted: { action: 'ignore' as const, by: 'U1', at: 1 } };
    expect(intendedAction('event_ignore', shown)).toBe('ignore');
    expect(intendedAction('event_remediate', shown)).toBe('remediate');
    expect(intendedAction('event_undo', shown)).toBe('unignore');
    expect(intendedAction('event_undo', { event: event(), generation: 0 })).toBeUndefined();
    expect(intendedAction('event_explain', shown)).toBeUndefined();
    expect(reverseOf('remediate')).toBe('unremediate');
    expect(reverseOf('unignore')).toBe('ignore');
  });

  it('applies actions to the event shown, keeping the first ignore date', () => {
    const ignored = applyAction(event(), 'ignore', '2026-11-21T09:00:00.000Z');
    expect(ignored.tenant_metadata?.ignored_at).toBe('2026-11-21T09:00:00.000Z');
    expect(applyAction(ignored, 'ignore', '2027-01-01T00:00:00.000Z').tenant_metadata?.ignored_at).toBe(
      '2026-11-21T09:00:00.000Z',
    );
    expect(applyAction(ignored, 'unignore', 'x').tenant_metadata?.ignored_at).toBeNull();
    expect(isApplicable(event(), 'ignore')).toBe(true);
    expect(isApplicable(ignored, 'ignore')).toBe(false);
    expect(isApplicable(ignored, 'unignore')).toBe(true);
    expect(isApplicable(event(), 'unremediate')).toBe(false);
  });

  it('derives one claim key per workspace, event and generation', () => {
    const k = claimKey('T0001', 'leak/combo/1', 0);
    expect(claimKey('T0001', 'leak/combo/1', 0)).toBe(k);
    expect(
      new Set([
        k,
        claimKey('T0002', 'leak/combo/1', 0),
        claimKey('T0001', 'leak/combo/2', 0),
        claimKey('T0001', 'leak/combo/1', 1),
      ]).size,
    ).toBe(4);
    // Long uids with any character still give a short key.
    expect(claimKey('T0001', `source_code/github/${'a/'.repeat(500)}.env`, 3).length).toBeLessThan(80);
  });
});

describe('compact events', () => {
  it('masks the searched secret everywhere and bounds highlights', () => {
    const secret = 'AKIAABCDEF0123456789';
    const big: Event = {
      ...event(),
      highlights: {
        title: [`key ${secret} found`],
        description: Array.from({ length: 10 }, () => `${secret} ${'x'.repeat(5000)}`),
      },
    };
    const compact = compactEvent(big, [secret]);
    expect(JSON.stringify(compact)).not.toContain(secret);
    expect(compact.highlights?.description).toHaveLength(3);
    expect(compact.highlights?.description?.[0]?.length).toBeLessThanOrEqual(1000);
    expect(compact.highlights?.title?.[0]).toBe('key [redacted] found');
  });
});

describe('secret modal fields', () => {
  const v = (value: string) => ({ value: { type: 'plain_text_input', value } });
  it('needs every field and builds the query from them', () => {
    expect(submittedQuery('secret', { secret: v('  ') })).toEqual({
      errors: { secret: 'Enter the secret to search for.' },
    });
    expect(submittedQuery('secret', { secret: v(' AKIA1 ') })).toEqual({
      query: { type: 'secret', secret: 'AKIA1' },
    });
    expect(submittedQuery('credentials', { username: v('ada') })).toEqual({
      errors: { password: 'Enter the password.' },
    });
    expect(submittedQuery('credentials', { username: v('ada'), password: v('hunter2') })).toEqual({
      query: { type: 'credentials', username: 'ada', password: 'hunter2' },
    });
  });
});

describe('stores on SQLite', () => {
  let dir: string;
  let store: Store;
  let clock: ManualClock;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-events-'));
    store = await openStore(`sqlite://${join(dir, 'vigil.sqlite')}`, { logger: silentLogger });
    clock = new ManualClock();
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives a generation to exactly one of many concurrent claimers, and again after a release', async () => {
    const states = new EventStateStore(store);
    const wins = await Promise.all(Array.from({ length: 8 }, () => states.claim('T0001', 'leak/a/1', 0)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    await states.release('T0001', 'leak/a/1', 0);
    expect(await states.claim('T0001', 'leak/a/1', 0)).toBe(true);
    expect(await states.claim('T0001', 'leak/a/1', 1)).toBe(true);
  });

  it('records who acted and moves the generation on', async () => {
    const states = new EventStateStore(store);
    expect(await states.get('T0001', 'leak/a/1')).toEqual({ generation: 0 });
    await states.markActing('T0001', 'leak/a/1', 0, { action: 'ignore', by: 'U1', at: 5 });
    expect(await states.actingNow('T0001', 'leak/a/1', 0)).toEqual({ action: 'ignore', by: 'U1', at: 5 });
    await states.commit('T0001', 'leak/a/1', 0, { action: 'ignore', by: 'U1', at: 5 });
    expect(await states.get('T0001', 'leak/a/1')).toEqual({
      generation: 1,
      last: { action: 'ignore', by: 'U1', at: 5 },
    });
    expect(await states.actingNow('T0001', 'leak/a/1', 0)).toBeUndefined();
    expect(await states.get('T0002', 'leak/a/1')).toEqual({ generation: 0 });
  });

  it('loads a context only for its own workspace, and after expiry names the command to run again', async () => {
    const repos = createRepositories(store, { clock, sealer: new Sealer(randomBytes(32)) });
    const contexts = new EventsContextStore(repos, store);
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
