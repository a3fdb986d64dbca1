/**
 * Two Vigil instances on one store (a real redis-server, and one SQLite file) approving the same containment
 * at once, each several times: the simulated Entra ID sees exactly one call, and both instances then read the
 * request as done. The secret is sealed once and opened by either instance (they share the key). Both
 * instances' expiry sweeps meeting one expired request at once: one audits it and updates its message in the
 * simulated Slack; the sweep reads the index of pending requests, which closed requests leave.
 */
import { randomBytes } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import { getGlobalDispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type SimEntra, startSimEntra } from '../../../packages/playground/src/sim/identity/index.js';
import {
  DEFAULT_BOT_TOKEN,
  DEFAULT_TEAM_ID,
  SEEDED_CHANNELS,
  startFakeSlack,
} from '../../../packages/playground/src/sim/slack/index.js';
import { ContainExpiry } from '../../../src/features/containment/expiry.js';
import { IdpHttp } from '../../../src/features/containment/http.js';
import { ContainmentService } from '../../../src/features/containment/service.js';
import { silentLogger } from '../../../src/kernel/logger.js';
import type { Store } from '../../../src/store/index.js';
import { Sealer } from '../../../src/store/repos/sealing.js';
import { BACKENDS, useStoreFixture } from '../../store/support/backends.js';
import { reposFor } from '../../store/support/repos.js';
import { ADA } from './support/contain-stack.js';

const WS = DEFAULT_TEAM_ID;
let entra: SimEntra;

beforeAll(async () => {
  entra = await startSimEntra({ users: [{ ...ADA }] });
});
afterAll(async () => {
  await entra.close();
  expect(entra.violations).toEqual([]);
});

describe.each(BACKENDS)('approving on two instances over %s', (backend) => {
  const fixture = useStoreFixture(backend);
  const sealer = new Sealer(randomBytes(32));
  const opened: Store[] = [];
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
  });

  async function instance(): Promise<ContainmentService> {
    return (await withRepos()).service;
  }

  async function withRepos() {
    const store = await fixture.open();
    opened.push(store);
    const { repos } = reposFor(store, { sealer });
    const now = () => fixture.clock.now();
    const service = new ContainmentService({
      repos,
      store,
      clock: fixture.clock,
      logger: silentLogger,
      http: new IdpHttp({ dispatcher: getGlobalDispatcher(), allowedHosts: [], now }),
      urls: { entraLoginUrl: entra.url, graphUrl: entra.url },
      approvalTtlMs: 3_600_000,
    });
    return { service, repos };
  }

  it('calls the provider once, whichever instance and click wins', async () => {
    const a = await instance();
    const b = await instance();
    await a.connect(
      WS,
      { provider: 'entra', tenant: entra.tenantId, clientId: entra.clientId },
      entra.clientSecret,
      'U0ADMIN01',
    );
    const { provider, match } = await b.look(WS, ADA.userPrincipalName);
    if (match.kind !== 'one') throw new Error('Ada not found');
    const request = await a.requests.create(WS, {
      action: 'revoke',
      provider: provider.kind,
      userId: match.user.id,
      person: match.user.displayName,
      principal: match.user.principal,
      identity: ADA.userPrincipalName,
      requestedBy: 'U0ADMIN01',
    });
    const before = entra.calls.filter((c) => c.operationId === 'user.revokeSignInSessions').length;
    const clicks = [a, b, a, b, a, b].map(async (svc) =>
      svc.requests
        .run(WS, request.id, 'U0OWNER01', await svc.connections.provider(WS), { selfRun: false })
        .catch((err: unknown) => err),
    );
    await Promise.all(clicks);
    const revokes = entra.calls.filter((c) => c.operationId === 'user.revokeSignInSessions').length - before;
    expect(revokes).toBe(1);
    expect((await a.requests.get(WS, request.id)).state).toBe('done');
    expect((await b.requests.get(WS, request.id)).decidedBy).toBe('U0OWNER01');
  });

  it('expires a request once when both instances sweep at the same moment', async () => {
    const slack = await startFakeSlack();
    try {
      const a = await withRepos();
      const b = await withRepos();
      const request = await a.service.requests.create(WS, {
        action: 'disable',
        provider: 'entra',
        userId: ADA.id,
        person: ADA.displayName,
        principal: ADA.userPrincipalName,
        identity: ADA.userPrincipalName,
        requestedBy: 'U0ADMIN01',
        channelId: SEEDED_CHANNELS.general,
      });
      const web = new WebClient(DEFAULT_BOT_TOKEN, { slackApiUrl: slack.apiUrl });
      const posted = await web.chat.postMessage({ channel: SEEDED_CHANNELS.general, text: 'asked' });
      await b.service.requests.placed(WS, request.id, SEEDED_CHANNELS.general, String(posted.ts));
      const sweeper = (svc: ContainmentService) =>
        new ContainExpiry({ requests: svc.requests, clientFor: async () => web, logger: silentLogger });
      const sweeps = [sweeper(a.service), sweeper(b.service), sweeper(a.service), sweeper(b.service)];
      const pending = a.repos.containPending(z.unknown());
      expect((await pending.entries()).map((e) => e.key)).toEqual([request.id]);

      fixture.clock.advance(3_600_000 - 1);
      expect(await Promise.all(sweeps.map((s) => s.tick()))).toEqual([0, 0, 0, 0]);
      fixture.clock.advance(1);
      const updated = await Promise.all(sweeps.map((s) => s.tick()));

      expect(updated.reduce((n, u) => n + u, 0)).toBe(1);
      const updates = slack.callsTo('chat.update');
      expect(updates).toHaveLength(1);
      expect(JSON.stringify(updates[0]?.body)).toContain('expired without approval');
      const expired = (await a.repos.audit.recent(WS, 20)).filter((e) => e.action === 'contain.expire');
      expect(expired).toHaveLength(1);
      expect((await b.service.requests.get(WS, request.id)).state).toBe('expired');
      // Closed requests leave the index: the next sweeps read nothing.
      expect(await pending.entries()).toEqual([]);
      expect(await Promise.all(sweeps.map((s) => s.tick()))).toEqual([0, 0, 0, 0]);
    } finally {
      await slack.close();
    }
  });
});
