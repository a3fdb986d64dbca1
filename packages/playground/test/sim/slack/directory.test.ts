import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeSlack,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  startFakeSlack,
} from '../../../src/sim/slack/index.js';
import { callForm, callJson } from './helpers.js';

const fake: FakeSlack = await startFakeSlack();
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe('users.info', () => {
  it('describes seeded people with their roles and time zones', async () => {
    const owner = await callForm(fake, 'users.info', { user: SEEDED_USERS.owner });
    expect(owner.body.user).toMatchObject({
      id: SEEDED_USERS.owner,
      is_owner: true,
      is_admin: true,
      deleted: false,
      tz: 'Europe/Paris',
    });
    const member = await callForm(fake, 'users.info', { user: SEEDED_USERS.member });
    expect(member.body.user).toMatchObject({
      is_admin: false,
      is_owner: false,
      tz: 'America/New_York',
      tz_offset: -18000,
    });
    expect((await callForm(fake, 'users.info', { user: SEEDED_USERS.deleted })).body.user).toMatchObject({
      deleted: true,
    });
  });

  it('reflects changes a test makes to the users map', async () => {
    fake.addUser({ id: 'U0NEW0001', is_admin: true, tz: 'Asia/Tokyo' });
    const user = fake.users.get(SEEDED_USERS.member);
    if (user) user.is_admin = true;
    expect((await callJson(fake, 'users.info', { user: 'U0NEW0001' })).body.user).toMatchObject({
      is_admin: true,
      tz: 'Asia/Tokyo',
    });
    expect((await callJson(fake, 'users.info', { user: SEEDED_USERS.member })).body.user).toMatchObject({
      is_admin: true,
    });
  });

  it('answers user_not_found for strangers and people of other workspaces', async () => {
    fake.addUser({ id: 'U0ELSE001', team_id: 'T0009' });
    expect((await callForm(fake, 'users.info', { user: 'U0NOBODY' })).body).toEqual({
      ok: false,
      error: 'user_not_found',
    });
    expect((await callForm(fake, 'users.info', { user: 'U0ELSE001' })).body.error).toBe('user_not_found');
  });
});

describe('users.info on an enterprise install', () => {
  it('sees people of other workspaces of the same org only', async () => {
    fake.addTeam({
      teamId: 'T0ORG0001',
      enterpriseId: 'E0001',
      botToken: 'xoxb-org',
      botUserId: 'U0BOTORG1',
    });
    fake.addUser({ id: 'W0SIBLING', team_id: 'T0ORG0002', enterprise_id: 'E0001' });
    fake.addUser({ id: 'W0STRANGE', team_id: 'T0ORG0003', enterprise_id: 'E0999' });
    expect((await callForm(fake, 'users.info', { user: 'W0SIBLING' }, 'xoxb-org')).body.user).toMatchObject({
      enterprise_user: { enterprise_id: 'E0001' },
    });
    expect((await callForm(fake, 'users.info', { user: 'W0STRANGE' }, 'xoxb-org')).body.error).toBe(
      'user_not_found',
    );
  });
});

describe('usergroups.users.list', () => {
  it('lists members, and no_such_subteam for unknown groups', async () => {
    expect((await callForm(fake, 'usergroups.users.list', { usergroup: 'S0SECOPS1' })).body).toEqual({
      ok: true,
      users: [SEEDED_USERS.admin, SEEDED_USERS.member],
    });
    fake.usergroups.set('S0EMPTY01', []);
    expect((await callForm(fake, 'usergroups.users.list', { usergroup: 'S0EMPTY01' })).body.users).toEqual(
      [],
    );
    expect((await callForm(fake, 'usergroups.users.list', { usergroup: 'S0NOPE' })).body.error).toBe(
      'no_such_subteam',
    );
  });
});

describe('usergroups.list', () => {
  it('lists the groups with their names, handles and sizes; members only when asked', async () => {
    const { body } = await callForm(fake, 'usergroups.list', {});
    const groups = body.usergroups as Record<string, unknown>[];
    expect(groups.find((g) => g.id === 'S0SECOPS1')).toMatchObject({
      name: 'Security Operations',
      handle: 'secops',
      user_count: 2,
      date_delete: 0,
    });
    expect(groups[0]).not.toHaveProperty('users');
    const withUsers = await callForm(fake, 'usergroups.list', { include_users: 'true' });
    const secops = (withUsers.body.usergroups as Record<string, unknown>[]).find((g) => g.id === 'S0SECOPS1');
    expect(secops?.users).toEqual([SEEDED_USERS.admin, SEEDED_USERS.member]);
  });
});

describe('conversations', () => {
  it('describes channels, hiding private ones the bot is not in', async () => {
    const general = await callForm(fake, 'conversations.info', { channel: SEEDED_CHANNELS.general });
    expect(general.body.channel).toMatchObject({
      id: SEEDED_CHANNELS.general,
      name: 'general',
      is_channel: true,
      is_private: false,
      is_member: true,
    });
    const security = await callForm(fake, 'conversations.info', { channel: SEEDED_CHANNELS.security });
    expect(security.body.channel).toMatchObject({ is_private: true, is_group: true });
    fake.addChannel({ id: 'G0SECRET1', is_private: true, is_member: false });
    expect((await callForm(fake, 'conversations.info', { channel: 'G0SECRET1' })).body.error).toBe(
      'channel_not_found',
    );
    expect((await callForm(fake, 'conversations.info', { channel: 'C0NOPE' })).body.error).toBe(
      'channel_not_found',
    );
  });

  it('says whether a channel is shared with another organization (Slack Connect), as Slack does', async () => {
    const own = await callForm(fake, 'conversations.info', { channel: SEEDED_CHANNELS.general });
    expect(own.body.channel).toMatchObject({
      is_shared: false,
      is_ext_shared: false,
      is_pending_ext_shared: false,
      is_org_shared: false,
    });
    fake.addChannel({ id: 'C0CONNECT1', name: 'with-vendor', shared: 'external' });
    fake.addChannel({ id: 'C0INVITED1', name: 'invited', shared: 'pending' });
    const shared = await callForm(fake, 'conversations.info', { channel: 'C0CONNECT1' });
    expect(shared.body.channel).toMatchObject({
      is_shared: true,
      is_ext_shared: true,
      is_pending_ext_shared: false,
    });
    const pending = await callForm(fake, 'conversations.info', { channel: 'C0INVITED1' });
    expect(pending.body.channel).toMatchObject({
      is_shared: false,
      is_ext_shared: false,
      is_pending_ext_shared: true,
    });
  });

  it('opens one DM per user and says when it was already open', async () => {
    const first = await callJson(fake, 'conversations.open', { users: SEEDED_USERS.member });
    const id = (first.body.channel as { id: string }).id;
    expect(id).toMatch(/^D/);
    expect(first.body.already_open).toBeUndefined();
    const again = await callJson(fake, 'conversations.open', { users: SEEDED_USERS.member, return_im: true });
    expect(again.body).toMatchObject({
      ok: true,
      no_op: true,
      already_open: true,
      channel: { id, is_im: true, user: SEEDED_USERS.member },
    });
    expect((await callJson(fake, 'conversations.open', { users: SEEDED_USERS.deleted })).body.error).toBe(
      'user_disabled',
    );
    expect((await callJson(fake, 'conversations.open', { users: 'U0NOBODY' })).body.error).toBe(
      'user_not_found',
    );
    expect((await callJson(fake, 'conversations.open', {})).body.error).toBe('users_list_not_supplied');
  });
});

describe('team.info', () => {
  it('describes the workspace of the token, and its enterprise', async () => {
    expect((await callForm(fake, 'team.info', {})).body.team).toMatchObject({
      id: 'T0001',
      domain: 'vigil-test',
    });
    fake.addTeam({ teamId: 'T0002', enterpriseId: 'E0001', botToken: 'xoxb-two', botUserId: 'U0BOT0002' });
    expect((await callForm(fake, 'team.info', {}, 'xoxb-two')).body.team).toMatchObject({
      id: 'T0002',
      enterprise_id: 'E0001',
    });
  });
});
