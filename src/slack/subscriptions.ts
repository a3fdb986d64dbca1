/**
 * What digest and alert subscriptions share on the Slack side (besides the channel check of channels.ts): the
 * channel a command names, the creator's time zone as the default, and only the creator or an admin changes one.
 */
import type { ViewOutput } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { SEVERITIES, type Severity } from '../api/index.js';
import { VigilError } from '../errors.js';
import type { CommandContext } from './context.js';
import { type ChannelRef, canonicalTimeZone } from './parser/index.js';

/** The channel a subscription command names (picked from the list), else the one it was typed in. */
export function channelIdOf(channel: ChannelRef | undefined, typedIn: string): string {
  if (channel && !('id' in channel)) {
    throw new VigilError(
      `Vigil needs the channel picked from the list: type \`#\` and choose #${channel.name}.`,
      'Or run the command in that channel without naming it.',
    );
  }
  return channel?.id ?? typedIn;
}

/** The creator's Slack time zone, else UTC. */
export async function creatorZone(client: WebClient, userId: string): Promise<string> {
  const res = await client.users.info({ user: userId }).catch(() => undefined);
  return canonicalTimeZone(res?.user?.tz ?? '') ?? 'UTC';
}

/** Only the creator of a subscription or an admin changes it. */
export async function requireCreatorOrAdmin(
  ctx: Pick<CommandContext, 'deps' | 'client' | 'teamId' | 'userId'>,
  createdBy: string,
  what: string,
): Promise<void> {
  if (createdBy === ctx.userId) return;
  await ctx.deps.authz.requireAdmin(ctx.client, ctx.teamId, ctx.userId, what);
}

// ── The add forms ─────────────────────────────────────────────────────────────────────────────────────

export interface FormField {
  value?: string | null;
  selected_conversation?: string | null;
  selected_option?: { value?: string } | null;
  selected_time?: string | null;
  selected_options?: { value?: string }[] | null;
}

/** The fields both add forms have (channel, identifiers, severity, time zone), and the errors beside them. */
export function readCommonFields(
  view: ViewOutput,
  defaults: { severity: Severity; what: string },
): {
  field: (block: string) => FormField;
  errors: Record<string, string>;
  channelId: string;
  identifierIds: number[] | 'all';
  severity: Severity;
  timeZone: string | undefined;
} {
  const values = view.state.values as Record<string, Record<string, FormField>>;
  const field = (block: string): FormField => values[block]?.value ?? {};
  const errors: Record<string, string> = {};

  const channelId = field('channel').selected_conversation ?? '';
  if (channelId === '') errors.channel = `Pick the channel the ${defaults.what} posts in.`;

  const idsText = (field('identifiers').value ?? '').trim();
  let identifierIds: number[] | 'all' = 'all';
  if (idsText !== '' && idsText.toLowerCase() !== 'all') {
    const parts = idsText.split(/[\s,]+/).filter((p) => p !== '');
    if (parts.some((p) => !/^[1-9]\d{0,15}$/.test(p))) {
      errors.identifiers =
        'Identifier ids are whole numbers, separated by commas (or leave it empty for all).';
    } else identifierIds = [...new Set(parts.map(Number))];
  }

  const severityValue = field('severity').selected_option?.value ?? defaults.severity;
  const severity: Severity = (SEVERITIES as readonly string[]).includes(severityValue)
    ? (severityValue as Severity)
    : defaults.severity;

  const tzText = (field('tz').value ?? '').trim();
  const timeZone = tzText === '' ? undefined : canonicalTimeZone(tzText);
  if (tzText !== '' && timeZone === undefined)
    errors.tz = 'Use an IANA name such as Europe/Paris or America/New_York.';
  return { field, errors, channelId, identifierIds, severity, timeZone };
}

/** A comma or space separated list of a text input, empty for "all". */
export function listField(field: FormField): string[] {
  const text = (field.value ?? '').trim();
  return text === '' || text.toLowerCase() === 'all' ? [] : text.split(/[\s,]+/).filter((t) => t);
}

/** The channel an add form was opened in (its private metadata), where the person is. */
export function formOrigin(view: ViewOutput): string | undefined {
  const id = view.private_metadata;
  return /^[CGD][A-Z0-9]{2,30}$/.test(id) ? id : undefined;
}
