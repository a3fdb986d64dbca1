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
import { BotClients } from '../../src/slack/bot-clients.js';
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

async function instance(
  wrap: (repo: InstallationRepo) => InstallProvider['installationStore'] = (repo) => repo,
) {
  const store = await openStore(redis.url, { logger: silentLogger });
  stores.push(store);
  const installations = new InstallationRepo(store, systemClock, sealer);
  const rotation = rotationSafeAuthorization({
    installations: wrap(installations),
    store,
    clock: systemClock,
  });
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
    /** The provider on its own over another installation store. */
    unlockedOver: provider,
    /** Vigil's background posts: the bot token as requests get it. */
    bots: new BotClients({
      config: {
        slack: {
          signingSecret: undefined,
          appToken: undefined,
          apiUrl: slack.apiUrl,
          mode: {
            kind: 'oauth',
            clientId: DEFAULT_CLIENT_ID,
            clientSecret: DEFAULT_CLIENT_SECRET,
            stateSecret: 'x'.repeat(32),
          },
        },
      },
      repos: { installations },
      logger: silentLogger,
      botToken: async (workspaceId) =>
        (
          await rotation.authorizeWith(locked)({
            teamId: workspaceId,
            enterpriseId: undefined,
            isEnterpriseInstall: false,
          })
        ).botToken,
    }),
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

  it('under load on two instances, background posts and requests alike refresh once and use the new token', async () => {
    const [a, b] = [await instance(), await instance()];
    const old = await installExpiring(a.installations);
    const before = refreshes().length;
    const tokenOf = async (bots: BotClients) => (await bots.forWorkspace(TEAM)).token;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const at = i % 2 === 0 ? a : b;
        return i % 4 < 2 ? tokenOf(at.bots) : at.authorize(query).then((r) => r.botToken);
      }),
    );
    expect(refreshes().length - before).toBe(1);
    expect(new Set(results).size).toBe(1);
    expect(results).not.toContain(old);
    // The new token works: Slack answers the background post's client.
    const client = await b.bots.forWorkspace(TEAM);
    expect((await client.auth.test()).team_id).toBe(TEAM);
  });

  it('a refresh token a stalled peer spent never leaves anyone with the refused grant: the fresh tokens it stored are used', async () => {
    let storeA: () => void = () => {};
    const aStored = new Promise<void>((r) => (storeA = r));
    let letAStore: () => void = () => {};
    const aMayStore = new Promise<void>((r) => (letAStore = r));
    let aExchanged: () => void = () => {};
    const exchangedByA = new Promise<void>((r) => (aExchanged = r));
    const a = await instance();
    // A refreshes without the lock (a holder whose lease ran out) and stalls before storing what it got.
    const stalled = a.unlockedOver({
      fetchInstallation: (q) => a.installations.fetchInstallation(q),
      storeInstallation: async (installation) => {
        aExchanged();
        await aMayStore;
        await a.installations.storeInstallation(installation);
        storeA();
      },
    });
    let reads = 0;
    // B reads: the decision, the provider's read under the lock, then the read again after a refused exchange;
    // by then A has stored its fresh tokens.
    const b = await instance((repo) => ({
      storeInstallation: (i) => repo.storeInstallation(i),
      fetchInstallation: async (q) => {
        reads += 1;
        if (reads === 3) {
          letAStore();
          await aStored;
        }
        return repo.fetchInstallation(q);
      },
    }));
    const old = await installExpiring(a.installations);
    const before = refreshes().length;
    const aResult = stalled.authorize(query);
    await exchangedByA;
    const bResult = await b.authorize(query);
    const fromA = await aResult;
    const exchanges = refreshes().slice(before);
    expect(exchanges).toHaveLength(2);
    expect(exchanges.map((c) => c.response.ok)).toEqual([true, false]);
    // Slack's oauth.v2.access names a spent refresh token `invalid_refresh_token`.
    expect(exchanges[1]?.response.error).toBe('invalid_refresh_token');
    expect(fromA.botToken).not.toBe(old);
    expect(bResult.botToken).toBe(fromA.botToken);
  });
});
