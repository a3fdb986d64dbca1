/** Everything the fake Slack knows: workspaces and their tokens, people, channels, messages, views, files. */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../../../../src/kernel/clock.js';
import type { FunctionDeclarations, FunctionExecution } from './functions.js';
import type {
  FakeChannel,
  FakeTeam,
  FakeUser,
  OAuthGrant,
  StoredMessage,
  StoredView,
  UploadedFile,
} from './types.js';

export const DEFAULT_TEAM_ID = 'T0001';
export const DEFAULT_BOT_TOKEN = 'xoxb-test-0001-vigil';
export const DEFAULT_BOT_USER_ID = 'U0BOT0001';
export const DEFAULT_APP_ID = 'A0VIGIL01';
/** The bot scopes a team granted unless it says otherwise: every scope Vigil's manifest asks for. */
export const DEFAULT_BOT_SCOPES: readonly string[] = [
  'commands',
  'chat:write',
  'users:read',
  'usergroups:read',
  'files:write',
  'im:write',
  'channels:read',
  'groups:read',
  'files:read',
  'links:write',
  'im:history',
  'assistant:write',
  'users:read.email',
  'links:read',
  'mcp:connect',
];
export const DEFAULT_CLIENT_ID = '1111111111.2222222222';
export const DEFAULT_CLIENT_SECRET = 'fake-client-secret';
/** The seeded app-level token (Socket Mode's `apps.connections.open`). @internal */
export const DEFAULT_APP_TOKEN = 'xapp-1-A0VIGIL01-0001-fakeappleveltoken';

/** Seeded people of the default team: an owner, an admin, a member and a deactivated account. */
export const SEEDED_USERS = {
  owner: 'U0OWNER01',
  admin: 'U0ADMIN01',
  member: 'U0MEMBER1',
  deleted: 'U0GONE001',
} as const;

export const SEEDED_CHANNELS = {
  general: 'C0GENERAL',
  security: 'C0SECURTY',
  notJoined: 'C0NOTJOIN',
} as const;

/** The trigger_id lifetime Slack allows before views.open refuses it. @internal */
export const TRIGGER_TTL_MS = 3_000;
export const RESPONSE_URL_MAX_USES = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60_000;

interface ResponseUrlState {
  createdAt: number;
  uses: number;
}

interface TriggerState {
  issuedAt: number | undefined;
  used: boolean;
}

export class SlackState {
  readonly teams = new Map<string, FakeTeam>();
  /** Bot token → team id. */
  readonly tokens = new Map<string, string>();
  readonly revokedTokens = new Set<string>();
  /** App-level tokens (`xapp-…`): only apps.connections.open takes them. */
  readonly appTokens = new Set<string>();
  readonly users = new Map<string, FakeUser>();
  /** Usergroup id → member user ids. */
  readonly usergroups = new Map<string, string[]>();
  /** Usergroup id → its name and handle (usergroups.list); a group without one is listed by its id. */
  readonly usergroupNames = new Map<string, { name: string; handle: string }>();
  readonly channels = new Map<string, FakeChannel>();
  readonly messages = new Map<string, StoredMessage[]>();
  readonly views = new Map<string, StoredView>();
  /** `${teamId}:${userId}` → published Home view id. */
  readonly homes = new Map<string, string>();
  readonly files = new Map<string, UploadedFile>();
  /** Upload URL key → file id. */
  readonly uploadKeys = new Map<string, string>();
  readonly oauthCodes = new Map<string, OAuthGrant>();
  /** Token rotation: refresh token → its team and whether it was already exchanged (single use). */
  readonly refreshTokens = new Map<string, { teamId: string; used: boolean }>();
  readonly responseUrls = new Map<string, ResponseUrlState>();
  readonly triggers = new Map<string, TriggerState>();
  /** Workflow steps: the manifest's declarations (none: outputs are not checked) and each run of a step. */
  functionDeclarations: FunctionDeclarations | undefined;
  readonly functionExecutions = new Map<string, FunctionExecution>();
  private counter = 0;

  constructor(
    readonly clock: Clock,
    readonly appId: string,
  ) {}

  seed(): void {
    this.appTokens.add(DEFAULT_APP_TOKEN);
    this.addTeam({
      teamId: DEFAULT_TEAM_ID,
      name: 'Vigil Test',
      domain: 'vigil-test',
      botToken: DEFAULT_BOT_TOKEN,
      botUserId: DEFAULT_BOT_USER_ID,
    });
    const person = (id: string, name: string, extra: Partial<FakeUser> = {}): FakeUser => ({
      id,
      team_id: DEFAULT_TEAM_ID,
      name,
      real_name: name,
      tz: 'Europe/Paris',
      tz_label: 'Central European Time',
      tz_offset: 3600,
      ...extra,
    });
    this.users.set(
      SEEDED_USERS.owner,
      person(SEEDED_USERS.owner, 'olivia', { is_owner: true, is_admin: true }),
    );
    this.users.set(SEEDED_USERS.admin, person(SEEDED_USERS.admin, 'adam', { is_admin: true }));
    this.users.set(
      SEEDED_USERS.member,
      person(SEEDED_USERS.member, 'mia', {
        tz: 'America/New_York',
        tz_label: 'Eastern Time',
        tz_offset: -18000,
      }),
    );
    this.users.set(SEEDED_USERS.deleted, person(SEEDED_USERS.deleted, 'gone', { deleted: true }));
    const channel = (id: string, name: string, extra: Partial<FakeChannel> = {}): FakeChannel => ({
      id,
      name,
      team_id: DEFAULT_TEAM_ID,
      is_member: true,
      ...extra,
    });
    this.channels.set(SEEDED_CHANNELS.general, channel(SEEDED_CHANNELS.general, 'general'));
    this.channels.set(
      SEEDED_CHANNELS.security,
      channel(SEEDED_CHANNELS.security, 'security', { is_private: true }),
    );
    this.channels.set(
      SEEDED_CHANNELS.notJoined,
      channel(SEEDED_CHANNELS.notJoined, 'random', { is_member: false }),
    );
    this.usergroups.set('S0SECOPS1', [SEEDED_USERS.admin, SEEDED_USERS.member]);
    this.usergroupNames.set('S0SECOPS1', { name: 'Security Operations', handle: 'secops' });
  }

  clear(): void {
    for (const m of [
      this.teams,
      this.tokens,
      this.users,
      this.usergroups,
      this.usergroupNames,
      this.channels,
      this.messages,
      this.views,
      this.homes,
      this.files,
      this.uploadKeys,
      this.oauthCodes,
      this.refreshTokens,
      this.responseUrls,
      this.triggers,
      this.functionExecutions,
    ]) {
      m.clear();
    }
    this.revokedTokens.clear();
    this.appTokens.clear();
    this.counter = 0;
  }

  addTeam(team: FakeTeam): FakeTeam {
    const full: FakeTeam = {
      name: `Team ${team.teamId}`,
      domain: team.teamId.toLowerCase(),
      botId: `B${team.teamId.slice(1)}`,
      isEnterpriseInstall: false,
      ...team,
    };
    this.teams.set(full.teamId, full);
    this.tokens.set(full.botToken, full.teamId);
    this.revokedTokens.delete(full.botToken);
    return full;
  }

  /** Unique, increasing ids with Slack's prefixes. */
  nextId(prefix: string): string {
    this.counter += 1;
    return `${prefix}0${this.counter.toString(36).toUpperCase().padStart(7, '0')}`;
  }

  /** A message timestamp: epoch seconds from the clock, and a counter that keeps it unique. */
  nextTs(): string {
    this.counter += 1;
    return `${Math.floor(this.clock.now() / 1000)}.${String(this.counter).padStart(6, '0')}`;
  }

  randomKey(bytes = 12): string {
    return randomBytes(bytes).toString('base64url');
  }

  /** The DM channel between the bot and a user, created on first use. */
  openIm(teamId: string, userId: string): { channel: FakeChannel; alreadyOpen: boolean } {
    for (const c of this.channels.values()) {
      if (c.is_im && c.user === userId && c.team_id === teamId) return { channel: c, alreadyOpen: true };
    }
    const channel: FakeChannel = {
      id: this.nextId('D'),
      name: userId,
      team_id: teamId,
      is_im: true,
      user: userId,
    };
    channel.is_member = true;
    this.channels.set(channel.id, channel);
    return { channel, alreadyOpen: false };
  }

  channelMessages(channel: string): StoredMessage[] {
    let list = this.messages.get(channel);
    if (list === undefined) {
      list = [];
      this.messages.set(channel, list);
    }
    return list;
  }

  findMessage(channel: string, ts: string): StoredMessage | undefined {
    return this.messages.get(channel)?.find((m) => m.ts === ts);
  }

  /** A trigger_id the fake knows the birth of, so views.open can refuse it after 3 s. */
  issueTrigger(): string {
    const id = `${Date.UTC(2026, 0) / 1000 + this.counter}.${this.counter + 1000}.${randomBytes(16).toString('hex')}`;
    this.counter += 1;
    this.triggers.set(id, { issuedAt: this.clock.now(), used: false });
    return id;
  }

  /** Slack's answer to a trigger_id, or undefined when it may be used (and is now spent). */
  spendTrigger(id: unknown): string | undefined {
    if (typeof id !== 'string' || id === '') return 'invalid_arguments';
    if (!/^\d+\.\d+\.[0-9a-f]+$/.test(id)) return 'invalid_trigger_id';
    const known = this.triggers.get(id) ?? { issuedAt: undefined, used: false };
    if (known.used) return 'exchanged_trigger_id';
    if (known.issuedAt !== undefined && this.clock.now() - known.issuedAt > TRIGGER_TTL_MS) {
      return 'expired_trigger_id';
    }
    this.triggers.set(id, { ...known, used: true });
    return undefined;
  }
}
