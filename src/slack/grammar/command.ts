/**
 * What `/vigil …` means once parsed: one variant per subcommand (docs/user-guide.md). Listeners switch on `kind`;
 * nothing here needs the clock, so relative times stay relative until `translate.ts` resolves them.
 */
import type {
  CredentialInclude,
  EventQuery,
  EventStatus,
  EventType,
  IdentifierKind,
  Order,
  RecommendationStatus,
  RecommendationType,
  SearchType,
  Severity,
  WatchType,
} from '../../api/index.js';

/** Subcommands, in the order help lists them. */
export const SUBCOMMANDS = [
  'help',
  'connect',
  'disconnect',
  'status',
  'tenants',
  'tenant',
  'events',
  'identifiers',
  'creds',
  'policies',
  'assignments',
  'recommendations',
  'explain',
  'upload',
  'report',
  'intel',
  'idp',
  'digest',
  'alerts',
  'audit',
  'settings',
  'snooze',
  'snoozes',
] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

/** A time bound as typed; resolved against `now` only when a search is built. */
export type TimeBound =
  | { kind: 'relative'; amount: number; unit: 'm' | 'h' | 'd' | 'w' }
  /** A calendar day in UTC, `YYYY-MM-DD`. */
  | { kind: 'date'; date: string }
  /** An explicit instant, normalised to `YYYY-MM-DDTHH:MM:SS[.f](Z|±HH:MM)` with its offset kept. */
  | { kind: 'instant'; iso: string };

/** Query objects Slack text may carry: `secret` and `credentials` only ever come through a modal. */
export type TextEventQuery = Exclude<EventQuery, { type: 'secret' } | { type: 'credentials' }>;

export interface EventFilterSpec {
  /** A single level means "that level or higher"; a list means exactly those levels. */
  severity?: Severity | Severity[];
  /** Specification categories or production names (`stealer_log`), as the contract's `SearchType`. */
  types?: string[];
  statuses?: EventStatus[];
  tags?: string[];
  since?: TimeBound;
  until?: TimeBound;
}

export type CredsQueryType = 'domain' | 'email' | 'keyword' | 'auth_domain';

export interface CredsFilterSpec {
  since?: TimeBound;
  until?: TimeBound;
  /** Total rows the user wants (1–10000); the page size is chosen separately. */
  limit?: number;
  include?: CredentialInclude[];
  order?: Order;
}

/** A channel as typed: Slack's escaped reference gives the id, a bare `#name` only the name. */
export type ChannelRef = { id: string; name?: string } | { name: string };

/** Who may act on events (ignore/remediate) in a workspace; the shape SettingsRepo stores. */
export type { Actors } from '../../kernel/permission-rules.js';

import type { Actors, Permission } from '../../kernel/permission-rules.js';

/** What an events search asks for, whatever it searches (one identifier, a name, the tenant feed). */
export interface EventsSearchSpec {
  query?: TextEventQuery;
  filters: EventFilterSpec;
  order?: Order;
  size?: number;
  /** `sort:severity`: each page's most severe events first. */
  sort?: 'severity';
}

/** What a snooze quiets: one event, every event of an identifier, or every event of a source. */
export type SnoozeTargetSpec =
  | { kind: 'event'; uid: string }
  | { kind: 'identifier'; id: number }
  | { kind: 'source'; source: string };

/** How long: some hours from now, or until 00:00 UTC of a day (`YYYY-MM-DD`). */
export type SnoozeLengthSpec = { kind: 'for'; hours: number } | { kind: 'until'; date: string };

export type Command =
  | { kind: 'help'; topic?: Subcommand }
  | { kind: 'connect' }
  | { kind: 'disconnect' }
  | { kind: 'status' }
  | { kind: 'tenants' }
  | { kind: 'tenant'; tenantId: number }
  | {
      kind: 'events';
      identifierId: number;
      query?: TextEventQuery;
      filters: EventFilterSpec;
      order?: Order;
      size?: number;
      /** `sort:severity`: each page's most severe events first. */
      sort?: 'severity';
    }
  /** `events <name>`: resolved to an identifier by name (a picker when several match). */
  | ({ kind: 'events-name'; name: string } & EventsSearchSpec)
  /** `events all`: the tenant-wide feed. */
  | ({ kind: 'events-all' } & EventsSearchSpec)
  | { kind: 'events-secret-modal'; identifierId: number; queryType: 'secret' | 'credentials' }
  /** The private form of the identifier of that name (it opens at once when the name is already known). */
  | { kind: 'events-secret-name'; name: string; queryType: 'secret' | 'credentials' }
  /** `identifiers [words] [type:…]`: find identifiers by name. */
  | { kind: 'identifiers'; words: string[]; kinds?: IdentifierKind[] }
  | { kind: 'creds'; query: { type: CredsQueryType; value: string }; filters: CredsFilterSpec }
  | { kind: 'creds-password-modal' }
  | { kind: 'policies'; size?: number; order?: Order }
  | { kind: 'assignments'; policyUuid: string; size?: number; order?: Order }
  | {
      kind: 'recommendations';
      types?: RecommendationType[];
      status?: RecommendationStatus;
      query?: string;
    }
  | { kind: 'explain'; eventUid: string }
  | { kind: 'upload' }
  | { kind: 'report'; requestUuid: string }
  /** `intel <question> [since:] [keywords:] [exclude:]`: a report asked of Threat Flow. */
  | {
      kind: 'intel';
      question: string;
      since?: TimeBound;
      keywords?: string[];
      exclude?: string[];
    }
  /** `identifiers add <type> <value> [name:"…"] [categories:…] [severity:…]`: watch a new asset. */
  | {
      kind: 'identifiers-add';
      type: WatchType;
      value: string;
      name?: string;
      /** Absent: every published category. */
      categories?: SearchType[];
      /** Absent: every severity. */
      severities?: Severity[];
    }
  | { kind: 'identifiers-remove'; identifierId: number }
  | { kind: 'identifiers-disable'; identifierId: number }
  | { kind: 'identifiers-enable'; identifierId: number }
  | {
      kind: 'digest-add';
      /** Absent: the channel the command was typed in. */
      channel?: ChannelRef;
      identifierIds: number[] | 'all';
      /** Absent: every severity. */
      severity?: Severity | Severity[];
      /** Absent: every type. */
      types?: EventType[];
      /** Absent: any tags; else events with one of these tags. */
      tags?: string[];
      /** `HH:MM`, 24-hour. */
      timeOfDay: string;
      /** Canonical IANA name; absent: the creator's time zone. */
      timeZone?: string;
      weekdaysOnly: boolean;
      /** `every:week day:<weekday>`: weekly on this ISO weekday (1 Monday … 7 Sunday); absent: daily. */
      weekday?: number;
      skipEmpty: boolean;
    }
  /** `digest add` with nothing after it: the form. */
  | { kind: 'digest-add-modal' }
  | { kind: 'digest-list' }
  /** The form, filled with the digest's settings. */
  | { kind: 'digest-edit'; subscriptionId: string }
  | { kind: 'digest-remove'; subscriptionId: string }
  | { kind: 'digest-preview'; subscriptionId: string }
  | {
      kind: 'alerts-add';
      /** Absent: the channel the command was typed in. */
      channel?: ChannelRef;
      identifierIds: number[] | 'all';
      /** One level: that level or higher (default high); several: exactly those. */
      severity: Severity | Severity[];
      /** Event type names (as on event rows); empty: every type. */
      types: string[];
      /** Quiet hours, `HH:MM` local to `timeZone`. */
      quiet?: { from: string; to: string };
      /** Canonical IANA name; absent: the creator's time zone. */
      timeZone?: string;
      /** What quiet hours hold back. */
      hold: 'all' | 'noncritical';
      /** Who each alert mentions (ids as Slack sent them; checked with Slack before they are kept). */
      mention?: { users: string[]; groups: string[]; on: 'critical' | 'all' };
      /** `ask-person:on`: the person a leaked company credential belongs to is asked by DM (docs/ask-person.md). */
      askPerson?: boolean;
    }
  /** `alerts add` with nothing after it: the form. */
  | { kind: 'alerts-add-modal' }
  | { kind: 'alerts-list' }
  | { kind: 'alerts-remove'; subscriptionId: string }
  | { kind: 'alerts-pause'; subscriptionId: string }
  | { kind: 'alerts-resume'; subscriptionId: string }
  | { kind: 'audit'; limit: number }
  | { kind: 'audit-export' }
  | { kind: 'settings' }
  | { kind: 'settings-actors'; permission: Permission; actors: Actors }
  /** Who administers Vigil: one user group, or `admins` (Slack's workspace admins, as before it was set). */
  | { kind: 'settings-admins'; admins: 'admins' | { usergroup: string } }
  /** Event cards in one channel shared with another organization (Slack Connect), opened or closed by an admin. */
  | { kind: 'settings-cards'; channel: string; open: boolean }
  /** `settings contain-approval on|off`: whether a containment waits for a second holder of `contain`. */
  | { kind: 'settings-contain-approval'; on: boolean }
  /** `idp connect …`: the secret itself comes through a form, never the command. */
  | { kind: 'idp-connect'; provider: 'entra'; tenant: string; client: string }
  | { kind: 'idp-connect'; provider: 'okta'; org: string; client?: string }
  | { kind: 'idp-status' }
  | { kind: 'idp-disconnect' }
  | { kind: 'snooze'; target: SnoozeTargetSpec; length: SnoozeLengthSpec }
  | { kind: 'snoozes' }
  | { kind: 'snoozes-end'; snoozeId: string };

export type CommandKind = Command['kind'];

/**
 * All texts are plain text whose only markup is backtick code spans; echoed input sits inside them with
 * backticks removed. Pass each through `toMrkdwn` (escapes `&`, `<`, `>`) before putting it in mrkdwn.
 */
export interface UsageError {
  /** What is wrong, in one sentence. */
  message: string;
  /** What to do instead: a suggestion or the way to get help. Never empty. */
  hint: string;
  /** The usage line of the subcommand (or of `/vigil` itself). */
  usage: string;
  /** One example command that works. */
  example: string;
  subcommand?: Subcommand;
}

export type ParseResult = { ok: true; command: Command } | { ok: false; error: UsageError };
