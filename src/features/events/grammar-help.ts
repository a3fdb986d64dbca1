/**
 * The help of `events`: one example per key, shared by the help page and the errors about that key (so help
 * and errors cannot drift apart).
 */
import { EXAMPLE } from '../../slack/grammar/examples.js';
import type { HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex, type HelpExample } from '../../slack/grammar/key-examples.js';

/** Examples for each `events` key, used by help and by errors about that key. */
export const EVENTS_KEY_EXAMPLES: Readonly<Record<string, HelpExample>> = {
  severity: ex(`events ${EXAMPLE.identifier} severity:high`, 'high and critical events'),
  severity_list: ex(`events ${EXAMPLE.identifier} severity:high,critical`, 'exactly high or critical'),
  type: ex(`events ${EXAMPLE.identifier} type:leak,paste`, 'only leaks and pastes'),
  type_production: ex(
    `events ${EXAMPLE.identifier} type:stealer_log,forum_post`,
    'production type names work too',
  ),
  status: ex(`events ${EXAMPLE.identifier} status:open,ignored`, 'open or ignored events'),
  tag: ex(`events ${EXAMPLE.identifier} tag:vip,"needs review"`, 'events tagged vip or "needs review"'),
  since: ex(
    `events ${EXAMPLE.identifier} since:7d`,
    'from the last 7 days (also `30m`, `24h`, `2w`, `2026-11-01`)',
  ),
  until: ex(
    `events ${EXAMPLE.identifier} since:2026-11-01 until:2026-11-07`,
    'from 1 to 7 November 2026, both days included (UTC)',
  ),
  until_time: ex(
    `events ${EXAMPLE.identifier} until:2026-11-01T10:00Z`,
    'up to an exact time (UTC or with an offset)',
  ),
  order: ex(`events ${EXAMPLE.identifier} order:asc`, 'oldest first (default newest first)'),
  size: ex(`events ${EXAMPLE.identifier} size:5`, '5 per page (1 to 10, default 10)'),
  sort: ex(`events ${EXAMPLE.identifier} sort:severity`, 'the most severe events of each page first'),
  domain: ex(`events ${EXAMPLE.identifier} domain:${EXAMPLE.domain}`, 'events about a domain'),
  email: ex(`events ${EXAMPLE.identifier} email:ceo@${EXAMPLE.domain}`, 'events about an email address'),
  keyword: ex(`events ${EXAMPLE.identifier} keyword:"Project Nightjar"`, 'a word or a quoted phrase'),
  query: ex(`events ${EXAMPLE.identifier} query:"acme AND (leak OR dump)"`, 'a query string'),
  username: ex(`events ${EXAMPLE.identifier} username:acme_admin`, 'a username'),
  github: ex(`events ${EXAMPLE.identifier} github:acme/payments-api`, 'a GitHub repository'),
  brand: ex(`events ${EXAMPLE.identifier} brand:Acme`, 'a brand name'),
  name: ex(
    `events ${EXAMPLE.identifier} name:"Ada Lovelace" strict`,
    'a person; `strict` for exact matches only',
  ),
  bin: ex(`events ${EXAMPLE.identifier} bin:412345`, 'a card BIN (6 to 8 digits)'),
  ip: ex(`events ${EXAMPLE.identifier} ip:203.0.113.7`, 'an IPv4 or IPv6 address'),
  azure_tenant: ex(
    `events ${EXAMPLE.identifier} azure_tenant:72f988bf-86f1-41af-91ab-2d7cd011db47`,
    'an Azure tenant id',
  ),
  secret: ex(
    `events ${EXAMPLE.identifier} secret`,
    'opens a private form to search by a secret or credentials',
  ),
  by_name: ex(
    `events ${EXAMPLE.domain} severity:high`,
    'an identifier by its name (several match: pick one)',
  ),
  by_phrase: ex('events Project Nightjar since:30d', 'a name of several words'),
  all: ex('events all severity:critical since:30d', "every identifier's events (the tenant feed)"),
  all_tag: ex('events all tag:vip', 'events tagged vip, whatever the identifier'),
};

export const EVENTS_HELP: HelpEntry = {
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
};
