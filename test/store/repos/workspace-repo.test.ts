import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/kernel/logger.js';
import { SealError, Sealer } from '../../../src/store/repos/sealing.js';
import type { NewConnection } from '../../../src/store/repos/workspace-repo.js';
import { BACKENDS, storedBytes, useStoreFixture } from '../support/backends.js';
import { reposFor } from '../support/repos.js';

const connection = (apiKey: string): NewConnection => ({
  teamId: 'T0001',
  apiHost: 'api.flare.io',
  apiKey,
  apiKeyId: 77,
  organizationId: 12,
  tenantId: 345,
  tenantName: 'Acme',
  scopes: ['firework'],
  connectedBy: 'U0ADMIN',
});

const uniqueKey = () => `fw_live_${randomBytes(18).toString('hex')}`;

describe.each(BACKENDS)('WorkspaceRepo on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('stores a connection with the key sealed and gives the plaintext back only through apiKey()', async () => {
    const store = await fixture.open();
    const { repos, clock } = reposFor(store);
    const apiKey = uniqueKey();
    const stored = await repos.workspaces.put('T0001', connection(apiKey));
    expect(stored.sealedApiKey).toMatch(/^v1\./);
    expect(stored.connectedAt).toBe(clock.now());
    expect(JSON.stringify(stored)).not.toContain(apiKey);

    const read = await repos.workspaces.get('T0001');
    expect(read).toEqual(stored);
    expect(read).not.toHaveProperty('apiKey');
    expect(await repos.workspaces.apiKey('T0001')).toBe(apiKey);
    expect(await repos.workspaces.apiKey('T9999')).toBeUndefined();
  });

  it('never writes the API key plaintext to the store', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    const apiKey = uniqueKey();
    await repos.workspaces.put('T0001', connection(apiKey));
    await repos.workspaces.markSuccess('T0001');
    await repos.workspaces.markError('T0001', `401 for key ${apiKey}`);
    await store.close();
    const bytes = await storedBytes(fixture, kind);
    expect(bytes).toContain('api.flare.io');
    expect(bytes).not.toContain(apiKey);
  });

  it('registers the key with the logger so it is masked if it ever reaches a log line', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    const apiKey = uniqueKey();
    await repos.workspaces.put('T0001', connection(apiKey));
    const lines: string[] = [];
    createLogger({ write: (line) => lines.push(line) }).error(`upstream echoed ${apiKey}`);
    expect(lines[0]).not.toContain(apiKey);
  });

  it('a sealed key copied into another workspace does not open there', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    const stored = await repos.workspaces.put('T0001', connection(uniqueKey()));
    const ns = store.namespace('workspace');
    await ns.set('T0002', { ...stored, teamId: 'T0002' });
    await expect(repos.workspaces.apiKey('T0002')).rejects.toThrow(SealError);
  });

  it('records success with quota, then errors (redacted), and success clears the error', async () => {
    const store = await fixture.open();
    const { repos, clock } = reposFor(store);
    await repos.workspaces.put('T0001', connection(uniqueKey()));
    clock.advance(1000);
    const afterSuccess = await repos.workspaces.markSuccess('T0001', { remaining: 42, batchReached: false });
    expect(afterSuccess).toMatchObject({
      lastSuccessAt: clock.now(),
      quota: { remaining: 42, batchReached: false, at: clock.now() },
    });
    clock.advance(1000);
    const afterError = await repos.workspaces.markError('T0001', 'rejected Bearer abc.def.ghi');
    expect(afterError?.lastError).toEqual({ message: 'rejected Bearer [REDACTED]', at: clock.now() });
    expect(afterError?.quota?.remaining).toBe(42);
    const cleared = await repos.workspaces.markSuccess('T0001');
    expect(cleared?.lastError).toBeUndefined();
    expect((await repos.workspaces.get('T0001'))?.lastError).toBeUndefined();
  });

  it('updates never resurrect a deleted connection', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    expect(await repos.workspaces.markSuccess('T0404')).toBeUndefined();
    expect(await repos.workspaces.markError('T0404', 'x')).toBeUndefined();
    expect(await repos.workspaces.get('T0404')).toBeUndefined();
  });

  it('concurrent status updates do not undo a reconnect', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.workspaces.put('T0001', connection(uniqueKey()));
    const newKey = uniqueKey();
    await Promise.all([
      ...Array.from({ length: 10 }, () => repos.workspaces.markSuccess('T0001')),
      repos.workspaces.put('T0001', { ...connection(newKey), apiKeyId: 78 }),
      ...Array.from({ length: 10 }, () => repos.workspaces.markError('T0001', 'boom')),
    ]);
    expect(await repos.workspaces.apiKey('T0001')).toBe(newKey);
    expect((await repos.workspaces.get('T0001'))?.apiKeyId).toBe(78);
  });

  it('changing the API host clears the sealed key; keeping it does not', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.workspaces.put('T0001', connection(uniqueKey()));
    const same = await repos.workspaces.changeHost('T0001', 'api.flare.io');
    expect(same?.sealedApiKey).toBeDefined();
    const moved = await repos.workspaces.changeHost('T0001', 'api.eu.flare.io');
    expect(moved?.apiHost).toBe('api.eu.flare.io');
    expect(moved).not.toHaveProperty('sealedApiKey');
    expect(await repos.workspaces.apiKey('T0001')).toBeUndefined();
    expect(await repos.workspaces.changeHost('T0404', 'api.eu.flare.io')).toBeUndefined();
  });

  it('switches tenant', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.workspaces.put('T0001', connection(uniqueKey()));
    const switched = await repos.workspaces.switchTenant('T0001', { tenantId: 999 });
    expect(switched?.tenantId).toBe(999);
    expect(switched).not.toHaveProperty('tenantName');
    const named = await repos.workspaces.switchTenant('T0001', { tenantId: 1000, tenantName: 'Beta' });
    expect(named).toMatchObject({ tenantId: 1000, tenantName: 'Beta' });
  });

  it('reseals a key sealed with a previous encryption key when it is read', async () => {
    const store = await fixture.open();
    const oldKey = randomBytes(32);
    const before = reposFor(store, { sealer: new Sealer(oldKey) });
    const apiKey = uniqueKey();
    await before.repos.workspaces.put('T0001', connection(apiKey));

    const rotated = new Sealer(randomBytes(32), [oldKey]);
    const after = reposFor(store, { sealer: rotated });
    expect(await after.repos.workspaces.apiKey('T0001')).toBe(apiKey);
    const resealed = await after.repos.workspaces.get('T0001');
    expect(rotated.isStale(resealed?.sealedApiKey ?? '')).toBe(false);
    const withoutOldKey = reposFor(store, { sealer: new Sealer(randomBytes(32)) });
    await expect(withoutOldKey.repos.workspaces.apiKey('T0001')).rejects.toThrow(/unknown encryption key/);
  });

  it('delete removes the connection and is idempotent', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.workspaces.put('T0001', connection(uniqueKey()));
    expect(await repos.workspaces.delete('T0001')).toBe(true);
    expect(await repos.workspaces.delete('T0001')).toBe(false);
    expect(await repos.workspaces.get('T0001')).toBeUndefined();
  });

  it('a record of the wrong shape is set aside: the workspace reads as not connected, not a crash later', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await store.namespace('workspace').set('T0001', { teamId: 'T0001', tenantId: 'not a number' });
    expect(await repos.workspaces.get('T0001')).toBeUndefined();
    expect(repos.unreadable.count).toBe(1);
    expect(await repos.unreadable.list('T0001')).toEqual([
      { kind: 'workspace', key: 'T0001', at: expect.any(Number) },
    ]);
  });
});
