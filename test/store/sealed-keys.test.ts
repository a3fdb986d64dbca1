/**
 * Vigil refuses to start on a store sealed with a key it is not given (issue 38, item 5): before, it answered
 * `/healthz` and `/readyz` and then failed every request that opened a secret. As an operator meets it: the
 * process exits with one line naming the missing key id and what to do; given the old key as
 * VIGIL_ENCRYPTION_KEY_OLD it starts, and after rotate-key the new key alone is enough.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/kernel/logger.js';
import { openStore } from '../../src/store/backend/open.js';
import { createRepositories } from '../../src/store/repos/repositories.js';
import { encryptionKeyId, Sealer } from '../../src/store/repos/sealing.js';
import { ManualClock } from '../support/manual-clock.js';
import { startStack } from '../support/stack.js';
import { runVigil } from '../support/vigil-process.js';

describe('a store sealed with a key Vigil is not given', () => {
  let dir: string;
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const storeUrl = () => `sqlite://${join(dir, 'vigil.sqlite')}`;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vigil-sealed-keys-'));
    // A connection sealed with the old key, as a release before the key index wrote it (no index).
    const store = await openStore(storeUrl(), { logger: silentLogger });
    const repos = createRepositories(store, { clock: new ManualClock(), sealer: new Sealer(oldKey) });
    await repos.workspaces.put('T0SEALED1', {
      teamId: 'T0SEALED1',
      apiHost: 'api.flare.io',
      apiKey: 'fw_live_sealed_with_the_old_key',
      apiKeyId: 1,
      organizationId: 1,
      tenantId: 1,
      scopes: [],
      connectedBy: 'U0ADMIN01',
    });
    await store.close();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stops the process with one line naming the missing key id and how to fix it', async () => {
    const vigil = runVigil({
      SLACK_BOT_TOKEN: 'xoxb-never-used',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      VIGIL_STORE: storeUrl(),
      VIGIL_ENCRYPTION_KEY: newKey.toString('base64'),
      PORT: '0',
    });
    expect(await vigil.exited).toBe(1);
    expect(vigil.stderr).toHaveLength(1);
    const line = JSON.parse(vigil.stderr[0] ?? '') as { level: string; msg: string };
    expect(line.level).toBe('error');
    expect(line.msg).toMatch(
      new RegExp(
        `^Vigil cannot start: the store holds secrets sealed with encryption key ${encryptionKeyId(oldKey)}, which is not configured: set VIGIL_ENCRYPTION_KEY to the key that sealed them, or .*VIGIL_ENCRYPTION_KEY_OLD and run rotate-key`,
      ),
    );
    expect(vigil.stdout.join('\n')).not.toContain('vigil started');
    expect([...vigil.stdout, ...vigil.stderr].join('\n')).not.toContain(newKey.toString('base64'));
  }, 60_000);

  it('starts with the old key as VIGIL_ENCRYPTION_KEY_OLD; after rotate-key, with the new key alone', async () => {
    const withNew = { VIGIL_STORE: storeUrl(), VIGIL_ENCRYPTION_KEY: newKey.toString('base64') };
    const both = { ...withNew, VIGIL_ENCRYPTION_KEY_OLD: oldKey.toString('base64') };
    const connectless = { connect: false } as const;

    const started = await startStack({ ...connectless, env: both });
    expect(await started.repos.workspaces.apiKey('T0SEALED1')).toBe('fw_live_sealed_with_the_old_key');
    await started.close();
    // Having started once with both keys, the store records both as in use: the new key alone still lacks one.
    await expect(startStack({ ...connectless, env: withNew })).rejects.toThrow(
      new RegExp(`sealed with encryption key ${encryptionKeyId(oldKey)}`),
    );

    const rotation = runVigil(both, ['rotate-key']);
    expect(await rotation.exited).toBe(0);

    const rotated = await startStack({ ...connectless, env: withNew });
    expect(await rotated.repos.workspaces.apiKey('T0SEALED1')).toBe('fw_live_sealed_with_the_old_key');
    await rotated.close();
  }, 120_000);
});
