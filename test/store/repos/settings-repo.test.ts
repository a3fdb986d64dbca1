import { describe, expect, it } from 'vitest';
import { BACKENDS, useStoreFixture } from '../support/backends.js';
import { reposFor } from '../support/repos.js';

describe.each(BACKENDS)('SettingsRepo on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  // Since issue 25: only `use` is open to every member by default.
  const DEFAULTS = {
    use: 'everyone',
    creds: 'admins',
    subscribe: 'admins',
    act: 'admins',
    reveal: 'admins',
    export: 'admins',
    unassign: 'admins',
    recommend: 'admins',
    watch: 'admins',
    intel: 'admins',
    sandbox: 'admins',
    contain: 'admins',
  };

  it('defaults to everyone acting and admins for the rest, then stores admins or a user group with who changed it', async () => {
    const store = await fixture.open();
    const { repos, clock } = reposFor(store);
    expect(await repos.settings.get('T0001')).toEqual({
      permissions: DEFAULTS,
      chosen: [],
      defaultsNoticeSeenBy: [],
      cardChannels: [],
    });
    await repos.settings.setActors('T0001', 'admins', 'U0ADMIN');
    expect(await repos.settings.get('T0001')).toEqual({
      permissions: { ...DEFAULTS, act: 'admins' },
      chosen: ['act'],
      defaultsNoticeSeenBy: [],
      cardChannels: [],
      updatedBy: 'U0ADMIN',
      updatedAt: clock.now(),
    });
    await repos.settings.setActors('T0001', { usergroup: 'S0SEC' }, 'U0ADMIN');
    expect((await repos.settings.get('T0001')).permissions.act).toEqual({ usergroup: 'S0SEC' });
    expect(await repos.settings.get('T0002')).toEqual({
      permissions: DEFAULTS,
      chosen: [],
      defaultsNoticeSeenBy: [],
      cardChannels: [],
    });
  });

  it('sets each permission on its own, keeping the others', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.settings.setPermission('T0001', 'reveal', 'everyone', 'U0ADMIN');
    await repos.settings.setPermission('T0001', 'export', { usergroup: 'S0SEC' }, 'U0ADMIN');
    expect((await repos.settings.get('T0001')).permissions).toEqual({
      ...DEFAULTS,
      reveal: 'everyone',
      export: { usergroup: 'S0SEC' },
    });
  });

  it('reads a record written before permissions existed as the act permission, and keeps it on update', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await store.namespace('settings').set('T0001', { actors: 'admins', updatedBy: 'U0OLD' });
    expect((await repos.settings.get('T0001')).permissions).toEqual({ ...DEFAULTS, act: 'admins' });
    await repos.settings.setPermission('T0001', 'reveal', 'everyone', 'U0ADMIN');
    expect((await repos.settings.get('T0001')).permissions).toEqual({
      ...DEFAULTS,
      act: 'admins',
      reveal: 'everyone',
    });
  });

  it('reads a 0.5.0 record (no admins, intel, sandbox or contain) with their defaults, and keeps it when they are set', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    const old = { permissions: { creds: 'everyone', watch: { usergroup: 'S0SECOPS1' } }, updatedBy: 'U0OLD' };
    await store.namespace('settings').set('T0001', old);
    const read = await repos.settings.get('T0001');
    expect(read.permissions).toEqual({ ...DEFAULTS, creds: 'everyone', watch: { usergroup: 'S0SECOPS1' } });
    expect(read.admins).toBeUndefined();
    await repos.settings.setAdmins('T0001', { usergroup: 'S0VIGILAD' }, 'U0ADMIN');
    await repos.settings.setPermission('T0001', 'intel', { usergroup: 'S0SECOPS1' }, 'U0ADMIN');
    const set = await repos.settings.get('T0001');
    expect(set.admins).toEqual({ usergroup: 'S0VIGILAD' });
    expect(set.permissions).toMatchObject({ creds: 'everyone', intel: { usergroup: 'S0SECOPS1' } });
    expect(set.chosen).toEqual(['creds', 'watch', 'intel']);
    // `admins` again: Slack's admins administer, as before anyone was named.
    expect((await repos.settings.setAdmins('T0001', undefined, 'U0ADMIN')).admins).toBeUndefined();
    expect((await repos.settings.get('T0001')).permissions.intel).toEqual({ usergroup: 'S0SECOPS1' });
  });

  it('opens and closes event cards per channel, keeping the other channels and the permissions', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.settings.setPermission('T0001', 'reveal', 'everyone', 'U0ADMIN');
    await repos.settings.setCardChannel('T0001', 'C0SHARED1', true, 'U0ADMIN');
    await repos.settings.setCardChannel('T0001', 'C0SHARED2', true, 'U0ADMIN');
    await repos.settings.setCardChannel('T0001', 'C0SHARED1', true, 'U0ADMIN');
    expect((await repos.settings.get('T0001')).cardChannels).toEqual(['C0SHARED2', 'C0SHARED1']);
    const closed = await repos.settings.setCardChannel('T0001', 'C0SHARED2', false, 'U0ADMIN');
    expect(closed.cardChannels).toEqual(['C0SHARED1']);
    expect(closed.permissions.reveal).toBe('everyone');
  });

  it('delete returns to the defaults and is idempotent', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.settings.setActors('T0001', 'admins', 'U0ADMIN');
    expect(await repos.settings.delete('T0001')).toBe(true);
    expect(await repos.settings.delete('T0001')).toBe(false);
    expect(await repos.settings.get('T0001')).toEqual({
      permissions: DEFAULTS,
      chosen: [],
      defaultsNoticeSeenBy: [],
      cardChannels: [],
    });
  });

  it('keeps what a workspace chose before the defaults changed, and remembers who saw the notice', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await store.namespace('settings').set('T0001', { actors: 'everyone', updatedBy: 'U0OLD' });
    const read = await repos.settings.get('T0001');
    expect(read.permissions).toEqual({ ...DEFAULTS, act: 'everyone' });
    expect(read.chosen).toEqual(['act']);
    await repos.settings.markDefaultsNoticeSeen('T0001', 'U0ADMIN');
    await repos.settings.markDefaultsNoticeSeen('T0001', 'U0ADMIN');
    const after = await repos.settings.get('T0001');
    expect(after.defaultsNoticeSeenBy).toEqual(['U0ADMIN']);
    expect(after.permissions.act).toBe('everyone');
  });

  it('an unknown actors value is corruption: nothing is open beyond admins, never a silent default', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await store.namespace('settings').set('T0001', { actors: 'anyone-at-all' });
    const settings = await repos.settings.get('T0001');
    expect(settings.unreadable).toBe(true);
    expect(new Set(Object.values(settings.permissions))).toEqual(new Set(['admins']));
    // An admin's choice replaces the unreadable record; the rest take their defaults.
    const set = await repos.settings.setPermission('T0001', 'act', 'everyone', 'U0ADMIN');
    expect(set.unreadable).toBeUndefined();
    expect(set.permissions.act).toBe('everyone');
    expect(set.permissions.creds).toBe('admins');
  });
});
