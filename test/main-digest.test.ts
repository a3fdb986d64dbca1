import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimApi, startSimApi } from '../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_BOT_TOKEN,
  DEFAULT_TEAM_ID,
  type FakeSlack,
  SEEDED_CHANNELS,
  startFakeSlack,
} from '../packages/playground/src/sim/slack/index.js';
import { silentLogger } from '../src/kernel/logger.js';
import { createRepositories, openStore, Sealer } from '../src/store/index.js';
import { ManualClock } from './support/manual-clock.js';
import { guardSlackContract } from './support/slack-contract.js';
import { runVigil, waitForLine } from './support/vigil-process.js';

let sim: SimApi;
let slack: FakeSlack;
let dir: string;

beforeAll(async () => {
  sim = await startSimApi({ emptyPageEvery: 0 });
  slack = guardSlackContract(await startFakeSlack());
  dir = await mkdtemp(join(tmpdir(), 'vigil-digest-main-'));
});

afterAll(async () => {
  await Promise.allSettled([sim?.close(), slack?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const digests = () =>
  slack
    .messages(SEEDED_CHANNELS.general)
    .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_digest');

describe('digests in the vigil process', () => {
  it('posts a due digest from the real scheduler, and a SIGKILL right after posting posts it at most once more', async () => {
    const storeUrl = `sqlite://${join(dir, 'vigil.sqlite')}`;
    const key = sim.keys[0];
    if (!key) throw new Error('no simulated key');
    // Events of the last hour, and a subscription created two hours ago for the current minute (UTC).
    const now = Date.now();
    for (let i = 0; i < 3; i++) {
      sim.state.addEvent({
        tenantId: key.defaultTenantId,
        identifierIds: [3001],
        createdAt: now - 30 * 60_000 + i,
        severity: 'high',
        uid: `leak/main_digest/${i}`,
      });
    }
    const seeding = await openStore(storeUrl, { logger: silentLogger });
    const repos = createRepositories(seeding, {
      clock: new ManualClock(now - 2 * 3600_000),
      sealer: new Sealer(randomBytes(32)),
    });
    const sub = await repos.digestSubscriptions.add({
      teamId: DEFAULT_TEAM_ID,
      channelId: SEEDED_CHANNELS.general,
      identifierIds: [3001],
      severity: 'info',
      types: [],
      timeOfDay: new Date(now).toISOString().slice(11, 16),
      timeZone: 'UTC',
      weekdaysOnly: false,
      skipEmpty: false,
      createdBy: 'U0ADMIN01',
    });
    await seeding.close();

    const env = {
      SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
      SLACK_SIGNING_SECRET: 'digest-main-signing-secret-0123456789',
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      VIGIL_STORE: storeUrl,
      VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      VIGIL_API_URL: sim.url,
      VIGIL_API_KEY: key.apiKey,
      VIGIL_TENANT_ID: String(key.defaultTenantId),
      VIGIL_DIGEST_TICK_MS: '1000',
      LOG_LEVEL: 'info',
    };
    const first = runVigil(env);
    try {
      await waitForLine(first.stdout, /"vigil started"/);
      await slack.waitFor((c) => c.method === 'chat.postMessage', 20_000);
      first.child.kill('SIGKILL');
      await first.exited;
    } finally {
      first.child.kill('SIGKILL');
    }
    expect(digests()).toHaveLength(1);

    const second = runVigil(env);
    try {
      await waitForLine(second.stdout, /"vigil started"/);
      // The restarted process finishes the run from its own outbox.
      const reopened = async () => {
        const store = await openStore(storeUrl, { logger: silentLogger });
        try {
          const r = createRepositories(store, {
            clock: new ManualClock(Date.now()),
            sealer: new Sealer(randomBytes(32)),
          });
          return {
            outbox: await r.digestOutbox.get(DEFAULT_TEAM_ID, sub.id),
            sub: await r.digestSubscriptions.get(sub.id),
          };
        } finally {
          await store.close();
        }
      };
      await expect
        .poll(async () => (await reopened()).sub?.lastPostedDay, { timeout: 15_000, interval: 500 })
        .toBe(new Date(now).toISOString().slice(0, 10));
      // Killed once Slack took the post: when the outbox had not recorded it yet, the restart cannot know
      // without reading the channel (a rationed API, issue 43) and posts it once more; then never again.
      await new Promise((r) => setTimeout(r, 2500));
      expect(digests().length).toBeLessThanOrEqual(2);
      expect((await reopened()).outbox?.last?.ts).toBe(digests().at(-1)?.ts);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      second.child.kill('SIGKILL');
    }
  }, 60_000);
});
