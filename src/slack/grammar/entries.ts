import { COMMAND, EVENTS_KEY_EXAMPLES } from './key-examples.js';
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
} satisfies Record<string, HelpEntry>;
