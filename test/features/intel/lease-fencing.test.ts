/**
 * The `intel-follow` lease under the failure of issue 38: an instance stalls while it holds the lease (its
 * heartbeat lapses), a peer takes the lease over and posts the report, then the stalled one resumes. Its
 * guarded writes carry its fencing token, which is no longer current: it posts nothing and leaves the peer's
 * work alone. Real stores (a SQLite file, a redis-server), two instances each with its own heartbeat.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z as zod } from 'zod';
import type { ReportRequestResult } from '../../../src/api/index.js';
import type { ApiAccess } from '../../../src/domain/workspace-api.js';
import { type IntelPoster, type IntelRecord, IntelService } from '../../../src/features/intel/service.js';
import { silentLogger } from '../../../src/kernel/logger.js';
import type { HeartbeatTimer } from '../../../src/store/backend/liveness.js';
import { openStore } from '../../../src/store/backend/open.js';
import type { Store } from '../../../src/store/backend/store.js';
import { createRepositories } from '../../../src/store/repos/repositories.js';
import { Sealer } from '../../../src/store/repos/sealing.js';
import { BACKENDS, useStoreFixture } from '../../store/support/backends.js';
import { until } from '../../support/until.js';

/** Seeding only: the service validates what it reads. */
const z = zod.any();
const DONE: ReportRequestResult = { status: 'completed', report: null, answeredBy: 'intel' };

/** A heartbeat beaten by hand (an instance that stalls simply is not beaten). */
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

/** The API as seen by one instance: each report lookup waits for `gate` when one is set. */
function apiOf(seen: { calls: number; gate?: Promise<void> }): ApiAccess {
  return {
    call: async (_workspaceId: string, fn: (api: unknown) => Promise<unknown>) =>
      fn({
        session: {
          getReportRequest: async () => {
            seen.calls++;
            await seen.gate;
            return DONE;
          },
        },
      }),
  } as unknown as ApiAccess;
}

describe.each(BACKENDS)('the intel-follow lease on %s', (kind) => {
  const fx = useStoreFixture(kind);
  const sealer = new Sealer(randomBytes(32));

  async function instance(host: string, api: ApiAccess) {
    const timer = handBeaten();
    const store: Store = await openStore(fx.url, {
      logger: silentLogger,
      cwd: fx.dir,
      clock: fx.clock,
      instanceName: host,
      heartbeat: { timer },
    });
    const repos = createRepositories(store, { clock: fx.clock, sealer });
    const intel = new IntelService({ api, repos, clock: fx.clock, logger: silentLogger, leases: store });
    return { store, timer, intel, repos };
  }

  const posts: string[] = [];
  const posterOf = (who: string): IntelPoster => ({
    async deliver(_w, record: IntelRecord) {
      posts.push(`${who}:${record.requestUuid}`);
    },
  });

  it('a holder stalled past its heartbeat resumes after a peer took over: the report is posted once', async () => {
    posts.length = 0;
    let resume = () => {};
    const apiA = { calls: 0, gate: new Promise<void>((r) => (resume = r)) };
    const a = await instance('host-a', apiOf(apiA));
    const b = await instance('host-b', apiOf({ calls: 0 }));
    const record: IntelRecord = {
      requestUuid: 'req-1',
      userId: 'U1',
      question: 'q',
      askedAt: fx.clock.now(),
      nextCheckAt: fx.clock.now(),
      checks: 0,
    };
    await a.repos.intelRequests(z).set('T1', 'req-1', record);

    const stalled = a.intel.followDue(posterOf('a'));
    await until('instance a inside its report lookup', () => apiA.calls === 1);
    // A stalls (its heartbeat is not beaten) past the heartbeat's 5 s; B keeps beating and takes over.
    fx.clock.advance(6_000);
    await b.timer.beat();
    await b.intel.followDue(posterOf('b'));
    expect(posts).toEqual(['b:req-1']);

    resume();
    await stalled;
    expect(posts).toEqual(['b:req-1']);
    // The stalled instance did not bring the posted request back either.
    expect(await b.repos.intelRequests(z).get('T1', 'req-1')).toBeUndefined();
  });
});
