import { describe, expect, it } from 'vitest';
import { type Command, type Subcommand, toMrkdwn } from '../../../src/slack/grammar/index.js';
import { parseCommand, usageOf } from '../../support/grammar.js';

/** What a bug in the parser looks like to the user: never what a command gets. */
const INTERNAL_ERROR_MESSAGE = 'Vigil could not read that command.';

const NEVER_PASTE =
  'Never paste API keys or passwords in Slack. Use `/vigil connect` for API keys, `/vigil creds password` to search credentials by password, or `/vigil events <identifier-id> secret` to search events by a secret.';
const UUID = '3f2b9c1e-8d4a-4c6b-9e2f-1a2b3c4d5e6f';

describe('parseCommand: valid commands', () => {
  it.each<[string, Command]>([
    // help and the argument-less subcommands
    ['', { kind: 'help' }],
    ['   ', { kind: 'help' }],
    ['help', { kind: 'help' }],
    ['HELP Events', { kind: 'help', topic: 'events' }],
    ['help digest add', { kind: 'help', topic: 'digest' }],
    ['help settings', { kind: 'help', topic: 'settings' }],
    ['connect', { kind: 'connect' }],
    ['Connect', { kind: 'connect' }],
    ['disconnect', { kind: 'disconnect' }],
    ['status', { kind: 'status' }],
    ['tenants', { kind: 'tenants' }],
    ['upload', { kind: 'upload' }],
    ['tenant 42', { kind: 'tenant', tenantId: 42 }],
    ['  tenant   7  ', { kind: 'tenant', tenantId: 7 }],
    // events
    ['events 12345', { kind: 'events', identifierId: 12345, filters: {} }],
    ['Events 12', { kind: 'events', identifierId: 12, filters: {} }],
    ['events 12 secret', { kind: 'events-secret-modal', identifierId: 12, queryType: 'secret' }],
    ['events acme.example secret', { kind: 'events-secret-name', name: 'acme.example', queryType: 'secret' }],
    [
      'events "Project Nightjar" CREDENTIALS',
      { kind: 'events-secret-name', name: 'Project Nightjar', queryType: 'credentials' },
    ],
    // events by name, and the tenant feed
    ['events acme.example', { kind: 'events-name', name: 'acme.example', filters: {} }],
    ['events abc', { kind: 'events-name', name: 'abc', filters: {} }],
    ['events 203.0.113.132', { kind: 'events-name', name: '203.0.113.132', filters: {} }],
    [
      'events Project Nightjar since:30d',
      {
        kind: 'events-name',
        name: 'Project Nightjar',
        filters: { since: { kind: 'relative', amount: 30, unit: 'd' } },
      },
    ],
    [
      'events “Acme Labs” severity:high',
      { kind: 'events-name', name: 'Acme Labs', filters: { severity: 'high' } },
    ],
    ['events ALL tag:vip', { kind: 'events-all', filters: { tags: ['vip'] } }],
    [
      'events all keyword:vpn sort:severity',
      { kind: 'events-all', query: { type: 'keyword', keyword: 'vpn' }, filters: {}, sort: 'severity' },
    ],
    // identifiers
    ['identifiers', { kind: 'identifiers', words: [] }],
    ['identifiers Acme  labs', { kind: 'identifiers', words: ['Acme', 'labs'] }],
    [
      'identifiers "project night" type:Keyword,github',
      { kind: 'identifiers', words: ['project night'], kinds: ['keyword', 'github_repository'] },
    ],
    ['events 12 Credentials', { kind: 'events-secret-modal', identifierId: 12, queryType: 'credentials' }],
    ['events 12 severity:high', { kind: 'events', identifierId: 12, filters: { severity: 'high' } }],
    [
      'events 12 severity:HIGH,critical',
      { kind: 'events', identifierId: 12, filters: { severity: ['high', 'critical'] } },
    ],
    [
      'events 12 domain:Example.COM. since:7d until:2026-11-20T10:00+02:00 order:asc size:5',
      {
        kind: 'events',
        identifierId: 12,
        query: { type: 'domain', fqdn: 'example.com' },
        filters: {
          since: { kind: 'relative', amount: 7, unit: 'd' },
          until: { kind: 'instant', iso: '2026-11-20T10:00:00+02:00' },
        },
        order: 'asc',
        size: 5,
      },
    ],
    [
      'events 12 name:“Ada Lovelace” strict type:leak type:paste tag:vip status:open,remediated',
      {
        kind: 'events',
        identifierId: 12,
        query: { type: 'name', first_name: 'Ada', last_name: 'Lovelace', is_strict: true },
        filters: { types: ['leak', 'paste'], tags: ['vip'], statuses: ['open', 'remediated'] },
      },
    ],
    [
      'events 12 strict name:"Ludwig van Beethoven"',
      {
        kind: 'events',
        identifierId: 12,
        query: { type: 'name', first_name: 'Ludwig', last_name: 'van Beethoven', is_strict: true },
        filters: {},
      },
    ],
    [
      'events 12 name:"Lovelace, Augusta Ada"',
      {
        kind: 'events',
        identifierId: 12,
        query: { type: 'name', first_name: 'Augusta Ada', last_name: 'Lovelace', is_strict: false },
        filters: {},
      },
    ],
    [
      'events 12 email:<mailto:Alice@Example.com|Alice@Example.com>',
      { kind: 'events', identifierId: 12, query: { type: 'email', email: 'Alice@example.com' }, filters: {} },
    ],
    [
      'events 12 keyword:"AT&amp;T wireless"',
      { kind: 'events', identifierId: 12, query: { type: 'keyword', keyword: 'AT&T wireless' }, filters: {} },
    ],
    [
      'events 12 github:https://github.com/acme/site.git',
      {
        kind: 'events',
        identifierId: 12,
        query: { type: 'github_repository', repo_owner: 'acme', repo_name: 'site' },
        filters: {},
      },
    ],
    // creds
    [
      'creds domain example.com',
      { kind: 'creds', query: { type: 'domain', value: 'example.com' }, filters: {} },
    ],
    [
      'creds domain:<http://example.com|example.com> limit:500',
      { kind: 'creds', query: { type: 'domain', value: 'example.com' }, filters: { limit: 500 } },
    ],
    [
      'creds EMAIL Alice@Example.COM order:desc',
      { kind: 'creds', query: { type: 'email', value: 'Alice@example.com' }, filters: { order: 'desc' } },
    ],
    ['creds keyword jdoe', { kind: 'creds', query: { type: 'keyword', value: 'jdoe' }, filters: {} }],
    [
      'creds authdomain login.example.com since:30d until:2026-11-01 order:asc include:auth_domains,urls,known_password_id limit:10000',
      {
        kind: 'creds',
        query: { type: 'auth_domain', value: 'login.example.com' },
        filters: {
          since: { kind: 'relative', amount: 30, unit: 'd' },
          until: { kind: 'date', date: '2026-11-01' },
          order: 'asc',
          include: ['auth_domains', 'urls', 'known_password_id'],
          limit: 10000,
        },
      },
    ],
    [
      'creds auth_domain bücher.de',
      { kind: 'creds', query: { type: 'auth_domain', value: 'xn--bcher-kva.de' }, filters: {} },
    ],
    ['creds password', { kind: 'creds-password-modal' }],
    ['creds Password', { kind: 'creds-password-modal' }],
    ['creds secret', { kind: 'creds-password-modal' }],
    // policies, assignments, recommendations
    ['policies', { kind: 'policies' }],
    ['policies size:25 order:asc', { kind: 'policies', size: 25, order: 'asc' }],
    [`assignments ${UUID}`, { kind: 'assignments', policyUuid: UUID }],
    [
      `assignments ${UUID.toUpperCase()} size:5 order:desc`,
      { kind: 'assignments', policyUuid: UUID, size: 5, order: 'desc' },
    ],
    ['recommendations', { kind: 'recommendations' }],
    [
      'recommendations query:"acme corp" status:REJECTED type:azure_tenant,email',
      { kind: 'recommendations', query: 'acme corp', status: 'rejected', types: ['azure_tenant', 'email'] },
    ],
    // explain, report
    ['explain leak/breach_source/abc/def', { kind: 'explain', eventUid: 'leak/breach_source/abc/def' }],
    ['explain "paste/pastebin/x/y"', { kind: 'explain', eventUid: 'paste/pastebin/x/y' }],
    [
      'report 9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D',
      { kind: 'report', requestUuid: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d' },
    ],
    // digest
    ['digest add', { kind: 'digest-add-modal' }],
    ['digest edit abc123', { kind: 'digest-edit', subscriptionId: 'abc123' }],
    [
      'digest add weekdays',
      { kind: 'digest-add', identifierIds: 'all', timeOfDay: '09:00', weekdaysOnly: true, skipEmpty: true },
    ],
    [
      'digest add <#C0123ABCD|soc> identifiers:1,2 severity:high type:leak,paste at:8:30 tz:europe/paris weekdays always',
      {
        kind: 'digest-add',
        channel: { id: 'C0123ABCD', name: 'soc' },
        identifierIds: [1, 2],
        severity: 'high',
        types: ['leak', 'paste'],
        timeOfDay: '08:30',
        timeZone: 'Europe/Paris',
        weekdaysOnly: true,
        skipEmpty: false,
      },
    ],
    [
      'digest add always #SOC-alerts identifiers:ALL severity:high,critical tz:US/Eastern',
      {
        kind: 'digest-add',
        channel: { name: 'soc-alerts' },
        identifierIds: 'all',
        severity: ['high', 'critical'],
        timeOfDay: '09:00',
        timeZone: 'America/New_York',
        weekdaysOnly: false,
        skipEmpty: false,
      },
    ],
    [
      'digest add <#C0123ABCD|> tz:UTC at:23:59',
      {
        kind: 'digest-add',
        channel: { id: 'C0123ABCD' },
        identifierIds: 'all',
        timeOfDay: '23:59',
        timeZone: 'UTC',
        weekdaysOnly: false,
        skipEmpty: true,
      },
    ],
    ['digest list', { kind: 'digest-list' }],
    ['digest remove d1a2b3c4', { kind: 'digest-remove', subscriptionId: 'd1a2b3c4' }],
    ['digest Preview sub_01-x', { kind: 'digest-preview', subscriptionId: 'sub_01-x' }],
    // audit, settings
    ['audit', { kind: 'audit', limit: 20 }],
    ['audit 100', { kind: 'audit', limit: 100 }],
    ['settings', { kind: 'settings' }],
    ['settings actors everyone', { kind: 'settings-actors', permission: 'act', actors: 'everyone' }],
    ['settings Actors ADMINS', { kind: 'settings-actors', permission: 'act', actors: 'admins' }],
    [
      'settings actors group:S0123ABCD',
      { kind: 'settings-actors', permission: 'act', actors: { usergroup: 'S0123ABCD' } },
    ],
    [
      'settings actors <!subteam^S0123ABC|@security>',
      { kind: 'settings-actors', permission: 'act', actors: { usergroup: 'S0123ABC' } },
    ],
    [
      'settings actors group:<!subteam^S0123ABC|@security>',
      { kind: 'settings-actors', permission: 'act', actors: { usergroup: 'S0123ABC' } },
    ],
    ['settings act admins', { kind: 'settings-actors', permission: 'act', actors: 'admins' }],
    ['settings reveal everyone', { kind: 'settings-actors', permission: 'reveal', actors: 'everyone' }],
    ['settings Export admins', { kind: 'settings-actors', permission: 'export', actors: 'admins' }],
    [
      'settings unassign group:S0123ABCD',
      { kind: 'settings-actors', permission: 'unassign', actors: { usergroup: 'S0123ABCD' } },
    ],
    ['settings recommend everyone', { kind: 'settings-actors', permission: 'recommend', actors: 'everyone' }],
    [
      'settings cards <#C0SHARED01|with-vendor> open',
      { kind: 'settings-cards', channel: 'C0SHARED01', open: true },
    ],
    ['settings cards <#C0SHARED01> Closed', { kind: 'settings-cards', channel: 'C0SHARED01', open: false }],
  ])('%j', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });
});

type ErrorRow = [text: string, subcommand: Subcommand | undefined, message: string, hint?: string];

const HELP = (s: Subcommand) => `Type \`/vigil help ${s}\` for usage and examples.`;

const ERRORS: ErrorRow[] = [
  // top level
  [
    'evnets 12',
    undefined,
    'Unknown subcommand `evnets`.',
    'Did you mean `events`? Type `/vigil help` for the list.',
  ],
  [
    'cred domain x.com',
    undefined,
    'Unknown subcommand `cred`.',
    'Did you mean `creds`? Type `/vigil help` for the list.',
  ],
  [
    'rec',
    undefined,
    'Unknown subcommand `rec`.',
    'Did you mean `recommendations`? Type `/vigil help` for the list.',
  ],
  [
    'stauts',
    undefined,
    'Unknown subcommand `stauts`.',
    'Did you mean `status`? Type `/vigil help` for the list.',
  ],
  ['xyzzy', undefined, 'Unknown subcommand `xyzzy`.', 'Type `/vigil help` to see every subcommand.'],
  [
    'events:12',
    undefined,
    'Unknown subcommand `events:12`.',
    'Did you mean `events`? Type `/vigil help` for the list.',
  ],
  ['<@U0123|bob>', undefined, 'Unknown subcommand `@bob`.', 'Type `/vigil help` to see every subcommand.'],
  [
    'events 12 keyword:"acme',
    'events',
    'Unclosed quote at character 19: `keyword:"acme`.',
    'Close the quote, or leave quotes out when the value has no spaces.',
  ],
  [
    'help evnts',
    'help',
    'There is no help for `evnts`: it is not a subcommand.',
    'Did you mean `/vigil help events`?',
  ],
  [
    'help xyz',
    'help',
    'There is no help for `xyz`: it is not a subcommand.',
    'Type `/vigil help` for every subcommand.',
  ],
  // argument-less subcommands
  ['status now', 'status', '`status` takes no arguments; got `now`.', HELP('status')],
  ['connect xoxo', 'connect', '`connect` takes no arguments; got `xoxo`.'],
  ['upload file.txt', 'upload', '`upload` takes no arguments; got `file.txt`.'],
  ['tenant', 'tenant', '`tenant` needs a tenant id (see `/vigil tenants`).'],
  ['tenant x', 'tenant', 'The tenant id must be a positive whole number, not `x`.'],
  ['tenant 4 2', 'tenant', '`tenant` takes one argument; got also `2`.'],
  // events: identifier
  [
    'events',
    'events',
    '`events` needs an identifier: its id, its name, or `all`.',
    '`/vigil identifiers` lists names and ids, e.g. `/vigil events acme.example` or `/vigil events all`.',
  ],
  ['events 0', 'events', 'The identifier id must be a positive whole number, not `0`.'],
  ['events -3', 'events', 'The identifier id must be a positive whole number, not `-3`.'],
  ['events 99999999999999999999', 'events', 'The identifier id `99999999999999999999` is too large.'],
  [
    'events severity:high',
    'events',
    'The first argument of `events` is an identifier id, an identifier name or `all`, not `severity:high`.',
  ],
  [
    'events acme.example secret hunter2',
    'events',
    '`events acme.example secret` takes nothing else; the private form asks for the rest.',
  ],
  [
    'events all credentials',
    'events',
    '`credentials` searches take one identifier, its id or its name, not `all`.',
    'Find it with `/vigil identifiers`, then `/vigil events <identifier-id> credentials`.',
  ],
  ['identifiers type:phone', 'identifiers', '`phone` is not a valid identifier type.'],
  ['identifiers type:domain type:email', 'identifiers', '`type:` is given twice.'],
  ['identifiers size:5', 'identifiers', '`size:` is not a filter of `identifiers`.'],
  // events: keys and words
  [
    'events 12 foo',
    'events',
    'Unexpected `foo` in `events`.',
    'Filters are written `key:value`; type `/vigil help events` for the list.',
  ],
  ['events 12 stict', 'events', 'Unexpected `stict` in `events`.', 'Did you mean `strict`?'],
  ['events 12 "quoted"', 'events', 'Unexpected `"quoted"` in `events`.'],
  ['events 12 severity', 'events', '`severity` needs a value: write it as `severity:<value>`.'],
  [
    'events 12 sevrity:high',
    'events',
    '`sevrity:` is not a filter of `events`.',
    'Did you mean `severity:`?',
  ],
  ['events 12 tags:x', 'events', '`tags:` is not a filter of `events`.', 'Did you mean `tag:`?'],
  ['events 12 limit:5', 'events', '`limit:` is not a filter of `events`.', 'Did you mean `size:`?'],
  ['events 12 severity:', 'events', '`severity:` needs a value, like `severity:high`.'],
  ['events 12 keyword:', 'events', '`keyword:` needs a value, like `keyword:"Project Nightjar"`.'],
  // events: enums
  [
    'events 12 severity:hgh',
    'events',
    '`hgh` is not a valid severity.',
    'Did you mean `high`? Valid values: `info`, `low`, `medium`, `high` or `critical`.',
  ],
  ['events 12 severity:high,high', 'events', '`high` is listed twice in `severity:`.'],
  ['events 12 severity:high,', 'events', '`severity:` has an empty value between commas.'],
  ['events 12 severity:high severity:low', 'events', '`severity:` is given twice.', 'Give `severity:` once.'],
  ['events 12 type:lek', 'events', '`lek` is not a valid event type.'],
  ['events 12 type:leak type:leak', 'events', '`leak` is listed twice in `type:`.'],
  [
    'events 12 status:closed',
    'events',
    '`closed` is not a valid status.',
    'Valid values: `open`, `ignored` or `remediated`.',
  ],
  ['events 12 status:open status:open', 'events', '`open` is listed twice in `status:`.'],
  ['events 12 tag:a,,b', 'events', '`tag:` has an empty value between commas.'],
  ['events 12 tag:a tag:a', 'events', '`a` is listed twice in `tag:`.'],
  ['events 12 order:up', 'events', '`up` is not a valid order.', 'Valid values: `asc` or `desc`.'],
  ['events 12 order:asc order:desc', 'events', '`order:` is given twice.'],
  ['events 12 size:11', 'events', '`size:` must be from 1 to 10, not `11`.'],
  ['events 12 size:0', 'events', '`size:` must be from 1 to 10, not `0`.'],
  ['events 12 size:abc', 'events', '`size:` must be a whole number from 1 to 10, not `abc`.'],
  ['events 12 size:5 size:6', 'events', '`size:` is given twice.'],
  // events: time
  ['events 12 since:0d', 'events', '`since:` needs a duration of at least 1, like `since:7d`.'],
  [
    'events 12 since:yesterday',
    'events',
    '`since:yesterday` is not a time. Use a duration (`30m`, `24h`, `7d`, `2w`), a day (`2026-11-01`) or a time (`2026-11-01T10:00Z`).',
  ],
  ['events 12 since:2026-02-30', 'events', '`since:2026-02-30` is not a real calendar day.'],
  [
    'events 12 until:2026-11-01T10:00',
    'events',
    '`until:2026-11-01T10:00` needs a time zone: add `Z` for UTC or an offset like `+02:00`.',
  ],
  ['events 12 since:2026-11-01T25:00Z', 'events', '`since:2026-11-01T25:00Z` is not a valid date and time.'],
  [
    'events 12 since:2026-11-01T10:00+15:00',
    'events',
    '`since:2026-11-01T10:00+15:00` is not a valid date and time.',
  ],
  ['events 12 since:99999w', 'events', '`since:99999w` reaches back more than 10 years.'],
  ['events 12 since:1d since:2d', 'events', '`since:` is given twice.'],
  [
    'events 12 since:1d until:7d',
    'events',
    '`since:` is not before `until:`.',
    'Swap them, or widen the range.',
  ],
  ['events 12 since:2026-11-02 until:2026-11-01', 'events', '`since:` is not before `until:`.'],
  ['events 12 since:2026-11-01T10:00Z until:2026-11-01T09:00Z', 'events', '`since:` is not before `until:`.'],
  // events: query values
  [
    'events 12 domain:example',
    'events',
    '`domain:` must be a domain name like `example.com`, not `example`.',
  ],
  [
    'events 12 domain:1.2.3.4',
    'events',
    '`domain:` must be a domain name like `example.com`, not `1.2.3.4`.',
  ],
  [
    'events 12 domain:-bad.com',
    'events',
    '`domain:` must be a domain name like `example.com`, not `-bad.com`.',
  ],
  [
    'events 12 domain:https://example.com',
    'events',
    '`domain:` takes a domain name without `scheme://`, like `example.com`.',
  ],
  [
    'events 12 domain:a.com,b.com',
    'events',
    '`domain:` takes one value, not a list: `domain:a.com,b.com`.',
    'Quote the value if the comma belongs to it, or run one search per value.',
  ],
  [
    'events 12 email:alice',
    'events',
    '`email:` must be an email address like `alice@example.com`, not `alice`.',
  ],
  [
    'events 12 email:alice@x',
    'events',
    '`email:` must be an email address like `alice@example.com`, not `alice@x`.',
  ],
  ['events 12 ip:1.2.3.999', 'events', '`ip:` must be an IPv4 or IPv6 address, not `1.2.3.999`.'],
  ['events 12 ip:example.com', 'events', '`ip:` must be an IPv4 or IPv6 address, not `example.com`.'],
  ['events 12 bin:12345', 'events', '`bin:` must be 6 to 8 digits, not `12345`.'],
  ['events 12 bin:123456789', 'events', '`bin:` must be 6 to 8 digits, not `123456789`.'],
  ['events 12 bin:4111x1', 'events', '`bin:` must be 6 to 8 digits, not `4111x1`.'],
  ['events 12 github:acme', 'events', '`github:` must be `<owner>/<repo>`, like `acme/website`, not `acme`.'],
  [
    'events 12 github:acme/a/b',
    'events',
    '`github:` must be `<owner>/<repo>`, like `acme/website`, not `acme/a/b`.',
  ],
  [
    'events 12 name:Ada',
    'events',
    '`name:` needs a first and a last name, like `name:"Ada Lovelace"`, not `Ada`.',
    'For several first names write `name:"Lovelace, Augusta Ada"`.',
  ],
  [
    'events 12 name:"Lovelace,"',
    'events',
    '`name:` needs a first and a last name, like `name:"Ada Lovelace"`, not `Lovelace,`.',
  ],
  ['events 12 keyword:""', 'events', '`keyword:` is empty.'],
  ['events 12 query:"   "', 'events', '`query:` is empty.'],
  [`events 12 keyword:"${'k'.repeat(201)}"`, 'events', '`keyword:` is longer than 200 characters.'],
  [
    'events 12 azure_tenant:contoso',
    'events',
    '`azure_tenant:` must be a UUID like `3f2b9c1e-8d4a-4c6b-9e2f-1a2b3c4d5e6f`, not `contoso`.',
  ],
  ['events 12 strict', 'events', '`strict` only applies to a `name:` query.'],
  ['events 12 domain:x.com strict', 'events', '`strict` only applies to a `name:` query.'],
  ['events 12 strict strict name:"A B"', 'events', '`strict` is given twice.'],
  [
    'events 12 domain:x.com email:a@x.com',
    'events',
    'Only one query per search: `domain:` and `email:` were both given.',
    'Keep one query; filters like `severity:` or `since:` can be combined freely.',
  ],
  [
    'events 12 keyword:a keyword:b',
    'events',
    'Only one query per search: `keyword:` and `keyword:` were both given.',
  ],
  // events: secrets go through the modal
  [
    'events 12 secret:abc',
    'events',
    '`secret:` would put a secret in Slack, so Vigil does not take it here.',
    NEVER_PASTE,
  ],
  [
    'events 12 credentials:a',
    'events',
    '`credentials:` would put a secret in Slack, so Vigil does not take it here.',
    NEVER_PASTE,
  ],
  [
    'events 12 severity:high secret',
    'events',
    '`secret` must come right after the identifier id: `/vigil events 12 secret`.',
    'It opens a private form and takes no filters.',
  ],
  [
    'events 12 secret severity:high',
    'events',
    '`events 12 secret` takes nothing else; the private form asks for the rest.',
    NEVER_PASTE,
  ],
  // creds
  [
    'creds',
    'creds',
    '`creds` needs what to search and a value.',
    'Search by `domain`, `email`, `keyword` or `authdomain`, or use `/vigil creds password` for a private form.',
  ],
  ['creds foo x', 'creds', '`creds` searches by `domain`, `email`, `keyword` or `authdomain`, not `foo`.'],
  [
    'creds domian x.com',
    'creds',
    '`creds` searches by `domain`, `email`, `keyword` or `authdomain`, not `domian`.',
    'Did you mean `domain`?',
  ],
  ['creds domain', 'creds', '`creds domain` needs a value before any filter.'],
  ['creds domain since:7d', 'creds', '`creds domain` needs a value before any filter.'],
  ['creds domain x.com extra', 'creds', 'Unexpected `extra` in `creds`.'],
  [
    'creds domain x.com severity:high',
    'creds',
    '`severity:` is a filter of `events`, not of `creds`.',
    'Filters of `creds`: `since:`, `until:`, `limit:`, `include:` or `order:`.',
  ],
  ['creds domain x.com lmit:5', 'creds', '`lmit:` is not a filter of `creds`.', 'Did you mean `limit:`?'],
  ['creds email bob', 'creds', 'The address must be an email address like `alice@example.com`, not `bob`.'],
  [
    'creds keyword a@b.com',
    'creds',
    '`creds keyword` takes a username, the part before the @, not `a@b.com`.',
    'For a whole address use `/vigil creds email <address>`.',
  ],
  [
    'creds authdomain localhost',
    'creds',
    'The login domain must be a domain name like `example.com`, not `localhost`.',
  ],
  ['creds password hunter2', 'creds', 'Never type a password in Slack.', NEVER_PASTE],
  ['creds secret:abc', 'creds', 'Never type a password in Slack.', NEVER_PASTE],
  ['creds domain x.com limit:0', 'creds', '`limit:` must be from 1 to 10000, not `0`.'],
  ['creds domain x.com limit:10001', 'creds', '`limit:` must be from 1 to 10000, not `10001`.'],
  [
    'creds domain x.com include:url',
    'creds',
    '`url` is not a valid include.',
    'Did you mean `urls`? Valid values: `known_password_id`, `auth_domains` or `urls`.',
  ],
  ['creds domain x.com include:urls include:urls', 'creds', '`include:` is given twice.'],
  ['creds domain x.com since:2d until:3d', 'creds', '`since:` is not before `until:`.'],
  // policies, assignments, recommendations
  ['policies size:26', 'policies', '`size:` must be from 1 to 25, not `26`.'],
  ['policies foo', 'policies', 'Unexpected `foo` in `policies`.'],
  ['policies limit:5', 'policies', '`limit:` is not a filter of `policies`.', 'Did you mean `size:`?'],
  ['policies sort:asc', 'policies', '`sort:` is not a filter of `policies`.', 'Did you mean `order:`?'],
  [
    'creds domain x.com to:2026-11-01',
    'creds',
    '`to:` is not a filter of `creds`.',
    'Did you mean `until:`?',
  ],
  ['creds domain x.com size:5', 'creds', '`size:` is not a filter of `creds`.', 'Did you mean `limit:`?'],
  [
    'policies order:asc ordr:desc',
    'policies',
    '`ordr:` is not a filter of `policies`.',
    'Did you mean `order:`?',
  ],
  ['assignments', 'assignments', '`assignments` needs a policy id first (see `/vigil policies`).'],
  [
    'assignments abc',
    'assignments',
    'The policy id must be a UUID like `3f2b9c1e-8d4a-4c6b-9e2f-1a2b3c4d5e6f`, not `abc`.',
  ],
  [`assignments ${UUID} size:0`, 'assignments', '`size:` must be from 1 to 25, not `0`.'],
  [
    'recommendations type:domain,ip',
    'recommendations',
    '`ip` is not a valid recommendation type.',
    'Valid values: `domain`, `azure_tenant`, `email` or `username`.',
  ],
  [
    'recommendations status:accepted,rejected',
    'recommendations',
    '`status:` takes one value, not a list: `status:accepted,rejected`.',
  ],
  ['recommendations status:acepted', 'recommendations', '`acepted` is not a valid status.'],
  ['recommendations severity:high', 'recommendations', '`severity:` is not a filter of `recommendations`.'],
  // explain, report
  ['explain', 'explain', '`explain` needs an event uid, like `leak/breach_source/8f3a2c`.'],
  ['explain leak', 'explain', '`leak` is not an event uid; it looks like `<index>/<source>/<id>`.'],
  ['explain leak/x', 'explain', '`leak/x` is not an event uid; it looks like `<index>/<source>/<id>`.'],
  ['explain a b', 'explain', '`explain` takes one argument; got also `b`.'],
  ['report', 'report', '`report` needs a report request id.'],
  [
    'report 123',
    'report',
    'The report request id must be a UUID like `3f2b9c1e-8d4a-4c6b-9e2f-1a2b3c4d5e6f`, not `123`.',
  ],
  // digest
  ['digest', 'digest', '`digest` needs an action: `add`, `list`, `edit`, `remove` or `preview`.'],
  [
    'digest ad',
    'digest',
    '`ad` is not a `digest` action; use `add`, `list`, `edit`, `remove` or `preview`.',
    'Did you mean `digest add`?',
  ],
  ['digest list x', 'digest', '`digest list` takes no arguments; got `x`.'],
  ['digest remove', 'digest', '`digest remove` needs a subscription id; `/vigil digest list` shows them.'],
  ['digest edit', 'digest', '`digest edit` needs a subscription id; `/vigil digest list` shows them.'],
  ['digest remove a/b', 'digest', '`a/b` is not a subscription id; `/vigil digest list` shows them.'],
  ['digest preview abc extra', 'digest', '`digest preview` takes one subscription id; got also `extra`.'],
  ['digest add #soc <#C1|x>', 'digest', 'A digest posts in one channel; two were given.'],
  ['digest add #a b', 'digest', 'Unexpected `b` in `digest add`.'],
  [
    'digest add #x.y',
    'digest',
    '`#x.y` is not a channel name.',
    'Pick the channel with `#` so Slack links it.',
  ],
  ['digest add at:24:00', 'digest', '`at:` takes a 24-hour time like `09:00` or `17:30`, not `24:00`.'],
  ['digest add at:9am', 'digest', '`at:` takes a 24-hour time like `09:00` or `17:30`, not `9am`.'],
  ['digest add at:09:00 at:10:00', 'digest', '`at:` is given twice.'],
  ['digest add identifiers:all,1', 'digest', '`identifiers:all` cannot be combined with ids.'],
  ['digest add identifiers:0', 'digest', 'An identifier id must be a positive whole number, not `0`.'],
  ['digest add identifiers:1,1', 'digest', '`1` is listed twice in `identifiers:`.'],
  ['digest add weekdays weekdays', 'digest', '`weekdays` is given twice.'],
  ['digest add weekday', 'digest', 'Unexpected `weekday` in `digest add`.', 'Did you mean `weekdays`?'],
  ['digest add alway', 'digest', 'Unexpected `alway` in `digest add`.', 'Did you mean `always`?'],
  [
    'digest add severty:high',
    'digest',
    '`severty:` is not a filter of `digest add`.',
    'Did you mean `severity:`?',
  ],
  ['digest add status:open', 'digest', '`status:` is not a filter of `digest add`.'],
  [
    'digest add tz:Europe/Pari',
    'digest',
    '`Europe/Pari` is not an IANA time zone.',
    'Did you mean `Europe/Paris`?',
  ],
  [
    'digest add tz:+01:00',
    'digest',
    '`+01:00` is not an IANA time zone.',
    'Use a name like `Europe/Paris`, `America/New_York` or `UTC`.',
  ],
  ['digest add severity:urgent', 'digest', '`urgent` is not a valid severity.'],
  // audit, settings
  ['audit 0', 'audit', 'The number of entries must be from 1 to 100, not `0`.'],
  ['audit 101', 'audit', 'The number of entries must be from 1 to 100, not `101`.'],
  ['audit x:1', 'audit', '`audit` takes a number of entries, not `x:1`.'],
  ['audit 1 2', 'audit', '`audit` takes at most one number; got also `2`.'],
  ['settings actor admins', 'settings', '`actor` is not a setting.', 'Did you mean `actors`?'],
  ['settings actors', 'settings', '`settings actors` needs `everyone`, `admins` or `group:<usergroup>`.'],
  ['settings cards open', 'settings', '`settings cards` needs a channel: mention it (type # and pick it).'],
  ['settings cards <#C0SHARED01> maybe', 'settings', '`settings cards #channel` needs `open` or `closed`.'],
  [
    'settings actors root',
    'settings',
    '`root` is not who may ignore, remediate or triage events; use `everyone`, `admins` or `group:<usergroup>`.',
  ],
  [
    'settings actors admin',
    'settings',
    '`admin` is not who may ignore, remediate or triage events; use `everyone`, `admins` or `group:<usergroup>`.',
    'Did you mean `admins`?',
  ],
  [
    'settings actors group:foo',
    'settings',
    '`foo` is not a user group id.',
    'Mention the group (type @ and pick it) or give its id, like `group:S0123ABCD`.',
  ],
  ['settings actors everyone x', 'settings', '`settings actors` takes one value; got also `x`.'],
  // echoed input stays inside its code span and is short
  ['events 12 foo&lt;!channel&gt;', 'events', 'Unexpected `foo<!channel>` in `events`.'],
  ['events 12 `rm`', 'events', 'Unexpected ` rm ` in `events`.'],
  [`events 12 ${'x'.repeat(100)}`, 'events', `Unexpected \`${'x'.repeat(39)}…\` in \`events\`.`],
];

describe('parseCommand: usage errors', () => {
  it.each(ERRORS)('%j', (text, subcommand, message, hint) => {
    const result = parseCommand(text);
    if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.command)}`);
    const { error } = result;
    expect(error.message).toBe(message);
    if (hint !== undefined) expect(error.hint).toBe(hint);
    expect(error.hint.length).toBeGreaterThan(0);
    expect(error.subcommand).toBe(subcommand);
    expect(error.usage).toBe(usageOf(subcommand));
    // The example shown with an error must itself work.
    expect(error.example.startsWith('/vigil ')).toBe(true);
    expect(parseCommand(error.example.slice('/vigil '.length)).ok).toBe(true);
  });

  it('uses the usage line of the subcommand', () => {
    const result = parseCommand('events 12 severity:x');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.usage).toBe('/vigil events <identifier-id|name|all> [query] [filters]');
      expect(result.error.example).toBe('/vigil events 3001 severity:high');
    }
  });

  it('points the example at the filter that was wrong', () => {
    const examples = [
      'events 12 bin:1',
      'events 12 tag:a,,b',
      'creds domain x.com limit:0',
      'digest add tz:Mars/Base',
    ].map((text) => {
      const r = parseCommand(text);
      return r.ok ? undefined : r.error.example;
    });
    expect(examples).toEqual([
      '/vigil events 3001 bin:412345',
      '/vigil events 3001 tag:vip,"needs review"',
      '/vigil creds email marc.ivanova@acme.example limit:500',
      '/vigil digest add tz:Europe/Paris',
    ]);
  });
});

describe('toMrkdwn', () => {
  it('makes echoed input inert in mrkdwn', () => {
    const result = parseCommand('events 12 &lt;!channel&gt;&amp;&lt;@U123&gt;');
    if (result.ok) throw new Error('expected an error');
    expect(toMrkdwn(result.error.message)).toBe(
      'Unexpected `&lt;!channel&gt;&amp;&lt;@U123&gt;` in `events`.',
    );
  });

  it('escapes usage lines', () => {
    expect(toMrkdwn(usageOf('events'))).toBe(
      '/vigil events &lt;identifier-id|name|all&gt; [query] [filters]',
    );
  });
});

describe('parseCommand: secrets', () => {
  const secrets = [
    `connect ${['xoxb', '123456789012', '1234567890123', 'AbCdEfGhIjKlMnOpQrStUvWx'].join('-')}`,
    'creds email a@example.com password=hunter2',
    'events 12 query:"pwd: letmein"',
    `events 12 keyword:${'Zk9vR2xBc3Q4UmFuZG9tS2V5MTIzNDU2Nzg5'}`,
  ];

  it.each(secrets)('refuses %#, never echoing it', (text) => {
    const result = parseCommand(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.hint).toBe(NEVER_PASTE);
    expect(result.error.message).toMatch(
      /^.+ looks like .+, so Vigil did not use it \(nor will it repeat it\)\.$/,
    );
    const secretPart = text.split(' ').pop() ?? '';
    expect(JSON.stringify(result.error)).not.toContain(secretPart);
  });

  it('names what it recognised', () => {
    const result = parseCommand(
      `events 12 keyword:${['ghp', 'a1B2c3D4e5F6g7H8i9J0a1B2c3D4e5F6g7H8'].join('_')}`,
    );
    expect(result.ok ? undefined : result.error.message).toBe(
      'The value of `keyword:` looks like a GitHub token, so Vigil did not use it (nor will it repeat it).',
    );
  });

  it('names the field of a typed password, not the value', () => {
    const result = parseCommand('events 3001 query:"P@ssw0rd123!"');
    expect(result.ok ? undefined : result.error.message).toBe(
      'The value of `query:` looks like a password, so Vigil did not use it (nor will it repeat it).',
    );
    const creds = parseCommand('creds keyword Tr0ub4dor&3');
    expect(creds.ok ? undefined : creds.error.message).toBe(
      'The value after `creds keyword` looks like a password, so Vigil did not use it (nor will it repeat it).',
    );
  });

  it('never quotes back a stray word that may be a password', () => {
    for (const [text, word] of [
      ['creds email a@b.c hunter2', 'hunter2'],
      ['status letmein99', 'letmein99'],
      ['tenant 2002 s3cr3t', 's3cr3t'],
      ['digest remove d1a2b3c4 Hunter22', 'Hunter22'],
      ['hunter2', 'hunter2'],
      ['events 3001 keyword:"hunter2', 'hunter2'],
    ] as const) {
      const result = parseCommand(text);
      expect(result.ok, text).toBe(false);
      expect(JSON.stringify(result), text).not.toContain(word);
      if (!result.ok) expect(result.error.message, text).toContain('not repeated here');
    }
  });

  it('lets event uids, uuids and hashes through', () => {
    for (const text of [
      'explain illicit_networks/telegram/AbCdEf123456GhIjKl789012MnOpQr',
      'report 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
      'events 12 query:"5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8"',
      'events 12 secret',
      'creds password',
    ]) {
      expect(parseCommand(text).ok, text).toBe(true);
    }
  });
});

it('never reports an internal error for the tables above', () => {
  for (const [text] of ERRORS) {
    const result = parseCommand(text);
    expect(result.ok ? '' : result.error.message).not.toBe(INTERNAL_ERROR_MESSAGE);
  }
});
