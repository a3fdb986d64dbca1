/**
 * Key rotation as an operator runs it: `main.js rotate-key` in its own process re-seals every sealed record
 * with the new key while the old one opens what is not yet done; killed with SIGKILL mid-way, run again, it
 * continues from its recorded progress, and afterwards the new key alone opens everything.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { silentLogger } from '../../src/kernel/logger.js';
import { openStore } from '../../src/store/backend/open.js';
import { createRepositories } from '../../src/store/repos/repositories.js';
import { encryptionKeyId, Sealer } from '../../src/store/repos/sealing.js';
import { ManualClock } from '../support/manual-clock.js';
import { runVigil, waitForLine } from '../support/vigil-process.js';

const WORKSPACES = 600;
const apiKeyOf = (i: number) => `fw_live_rotation_${i}`;
const workspaceOf = (i: number) => `T${String(i).padStart(5, '0')}`;
/** Containment's identity provider record: its secret is sealed like the API key (features/containment). */
const IdpRecord = z.object({ sealedSecret: z.string() });

describe('rotate-key', () => {
  let dir: string;
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vigil-rotate-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const storeUrl = () => `sqlite://${join(dir, 'vigil.sqlite')}`;
  const openRepos = async (sealer: Sealer) => {
    const store = await openStore(storeUrl(), { logger: silentLogger });
    return { store, repos: createRepositories(store, { clock: new ManualClock(), sealer }) };
  };
  const env = () => ({
    VIGIL_STORE: storeUrl(),
    VIGIL_ENCRYPTION_KEY: newKey.toString('base64'),
    VIGIL_ENCRYPTION_KEY_OLD: oldKey.toString('base64'),
  });

  it('re-seals every record under the new key, surviving a kill -9 mid-way', async () => {
    const seeded = await openRepos(new Sealer(oldKey));
    for (let i = 0; i < WORKSPACES; i++) {
      await seeded.repos.workspaces.put(workspaceOf(i), {
        teamId: workspaceOf(i),
        apiHost: 'api.flare.io',
        apiKey: apiKeyOf(i),
        apiKeyId: i,
        organizationId: 1,
        tenantId: 1,
        scopes: [],
        connectedBy: 'U0ADMIN01',
      });
    }
    await seeded.repos.installations.storeInstallation({
      team: { id: 'T0OAUTH01', name: 'Installed' },
      enterprise: undefined,
      user: { id: 'U0INSTALL', token: undefined, scopes: undefined },
      bot: { token: 'xoxb-rotated-bot-token', scopes: ['commands'], id: 'B01', userId: 'U0BOT' },
      isEnterpriseInstall: false,
    });
    await seeded.repos.idpConnections(IdpRecord).set('T0IDP0001', 'current', {
      sealedSecret: seeded.repos.idpSecrets.seal('T0IDP0001', 'entra-client-secret'),
    });
    await seeded.store.close();

    // First run: killed as soon as it has recorded some progress.
    const first = runVigil(env(), ['rotate-key']);
    await waitForLine(first.stdout, /"rotation progress"/, 60_000);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();

    // Mid-way: some records are under the new key, others still under the old, and both keys open them all.
    const midway = await openRepos(new Sealer(newKey, [oldKey]));
    const keyIds = await Promise.all(
      Array.from({ length: WORKSPACES }, async (_, i) => {
        const sealed = (await midway.repos.workspaces.get(workspaceOf(i)))?.sealedApiKey ?? '';
        return sealed.split('.')[1];
      }),
    );
    expect(keyIds).toContain(encryptionKeyId(newKey));
    expect(keyIds).toContain(encryptionKeyId(oldKey));
    await midway.store.close();

    // Second run: continues from the recorded progress and completes.
    const second = runVigil(env(), ['rotate-key']);
    expect(await second.exited).toBe(0);
    const resumed = JSON.parse(await waitForLine(second.stdout, /"resuming an interrupted rotation"/)) as {
      resealed: number;
    };
    expect(resumed.resealed).toBeGreaterThan(0);
    const done = JSON.parse(await waitForLine(second.stdout, /"rotation complete/)) as {
      stale: number;
      unreadable: number;
    };
    expect(done).toMatchObject({ stale: 0, unreadable: 0 });
    expect([...first.stdout, ...second.stdout].join('\n')).not.toContain(apiKeyOf(7));

    // The new key alone opens everything.
    const after = await openRepos(new Sealer(newKey));
    for (let i = 0; i < WORKSPACES; i += 97) {
      expect(await after.repos.workspaces.apiKey(workspaceOf(i))).toBe(apiKeyOf(i));
    }
    const installation = await after.repos.installations.fetchInstallation({
      teamId: 'T0OAUTH01',
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(installation.bot?.token).toBe('xoxb-rotated-bot-token');
    const idp = await after.repos.idpConnections(IdpRecord).get('T0IDP0001', 'current');
    expect(after.repos.idpSecrets.open('T0IDP0001', idp?.sealedSecret ?? '')).toBe('entra-client-secret');
    await after.store.close();

    // Run again: nothing left to do.
    const third = runVigil(env(), ['rotate-key']);
    expect(await third.exited).toBe(0);
    expect(third.stdout.join('\n')).toMatch(/"rotation complete[^\n]*"resealed":0/);
  }, 180_000);

  it('refuses to run without the new key, saying how to make one', async () => {
    const run = runVigil({ VIGIL_STORE: storeUrl() }, ['rotate-key']);
    expect(await run.exited).toBe(2);
    expect(run.stderr.join('\n')).toMatch(/VIGIL_ENCRYPTION_KEY: required .*openssl rand -base64 32/);
  });
});
