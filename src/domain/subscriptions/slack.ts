/**
 * What digest and alert subscriptions share on the Slack side: the channel a command names, creating one
 * (connected, a channel Vigil can post in, the creator's time zone as the default), the add forms, the
 * "+N more" button of their messages, and changes made only by the creator or an admin.
 */
import type { App, ViewOutput } from '@slack/bolt';
import type { EntityMetadata, KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { SEVERITIES, type Severity } from '../../api/index.js';
import { VigilError } from '../../kernel/errors.js';
import { type BotClients, slackFailure } from '../../slack/bot-clients.js';
import { channelRefusal, checkChannelWithin, FORM_CHECK_MS } from '../../slack/channels.js';
import type { CommandRequest, SlackBase } from '../../slack/context.js';
import { type ChannelRef, canonicalTimeZone } from '../../slack/grammar/index.js';
import { MAX_SUBSCRIPTION_IDENTIFIERS } from '../../slack/grammar/subscriptions.js';
import { channelFieldError } from '../../slack/kit/channel.js';
import { onAction, onView } from '../../slack/listen.js';
import { ephemeralPoster } from '../../slack/respond.js';
import { StoreCorruptionError } from '../../store/index.js';
import type { EventRestStore } from '../events/rest.js';
import { type RestPageDeps, showRestPage } from '../events/rest-pages.js';

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
async function creatorZone(client: WebClient, userId: string): Promise<string> {
  const res = await client.users.info({ user: userId }).catch(() => undefined);
  return canonicalTimeZone(res?.user?.tz ?? '') ?? 'UTC';
}

/** What the subscription commands and forms use besides the plumbing: who is connected, which identifiers exist. */
export interface SubscriptionDeps extends SlackBase {
  connection: { tenantOf(workspaceId: string): Promise<number | undefined> };
  identifiers: { missing(workspaceId: string, ids: readonly number[]): Promise<number[]> };
}

type Creator<D extends SubscriptionDeps = SubscriptionDeps> = Pick<
  CommandRequest,
  'client' | 'workspaceId' | 'userId'
> & {
  deps: D;
};

/** Slack's shape of a channel id: anything else (mention text, a name) never reaches an API call. */
const CHANNEL_ID = /^[CG][A-Z0-9]{8,20}$/;

/** What to say when some of `ids` are not identifiers of the workspace's tenant, else undefined. */
async function identifierRefusal(
  deps: Pick<SubscriptionDeps, 'identifiers'>,
  workspaceId: string,
  ids: number[] | 'all',
): Promise<string | undefined> {
  if (ids === 'all') return undefined;
  const missing = await deps.identifiers.missing(workspaceId, ids);
  if (missing.length === 0) return undefined;
  const [one] = missing;
  return missing.length === 1
    ? `Identifier ${one} does not exist in this tenant; \`/vigil identifiers\` lists them.`
    : `Identifiers ${missing.join(', ')} do not exist in this tenant; \`/vigil identifiers\` lists them.`;
}

/**
 * Creates a subscription after the checks (the workspace is connected, its identifiers exist, Vigil can post
 * in the channel), in the creator's time zone unless one is given; a refusal to say instead.
 */
export async function createSubscription<S>(
  ctx: Creator,
  input: { channelId: string; identifierIds?: number[] | 'all' | undefined; timeZone?: string | undefined },
  add: (timeZone: string) => Promise<S>,
): Promise<{ sub: S } | { refusal: string }> {
  await ctx.deps.connection.tenantOf(ctx.workspaceId); // not connected: say so before anything else
  const unknown = await identifierRefusal(ctx.deps, ctx.workspaceId, input.identifierIds ?? 'all');
  if (unknown !== undefined) return { refusal: unknown };
  const refusal = await channelRefusal(ctx.client, input.channelId);
  if (refusal !== undefined) return { refusal };
  return { sub: await add(input.timeZone ?? (await creatorZone(ctx.client, ctx.userId))) };
}

/**
 * Who created a subscription; undefined when its record cannot be read, so that only an admin may then act on
 * it (remove it) instead of everyone being told Vigil could not reach its storage.
 */
async function creatorOf(read: () => Promise<{ createdBy: string }>): Promise<string | undefined> {
  try {
    return (await read()).createdBy;
  } catch (error) {
    if (error instanceof StoreCorruptionError) return undefined;
    throw error;
  }
}

/** Only the creator of a subscription or an admin changes it. */
async function requireCreatorOrAdmin(
  ctx: Pick<CommandRequest, 'client' | 'workspaceId' | 'teamId' | 'userId'> & {
    deps: Pick<SlackBase, 'authz'>;
  },
  createdBy: string | undefined,
  what: string,
): Promise<void> {
  if (createdBy === ctx.userId) return;
  await ctx.deps.authz.requireAdmin(ctx.client, ctx, what);
}

/** What Pause/Resume/Remove change: digest and alert subscriptions answer alike. */
export interface ChangeableSubscriptions {
  get(workspaceId: string, id: string): Promise<{ createdBy: string }>;
  pause(workspaceId: string, id: string, userId: string): Promise<unknown>;
  resume(workspaceId: string, id: string, userId: string): Promise<unknown>;
  remove(workspaceId: string, id: string, userId: string): Promise<void>;
}

/** Pauses, resumes or removes a subscription for its creator or an admin (`refusal` says what others may not). */
export async function changeSubscription(
  ctx: Pick<CommandRequest, 'client' | 'workspaceId' | 'teamId' | 'userId'> & {
    deps: Pick<SlackBase, 'authz'>;
  },
  service: ChangeableSubscriptions,
  what: 'pause' | 'resume' | 'remove',
  id: string,
  refusal: string,
): Promise<void> {
  const createdBy = await creatorOf(() => service.get(ctx.workspaceId, id));
  await requireCreatorOrAdmin(ctx, createdBy, refusal);
  await service[what](ctx.workspaceId, id, ctx.userId);
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
  defaults: { severity: Severity; what: string; options: readonly string[] },
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
  if (!CHANNEL_ID.test(channelId)) errors.channel = `Pick the channel the ${defaults.what} posts in.`;

  const idsText = (field('identifiers').value ?? '').trim();
  let identifierIds: number[] | 'all' = 'all';
  if (idsText !== '' && idsText.toLowerCase() !== 'all') {
    const parts = idsText.split(/[\s,]+/).filter((p) => p !== '');
    if (parts.some((p) => !/^[1-9]\d{0,15}$/.test(p))) {
      errors.identifiers =
        'Identifier ids are whole numbers, separated by commas (or leave it empty for all).';
    } else identifierIds = [...new Set(parts.map(Number))];
    if (identifierIds !== 'all' && identifierIds.length > MAX_SUBSCRIPTION_IDENTIFIERS)
      errors.identifiers = `At most ${MAX_SUBSCRIPTION_IDENTIFIERS} identifiers (or leave it empty for all).`;
  }

  const severityValue = field('severity').selected_option?.value ?? defaults.severity;
  const known = (SEVERITIES as readonly string[]).includes(severityValue);
  if (!known) errors.severity = 'Pick a severity from the list.';
  const severity: Severity = known ? (severityValue as Severity) : defaults.severity;

  const chosen = (field('options').selected_options ?? []).map((o) => o.value ?? '');
  if (chosen.some((o) => !defaults.options.includes(o))) errors.options = 'Pick options from the list.';
  if (listField(field('types')).length > MAX_TYPES) errors.types = `At most ${MAX_TYPES} event types.`;

  const tzText = (field('tz').value ?? '').trim();
  const timeZone = tzText === '' ? undefined : canonicalTimeZone(tzText);
  if (tzText !== '' && timeZone === undefined)
    errors.tz = 'Use an IANA name such as Europe/Paris or America/New_York.';
  return { field, errors, channelId, identifierIds, severity, timeZone };
}

/** Event types a form takes at most (more than there are: anything beyond is not from the form). */
const MAX_TYPES = 30;

/** A comma or space separated list of a text input, empty for "all". */
export function listField(field: FormField): string[] {
  const text = (field.value ?? '').trim();
  return text === '' || text.toLowerCase() === 'all' ? [] : text.split(/[\s,]+/).filter((t) => t);
}

/**
 * `check` within the time a form may take before its ack; undefined when it fails or runs out of time (the
 * work after the ack checks again).
 */
async function within<T>(check: Promise<T>, ms = FORM_CHECK_MS): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([check.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The channel an add form was opened in (its private metadata), where the person is. */
function formOrigin(view: ViewOutput): string | undefined {
  const id = view.private_metadata;
  return /^[CGD][A-Z0-9]{2,30}$/.test(id) ? id : undefined;
}

/**
 * An add form's submission (digests, alerts): field errors beside their fields; a channel Vigil cannot post
 * in refused beside the channel field, the form still open (a check without an answer in time is made again
 * by `add`); then `add` runs after the ack and its answer goes where the person opened the form.
 */
export function onSubscriptionForm<
  I extends { channelId: string; identifierIds: number[] | 'all' },
  D extends SubscriptionDeps,
>(
  app: App,
  deps: D,
  callbackId: string,
  read: (view: ViewOutput) => { input: I } | { errors: Record<string, string> },
  add: (ctx: Creator<D>, input: I) => Promise<string>,
): void {
  onView(
    app,
    deps,
    callbackId,
    async ({ who, view, client }) => {
      const form = read(view);
      if ('errors' in form) return { ack: { response_action: 'errors', errors: form.errors } };
      const check = await checkChannelWithin(client, form.input.channelId);
      if (check && !check.ok) {
        return { ack: { response_action: 'errors', errors: { channel: channelFieldError(check) } } };
      }
      const unknown = await within(identifierRefusal(deps, who.workspaceId, form.input.identifierIds));
      if (unknown !== undefined)
        return { ack: { response_action: 'errors', errors: { identifiers: unknown } } };
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
    },
    'subscribe',
  );
}

/** The "+N more" button of a digest or grouped alert: the rest of its events, privately, ten at a time. */
export function onMoreButton(
  app: App,
  deps: RestPageDeps,
  actionId: string,
  opts: { rest: EventRestStore; commandText: (subscriptionId: string) => string; what: string },
): void {
  onAction(app, deps, actionId, (click) =>
    showRestPage(click, {
      actionId,
      rest: opts.rest,
      commandText: opts.commandText,
      expired: {
        message: `The rest of this ${opts.what} is no longer kept (Vigil keeps it for a week).`,
        hint: 'Search the events with `/vigil events <identifier-id> since:7d`.',
      },
    }),
  );
}

// ── Posting digests and alerts ────────────────────────────────────────────────────────────────────────

/**
 * Posts a digest or an alert in its channel with the workspace's bot token: no unfurls, the run id in the
 * message metadata (what a reader of the channel can trace it by). Slack's channel
 * errors and 429 become the services' own errors.
 */
export async function postRunMessage(
  clients: BotClients,
  workspaceId: string,
  post: {
    channelId: string;
    message: { text: string; blocks: KnownBlock[] };
    eventType: string;
    payload: Record<string, string | number>;
    /** Work Object entities of the events shown, so their cards open the side panel. */
    entities?: EntityMetadata[];
  },
): Promise<{ ts: string }> {
  const client = await clients.forWorkspace(workspaceId);
  try {
    const res = await client.chat.postMessage({
      channel: post.channelId,
      text: post.message.text,
      blocks: post.message.blocks,
      unfurl_links: false,
      unfurl_media: false,
      metadata: {
        event_type: post.eventType,
        event_payload: post.payload,
        ...(post.entities?.length ? { entities: post.entities } : {}),
      },
    });
    if (!res.ts) throw new Error('chat.postMessage answered without a ts');
    return { ts: res.ts };
  } catch (err) {
    throw slackFailure(err);
  }
}
