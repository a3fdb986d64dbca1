import { describe, expect, it } from 'vitest';
import { StoreCorruptionError } from '../../../src/store/backend/errors.js';
import { BACKENDS, useStoreFixture } from '../support/backends.js';
import { reposFor } from '../support/repos.js';

describe.each(BACKENDS)('SettingsRepo on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('defaults to everyone, then stores admins or a user group with who changed it', async () => {
    const store = await fixture.open();
    const { repos, clock } = reposFor(store);
    expect(await repos.settings.get('T0001')).toEqual({ actors: 'everyone' });
    await repos.settings.setActors('T0001', 'admins', 'U0ADMIN');
    expect(await repos.settings.get('T0001')).toEqual({
      actors: 'admins',
      updatedBy: 'U0ADMIN',
      updatedAt: clock.now(),
    });
    await repos.settings.setActors('T0001', { usergroup: 'S0SEC' }, 'U0ADMIN');
    expect((await repos.settings.get('T0001')).actors).toEqual({ usergroup: 'S0SEC' });
    expect(await repos.settings.get('T0002')).toEqual({ actors: 'everyone' });
  });

  it('delete returns to the defaults and is idempotent', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await repos.settings.setActors('T0001', 'admins', 'U0ADMIN');
    expect(await repos.settings.delete('T0001')).toBe(true);
    expect(await repos.settings.delete('T0001')).toBe(false);
    expect(await repos.settings.get('T0001')).toEqual({ actors: 'everyone' });
  });

  it('an unknown actors value is corruption, not a silent default', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await store.namespace('settings').set('T0001', { actors: 'anyone-at-all' });
    await expect(repos.settings.get('T0001')).rejects.toThrow(StoreCorruptionError);
  });
});
