/**
 * Two Vigil instances on one store (a real redis-server, and one SQLite file) approving the same containment
 * at once, each several times: the simulated Entra ID sees exactly one call, and both instances then read the
 * request as done. The secret is sealed once and opened by either instance (they share the key).
 */
import { randomBytes } from 'node:crypto';
import { getGlobalDispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SimEntra, startSimEntra } from '../../../packages/playground/src/sim/identity/index.js';
import { IdpHttp } from '../../../src/features/containment/http.js';
import { ContainmentService } from '../../../src/features/containment/service.js';
import { silentLogger } from '../../../src/kernel/logger.js';
import type { Store } from '../../../src/store/index.js';
import { Sealer } from '../../../src/store/repos/sealing.js';
import { BACKENDS, useStoreFixture } from '../../store/support/backends.js';
import { reposFor } from '../../store/support/repos.js';
import { ADA } from './support/contain-stack.js';

const WS = 'T0CONTAIN';
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
    const store = await fixture.open();
    opened.push(store);
    const { repos } = reposFor(store, { sealer });
    const now = () => fixture.clock.now();
    return new ContainmentService({
      repos,
      store,
      clock: fixture.clock,
      logger: silentLogger,
      http: new IdpHttp({ dispatcher: getGlobalDispatcher(), allowedHosts: [], now }),
      urls: { entraLoginUrl: entra.url, graphUrl: entra.url },
      approvalTtlMs: 3_600_000,
    });
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
});
