/** Who and where: users, usergroups, conversations, team. */
import type { SlackState } from '../state.js';
import type { FakeChannel, FakeTeam, FakeUser, Json } from '../types.js';
import { type BotMethod, bool, fail, str } from './common.js';

export function userJson(u: FakeUser): Json {
  return {
    id: u.id,
    team_id: u.team_id,
    name: u.name,
    deleted: u.deleted ?? false,
    color: '9f69e7',
    real_name: u.real_name ?? u.name,
    tz: u.tz ?? 'America/Los_Angeles',
    tz_label: u.tz_label ?? 'Pacific Standard Time',
    tz_offset: u.tz_offset ?? -28800,
    profile: {
      real_name: u.real_name ?? u.name,
      display_name: u.name,
      email: u.email ?? `${u.name}@example.com`,
      team: u.team_id,
    },
    is_admin: u.is_admin ?? false,
    is_owner: u.is_owner ?? false,
    is_primary_owner: u.is_primary_owner ?? false,
    is_restricted: u.is_restricted ?? false,
    is_ultra_restricted: u.is_ultra_restricted ?? false,
    is_bot: u.is_bot ?? false,
    is_app_user: false,
    updated: 1_700_000_000,
    is_email_confirmed: true,
    ...(u.enterprise_id !== undefined
      ? {
          enterprise_user: {
            id: u.id,
            enterprise_id: u.enterprise_id,
            is_admin: u.is_org_admin ?? u.is_admin ?? false,
            is_owner: false,
            teams: [u.team_id],
          },
        }
      : {}),
  };
}

function channelJson(c: FakeChannel, state: SlackState): Json {
  const common = {
    id: c.id,
    created: 1_700_000_000,
    is_archived: c.is_archived ?? false,
    context_team_id: c.team_id,
  };
  if (c.is_im) {
    return {
      ...common,
      is_im: true,
      is_org_shared: false,
      user: c.user,
      is_user_deleted: state.users.get(c.user ?? '')?.deleted ?? false,
      priority: 0,
    };
  }
  return {
    ...common,
    name: c.name,
    name_normalized: c.name,
    is_channel: !c.is_private && !c.is_mpim,
    is_group: Boolean(c.is_private),
    is_im: false,
    is_mpim: Boolean(c.is_mpim),
    is_private: Boolean(c.is_private),
    is_general: c.name === 'general',
    is_shared: c.shared === 'external',
    is_org_shared: false,
    is_ext_shared: c.shared === 'external',
    is_pending_ext_shared: c.shared === 'pending',
    is_member: c.is_member ?? true,
    creator: 'U0OWNER01',
    updated: 1_700_000_000_000,
    topic: { value: '', creator: '', last_set: 0 },
    purpose: { value: '', creator: '', last_set: 0 },
    previous_names: [],
  };
}

const usersInfo: BotMethod = ({ state, team, body }) => {
  const user = state.users.get(str(body, 'user') ?? '');
  // Enterprise installs see users of every workspace of the org.
  const sameOrg = team.enterpriseId !== undefined && user?.enterprise_id === team.enterpriseId;
  if (user === undefined || (user.team_id !== team.teamId && !sameOrg)) {
    return fail('user_not_found');
  }
  return { ok: true, user: userJson(user) };
};

const usergroupUsers: BotMethod = ({ state, body }) => {
  const group = state.usergroups.get(str(body, 'usergroup') ?? '');
  if (group === undefined) return fail('no_such_subteam');
  return { ok: true, users: [...group] };
};

/** The workspace's user groups (this fake keeps them for the default team), with their names and sizes. */
const usergroupsList: BotMethod = ({ state, team, body }) => {
  const withUsers = bool(body, 'include_users');
  const usergroups = [...state.usergroups].map(([id, users]) => {
    const named = state.usergroupNames.get(id);
    return {
      id,
      team_id: team.teamId,
      is_usergroup: true,
      name: named?.name ?? id,
      description: '',
      handle: named?.handle ?? id.toLowerCase(),
      is_external: false,
      date_create: 1_700_000_000,
      date_update: 1_700_000_000,
      date_delete: 0,
      auto_type: null,
      created_by: 'U0OWNER01',
      updated_by: 'U0OWNER01',
      deleted_by: null,
      prefs: { channels: [], groups: [] },
      user_count: users.length,
      ...(withUsers ? { users: [...users] } : {}),
    };
  });
  return { ok: true, usergroups };
};

const conversationsInfo: BotMethod = ({ state, team, body }) => {
  const channel = state.channels.get(str(body, 'channel') ?? '');
  if (channel === undefined || channel.team_id !== team.teamId) return fail('channel_not_found');
  // Private channels the bot is not in are invisible to it.
  if (channel.is_private && channel.is_member === false) return fail('channel_not_found');
  return { ok: true, channel: channelJson(channel, state) };
};

const conversationsOpen: BotMethod = ({ state, team, body }) => {
  const ids = (str(body, 'users') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (ids.length === 0) return fail('users_list_not_supplied');
  for (const id of ids) {
    const user = state.users.get(id);
    if (user === undefined || user.team_id !== team.teamId) return fail('user_not_found');
    if (user.deleted) return fail('user_disabled');
  }
  if (ids.length > 1) {
    const channel: FakeChannel = {
      id: state.nextId('C'),
      name: `mpdm-${ids.join('--')}-1`,
      team_id: team.teamId,
      is_mpim: true,
      is_private: true,
      is_member: true,
    };
    state.channels.set(channel.id, channel);
    return { ok: true, channel: { id: channel.id } };
  }
  const { channel, alreadyOpen } = state.openIm(team.teamId, ids[0] ?? '');
  const full = bool(body, 'return_im');
  return {
    ok: true,
    ...(alreadyOpen ? { no_op: true, already_open: true } : {}),
    channel: full ? channelJson(channel, state) : { id: channel.id },
  };
};

function teamJson(t: FakeTeam): Json {
  return {
    id: t.teamId,
    name: t.name,
    url: `https://${t.domain}.slack.com/`,
    domain: t.domain,
    email_domain: '',
    icon: {
      image_default: true,
      image_34: 'https://a.slack-edge.com/80588/img/avatars-teams/ava_0001-34.png',
    },
    avatar_base_url: 'https://ca.slack-edge.com/',
    is_verified: false,
    ...(t.enterpriseId !== undefined
      ? { enterprise_id: t.enterpriseId, enterprise_name: `Org ${t.enterpriseId}` }
      : {}),
  };
}

const teamInfo: BotMethod = ({ state, team, body }) => {
  const wanted = str(body, 'team');
  const t = wanted === undefined ? team : state.teams.get(wanted);
  if (t === undefined) return fail('team_not_found');
  return { ok: true, team: teamJson(t) };
};

export const directoryMethods: Record<string, BotMethod> = {
  'users.info': usersInfo,
  'usergroups.users.list': usergroupUsers,
  'usergroups.list': usergroupsList,
  'conversations.info': conversationsInfo,
  'conversations.open': conversationsOpen,
  'team.info': teamInfo,
};
