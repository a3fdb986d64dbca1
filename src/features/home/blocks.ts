/** Pure Block Kit for App Home. Upstream and user-provided text is escaped. */
import type { KnownBlock, View } from '@slack/types';
import { auditLine } from '../../domain/audit-blocks.js';
import { organizationLabel, quotaLine, tenantLabel } from '../../domain/connection-blocks.js';
import { describeActors, permissionLines } from '../../domain/settings-blocks.js';
import { snoozeHomeGroups } from '../../domain/snooze-blocks.js';
import { alertHomeGroups } from '../../domain/subscriptions/alert-blocks.js';
import type { AlertList } from '../../domain/subscriptions/alert-service.js';
import type { DigestListItem } from '../../domain/subscriptions/digest-blocks.js';
import { digestHomeGroups } from '../../domain/subscriptions/digest-blocks.js';
import {
  type AdminsSource,
  describeAdmins,
  PERMISSION_WORDS,
  type Permission,
} from '../../kernel/permission-rules.js';
import type { EnvironmentHealthRecord } from '../../observability/environment-health.js';
import { declinedLine, type OptionalScope } from '../../slack/granted-scopes.js';
import { renderBudgeted, viewTitle } from '../../slack/kit/budget.js';
import { slackDate } from '../../slack/kit/dates.js';
import { ownContext, ownSection } from '../../slack/kit/kit.js';
import { codeSpan, escapeMrkdwn } from '../../slack/kit/text.js';
import { unreadableHomeGroups } from '../../slack/kit/unreadable.js';
import type {
  AuditEntry,
  Connection,
  Settings,
  Snooze,
  Subscription,
  UnreadableRecord,
} from '../../store/index.js';

export const HOME_CONNECT = 'home_connect';
export const HOME_DISCONNECT = 'home_disconnect';
export const HOME_DISCONNECT_VIEW = 'home_disconnect_confirm';

export interface HomeInput {
  /** The optional scopes the installer declined: one line each, saying which feature is off. */
  declinedScopes?: readonly OptionalScope[];
  /** The connected identity provider and its permissions, as containment words it (own mrkdwn). */
  idpLine?: string;
  connection: Connection | undefined;
  fromEnvironment: boolean;
  /** A workspace connected from the environment: what the API told and what the last calls saw. */
  environment?: { health: EnvironmentHealthRecord; host: string };
  isAdmin: boolean;
  /** Who administers Vigil here (VIGIL_ADMINS, `/vigil settings admins`); Slack's admins when absent. */
  administrators?: AdminsSource;
  settings: Settings;
  subscriptions: Subscription[];
  /** The digests with their state, for rows with Pause/Resume/Remove; the plain list otherwise. */
  digests?: DigestListItem[];
  /** The real-time alert subscriptions, with how the polls keep up. */
  alerts?: AlertList;
  /** The running snoozes, each with End. */
  snoozes?: readonly Snooze[];
  audit: AuditEntry[];
  /** Admins only: records set aside as unreadable, each removable. */
  unreadable?: readonly UnreadableRecord[];
  /** Shown once to an admin: these permissions were never set and now hold stricter defaults. */
  defaultsNotice?: Permission[];
}

const when = (ms: number) => slackDate(ms);

function health(input: HomeInput): KnownBlock[] {
  const c = input.connection;
  if (input.fromEnvironment) return environmentHealth(input);
  if (!c) {
    return [
      ownSection(
        ':white_circle: *Not connected.* A workspace admin connects Vigil to the threat-intel API with `/vigil connect` or the button below.',
      ),
    ];
  }
  const lines = [
    `*Tenant:* ${tenantLabel(c)}`,
    `*Organization:* id ${c.organizationId}  ·  *Region:* ${codeSpan(c.apiHost)}  ·  *API key id:* ${c.apiKeyId}`,
    `*Connected by* <@${c.connectedBy}> · ${when(c.connectedAt)}`,
    `*Last successful call:* ${c.lastSuccessAt ? when(c.lastSuccessAt) : '_none yet_'}`,
  ];
  if (c.quota)
    lines.push(
      `*Global searches left:* ${c.quota.remaining ?? 'unknown'}${c.quota.batchReached ? ' (batch limit reached)' : ''}`,
    );
  if (!c.sealedApiKey)
    lines.push(':warning: The API key was cleared when the region changed: connect again.');
  const blocks = [
    ownSection(
      `${c.lastError ? ':large_orange_circle:' : ':large_green_circle:'} *Connected*\n${lines.join('\n')}`,
    ),
  ];
  if (c.lastError)
    blocks.push(
      ownSection(`:warning: *Last error* ${when(c.lastError.at)}: ${escapeMrkdwn(c.lastError.message)}`),
    );
  return blocks;
}

/** A key from the environment: names asked from the API (cached), the quota and outcome of recent calls. */
function environmentHealth(input: HomeInput): KnownBlock[] {
  const env = input.environment;
  const names = env?.health.names;
  const lines = [':large_green_circle: *Connected from the environment* (VIGIL_API_KEY)'];
  if (names) {
    lines.push(
      `*Tenant:* ${tenantLabel({ tenantId: names.tenantId, tenantName: names.tenantName })}`,
      `*Organization:* ${organizationLabel(names.organizationId, names.organizationName)}  ·  *API key id:* ${names.apiKeyId}`,
    );
  }
  if (env) lines.push(`*Region:* ${codeSpan(env.host)}`);
  const health = env?.health;
  lines.push(`*Last successful call:* ${health?.lastSuccessAt ? when(health.lastSuccessAt) : '_none yet_'}`);
  if (health?.quota) lines.push(quotaLine(health.quota));
  const blocks = [ownSection(lines.join('\n'))];
  if (health?.lastError)
    blocks.push(
      ownSection(
        `:warning: *Last error* ${when(health.lastError.at)}: ${escapeMrkdwn(health.lastError.message)}`,
      ),
    );
  blocks.push(ownContext('`/vigil status` checks the connection live.'));
  return blocks;
}

function adminActions(input: HomeInput): KnownBlock[] {
  if (!input.isAdmin || input.fromEnvironment) return [];
  const elements: KnownBlock[] = [];
  const buttons = [
    {
      type: 'button' as const,
      action_id: HOME_CONNECT,
      text: { type: 'plain_text' as const, text: input.connection ? 'Reconnect' : 'Connect' },
      ...(input.connection ? {} : { style: 'primary' as const }),
    },
    ...(input.connection
      ? [
          {
            type: 'button' as const,
            action_id: HOME_DISCONNECT,
            style: 'danger' as const,
            text: { type: 'plain_text' as const, text: 'Disconnect' },
          },
        ]
      : []),
  ];
  elements.push({ type: 'actions', elements: buttons });
  elements.push(
    ownContext(
      'Switch tenant with `/vigil tenant <id>` (see `/vigil tenants`); change who may do what with `/vigil settings <permission> everyone|admins|group:<usergroup-id>`.',
    ),
  );
  return elements;
}

/** Once per admin: which permissions took the stricter defaults because the workspace never set them. */
function defaultsNotice(input: HomeInput): KnownBlock[] {
  const unset = input.defaultsNotice;
  if (!unset || unset.length === 0) return [];
  const lines = unset.map(
    (p) => `• ${codeSpan(p)}: ${describeActors(input.settings.permissions[p])} may ${PERMISSION_WORDS[p]}`,
  );
  return [
    ownSection(
      `:information_source: *New defaults.* This workspace never chose these permissions, so they now take Vigil's stricter defaults:\n${lines.join('\n')}\nGuests may do nothing unless you open a permission to a user group they are in. Open one with \`/vigil settings <permission> everyone|admins|group:<usergroup-id>\`; this notice is shown once.`,
    ),
  ];
}

/** What App Home shows someone `use` is not open to (a guest, by default): how to get in, nothing else. */
export function renderClosedHome(): View {
  return {
    type: 'home',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: 'Vigil' } },
      ownSection(
        `Vigil is not open to you in this workspace: it lets full members ${PERMISSION_WORDS.use} unless an admin decides otherwise. An admin can open it to a user group you are in with \`/vigil settings use group:<usergroup-id>\`.`,
      ),
    ],
  };
}

/** What people can do, one line per command (`/vigil help` has the details). */
const HOME_COMMANDS: readonly string[] = [
  '`/vigil events <identifier-id>`: events matching an identifier, with buttons to act on them',
  '`/vigil events <name>` or `/vigil events all`: events by identifier name, or of every identifier; each event’s menu sets tags, a note and a severity override',
  '`/vigil identifiers [words] [type:…]`: find identifiers by name, with their ids',
  '`/vigil identifiers add <type> <value>`, `identifiers remove|disable|enable <id>`: watch assets from Slack',
  '`/vigil creds domain <domain>`: leaked credentials (values masked), with Remediate and Ignore on each row and for a page, Reveal, Export CSV (asked first when it would use more than a tenth of the searches left)',
  'An infected device’s event (stealer log) has *Open stealer log* in its menu: its logins and cookies, your domains first, values masked, Reveal audited',
  '`/vigil policies`: matching policies; `/vigil assignments <policy-id>`: where one is assigned, with Unassign',
  '`/vigil recommendations [type:…] [status:…]`: identifiers worth monitoring, with Accept and Reject',
  '`/vigil upload`, or the message shortcut *Send to sandbox*: send a file to the sandbox',
  '`/vigil intel <question> [since:…] [keywords:…]`: ask Threat Flow; the report is posted to you when ready',
  '`/vigil report <request-id>`: the status and content of a report request',
  '`/vigil tenants`: the tenants of the organization',
  '`/vigil help`: every command, with examples',
];

export function renderHome(input: HomeInput): View {
  const head: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Vigil' } },
    ...health(input),
    ...(input.declinedScopes?.length
      ? [ownContext(input.declinedScopes.map((s) => `:no_entry_sign: ${declinedLine(s)}`).join('\n'))]
      : []),
    ...(input.idpLine === undefined ? [] : [ownContext(input.idpLine)]),
    ...adminActions(input),
    ...defaultsNotice(input),
    { type: 'divider' },
    ownSection(
      [
        `*Who administers Vigil:* ${describeAdmins(input.administrators ?? 'slack')}`,
        ...permissionLines(input.settings.permissions),
      ].join('\n'),
    ),
    { type: 'divider' },
    ownSection(`*What you can do*\n${HOME_COMMANDS.map((l) => `• ${l}`).join('\n')}`),
    { type: 'divider' },
  ];
  const subs = input.subscriptions.map((s) =>
    ownSection(
      `*Digest* in <#${s.channelId}> at ${escapeMrkdwn(s.timeOfDay)} ${escapeMrkdwn(s.timeZone)}${s.weekdaysOnly ? ', weekdays' : ''} · identifiers ${
        s.identifierIds === 'all' ? 'all' : s.identifierIds.join(', ')
      } · id ${codeSpan(s.id)}`,
    ),
  );
  const groups: KnownBlock[][] = [
    [
      ownSection(
        input.subscriptions.length
          ? '*Digest subscriptions*'
          : '*Digest subscriptions:* none yet. `/vigil digest add` in a channel creates one.',
      ),
    ],
    ...(input.digests ? digestHomeGroups(input.digests) : subs.map((b) => [b])),
  ];
  if (input.alerts !== undefined) {
    groups.push([
      { type: 'divider' },
      ownSection(
        input.alerts.items.length > 0
          ? '*Real-time alerts*'
          : '*Real-time alerts:* none yet. `/vigil alerts add` in a channel posts new severe events there within a minute.',
      ),
    ]);
    groups.push(...alertHomeGroups(input.alerts));
  }
  if (input.snoozes !== undefined) groups.push(...snoozeHomeGroups(input.snoozes));
  if (input.isAdmin && input.unreadable !== undefined) groups.push(...unreadableHomeGroups(input.unreadable));
  if (input.isAdmin && input.audit.length > 0) {
    const lines = input.audit.map((e) => auditLine(e));
    groups.push([{ type: 'divider' }, ownSection(`*Latest actions*\n${lines.join('\n')}`)]);
  }
  const rendered = renderBudgeted({ text: 'Vigil', head, groups, surface: 'home' });
  return { type: 'home', blocks: rendered.blocks };
}

export function renderConnectModal(url: string, expiresAt: number): View {
  return {
    type: 'modal',
    title: { type: 'plain_text', text: 'Connect Vigil' },
    close: { type: 'plain_text', text: 'Close' },
    blocks: [
      ownSection(
        'Open the link, paste the API key on Vigil’s own page (never in Slack), then pick the tenant.',
      ),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: 'connection_open_link',
            style: 'primary',
            url,
            text: { type: 'plain_text', text: 'Open connect page' },
          },
        ],
      },
      ownContext(`Only you can see this. The link works once and expires ${when(expiresAt)}.`),
    ],
  };
}

export function renderDisconnectModal(c: Connection): View {
  return {
    type: 'modal',
    callback_id: HOME_DISCONNECT_VIEW,
    title: { type: 'plain_text', text: 'Disconnect Vigil?' },
    submit: { type: 'plain_text', text: 'Disconnect' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      ownSection(
        `Disconnect from tenant ${tenantLabel(c)}? The API key (id ${c.apiKeyId}) is deleted from Vigil; commands and digests stop until an admin connects again.`,
      ),
    ],
  };
}

/** A modal that only says something (progress, result, refusal). Our own text, no upstream data. */
export function renderNoticeModal(title: string, text: string): View {
  return {
    type: 'modal',
    title: viewTitle(title),
    close: { type: 'plain_text', text: 'Close' },
    blocks: [ownSection(text)],
  };
}
