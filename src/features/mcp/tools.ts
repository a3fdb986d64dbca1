/**
 * Vigil's MCP tools: each is one `/vigil` subcommand, its arguments written as the command line a person
 * would type and read by the same grammar (src/slack/grammar/), so a tool's validation, permissions, quota,
 * masking and audit are the command's own. The names are an interface (docs/mcp.md): never rename one.
 *
 * Free text goes into the command line quoted, with `&`, `<` and `>` escaped as Slack escapes typed text, so
 * an argument can neither open a Slack reference nor add a key the schema did not allow.
 */
import * as z from 'zod/v4';
import type { EventActing } from '../../domain/events/ports.js';
import type { StealerLogs } from '../../domain/stealer-logs.js';
import type { Clock } from '../../kernel/clock.js';
import { ACCEPTED_EVENT_TYPES } from '../../slack/grammar/event-types.js';
import type { PersonWork } from './run-command.js';

const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;

/** `7d`, `24h`, `30m`, `2w`, a UTC day, or an instant with its offset: the grammar's `since:` values. */
const since = z
  .string()
  .regex(/^(\d{1,7}[mhdwMHDW]|\d{4}-\d{2}-\d{2}(T[0-9:.]{5,15}(Z|[+-]\d{2}:?\d{2}))?)$/)
  .describe(
    'How far back: a duration like "7d", "24h", "2w", a UTC day "2026-11-01", or an instant "2026-11-01T09:00Z".',
  );

/** Free text: no quotes, backticks or control characters (it is quoted whole into the command line). */
const phrase = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^"“”`\p{Cc}]+$/u);

/** One word of the grammar: letters, digits and the few marks identifiers and domains use. */
const word = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,253}$/);

export const confirm = z
  .boolean()
  .optional()
  .describe(
    'Set to true only after the person has explicitly agreed to this exact action. Without it, nothing is done and the result says what would happen.',
  );

/** Slack's escaping of typed text, so the tokenizer reads it as text, never as a reference. */
function slackText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const quoted = (value: string) => `"${slackText(value)}"`;

type Line = Array<string | undefined | false>;
const line = (parts: Line) => parts.filter((p): p is string => typeof p === 'string').join(' ');

/** The services the tools with no `/vigil` command use (a row's buttons have none). */
export interface DirectDeps {
  clock: Clock;
  events: EventActing;
  stealerLogs: Pick<StealerLogs, 'open'>;
}

export interface ToolSpec<S extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** Reads nothing but changes nothing (`readOnlyHint`), or acts (asks for `confirm: true` first). */
  acts: boolean;
  /** The `/vigil` command line the arguments mean (without `/vigil`)… */
  command?(args: z.infer<z.ZodObject<S>>): string;
  /** …or, for what only a button does, the work itself. */
  work?(args: z.infer<z.ZodObject<S>>, deps: DirectDeps): PersonWork;
  /** For an action: what it would do, said before it is confirmed. */
  wouldDo?(args: z.infer<z.ZodObject<S>>): string;
}

export function tool<S extends z.ZodRawShape>(spec: ToolSpec<S>): ToolSpec<S> {
  return spec;
}

const searchEvents = tool({
  name: 'search_events',
  title: 'Search threat-intelligence events',
  description:
    'Search the events (leaks, stealer logs, dark-web mentions, …) Flare found for one monitored identifier, or for every identifier of the tenant. Use list_identifiers first when unsure of the name. Returns the newest events first, each with its uid, severity, type and title; use explain_event with a uid for details.',
  input: {
    identifier: z
      .union([z.number().int().positive(), phrase(200)])
      .optional()
      .describe(
        'The identifier to search: its numeric id, or its name (e.g. "acme.com", "Project Nightjar"). Omit to search every identifier of the tenant.',
      ),
    severity: z.enum(SEVERITIES).optional().describe('Only events of this severity or higher.'),
    since: since.optional(),
    types: z
      .array(z.enum(ACCEPTED_EVENT_TYPES as [string, ...string[]]))
      .max(10)
      .optional()
      .describe('Only these event types, e.g. ["stealer_log", "leaked_credential", "lookalike"].'),
  },
  acts: false,
  command: (a) =>
    line([
      'events',
      a.identifier === undefined
        ? 'all'
        : typeof a.identifier === 'number'
          ? String(a.identifier)
          : quoted(a.identifier),
      a.severity && `severity:${a.severity}`,
      a.since && `since:${a.since}`,
      a.types && a.types.length > 0 && `type:${a.types.join(',')}`,
    ]),
});

export const eventUid = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_./:-]{2,300}$/)
  .describe('The event uid, as search_events returns it.');

const explainEvent = tool({
  name: 'explain_event',
  title: 'Explain an event',
  description:
    "Flare's explanation of one event: what was found, where, why it matters and what to do. Takes the uid from search_events.",
  input: { event_uid: eventUid },
  acts: false,
  command: (a) => line(['explain', a.event_uid]),
});

const searchCredentials = tool({
  name: 'search_leaked_credentials',
  title: 'Search leaked credentials',
  description:
    'Search leaked credentials (usernames with where they leaked) by domain, email, keyword or the domain they authenticate to. Passwords are never returned: results are masked. Needs the `creds` permission and spends the organization’s search quota.',
  input: {
    by: z
      .enum(['domain', 'email', 'keyword', 'auth_domain'])
      .describe(
        'What value is: the domain of the accounts, one email address, a keyword in usernames, or the domain the credentials log in to.',
      ),
    value: word.describe('The domain, email or keyword, e.g. "acme.com".'),
    since: since.optional(),
    limit: z.number().int().min(1).max(100).optional().describe('How many credentials at most (default 10).'),
  },
  acts: false,
  command: (a) =>
    line([
      'creds',
      a.by === 'auth_domain' ? 'authdomain' : a.by,
      slackText(a.value),
      a.since && `since:${a.since}`,
      a.limit !== undefined && `limit:${a.limit}`,
    ]),
});

const listIdentifiers = tool({
  name: 'list_identifiers',
  title: 'List monitored identifiers',
  description:
    'The identifiers (domains, keywords, emails, brands, …) the tenant monitors, with their ids and names; optionally only those whose name contains some words.',
  input: { name: phrase(200).optional().describe('Words the identifier name contains.') },
  acts: false,
  command: (a) => line(['identifiers', a.name && quoted(a.name)]),
});

const listSnoozes = tool({
  name: 'list_snoozes',
  title: 'List snoozes',
  description:
    'The snoozes running in this workspace: what each quiets (an event, an identifier or a source) and until when.',
  input: {},
  acts: false,
  command: () => 'snoozes',
});

const listDigests = tool({
  name: 'list_digests',
  title: 'List digest subscriptions',
  description:
    'The scheduled digests of this workspace, with their ids (for preview_digest), channels and times.',
  input: {},
  acts: false,
  command: () => 'digest list',
});

const previewDigest = tool({
  name: 'preview_digest',
  title: 'Preview a digest',
  description:
    'What the next digest of one subscription would show now, without posting it. Takes an id from list_digests.',
  input: {
    subscription_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .describe('The digest subscription id.'),
  },
  acts: false,
  command: (a) => line(['digest', 'preview', a.subscription_id]),
});

const getStatus = tool({
  name: 'get_status',
  title: 'Connection status and quota',
  description:
    'Whether this workspace is connected to Flare, to which tenant, and the remaining search quota of the organization.',
  input: {},
  acts: false,
  command: () => 'status',
});

const snoozeEvent = tool({
  name: 'snooze_event',
  title: 'Snooze an event',
  description:
    'Quiets alerts and digests about one event for a while. Needs the `act` permission. Call first without confirm to learn what would happen, ask the person, then call again with confirm: true.',
  input: {
    event_uid: eventUid,
    length: z
      .enum(['1h', '1d', '7d'])
      .optional()
      .describe('How long (default 1d). Use until instead for a day.'),
    until: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional()
      .describe('Snooze until 00:00 UTC of this day, "YYYY-MM-DD".'),
    confirm,
  },
  acts: true,
  command: (a) => line(['snooze', a.event_uid, a.until ? `until:${a.until}` : (a.length ?? '1d')]),
  wouldDo: (a) =>
    `Snooze event \`${a.event_uid}\` ${a.until ? `until ${a.until} (00:00 UTC)` : `for ${a.length ?? '1d'}`}: alerts and digests leave it out until then.`,
});

const requestIntel = tool({
  name: 'request_intel',
  title: 'Request a threat-intelligence report',
  description:
    'Asks Flare’s Threat Flow a question; the report arrives in the person’s direct messages with Vigil when ready. Needs the `intel` permission and spends a report. Call first without confirm, ask the person, then call again with confirm: true.',
  input: {
    question: phrase(500).describe('The question, e.g. "Who sells access to acme.com?"'),
    since: since.optional(),
    keywords: z.array(word).max(10).optional().describe('Keywords the sources must mention.'),
    exclude: z.array(word).max(10).optional().describe('Keywords to leave out.'),
    confirm,
  },
  acts: true,
  command: (a) =>
    line([
      'intel',
      quoted(a.question),
      a.since && `since:${a.since}`,
      a.keywords && a.keywords.length > 0 && `keywords:${a.keywords.join(',')}`,
      a.exclude && a.exclude.length > 0 && `exclude:${a.exclude.join(',')}`,
    ]),
  wouldDo: (a) =>
    `Ask Threat Flow “${a.question}”${a.since ? ` (sources since ${a.since})` : ''}: one report of the organization's allowance, delivered by direct message.`,
});

export const COMMAND_TOOLS = [
  searchEvents,
  explainEvent,
  searchCredentials,
  listIdentifiers,
  listSnoozes,
  listDigests,
  previewDigest,
  getStatus,
  snoozeEvent,
  requestIntel,
] as const;
