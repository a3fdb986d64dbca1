/**
 * Redis going away under the alert poll queue, as operators run Vigil (one process, a real redis-server
 * stopped and started again): the store's outage log says so once when it starts and once when it ends, and
 * the queue adds nothing above debug: no error line, no stack trace, nothing on stderr (ioredis prints an
 * unhandled connection error there itself). The waits are on the process's own log lines.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimApi, startSimApi } from '../../../../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  type FakeSlack,
  startFakeSlack,
} from '../../../../packages/playground/src/sim/slack/index.js';
import { systemClock } from '../../../../src/kernel/clock.js';
import { silentLogger } from '../../../../src/kernel/logger.js';
import { createRepositories, openStore, Sealer } from '../../../../src/store/index.js';
import { type RedisServer, startRedisServer } from '../../../store/support/redis-server.js';
import { seedWorkspace } from '../../../support/seed-workspace.js';
import { until } from '../../../support/until.js';
import { runVigil, type VigilProcess, waitForLine } from '../../../support/vigil-process.js';

let redis: RedisServer;
let sim: SimApi;
let slack: FakeSlack;
let vigil: VigilProcess;
const key = randomBytes(32);

beforeAll(async () => {
  [redis, sim, slack] = await Promise.all([
    startRedisServer(),
    startSimApi({ emptyPageEvery: 0 }),
    startFakeSlack(),
  ]);
  const { key: apiKey } = sim.state.addOrganization({ name: 'Outage' });
  const store = await openStore(redis.url, { logger: silentLogger });
  try {
    const repos = createRepositories(store, { clock: systemClock, sealer: new Sealer(key) });
    slack.addTeam({ teamId: 'TOUT', botToken: 'xoxb-outage', botUserId: 'UOUTB', name: 'Outage' });
    slack.addChannel({ id: 'COUT', name: 'alerts', team_id: 'TOUT', is_member: true });
    await seedWorkspace(repos, {
      teamId: 'TOUT',
      botToken: 'xoxb-outage',
      botUserId: 'UOUTB',
      botId: 'BOUT',
      adminId: 'UOUTA',
      apiHost: new URL(sim.url).host,
      key: apiKey,
      tenantId: apiKey.defaultTenantId,
      tenantName: 'Outage',
    });
    await repos.alertSubscriptions.add({
      teamId: 'TOUT',
      channelId: 'COUT',
      identifierIds: 'all',
      severity: 'high',
      types: [],
      hold: 'noncritical',
      timeZone: 'UTC',
      createdBy: 'UOUTA',
      startAt: systemClock.now(),
    });
  } finally {
    await store.close();
  }
  vigil = runVigil({
    SLACK_SIGNING_SECRET: 'outage-test-signing-secret-0123456789',
    SLACK_CLIENT_ID: DEFAULT_CLIENT_ID,
    SLACK_CLIENT_SECRET: DEFAULT_CLIENT_SECRET,
    SLACK_STATE_SECRET: 'outage-test-state-secret-0123456789',
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    VIGIL_STORE: redis.url,
    VIGIL_ENCRYPTION_KEY: key.toString('base64'),
    VIGIL_API_URL: sim.url,
    VIGIL_API_ALLOWED_HOSTS: new URL(sim.url).hostname,
    VIGIL_ALERT_POLL_MS: '2000',
    LOG_LEVEL: 'info',
  });
  await waitForLine(vigil.stdout, /"vigil started"/, 60_000);
}, 90_000);

afterAll(async () => {
  vigil?.child.kill('SIGKILL');
  await Promise.allSettled([sim?.close(), slack?.close()]);
  await redis?.stop();
});

describe('the alert poll queue through a Redis outage', () => {
  it('leaves the telling to the store: one line when it starts, one when it ends, no error or stack', async () => {
    // The queue is at work first: the workspace's feed is read.
    await until('a feed search', () => sim.log.entries.some((e) => e.path.endsWith('/_search')), 30_000, 50);
    const from = vigil.stdout.length;
    await redis.stop();
    await waitForLine(vigil.stdout, /"store unavailable: operations fail until it answers again"/, 30_000);
    await redis.restart();
    await waitForLine(vigil.stdout, /"store available again"/, 30_000);
    const lines = vigil.stdout.slice(from);
    expect(lines.filter((l) => /"level":"error"/.test(l))).toEqual([]);
    expect(lines.filter((l) => /alert queue|\\n\s+at /.test(l))).toEqual([]);
    expect(vigil.stderr).toEqual([]);
    expect(vigil.child.exitCode).toBeNull();
  }, 90_000);
});
