import { randomBytes } from 'node:crypto';
import type { Installation } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { InstallationNotFoundError } from '../../../src/store/repos/installation-repo.js';
import { Sealer } from '../../../src/store/repos/sealing.js';
import { BACKENDS, storedBytes, useStoreFixture } from '../support/backends.js';
import { reposFor } from '../support/repos.js';

const BOT_TOKEN = 'xoxb-1111-2222-installtokenAbCdEf';

const teamInstall = (overrides: Partial<Installation<'v2', false>> = {}): Installation<'v2', false> => ({
  team: { id: 'T0001', name: 'Acme' },
  enterprise: undefined,
  user: { id: 'U0ADMIN', token: undefined, scopes: undefined },
  bot: { token: BOT_TOKEN, scopes: ['commands', 'chat:write'], id: 'B01', userId: 'U0BOT' },
  appId: 'A01',
  tokenType: 'bot',
  isEnterpriseInstall: false,
  authVersion: 'v2',
  ...overrides,
});

const orgInstall = (): Installation<'v2', true> => ({
  team: undefined,
  enterprise: { id: 'E0001', name: 'Acme Org' },
  user: { id: 'U0ADMIN', token: undefined, scopes: undefined },
  bot: { token: 'xoxb-9999-org-token-XyZ', scopes: ['commands'], id: 'B02', userId: 'U0BOT2' },
  isEnterpriseInstall: true,
  authVersion: 'v2',
});

describe.each(BACKENDS)('InstallationRepo on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('stores and fetches a workspace installation by team id, sealed at rest', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.installations.storeInstallation(teamInstall());
    const fetched = await repos.installations.fetchInstallation({
      teamId: 'T0001',
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(fetched.bot?.token).toBe(BOT_TOKEN);
    expect(fetched.team?.id).toBe('T0001');
    expect(fetched.appId).toBe('A01');
    await store.close();
    expect(await storedBytes(fixture, kind)).not.toContain(BOT_TOKEN);
  });

  it('keys org-wide installs by enterprise id, and workspace installs inside an enterprise by team id', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.installations.storeInstallation(orgInstall());
    await repos.installations.storeInstallation(
      teamInstall({ team: { id: 'T0002' }, enterprise: { id: 'E0001' } }),
    );
    const org = await repos.installations.fetchInstallation({
      teamId: undefined,
      enterpriseId: 'E0001',
      isEnterpriseInstall: true,
    });
    expect(org.bot?.id).toBe('B02');
    const team = await repos.installations.fetchInstallation({
      teamId: 'T0002',
      enterpriseId: 'E0001',
      isEnterpriseInstall: false,
    });
    expect(team.bot?.id).toBe('B01');
  });

  it('throws when nothing is installed', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await expect(
      repos.installations.fetchInstallation({
        teamId: 'T0404',
        enterpriseId: undefined,
        isEnterpriseInstall: false,
      }),
    ).rejects.toThrow(InstallationNotFoundError);
  });

  it("never hands one user's token to another user, and keeps the bot when a user-only install arrives", async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.installations.storeInstallation(teamInstall());
    const { bot: _bot, ...withoutBot } = teamInstall();
    await repos.installations.storeInstallation({
      ...withoutBot,
      user: { id: 'U0ALICE', token: 'xoxp-alice-token-123', scopes: ['search:read'] },
    });
    const query = { teamId: 'T0001', enterpriseId: undefined, isEnterpriseInstall: false } as const;
    const asAlice = await repos.installations.fetchInstallation({ ...query, userId: 'U0ALICE' });
    expect(asAlice.user.token).toBe('xoxp-alice-token-123');
    expect(asAlice.bot?.token).toBe(BOT_TOKEN);
    const asBob = await repos.installations.fetchInstallation({ ...query, userId: 'U0BOB' });
    expect(asBob.user).toEqual({ id: 'U0BOB' });
    expect(asBob.bot?.token).toBe(BOT_TOKEN);

    await repos.installations.deleteInstallation({ ...query, userId: 'U0ALICE' });
    const afterUserDelete = await repos.installations.fetchInstallation({ ...query, userId: 'U0ALICE' });
    expect(afterUserDelete.user.token).toBeUndefined();
    expect(afterUserDelete.bot?.token).toBe(BOT_TOKEN);

    await repos.installations.deleteInstallation(query);
    await expect(repos.installations.fetchInstallation(query)).rejects.toThrow(InstallationNotFoundError);
    await expect(repos.installations.deleteInstallation(query)).resolves.toBeUndefined();
  });

  it('reseals an installation sealed with a previous encryption key when it is fetched', async () => {
    const store = await fixture.open();
    const oldKey = randomBytes(32);
    await reposFor(store, { sealer: new Sealer(oldKey) }).repos.installations.storeInstallation(
      teamInstall(),
    );
    const rotated = new Sealer(randomBytes(32), [oldKey]);
    const query = { teamId: 'T0001', enterpriseId: undefined, isEnterpriseInstall: false } as const;
    const fetched = await reposFor(store, { sealer: rotated }).repos.installations.fetchInstallation(query);
    expect(fetched.bot?.token).toBe(BOT_TOKEN);
    const record = (await store.namespace('installation').get('T0001')) as { sealed: string };
    expect(rotated.isStale(record.sealed)).toBe(false);
    const newKeyOnly = reposFor(store, { sealer: new Sealer(randomBytes(32)) }).repos;
    await expect(newKeyOnly.installations.fetchInstallation(query)).rejects.toThrow(/unknown encryption key/);
  });
});
