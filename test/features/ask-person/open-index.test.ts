/**
 * The index of open asks, on a real SQLite file and a real redis-server: a tick reads the asks that still
 * have work, not every ask kept for the cooldown. Reads are counted by a store that wraps the real one (every
 * `get` of the `ask-person` namespace); the asks are written through the feature's own records. A store
 * written before the index (no index, no list) is indexed from its records once; an id a crash left behind
 * is dropped; a second instance on the same store finds what the first opened.
 */
import { describe, expect, it } from 'vitest';
import { buildAskPerson } from '../../../src/features/ask-person/build.js';
import { type Ask, AskSchema } from '../../../src/features/ask-person/model.js';
import { AskRecords } from '../../../src/features/ask-person/records.js';
import type { AskPersonService } from '../../../src/features/ask-person/service.js';
import { silentLogger } from '../../../src/kernel/logger.js';
import type { Namespace, Store } from '../../../src/store/backend/store.js';
import { BACKENDS, useStoreFixture } from '../../store/support/backends.js';
import { reposFor } from '../../store/support/repos.js';

const WS = 'T0INDEX01';
const SETTINGS = { cooldownMs: 30 * 86_400_000, perHour: 50, escalateMs: 86_400_000 };
const KEEP = SETTINGS.cooldownMs + SETTINGS.escalateMs + 86_400_000;

/** The real store, every `get` of the asks' namespace noted (the key read). */
function counting(store: Store): { store: Store; reads: string[] } {
  const reads: string[] = [];
  const wrapped = new Proxy(store, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop !== 'namespace' || typeof value !== 'function') {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (name: string, format?: number) => {
        const ns: Namespace = target.namespace(name, format);
        if (name !== 'ask-person') return ns;
        return new Proxy(ns, {
          get(nsTarget, nsProp) {
            const member: unknown = Reflect.get(nsTarget, nsProp, nsTarget);
            if (nsProp === 'get')
              return (key: string) => {
                reads.push(key);
                return nsTarget.get(key);
              };
            return typeof member === 'function' ? member.bind(nsTarget) : member;
          },
        });
      };
    },
  });
  return { store: wrapped, reads };
}

/** An ask of `n`: answered and done (closed), or asked and waiting for its answer (open). */
function askOf(n: number, open: boolean, now: number): Ask {
  const id = `c${String(n).padStart(31, '0')}`;
  return {
    id,
    runId: `run${n}`,
    email: `person${n}@acme.example`,
    masked: 'p•••@acme.example',
    source: 'combolist',
    date: '2026-11-20',
    eventUid: `leaked_credential/combolist/${n}`,
    alert: {
      channelId: 'C0GENERAL',
      ts: '1.000100',
      subscriptionId: 'sub1',
      timeZone: 'UTC',
      users: [],
      groups: [],
    },
    createdAt: now,
    state: 'asked',
    userId: 'U0DANA001',
    dmChannel: 'D0DANA001',
    dmTs: `2.${n}`,
    sentAt: now,
    answers: open
      ? []
      : [{ kind: 'changed', at: now, post: { runId: `run${n}.a0`, state: 'posted', ts: `3.${n}` } }],
    row: open ? 'none' : 'changed',
  };
}

function serviceOn(store: Store): { service: AskPersonService; records: AskRecords } {
  const { repos, clock } = reposFor(store);
  const parts = {
    repo: repos.askPerson,
    openAsks: repos.openAsks,
    // No Slack call is due in these scenarios: one would fail the tick's work for the workspace loudly.
    bots: {
      forWorkspace: async (): Promise<never> => {
        throw new Error('no Slack here');
      },
    },
    scopes: { has: async () => true },
    identifiers: async () => [{ name: 'acme.example', kinds: ['domain'] }],
    audit: repos.audit,
    isAlive: async () => true,
    clock,
    logger: silentLogger,
    owner: 'test/1',
    settings: SETTINGS,
  };
  return {
    service: buildAskPerson(parts),
    records: new AskRecords(repos.askPerson, repos.openAsks, clock, KEEP),
  };
}

const MANY = 150;

describe.each(BACKENDS)('the index of open asks (%s)', (kind) => {
  const fixture = useStoreFixture(kind);

  it('a tick reads the one open ask of a workspace with many answered', async () => {
    const { store, reads } = counting(await fixture.open());
    const { service, records } = serviceOn(store);
    const now = fixture.clock.now();
    for (let n = 0; n < MANY; n++)
      await records.change(WS, askOf(n, false, now).id, () => askOf(n, false, now));
    const open = askOf(MANY, true, now);
    await records.change(WS, open.id, () => open);

    reads.length = 0;
    await service.tick();
    expect(reads).toEqual([`${WS}:${open.id}`, `${WS}:${open.id}`]);

    // Still working on it: once the escalation is due, the open ask is taken up (Slack is asked who left).
    reads.length = 0;
    fixture.clock.advance(SETTINGS.escalateMs + 1);
    const report = await service.tick();
    expect(report.escalated).toBe(0);
    expect(new Set(reads)).toEqual(new Set([`${WS}:${open.id}`]));
  });

  it('indexes a store written before the index from its records once, then reads only what is open', async () => {
    const { store, reads } = counting(await fixture.open());
    const { service } = serviceOn(store);
    const { repos } = reposFor(store);
    const raw = repos.askPerson(AskSchema);
    const now = fixture.clock.now();
    for (let n = 0; n < MANY; n++) await raw.set(WS, askOf(n, false, now).id, askOf(n, false, now), KEEP);
    const open = askOf(MANY, true, now);
    await raw.set(WS, open.id, open, KEEP);

    reads.length = 0;
    await service.tick();
    // The repair read every ask once.
    expect(new Set(reads).size).toBe(MANY + 1);
    expect(await repos.openAsks.open(WS)).toEqual([open.id]);
    expect(await repos.openAsks.workspaces()).toEqual([WS]);

    reads.length = 0;
    await service.tick();
    expect(new Set(reads)).toEqual(new Set([`${WS}:${open.id}`]));
  });

  it('a store from before the index: an ask closed before any tick leaves the others found', async () => {
    const { store, reads } = counting(await fixture.open());
    const { service, records } = serviceOn(store);
    const { repos } = reposFor(store);
    const raw = repos.askPerson(AskSchema);
    const now = fixture.clock.now();
    const [a, b] = [askOf(1, true, now), askOf(2, true, now)];
    await raw.set(WS, a.id, a, KEEP);
    await raw.set(WS, b.id, b, KEEP);
    // Answered and drawn (closed) by a click, before any tick made the index.
    await records.change(WS, a.id, (cur) => (cur === undefined ? undefined : askOf(1, false, now)));
    expect(await repos.openAsks.open(WS)).toBeUndefined();
    await service.tick();
    expect(await repos.openAsks.open(WS)).toEqual([b.id]);
    reads.length = 0;
    await service.tick();
    expect(new Set(reads)).toEqual(new Set([`${WS}:${b.id}`]));
  });

  it('drops an id a crash left behind, and unlists the workspace once nothing is open', async () => {
    const { store, reads } = counting(await fixture.open());
    const { service } = serviceOn(store);
    const { repos } = reposFor(store);
    const now = fixture.clock.now();
    const done = askOf(1, false, now);
    // Indexed, then the process died before writing its ask open: the record says it is closed.
    await repos.openAsks.change(WS, async () => [done.id]);
    await repos.askPerson(AskSchema).set(WS, done.id, done, KEEP);
    expect(await repos.openAsks.workspaces()).toEqual([WS]);

    await service.tick();
    expect(await repos.openAsks.open(WS)).toEqual([]);
    expect(await repos.openAsks.workspaces()).toEqual([]);
    reads.length = 0;
    await service.tick();
    expect(reads).toEqual([]);
  });

  it('is shared by two instances on one store: what one opens, the other finds', async () => {
    const first = serviceOn(await fixture.open());
    const counted = counting(await fixture.open());
    const second = serviceOn(counted.store);
    const now = fixture.clock.now();
    // Answered, then answered again by another kind: it opens again (a reply is owed), on the first.
    const ask = askOf(7, false, now);
    await first.records.change(WS, ask.id, () => ask);
    expect(await reposFor(counted.store).repos.openAsks.open(WS)).toBeUndefined();
    await first.records.change(WS, ask.id, (cur) =>
      cur === undefined
        ? undefined
        : {
            ...cur,
            answers: [
              ...cur.answers,
              { kind: 'help', at: now, post: { runId: 'run7.a1', state: 'pending' } },
            ],
          },
    );
    counted.reads.length = 0;
    const report = await second.service.tick();
    // Read and taken up: its reply is tried (Slack is unreachable here, so it stays owed and open).
    expect(new Set(counted.reads)).toEqual(new Set([`${WS}:${ask.id}`]));
    expect(report.replies).toBe(0);
    expect(await reposFor(counted.store).repos.openAsks.open(WS)).toEqual([ask.id]);
  });
});
