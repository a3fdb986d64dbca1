/**
 * Token rotation with two instances on one Redis: each has its own store connection and its own
 * @slack/oauth InstallProvider, as two Vigil processes would. The bot token expires within the provider's
 * two-hour window, so both want to refresh it at once. The fake Slack exchanges a refresh token once only.
 */
import { randomBytes } from 'node:crypto';
import { InstallProvider } from '@slack/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  type FakeSlack,
  startFakeSlack,
} from '../../packages/playground/src/sim/slack/index.js';
import { systemClock } from '../../src/kernel/clock.js';
import { silentLogger } from '../../src/kernel/logger.js';
import { toBoltLogger } from '../../src/slack/bolt-logger.js';
import { rotationDue, rotationSafeAuthorization } from '../../src/slack/token-rotation.js';
import { InstallationRepo, openStore, Sealer, type Store } from '../../src/store/index.js';
import { type RedisServer, startRedisServer } from '../store/support/redis-server.js';

const TEAM = 'T0ROTATE1';
const sealer = new Sealer(randomBytes(32));
let redis: RedisServer;
let slack: FakeSlack;
const stores: Store[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  slack = await startFakeSlack();
});
afterAll(async () => {
  for (const s of stores) await s.close().catch(() => {});
  await Promise.allSettled([redis?.stop(), slack?.close()]);
});

async function instance() {
  const store = await openStore(redis.url, { logger: silentLogger });
  stores.push(store);
  const installations = new InstallationRepo(store, systemClock, sealer);
  const rotation = rotationSafeAuthorization({ installations, store, clock: systemClock });
  const provider = (installationStore: InstallProvider['installationStore']) =>
    new InstallProvider({
      clientId: DEFAULT_CLIENT_ID,
      clientSecret: DEFAULT_CLIENT_SECRET,
      stateSecret: 'rotation-state-secret-0123456789',
      installationStore,
      logger: toBoltLogger(silentLogger),
      clientOptions: { slackApiUrl: slack.apiUrl },
    });
  const locked = provider(rotation.installationStore);
  return {
    installations,
    /** Vigil's authorize: refreshes under the store lock. */
    authorize: rotation.authorizeWith(locked),
    /** The provider on its own, as before. */
    unlocked: provider(installations),
  };
}

/** Installs the team with a bot token expiring in 30 minutes and a refresh token the fake will honour. */
async function installExpiring(repo: InstallationRepo): Promise<string> {
  const botToken = `xoxe.xoxb-ROTATE1-${randomBytes(4).toString('hex')}`;
  slack.addTeam({ teamId: TEAM, botToken, botUserId: 'U0BOTROT1' });
  await repo.storeInstallation({
    team: { id: TEAM },
    enterprise: undefined,
    isEnterpriseInstall: false,
    user: { id: 'U0ADMIN01', token: undefined, scopes: undefined },
    bot: {
      token: botToken,
      refreshToken: slack.issueRefreshToken(TEAM),
      expiresAt: Math.floor(Date.now() / 1000) + 30 * 60,
      scopes: ['commands', 'chat:write'],
      id: 'B0ROTATE1',
      userId: 'U0BOTROT1',
    },
    authVersion: 'v2',
  } as never);
  return botToken;
}

const query = { teamId: TEAM, enterpriseId: undefined, isEnterpriseInstall: false };
const refreshes = () =>
  slack.calls.filter((c) => c.method === 'oauth.v2.access' && c.body.grant_type === 'refresh_token');

describe('token rotation with two instances', () => {
  it('without a lock the two instances exchange one refresh token twice (the race)', async () => {
    const [a, b] = [await instance(), await instance()];
    const old = await installExpiring(a.installations);
    const before = refreshes().length;
    const [ra, rb] = await Promise.all([a.unlocked.authorize(query), b.unlocked.authorize(query)]);
    expect(refreshes().length - before).toBe(2);
    // One exchange was refused: that instance goes on with the old, expiring token.
    expect([ra.botToken, rb.botToken]).toContain(old);
  });

  it("Vigil's authorize refreshes once for both, and both use the new token", async () => {
    const [a, b] = [await instance(), await instance()];
    const old = await installExpiring(a.installations);
    const before = refreshes().length;
    const results = await Promise.all([
      a.authorize(query),
      b.authorize(query),
      a.authorize(query),
      b.authorize(query),
    ]);
    expect(refreshes().length - before).toBe(1);
    const tokens = new Set(results.map((r) => r.botToken));
    expect(tokens.size).toBe(1);
    expect(tokens.has(old)).toBe(false);
    // The stored installation holds the new token and a refresh token not due for hours.
    const stored = await b.installations.fetchInstallation(query);
    expect(stored.bot?.token).toBe(results[0]?.botToken);
    expect(rotationDue(stored, Math.floor(Date.now() / 1000))).toBe(false);
    // Nothing is due any more: later authorizations exchange nothing.
    await Promise.all([a.authorize(query), b.authorize(query)]);
    expect(refreshes().length - before).toBe(1);
  });
});
