/**
 * The simulated API's credential actions and infected-device routes of the published contract: requests held
 * to the document (at most 100 targets, `field` credentials or cookies, pages of at most 20), answers checked
 * against its own schemas, lean and rich.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseProblems } from '../../../../../test/api/support/openapi.js';
import { type Answer, call, type Harness, startHarness, tokenFor, v4, walk } from './helpers.js';

let h: Harness;
let token: string;
let tenantId: number;
const get = (path: string): Promise<Answer> => call(h.sim, 'GET', path, { token });

beforeAll(async () => {
  h = await startHarness({ emptyPageEvery: 2 });
  token = await tokenFor(h.sim, 0);
  tenantId = h.sim.keys[0]?.defaultTenantId ?? 0;
});
afterAll(() => h.sim.close());

describe('POST /v4/credentials/actions', () => {
  it('remediates a pair and ignores an identity; refuses unknown hashes and more than 100 targets', async () => {
    const [a, b] = h.sim.state.credentials.filter((c) => c.credential_hash !== null);
    if (!a?.credential_hash || !b?.credential_hash) throw new Error('seed has no hashed credentials');
    const post = (body: unknown) => call(h.sim, 'POST', v4(h.sim, '/credentials/actions'), { token, body });
    const ok = await post({
      targets: [{ credential_hash: a.credential_hash }],
      action: { type: 'remediate' },
    });
    expect(ok.status).toBe(200);
    expect(h.sim.state.remediatedCredentials.get(tenantId)?.has(a.credential_hash)).toBe(true);
    await post({ targets: [{ credential_hash: b.credential_hash }], action: { type: 'ignore' } });
    expect(h.sim.state.ignoredIdentities.get(tenantId)?.has(b.identity_name.toLowerCase())).toBe(true);

    const unknown = await post({ targets: [{ credential_hash: 'nope' }], action: { type: 'ignore' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('CREDENTIAL_NOT_FOUND');
    const tooMany = await post({
      targets: Array.from({ length: 101 }, () => ({ credential_hash: a.credential_hash })),
      action: { type: 'ignore' },
    });
    expect(tooMany.status).toBe(422);
    const badAction = await post({ targets: [], action: { type: 'delete' } });
    expect(badAction.status).toBe(422);
    expect(h.sim.state.credentialActions.map((x) => x.action)).toEqual(['remediate', 'ignore']);
  });
});

describe('GET /v4/events/ and /v4/events/_expand', () => {
  const stealer = () => {
    const e = h.sim.state.events.find(
      (x) => x.tenantId === tenantId && x.item.metadata.type === 'stealer_log',
    );
    if (!e) throw new Error('seed has no stealer log');
    return e.item.metadata.uid;
  };

  it('serves a stealer log event with its malware and victim details, in the contract’s shape', async () => {
    const res = await get(v4(h.sim, `/events/?uid=${encodeURIComponent(stealer())}`));
    expect(res.status).toBe(200);
    expect(res.body.event_type).toBe('stealer_log');
    expect(res.body.data.malware_information.malware_family).toEqual(expect.any(String));
    expect(responseProblems('GET', '/firework/v4/events/', res.body)).toEqual([]);
    // Other types are served as the published EmptyFireworkEvent (no data, no tenant): issue 30's lookup of
    // links to events Vigil never showed reads these; a uid no event has is 404.
    const other = h.sim.state.events.find((x) => x.tenantId === tenantId && x.item.metadata.type === 'paste');
    const paste = await get(v4(h.sim, `/events/?uid=${encodeURIComponent(other?.item.metadata.uid ?? 'x')}`));
    expect(paste.status).toBe(200);
    expect(paste.body).toMatchObject({ event_type: 'paste', metadata: { uid: other?.item.metadata.uid } });
    expect(paste.body.data).toBeUndefined();
    expect(responseProblems('GET', '/firework/v4/events/', paste.body)).toEqual([]);
    const missing = await get(v4(h.sim, `/events/?uid=${encodeURIComponent('leak/nowhere/none')}`));
    expect(missing.status).toBe(404);
  });

  it('pages credentials and cookies by 20 at most, through empty pages, some on the tenant’s domains', async () => {
    const uid = encodeURIComponent(stealer());
    for (const field of ['credentials', 'cookies']) {
      const path = v4(h.sim, `/events/_expand?field=${field}&uid=${uid}&size=20`);
      const pages = await walk((from) => get(from ? `${path}&from=${encodeURIComponent(from)}` : path));
      const items = pages.flatMap((p) => p.body.items);
      expect(items.length).toBeGreaterThan(20);
      for (const page of pages) {
        expect(page.body.items.length).toBeLessThanOrEqual(20);
        expect(responseProblems('GET', '/firework/v4/events/_expand', page.body)).toEqual([]);
      }
    }
    expect((await get(v4(h.sim, `/events/_expand?field=credentials&uid=${uid}&size=21`))).status).toBe(422);
    expect((await get(v4(h.sim, `/events/_expand?field=passwords&uid=${uid}`))).status).toBe(422);
  });
});
