/**
 * What digest and alert subscriptions share on the Slack side (besides the channel check of channels.ts): the
 * channel a command names, the creator's time zone as the default, and only the creator or an admin changes one.
 */
import type { App, ViewOutput } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { SEVERITIES, type Severity } from '../api/index.js';
import { VigilError } from '../errors.js';
import { StoreCorruptionError } from '../store/index.js';
import { channelFieldError } from './blocks/channel.js';
import { checkChannelWithin } from './channels.js';
import type { CommandContext, SlackDeps } from './context.js';
import { onView } from './listen.js';
import { type ChannelRef, canonicalTimeZone } from './parser/index.js';
import { ephemeralPoster } from './respond.js';

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

/**
 * Who created a subscription; undefined when its record cannot be read, so that only an admin may then act on
 * it (remove it) instead of everyone being told Vigil could not reach its storage.
 */
export async function creatorOf(read: () => Promise<{ createdBy: string }>): Promise<string | undefined> {
  try {
    return (await read()).createdBy;
  } catch (error) {
    if (error instanceof StoreCorruptionError) return undefined;
    throw error;
  }
}

/** Only the creator of a subscription or an admin changes it. */
export async function requireCreatorOrAdmin(
  ctx: Pick<CommandContext, 'deps' | 'client' | 'teamId' | 'userId'>,
  createdBy: string | undefined,
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
function formOrigin(view: ViewOutput): string | undefined {
  const id = view.private_metadata;
  return /^[CGD][A-Z0-9]{2,30}$/.test(id) ? id : undefined;
}

type Creator = Pick<CommandContext, 'deps' | 'client' | 'workspaceId' | 'userId'>;

/**
 * An add form's submission (digests, alerts): field errors beside their fields; a channel Vigil cannot post
 * in refused beside the channel field, the form still open (a check without an answer in time is made again
 * by `add`); then `add` runs after the ack and its answer goes where the person opened the form.
 */
export function onSubscriptionForm<I extends { channelId: string }>(
  app: App,
  deps: SlackDeps,
  callbackId: string,
  read: (view: ViewOutput) => { input: I } | { errors: Record<string, string> },
  add: (ctx: Creator, input: I) => Promise<string>,
): void {
  onView(app, deps, callbackId, async ({ who, view, client }) => {
    const form = read(view);
    if ('errors' in form) return { ack: { response_action: 'errors', errors: form.errors } };
    const check = await checkChannelWithin(client, form.input.channelId);
    if (check && !check.ok) {
      return { ack: { response_action: 'errors', errors: { channel: channelFieldError(check) } } };
    }
    const respond = ephemeralPoster(client, formOrigin(view) ?? form.input.channelId, who.userId);
    return {
      respond,
      async work() {
        const text = await add(
          { deps, client, workspaceId: who.workspaceId, userId: who.userId },
          form.input,
        );
        await respond({ text });
      },
    };
  });
}
