/**
 * What `/vigil …` means once parsed: the `Commands` interface each feature extends with its own kinds, and the
 * shapes several subcommands and the search translation share. Listeners switch on `kind`; nothing here needs
 * the clock, so relative times stay relative until `translate.ts` resolves them.
 */
import type { CredentialInclude, EventQuery, EventStatus, Order, Severity } from '../../api/index.js';

/**
 * A subcommand's name: the part of a kind before its first `-` (`snoozes-end` is of `snoozes`). The registry
 * (registry.ts) holds each spec to it, so the router can name the subcommand of any kind.
 */
export type Subcommand = CommandKind extends infer K ? (K extends `${infer S}-${string}` ? S : K) : never;

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

/** What an events search asks for, whatever it searches (one identifier, a name, the tenant feed). */
export interface EventsSearchSpec {
  query?: TextEventQuery;
  filters: EventFilterSpec;
  order?: Order;
  size?: number;
  /** `sort:severity`: each page's most severe events first. */
  sort?: 'severity';
}

/**
 * Every parsed `/vigil` command, by kind. Each feature adds its own kinds to this interface by declaration
 * merging in its `grammar.ts`, beside the parser that makes them (`declare module` of this file).
 * @public
 */
export interface Commands {
  help: { kind: 'help'; topic?: Subcommand };
}

export type CommandKind = keyof Commands;
export type Command = Commands[CommandKind];
/** The commands of some kinds: what a subcommand's parser returns. */
export type CommandOf<K extends CommandKind> = Extract<Command, { kind: K }>;

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
