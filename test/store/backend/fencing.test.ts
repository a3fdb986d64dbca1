/**
 * Leases under the classic failures (issue 38): a takeover of a dead holder is one compare-and-set, so two
 * instances racing for it never both win; every holding has a fencing token, and a write the lease guards is
 * refused once the token is no longer current: after the holder was stopped (SIGSTOP, a real process) past
 * its lease, after the store froze, and both at once. Real stores: a SQLite file and a redis-server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { silentLogger } from '../../../src/kernel/logger.js';
import { LeaseLostError, StoreUnavailableError } from '../../../src/store/backend/errors.js';
import { HEARTBEAT_TTL_MS, type HeartbeatTimer } from '../../../src/store/backend/liveness.js';
import { openStore } from '../../../src/store/backend/open.js';
import type { AnswerBound } from '../../../src/store/backend/outage.js';
import type { Lease, Store } from '../../../src/store/backend/store.js';
import { WorkspaceRecordRepo } from '../../../src/store/repos/workspace-record-repo.js';
import { ManualTimers } from '../../support/manual-timers.js';
import { until } from '../../support/until.js';
import { BACKENDS, type StoreFixture, sqlite, useStoreFixture, writeRaw } from '../support/backends.js';

const ROUNDS = 40;
const LEASE_MS = 60_000;
const BOUND_MS = 2_000;

/** A heartbeat beaten by hand: an instance that is not beaten has stalled. */
function handBeaten(): HeartbeatTimer & { beat(): Promise<void> } {
  const beats: Array<() => Promise<void>> = [];
  return {
    every(_ms, fn) {
      beats.push(fn);
      return { cancel: () => beats.splice(beats.indexOf(fn), 1) };
    },
    async beat() {
      await Promise.all(beats.map((fn) => fn()));
    },
  };
}

async function instance(fx: StoreFixture, host: string, answerBound?: AnswerBound) {
  const timer = handBeaten();
  const store: Store = await openStore(fx.url, {
    logger: silentLogger,
    cwd: fx.dir,
    clock: fx.clock,
    instanceName: host,
    heartbeat: { timer },
    ...(answerBound ? { answerBound } : {}),
  });
  return { store, timer, records: store.namespace('fenced') };
}

/** The lease holder of lease-holder-process.ts, in a process of its own; its output read line by line. */
function holderProcess(fx: StoreFixture, key: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'test/store/support/lease-holder-process.ts',
      fx.url,
      fx.dir,
      String(fx.clock.now()),
      key,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  if (child.stdout) createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  return {
    pid: child.pid ?? 0,
    send: (line: string) => child.stdin?.write(`${line}\n`),
    /** The next line it prints (a bounded wait for a real process). */
    next: () => until('the holder process to answer', () => lines.shift()),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

const started: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  for (const child of started.splice(0)) await child.stop();
});

describe.each(BACKENDS)('lease takeover and fencing on %s', (kind) => {
  const fx = useStoreFixture(kind);

  it(`two instances taking over a dead holder's lease at once: exactly one wins, in each of ${ROUNDS} rounds`, async () => {
    const dead = await instance(fx, 'host-dead');
    const a = await instance(fx, 'host-a');
    const b = await instance(fx, 'host-b');
    let lastToken = 0;
    const wins = { a: 0, b: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const key = `job:${round}`;
      await dead.timer.beat();
      const held = (await dead.store.lease(key, LEASE_MS)) as Lease;
      expect(held.token).toBeGreaterThan(lastToken);
      // The holder stops beating: its heartbeat lapses, its lease (60 s) has not run out.
      fx.clock.advance(HEARTBEAT_TTL_MS);
      await Promise.all([a.timer.beat(), b.timer.beat()]);
      const [byA, byB] = await Promise.all([a.store.lease(key, LEASE_MS), b.store.lease(key, LEASE_MS)]);
      const won = [byA, byB].filter((lease) => lease !== undefined);
      expect(won, `round ${round}`).toHaveLength(1);
      const [winner] = won as [Lease];
      if (byA) wins.a++;
      else wins.b++;
      expect(winner.token).toBeGreaterThan(held.token);
      // The dead holder's guarded write is refused; the winner's is done.
      expect(await dead.records.setFenced(held.fence, key, 'dead')).toBe(false);
      expect(await (byA ? a : b).records.setFenced(winner.fence, key, 'winner')).toBe(true);
      expect(await a.records.get(key)).toBe('winner');
      lastToken = winner.token;
    }
    expect(wins.a + wins.b).toBe(ROUNDS);
  });

  it('reads the claims of release 0.1.0 (no token): held while their holder lives, taken over once it is gone', async () => {
    const expiresAt = fx.clock.now() + LEASE_MS;
    // A holder on another host (alive for all this host can tell), and one of this host whose process is gone.
    const claims = [
      ['vigil:lease:old-live', `${expiresAt}|host-z/1#n1`],
      ['vigil:lease:old-gone', `${expiresAt}|host-a/2000000000#n2`],
    ] as const;
    if (kind === 'redis') for (const [key, raw] of claims) await writeRaw(fx, kind, key, raw);
    else {
      const file = join(fx.dir, 'vigil.sqlite');
      await sqlite(
        file,
        'CREATE TABLE vigil_claims (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL)',
      );
      for (const [key, raw] of claims) {
        const [exp, owner] = raw.split('|');
        await sqlite(file, 'INSERT INTO vigil_claims VALUES (?, ?, ?)', [
          key.slice('vigil:'.length),
          owner,
          Number(exp),
        ]);
      }
    }
    const a = await instance(fx, 'host-a');
    expect(await a.store.lease('old-live', LEASE_MS)).toBeUndefined();
    const taken = (await a.store.lease('old-gone', LEASE_MS)) as Lease;
    expect(taken.token).toBeGreaterThan(0);
    expect(await a.records.setFenced(taken.fence, 'result', 'taken')).toBe(true);
    // The live holder's claim keeps its term: once that runs out it is free.
    fx.clock.advance(LEASE_MS);
    expect(await a.store.lease('old-live', LEASE_MS)).toBeDefined();
  });

  it("a lock holder stalled inside a read-modify-write past its heartbeat: the successor's update stands", async () => {
    const a = await instance(fx, 'host-a');
    const b = await instance(fx, 'host-b');
    const Cursor = z.object({ n: z.number(), by: z.string() });
    const [cursorA, cursorB] = [a, b].map((i) => new WorkspaceRecordRepo(i.store, 'intel-request', Cursor));
    if (!cursorA || !cursorB) throw new Error('two repositories');
    await cursorA.set('T1', 'cursor', { n: 1, by: 'seed' });
    let resume = () => {};
    const gate = new Promise<void>((r) => (resume = r));
    let inside = false;
    const stalled = cursorA
      .update('T1', 'cursor', async (current) => {
        inside = true;
        await gate;
        return { n: (current?.n ?? 0) + 1, by: 'a' };
      })
      .catch((err: unknown) => err);
    await until('instance a inside its update', () => inside);
    // A stalls inside the lock past its heartbeat: B takes the lock over and moves the cursor on.
    fx.clock.advance(HEARTBEAT_TTL_MS);
    await b.timer.beat();
    await cursorB.update('T1', 'cursor', (current) => ({ n: (current?.n ?? 0) + 10, by: 'b' }));
    resume();
    expect(await stalled).toBeInstanceOf(LeaseLostError);
    expect(await cursorB.get('T1', 'cursor')).toEqual({ n: 11, by: 'b' });
  });

  it('a holder stopped (SIGSTOP) past its heartbeat resumes after its lease was taken over: its write is refused', async () => {
    const paused = holderProcess(fx, 'paused-job');
    started.push(paused);
    const token = Number((await paused.next()).split(' ')[1]);
    expect(token).toBeGreaterThan(0);

    process.kill(paused.pid, 'SIGSTOP');
    fx.clock.advance(HEARTBEAT_TTL_MS);
    const b = await instance(fx, 'host-b');
    const taken = (await b.store.lease('paused-job', LEASE_MS)) as Lease;
    expect(taken.token).toBeGreaterThan(token);
    expect(await b.records.setFenced(taken.fence, 'result', 'successor')).toBe(true);

    // Read by the stopped process on resume, as a stalled loop would go on with its next write.
    paused.send(`now ${fx.clock.now()}`);
    paused.send('write stale');
    process.kill(paused.pid, 'SIGCONT');
    expect(await paused.next()).toBe('refused');
    expect(await b.records.get('result')).toBe('successor');
  });

  it('a holder stopped and not taken over writes on resume: the fence refuses only a lost lease', async () => {
    const paused = holderProcess(fx, 'slow-job');
    started.push(paused);
    await paused.next();
    process.kill(paused.pid, 'SIGSTOP');
    // Stopped past its heartbeat, but nobody asked for its lease meanwhile: it is still the holder.
    fx.clock.advance(HEARTBEAT_TTL_MS);
    paused.send(`now ${fx.clock.now()}`);
    paused.send('write late');
    process.kill(paused.pid, 'SIGCONT');
    expect(await paused.next()).toBe('written');
    const b = await instance(fx, 'host-b');
    expect(await b.records.get('result')).toBe('late');
  });
});

describe('lease takeover when the store freezes (redis)', () => {
  const fx = useStoreFixture('redis');

  it('a frozen store hands the lease to nobody; after it thaws the holder that stalled through it is refused', async () => {
    const timers = new ManualTimers(fx.clock);
    const bound = { ms: BOUND_MS, sleep: timers.sleep };
    const a = await instance(fx, 'host-a', bound);
    const b = await instance(fx, 'host-b', bound);
    const held = (await a.store.lease('job', LEASE_MS)) as Lease;
    const redis = fx.redis;
    if (!redis) throw new Error('redis-server not started');

    redis.freeze();
    // B's takeover is not answered: it fails once its bound passes, and nobody has the lease but A.
    const attempt = b.store.lease('job', LEASE_MS).catch((err: unknown) => err);
    await until('the takeover waiting on its bound', () => timers.pending === 1);
    await timers.advance(HEARTBEAT_TTL_MS);
    expect(await attempt).toBeInstanceOf(StoreUnavailableError);
    redis.thaw();

    // B beats again; A stalled through the freeze and has not: its heartbeat lapsed.
    await until('redis answering again', () =>
      b.store.ping().then(
        () => true,
        () => false,
      ),
    );
    await b.timer.beat();
    const taken = (await b.store.lease('job', LEASE_MS)) as Lease;
    expect(taken.token).toBeGreaterThan(held.token);
    expect(await a.records.setFenced(held.fence, 'result', 'stalled')).toBe(false);
    expect(await b.records.setFenced(taken.fence, 'result', 'successor')).toBe(true);
    expect(await a.records.get('result')).toBe('successor');
  });

  it('both at once: the holder is stopped (SIGSTOP) while the store is frozen, and resumes after the takeover', async () => {
    const timers = new ManualTimers(fx.clock);
    const b = await instance(fx, 'host-b', { ms: BOUND_MS, sleep: timers.sleep });
    const paused = holderProcess(fx, 'job');
    started.push(paused);
    const token = Number((await paused.next()).split(' ')[1]);
    const redis = fx.redis;
    if (!redis) throw new Error('redis-server not started');

    process.kill(paused.pid, 'SIGSTOP');
    redis.freeze();
    fx.clock.advance(HEARTBEAT_TTL_MS);
    const attempt = b.store.lease('job', LEASE_MS).catch((err: unknown) => err);
    await until('the takeover waiting on its bound', () => timers.pending === 1);
    await timers.advance(BOUND_MS);
    expect(await attempt).toBeInstanceOf(StoreUnavailableError);
    redis.thaw();

    await until('redis answering again', () =>
      b.store.ping().then(
        () => true,
        () => false,
      ),
    );
    await b.timer.beat();
    const taken = (await b.store.lease('job', LEASE_MS)) as Lease;
    expect(taken.token).toBeGreaterThan(token);
    expect(await b.records.setFenced(taken.fence, 'result', 'successor')).toBe(true);

    paused.send(`now ${fx.clock.now()}`);
    paused.send('write stale');
    process.kill(paused.pid, 'SIGCONT');
    expect(await paused.next()).toBe('refused');
    expect(await b.records.get('result')).toBe('successor');
  });
});
