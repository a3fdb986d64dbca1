/** Pure Block Kit for the connection commands. Upstream text (tenant names) is escaped. */
import type { KnownBlock } from '@slack/types';
import type { TokenTest } from '../api/index.js';
import type { EnvironmentHealthRecord } from '../observability/environment-health.js';
import { packLines, renderBudgeted } from '../slack/kit/budget.js';
import { slackDate } from '../slack/kit/dates.js';
import { confirmDialog, ownContext, ownSection, plural, type RenderedMessage } from '../slack/kit/kit.js';
import { codeSpan, escapeMrkdwn, truncate } from '../slack/kit/text.js';
import type { Connection } from '../store/index.js';

export const DISCONNECT_CONFIRM = 'connection_disconnect_confirm';
export const DISCONNECT_CANCEL = 'connection_disconnect_cancel';

const when = (ms: number) => slackDate(ms);

export function renderConnectLink(
  url: string,
  expiresAt: number,
  existing: Connection | undefined,
): RenderedMessage {
  const replacing = existing
    ? `\nThis replaces the current connection (tenant ${tenantLabel(existing)}, key id ${existing.apiKeyId}).`
    : '';
  return {
    text: 'Open your one-time link to connect Vigil to the threat-intel API.',
    blocks: [
      ownSection(
        `:key: *Connect Vigil to the threat-intel API*\nOpen the link, paste the API key on Vigil’s own page (never in Slack), then pick the tenant.${replacing}`,
      ),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: 'connection_open_link',
            text: { type: 'plain_text', text: 'Open connect page' },
            url,
            style: 'primary',
          },
        ],
      },
      ownContext(`Only you can see this. The link works once and expires ${when(expiresAt)}.`),
    ],
  };
}

export function renderConnected(
  c: { tenantName: string; tenantId: number; apiKeyId: number; host: string },
  userId: string,
): RenderedMessage {
  return {
    text: `Vigil is connected: tenant ${escapeMrkdwn(c.tenantName)} (${c.tenantId}), key id ${c.apiKeyId}.`,
    blocks: [
      ownSection(
        `:white_check_mark: *Vigil is connected* by <@${userId}>\nTenant *${escapeMrkdwn(c.tenantName)}* (id ${c.tenantId}) · key id ${c.apiKeyId} · region ${codeSpan(c.host)}`,
      ),
      ownContext('Try `/vigil status`, or `/vigil help` for what you can do now.'),
    ],
  };
}

export function renderDisconnectPrompt(c: Connection): RenderedMessage {
  return {
    text: `Disconnect Vigil from tenant ${tenantLabel(c)}?`,
    blocks: [
      ownSection(
        `*Disconnect Vigil from tenant ${tenantLabel(c)}?*\nThe API key (id ${c.apiKeyId}) is deleted from Vigil. Commands and digests stop until an admin connects again.`,
      ),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: DISCONNECT_CONFIRM,
            style: 'danger',
            value: 'disconnect',
            text: { type: 'plain_text', text: 'Disconnect' },
            confirm: confirmDialog({
              title: 'Disconnect Vigil?',
              text: 'The API key is deleted. An admin must connect again to use Vigil.',
              yes: 'Disconnect',
              mrkdwn: true,
              danger: true,
            }),
          },
          {
            type: 'button',
            action_id: DISCONNECT_CANCEL,
            value: 'cancel',
            text: { type: 'plain_text', text: 'Cancel' },
          },
        ],
      },
    ],
  };
}

export function renderDisconnected(userId: string, at: number): RenderedMessage {
  return {
    text: 'Vigil was disconnected; the API key is deleted.',
    blocks: [
      ownSection(
        `:electric_plug: Disconnected by <@${userId}> · ${when(at)}. The API key is deleted from Vigil.`,
      ),
    ],
  };
}

export function tenantLabel(c: { tenantName?: string | undefined; tenantId: number }): string {
  return c.tenantName ? `*${escapeMrkdwn(c.tenantName)}* (id ${c.tenantId})` : `id ${c.tenantId}`;
}

export interface StatusInput {
  token: TokenTest;
  host: string;
  connection: Connection | undefined;
  fromEnvironment: boolean;
  /** A workspace connected from the environment: names asked from the API, health seen in memory. */
  environment?: EnvironmentHealthRecord;
}

/** `*Acme Corporation* (id 1001)`, or the id alone when the API gave no name. */
export function organizationLabel(id: number, name: string | undefined): string {
  return name ? `*${escapeMrkdwn(name)}* (id ${id})` : `id ${id}`;
}

export function quotaLine(quota: { remaining: number | null; batchReached: boolean; at: number }): string {
  return `*Global searches left:* ${quota.remaining ?? 'unknown'}${quota.batchReached ? ' (batch limit reached)' : ''} · as of ${when(quota.at)}`;
}

export function renderStatus(s: StatusInput): RenderedMessage {
  const c = s.connection;
  const env = s.environment;
  const tenantName = c?.tenantName ?? env?.names?.tenantName;
  const lines = [
    `*Tenant:* ${tenantLabel({ tenantId: s.token.tenant_id, tenantName })}`,
    `*Organization:* ${organizationLabel(s.token.organization_id, env?.names?.organizationName)}`,
    `*API key id:* ${s.token.api_key_id}`,
    // Vigil's own API host: shown as is, to copy (never defanged).
    `*Region:* ${codeSpan(s.host)}`,
    `*Scopes:* ${s.token.scopes.length ? s.token.scopes.map((x) => codeSpan(x, 100)).join(' ') : '_none reported_'}`,
  ];
  const quota = c?.quota ?? env?.quota;
  lines.push(quota ? quotaLine(quota) : '*Global searches left:* not reported yet (a search reports it)');
  const meta: string[] = [];
  if (s.fromEnvironment) meta.push('Connected from the environment (VIGIL_API_KEY).');
  if (c) meta.push(`Connected by <@${c.connectedBy}> · ${when(c.connectedAt)}`);
  const lastSuccessAt = c?.lastSuccessAt ?? env?.lastSuccessAt;
  if (lastSuccessAt) meta.push(`Last successful call ${when(lastSuccessAt)}`);
  const blocks: KnownBlock[] = [ownSection(`:large_green_circle: *Vigil is connected*\n${lines.join('\n')}`)];
  const lastError = c?.lastError ?? env?.lastError;
  if (lastError)
    blocks.push(
      ownSection(`:warning: *Last error* ${when(lastError.at)}: ${escapeMrkdwn(lastError.message)}`),
    );
  if (meta.length) blocks.push(ownContext(meta.join('  ·  ')));
  const tenantWords = tenantName ? `${tenantName} (${s.token.tenant_id})` : String(s.token.tenant_id);
  const orgName = env?.names?.organizationName;
  const orgWords = orgName ? `${orgName} (${s.token.organization_id})` : String(s.token.organization_id);
  return {
    text: `Vigil is connected to tenant ${escapeMrkdwn(tenantWords)}, organization ${escapeMrkdwn(orgWords)}.`,
    blocks,
  };
}

export const TENANTS_NEXT = 'tenants_next';

export interface TenantsPageInput {
  /** An item the API gave without an id is listed too (without one). */
  tenants: readonly { id: number | undefined; name: string; description?: string | null | undefined }[];
  current: number;
  /** 1-based position of the first tenant of this page. */
  first: number;
  /** `total_count`, when the API gave it. */
  total: number | undefined;
  /** The stored context of the next page; absent on the last. */
  nextRef: string | undefined;
  isAdmin: boolean;
}

const MAX_TENANT_NAME = 150;
const MAX_TENANT_DESCRIPTION = 200;

/** One tenant: name and id, the one in use marked, its description under it; cut after escaping. */
function tenantLine(t: TenantsPageInput['tenants'][number], current: number): string {
  const inUse = t.id === current;
  const name = truncate(escapeMrkdwn(t.name.replace(/\s+/g, ' ').trim()), MAX_TENANT_NAME) || '—';
  const description = t.description
    ? `\n      ${truncate(escapeMrkdwn(t.description.replace(/\s+/g, ' ').trim()), MAX_TENANT_DESCRIPTION)}`
    : '';
  const id = t.id === undefined ? 'no id given' : `id ${t.id}`;
  return `${inUse ? ':white_check_mark:' : '•'} *${name}* (${id})${inUse ? ' — in use' : ''}${description}`;
}

/**
 * A page of the organization's tenants, the one in use marked, with Next when more follow. The lines are
 * packed into as many sections as Slack's limits need; tenants that still do not fit are counted.
 */
export function renderTenants(input: TenantsPageInput): RenderedMessage {
  const { tenants, current } = input;
  const packs = packLines(tenants.map((t) => tenantLine(t, current)));
  const last = input.first + tenants.length - 1;
  const range = tenants.length === 0 ? 'none' : `${input.first}–${last}`;
  const slice =
    input.total !== undefined
      ? `${range} of ${input.total}`
      : input.nextRef
        ? `${range} · more follow`
        : range;
  const head: KnownBlock[] = [];
  if (input.first > 1 || input.nextRef) head.push(ownSection(`*Tenants* ${slice}`));
  if (packs.length === 0) head.push(ownSection('No tenants are visible to this API key.'));
  const tail: KnownBlock[] = [
    ownContext(
      input.isAdmin
        ? 'Switch with `/vigil tenant <id>`.'
        : 'A workspace admin can switch with `/vigil tenant <id>`.',
    ),
  ];
  if (input.nextRef) {
    tail.push({
      type: 'actions',
      block_id: 'tenants:tail',
      elements: [
        {
          type: 'button',
          action_id: TENANTS_NEXT,
          text: { type: 'plain_text', text: 'Next page' },
          value: input.nextRef,
        },
      ],
    });
  }
  const count = input.first === 1 && !input.nextRef ? `${tenants.length} tenant(s)` : `Tenants ${slice}`;
  const r = renderBudgeted({
    text: `${count}; tenant ${current} is in use.`,
    head,
    groups: packs.map((p) => [ownSection(p.text)]),
    tail,
    omittedNotice: (n) => {
      const left = packs.slice(packs.length - n).reduce((sum, p) => sum + p.count, 0);
      return ownContext(`${plural(left, 'more tenant')} on this page did not fit in one message.`);
    },
  });
  return { text: r.text, blocks: r.blocks };
}

export const TENANT_SWITCH_CONFIRM = 'tenant_switch_confirm';
export const TENANT_SWITCH_CANCEL = 'tenant_switch_cancel';

/**
 * Before `tenant <id>` re-points the workspace: what follows the workspace's tenant (every digest and alert
 * today), named with their channels, and a confirmation.
 */
export function renderTenantSwitchPrompt(input: {
  tenantId: number;
  current: number;
  digestChannels: readonly string[];
  alertChannels: readonly string[];
}): RenderedMessage {
  const where = (channels: readonly string[]) =>
    [...new Set(channels)].map((c) => `<#${c.replace(/[^A-Z0-9]/gi, '')}>`).join(', ');
  const d = input.digestChannels.length;
  const a = input.alertChannels.length;
  const parts = [
    d > 0 ? `${plural(d, 'digest')} (in ${where(input.digestChannels)})` : undefined,
    a > 0 ? `${plural(a, 'alert subscription')} (in ${where(input.alertChannels)})` : undefined,
  ].filter((p): p is string => p !== undefined);
  const keep = d + a === 1 ? 'keeps the tenant it was made for' : 'keep the tenant they were made for';
  const text = `Switch this workspace from tenant ${input.current} to tenant ${input.tenantId}? ${parts.join(' and ')} ${keep}; searches and new subscriptions will use tenant ${input.tenantId}.`;
  return {
    text,
    blocks: [
      ownSection(`:warning: ${text}`),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: TENANT_SWITCH_CONFIRM,
            style: 'danger',
            value: String(input.tenantId),
            text: { type: 'plain_text', text: `Switch to tenant ${input.tenantId}` },
          },
          {
            type: 'button',
            action_id: TENANT_SWITCH_CANCEL,
            text: { type: 'plain_text', text: 'Cancel' },
          },
        ],
      },
    ],
  };
}
