import type { Installation } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { BACKENDS, useStoreFixture } from '../support/backends.js';
import { reposFor } from '../support/repos.js';

const install: Installation<'v2', false> = {
  team: { id: 'T0001' },
  enterprise: undefined,
  user: { id: 'U0ADMIN', token: undefined, scopes: undefined },
  bot: { token: 'xoxb-1-2-deletetest', scopes: ['commands'], id: 'B1', userId: 'U0BOT' },
};
const query = { teamId: 'T0001', enterpriseId: undefined, isEnterpriseInstall: false } as const;

describe.each(BACKENDS)('deleteWorkspaceData on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  async function seeded() {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.workspaces.put('T0001', {
      teamId: 'T0001',
      apiHost: 'api.flare.io',
      apiKey: 'fw_live_delete_me_123456',
      apiKeyId: 1,
      organizationId: 2,
      tenantId: 3,
      scopes: [],
      connectedBy: 'U0ADMIN',
    });
    // Not the default (admins), so that its deletion shows.
    await repos.settings.setActors('T0001', 'everyone', 'U0ADMIN');
    for (const channelId of ['C1', 'C2']) {
      await repos.digestSubscriptions.add({
        teamId: 'T0001',
        channelId,
        identifierIds: 'all',
        severity: 'medium',
        types: [],
        timeOfDay: '08:00',
        timeZone: 'UTC',
        weekdaysOnly: false,
        skipEmpty: true,
        createdBy: 'U0ADMIN',
      });
    }
    await repos.installations.storeInstallation(install);
    await repos.audit.append({
      teamId: 'T0001',
      userId: 'U0ADMIN',
      action: 'workspace.connect',
      target: '3',
    });
    // Another workspace that must be left alone.
    await repos.settings.setActors('T0002', 'everyone', 'U0OTHER');
    return repos;
  }

  it('deletes connection, settings and subscriptions; keeps installation and audit unless asked', async () => {
    const repos = await seeded();
    expect(await repos.deleteWorkspaceData('T0001')).toEqual({
      connection: true,
      settings: true,
      subscriptions: 2,
      alerts: 0,
      installation: false,
    });
    expect(await repos.workspaces.get('T0001')).toBeUndefined();
    expect((await repos.settings.get('T0001')).permissions.act).toBe('admins');
    expect(await repos.digestSubscriptions.list('T0001')).toEqual([]);
    expect(await repos.digestSubscriptions.listAll()).toEqual([]);
    expect((await repos.installations.fetchInstallation(query)).bot?.token).toBe('xoxb-1-2-deletetest');
    expect(await repos.audit.recent('T0001')).toHaveLength(1);
    expect((await repos.settings.get('T0002')).permissions.act).toBe('everyone');
  });

  it('is idempotent and safe to run concurrently, with installation and audit when asked', async () => {
    const repos = await seeded();
    const options = { installation: true, audit: true };
    await Promise.all([
      repos.deleteWorkspaceData('T0001', options),
      repos.deleteWorkspaceData('T0001', options),
    ]);
    expect(await repos.deleteWorkspaceData('T0001', options)).toEqual({
      connection: false,
      settings: false,
      subscriptions: 0,
      alerts: 0,
      installation: false,
    });
    await expect(repos.installations.fetchInstallation(query)).rejects.toThrow();
    expect(await repos.audit.recent('T0001')).toEqual([]);
    expect(await repos.workspaces.apiKey('T0001')).toBeUndefined();
  });

  it('does nothing harmful for a workspace that never existed', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    expect(await repos.deleteWorkspaceData('T0404', { installation: true, audit: true })).toEqual({
      connection: false,
      settings: false,
      subscriptions: 0,
      alerts: 0,
      installation: false,
    });
  });
});
