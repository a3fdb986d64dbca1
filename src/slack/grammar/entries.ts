/**
 * The help entries of the subcommands whose grammar still lives here; each moves to its feature's `grammar.ts`
 * with its parser.
 */
import { EXAMPLE } from './examples.js';
import { COMMAND, CREDS_KEY_EXAMPLES, EVENTS_KEY_EXAMPLES, ex } from './key-examples.js';
import type { HelpEntry } from './spec.js';

export const ENTRIES = {
  events: {
    usage: `${COMMAND} events <identifier-id|name|all> [query] [filters]`,
    summary: 'events matching an identifier (by id or name), or all of them',
    description:
      'Searches the events of one identifier, newest first: give its id, its name (`/vigil identifiers` finds it), or `all` for the whole tenant. Add at most one query and any filters; values are comma-separated and may be quoted. Each event’s menu sets its tags, a note and a severity override; an infected device’s event (stealer log) also has Open stealer log: its saved logins and cookies, shown to you alone, your domains first, values masked (Reveal: `/vigil settings reveal`).',
    sections: [
      {
        title: 'Query (at most one)',
        lines: [
          '`domain:<domain>` · `email:<address>` · `keyword:<word>` or `keyword:"<phrase>"`',
          '`query:"<query string>"` · `username:<name>` · `github:<owner>/<repo>` · `brand:<name>`',
          '`name:"<first> <last>"` (or `name:"<last>, <first names>"`), add `strict` for exact matches',
          '`bin:<6 to 8 digits>` · `ip:<address>` · `azure_tenant:<tenant uuid>`',
          'Secrets and credentials are never typed in Slack: `events <id or name> secret` or `… credentials` opens a private form.',
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
        title: 'Acting on results',
        lines: [
          'Remediate (asks first): the API marks the identity and password pair remediated for your tenant, and the identical pairs it finds later. Ignore: every pair of that identity. Each has its reverse (Unremediate, Unignore) on the row, which says who did it; "Remediate all" and "Ignore all" act on the page. Who may: `/vigil settings act`.',
          'The footer shows the global searches left this month; an export that would use more than a tenth of them asks first (one search per 100 rows).',
        ],
      },
      {
        title: 'Filters',
        lines: [
          '`since:` `until:` on the import date: `7d`, `24h`, `2026-11-01`, `2026-11-01T10:00Z`',
          '`limit:N` rows in total (1 to 10000) · `include:auth_domains,urls,known_password_id` · `order:asc|desc`',
        ],
      },
    ],
    examples: [
      ex(`creds domain ${EXAMPLE.domain}`, `credentials with an @${EXAMPLE.domain} address`),
      ex(`creds email ${EXAMPLE.email}`, 'one address'),
      ex(`creds keyword ${EXAMPLE.username}`, 'a username'),
      ex(`creds authdomain ${EXAMPLE.authDomain}`, 'credentials used to log in to a service'),
      ex('creds password', 'opens a private form to search by password'),
      ...Object.values(CREDS_KEY_EXAMPLES),
    ],
  },
} satisfies Record<string, HelpEntry>;
