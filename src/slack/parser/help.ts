/**
 * Help for `/vigil` and each subcommand, as data: the Slack layer renders it with Block Kit. Text is plain
 * text whose only markup is backtick code spans; escape it with `toMrkdwn` (usage lines hold `<…>`). Usage errors reuse the usage lines and examples from here, so help
 * and errors cannot drift apart.
 */
import { SUBCOMMANDS, type Subcommand } from './command.js';

export const COMMAND = '/vigil';

export interface HelpExample {
  command: string;
  description: string;
}

export interface HelpSection {
  title: string;
  lines: string[];
}

export interface HelpText {
  /** Absent for the top level. */
  topic?: Subcommand;
  title: string;
  usage: string;
  description: string;
  adminOnly: boolean;
  sections: HelpSection[];
  examples: HelpExample[];
  /** Top level only: one line per subcommand. */
  subcommands?: Array<{ name: Subcommand; usage: string; summary: string; adminOnly: boolean }>;
}

interface Entry {
  usage: string;
  summary: string;
  description: string;
  adminOnly?: boolean;
  sections?: HelpSection[];
  examples: HelpExample[];
}

const ex = (args: string, description: string): HelpExample => ({
  command: `${COMMAND} ${args}`,
  description,
});

/** Examples for each `events` key, used by help and by errors about that key. */
export const EVENTS_KEY_EXAMPLES: Readonly<Record<string, HelpExample>> = {
  severity: ex('events 12345 severity:high', 'high and critical events'),
  severity_list: ex('events 12345 severity:high,critical', 'exactly high or critical'),
  type: ex('events 12345 type:leak,paste', 'only leaks and pastes'),
  type_production: ex('events 12345 type:stealer_log,forum_post', 'production type names work too'),
  status: ex('events 12345 status:open,ignored', 'open or ignored events'),
  tag: ex('events 12345 tag:vip,"needs review"', 'events tagged vip or "needs review"'),
  since: ex('events 12345 since:7d', 'from the last 7 days (also `30m`, `24h`, `2w`, `2026-11-01`)'),
  until: ex(
    'events 12345 since:2026-11-01 until:2026-11-07',
    'from 1 to 7 November 2026, both days included (UTC)',
  ),
  until_time: ex('events 12345 until:2026-11-01T10:00Z', 'up to an exact time (UTC or with an offset)'),
  order: ex('events 12345 order:asc', 'oldest first (default newest first)'),
  size: ex('events 12345 size:5', '5 per page (1 to 10, default 10)'),
  sort: ex('events 12345 sort:severity', 'the most severe events of each page first'),
  domain: ex('events 12345 domain:example.com', 'events about a domain'),
  email: ex('events 12345 email:alice@example.com', 'events about an email address'),
  keyword: ex('events 12345 keyword:"acme corp"', 'a word or a quoted phrase'),
  query: ex('events 12345 query:"acme AND (leak OR dump)"', 'a query string'),
  username: ex('events 12345 username:jdoe', 'a username'),
  github: ex('events 12345 github:acme/website', 'a GitHub repository'),
  brand: ex('events 12345 brand:Acme', 'a brand name'),
  name: ex('events 12345 name:"Ada Lovelace" strict', 'a person; `strict` for exact matches only'),
  bin: ex('events 12345 bin:412345', 'a card BIN (6 to 8 digits)'),
  ip: ex('events 12345 ip:203.0.113.7', 'an IPv4 or IPv6 address'),
  azure_tenant: ex('events 12345 azure_tenant:72f988bf-86f1-41af-91ab-2d7cd011db47', 'an Azure tenant id'),
  secret: ex('events 12345 secret', 'opens a private form to search by a secret or credentials'),
};

/** Examples for each `creds` key. */
export const CREDS_KEY_EXAMPLES: Readonly<Record<string, HelpExample>> = {
  since: ex('creds domain example.com since:30d', 'imported in the last 30 days'),
  until: ex('creds domain example.com until:2026-11-01', 'imported up to the end of 1 November 2026 (UTC)'),
  limit: ex('creds email alice@example.com limit:500', 'up to 500 rows in total (1 to 10000)'),
  include: ex('creds domain example.com include:auth_domains,urls', 'with extra fields'),
  order: ex('creds keyword jdoe order:asc', 'oldest first'),
};

const ENTRIES: Record<Subcommand, Entry> = {
  help: {
    usage: `${COMMAND} help [subcommand]`,
    summary: 'this help, or the help of one subcommand',
    description: 'Shows every subcommand, or the usage, filters and examples of one.',
    examples: [ex('help events', 'how to search events'), ex('help', 'every subcommand')],
  },
  connect: {
    usage: `${COMMAND} connect`,
    summary: 'link this workspace to an API key and tenant',
    description:
      'Sends you a private, single-use link to a Vigil page where you paste the API key. Never paste a key in Slack.',
    adminOnly: true,
    examples: [ex('connect', 'get the one-time link')],
  },
  disconnect: {
    usage: `${COMMAND} disconnect`,
    summary: 'remove the API key from this workspace',
    description: 'Deletes the stored API key. Digests and alerts stop until someone connects again.',
    adminOnly: true,
    examples: [ex('disconnect', 'forget the key')],
  },
  status: {
    usage: `${COMMAND} status`,
    summary: 'connection health: tenant, key id, scopes, quota',
    description:
      'Shows the tenant, organization, key id, scopes, region, search quota left and the last error. Never the key.',
    examples: [ex('status', 'check the connection')],
  },
  tenants: {
    usage: `${COMMAND} tenants`,
    summary: "list the organization's tenants",
    description: 'Lists the tenants of the connected organization, with their ids, a page at a time.',
    examples: [ex('tenants', 'list tenants')],
  },
  tenant: {
    usage: `${COMMAND} tenant <tenant-id>`,
    summary: "switch the workspace's tenant",
    description: 'Switches the tenant this workspace works in. Find ids with `/vigil tenants`.',
    adminOnly: true,
    examples: [ex('tenant 42', 'switch to tenant 42')],
  },
  events: {
    usage: `${COMMAND} events <identifier-id> [query] [filters]`,
    summary: 'events matching an identifier',
    description:
      'Searches the events of one identifier, newest first. Add at most one query and any filters; values are comma-separated and may be quoted.',
    sections: [
      {
        title: 'Query (at most one)',
        lines: [
          '`domain:<domain>` · `email:<address>` · `keyword:<word>` or `keyword:"<phrase>"`',
          '`query:"<query string>"` · `username:<name>` · `github:<owner>/<repo>` · `brand:<name>`',
          '`name:"<first> <last>"` (or `name:"<last>, <first names>"`), add `strict` for exact matches',
          '`bin:<6 to 8 digits>` · `ip:<address>` · `azure_tenant:<tenant uuid>`',
          'Secrets and credentials are never typed in Slack: `events <id> secret` or `events <id> credentials` opens a private form.',
        ],
      },
      {
        title: 'Filters',
        lines: [
          '`severity:high` that level or higher · `severity:high,critical` exactly those (info, low, medium, high, critical)',
          '`type:leak,paste` (categories, or production names such as `stealer_log`) · `status:open,ignored,remediated` · `tag:a,b`',
          '`since:` and `until:` take `30m`, `24h`, `7d`, `2w` (ago), a day `2026-11-01` (UTC, whole day) or a time `2026-11-01T10:00Z`',
          '`order:asc|desc` (default desc) · `size:1-10` (default 10) · `sort:severity` (most severe first on each page)',
        ],
      },
    ],
    examples: Object.values(EVENTS_KEY_EXAMPLES),
  },
  creds: {
    usage: `${COMMAND} creds <domain|email|keyword|authdomain> <value> [filters]`,
    summary: 'search leaked credentials',
    description:
      'Searches leaked credentials by email domain, exact email, username (`keyword`) or the domain of the service logged in to (`authdomain`). To search by a password, use `/vigil creds password`: it opens a private form. Values are masked; Reveal shows one to you alone and Export CSV sends up to `limit` rows to your DM, where the workspace allows you (`/vigil settings`).',
    sections: [
      {
        title: 'Filters',
        lines: [
          '`since:` `until:` on the import date: `7d`, `24h`, `2026-11-01`, `2026-11-01T10:00Z`',
          '`limit:N` rows in total (1 to 10000) · `include:auth_domains,urls,known_password_id` · `order:asc|desc`',
        ],
      },
    ],
    examples: [
      ex('creds domain example.com', 'credentials with an @example.com address'),
      ex('creds email alice@example.com', 'one address'),
      ex('creds keyword jdoe', 'a username'),
      ex('creds authdomain login.example.com', 'credentials used to log in to a service'),
      ex('creds password', 'opens a private form to search by password'),
      ...Object.values(CREDS_KEY_EXAMPLES),
    ],
  },
  policies: {
    usage: `${COMMAND} policies [size:1-25] [order:asc|desc]`,
    summary: 'matching policies',
    description: 'Lists the matching policies of the tenant.',
    examples: [
      ex('policies', 'the first 25 policies'),
      ex('policies size:10 order:asc', '10 per page, oldest first'),
    ],
  },
  assignments: {
    usage: `${COMMAND} assignments <policy-uuid> [size:1-25] [order:asc|desc]`,
    summary: 'identifiers assigned to a policy, with Unassign',
    description:
      'Lists the identifiers a matching policy is assigned to, each with Unassign (who may: `/vigil settings`). Find policy ids with `/vigil policies`.',
    examples: [
      ex('assignments 3f2b9c1e-8d4a-4c6b-9e2f-1a2b3c4d5e6f', 'assignments of one policy'),
      ex('assignments 3f2b9c1e-8d4a-4c6b-9e2f-1a2b3c4d5e6f order:asc', 'oldest first'),
    ],
  },
  recommendations: {
    usage: `${COMMAND} recommendations [type:…] [status:…] [query:…]`,
    summary: 'identifier recommendations',
    description:
      'Lists recommended identifiers. `type:` takes domain, azure_tenant, email, username (comma-separated); `status:` one of recommended, accepted, rejected.',
    examples: [
      ex('recommendations', 'all recommendations'),
      ex('recommendations type:domain,email', 'only domains and emails'),
      ex('recommendations status:accepted', 'accepted ones'),
      ex('recommendations query:acme', 'matching a text'),
    ],
  },
  explain: {
    usage: `${COMMAND} explain <event-uid>`,
    summary: 'AI explanation of an event',
    description: 'Shows the AI assistance text for one event. The uid looks like `<index>/<source>/<id>`.',
    examples: [ex('explain leak/breach_source/8f3a2c', 'explain one event')],
  },
  upload: {
    usage: `${COMMAND} upload`,
    summary: 'send a file to the sandbox',
    description:
      'Opens a form with a file input; the file goes to the sandbox for analysis. On a message with files, the message shortcut *Send to sandbox* does the same.',
    examples: [ex('upload', 'open the upload form')],
  },
  report: {
    usage: `${COMMAND} report <request-uuid>`,
    summary: 'status and content of a report request',
    description: 'Shows the status of a report request and its content once completed.',
    examples: [ex('report 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d', 'one report request')],
  },
  digest: {
    usage: `${COMMAND} digest add|list|remove|preview …`,
    summary: 'daily digests of events in a channel',
    description:
      'Posts a daily summary of new events in a channel: counts by severity and type and the top events.',
    sections: [
      {
        title: 'Forms',
        lines: [
          '`digest add [#channel] [identifiers:1,2|all] [severity:high|high,critical] [type:leak,paste] [at:09:00] [tz:Europe/Paris] [weekdays] [always]`',
          '`digest list` · `digest remove <subscription-id>` · `digest preview <subscription-id>`',
        ],
      },
      {
        title: 'Defaults',
        lines: [
          'channel: this one · identifiers: all · severity and type: all · `at:` 09:00 · `tz:` your Slack time zone',
          '`weekdays` posts Monday to Friday only · `always` posts even when there is nothing new (by default an empty day is skipped)',
        ],
      },
    ],
    examples: [
      ex('digest add', 'a form to fill in'),
      ex('digest add always', 'every day at 09:00 in this channel, all identifiers, even when empty'),
      ex(
        'digest add #soc identifiers:12345,678 severity:high',
        'high and critical events of two identifiers',
      ),
      ex(
        'digest add severity:high,critical type:leak,paste at:08:30 tz:Europe/Paris weekdays always',
        'every field',
      ),
      ex('digest list', "this workspace's digests"),
      ex('digest preview d1a2b3c4', 'what the next digest would contain'),
      ex('digest remove d1a2b3c4', 'stop a digest'),
    ],
  },
  alerts: {
    usage: `${COMMAND} alerts add|list|remove|pause|resume …`,
    summary: 'new severe events posted in a channel within a minute',
    description:
      'Posts each new event that matches in the channel as it appears (polled every minute), with the usual buttons; several at once come as one grouped message. When someone acts on an alerted event anywhere in Vigil, the alert shows it and its thread records it. Daily digests summarise a day; alerts are for what cannot wait.',
    sections: [
      {
        title: 'Forms',
        lines: [
          '`alerts add [#channel] [identifiers:1,2|all] [severity:high|high,critical] [type:stealer_log,…] [quiet:22:00-07:00] [tz:Europe/Paris] [hold:all]`',
          '`alerts list` · `alerts remove <id>` · `alerts pause <id>` · `alerts resume <id>`',
        ],
      },
      {
        title: 'Defaults',
        lines: [
          'channel: this one · identifiers: all · severity: high and critical · type: all · no quiet hours · `tz:` your Slack time zone',
          '`type:` takes the type names shown on event rows (`stealer_log`, `leaked_credential`, `ransomleak`, `paste`…)',
          '`quiet:` holds alerts during those hours (all but critical ones, or all with `hold:all`) and posts them as one message when the hours end',
          'An alert starts with what appears after it is created; searches and digests cover what came before. Vigil must be a member of the channel.',
        ],
      },
    ],
    examples: [
      ex('alerts add', 'a form to fill in'),
      ex(
        'alerts add identifiers:3001,3002 severity:critical',
        'critical events of two identifiers, in this channel',
      ),
      ex(
        'alerts add severity:high type:stealer_log,leaked_credential',
        'leaked credentials of every identifier',
      ),
      ex(
        'alerts add quiet:22:00-07:00 tz:Europe/Paris',
        'high and critical, holding all but critical at night',
      ),
      ex('alerts list', "this workspace's alert subscriptions, and how often they poll"),
      ex('alerts pause a1b2c3d4e5f6', 'stop posting for now (resume starts again from then)'),
      ex('alerts remove a1b2c3d4e5f6', 'stop these alerts'),
    ],
  },
  audit: {
    usage: `${COMMAND} audit [n]`,
    summary: 'recent actions taken through Vigil',
    description:
      'Shows the latest n actions (1 to 100, default 20): who ignored, remediated, revealed or exported what.',
    adminOnly: true,
    examples: [ex('audit', 'the last 20 actions'), ex('audit 50', 'the last 50')],
  },
  settings: {
    usage: `${COMMAND} settings [act|reveal|export|unassign everyone|admins|group:<usergroup>]`,
    summary: 'who may act on events, reveal or export credentials, unassign',
    description:
      'Shows the settings, or sets who may do what: `act` (ignore and remediate events; `actors` works too), `reveal` (see a leaked credential in full), `export` (CSV of credentials), `unassign` (identifiers from matching policies). Each is everyone, workspace admins, or one user group.',
    adminOnly: true,
    examples: [
      ex('settings', 'show the settings'),
      ex('settings actors admins', 'only admins act on events'),
      ex('settings act group:S0123ABCD', 'members of one user group act on events'),
      ex('settings reveal admins', 'only admins reveal credentials (default)'),
      ex('settings export everyone', 'everyone may export credentials'),
    ],
  },
};

export const TOP_USAGE = `${COMMAND} <subcommand> [arguments]`;

export function usageOf(topic?: Subcommand): string {
  return topic ? ENTRIES[topic].usage : TOP_USAGE;
}

/** The first example of a subcommand, as a command line. */
export function exampleOf(topic?: Subcommand): string {
  return (topic ? ENTRIES[topic].examples[0]?.command : undefined) ?? `${COMMAND} help`;
}

export function helpText(topic?: Subcommand): HelpText {
  if (topic) {
    const e = ENTRIES[topic];
    return {
      topic,
      title: `${COMMAND} ${topic}`,
      usage: e.usage,
      description: e.description,
      adminOnly: e.adminOnly ?? false,
      sections: e.sections ?? [],
      examples: e.examples,
    };
  }
  return {
    title: 'Vigil',
    usage: TOP_USAGE,
    description:
      'Threat-intelligence monitoring in Slack: search events and leaked credentials, act on events, get daily digests and real-time alerts. Results are visible only to you unless you share them.',
    adminOnly: false,
    sections: [],
    examples: [
      ex('events 12345 severity:high since:7d', 'recent high and critical events of an identifier'),
      ex('creds domain example.com', 'leaked credentials of a domain'),
      ex('digest add #soc severity:high', 'a daily digest in #soc'),
      ex('alerts add severity:critical', 'critical events posted here as they appear'),
      ex('help events', 'every filter of `events`'),
    ],
    subcommands: SUBCOMMANDS.map((name) => ({
      name,
      usage: ENTRIES[name].usage,
      summary: ENTRIES[name].summary,
      adminOnly: ENTRIES[name].adminOnly ?? false,
    })),
  };
}
