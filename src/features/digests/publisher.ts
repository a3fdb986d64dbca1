/**
 * The digest publisher port on the Slack side: renders a digest with the events builders, saves the events
 * context its buttons point at, and posts it with the workspace's bot token (the single token, or the
 * installation's in OAuth mode), the run id in the message metadata. Finds a run's message again in the
 * channel's history. Slack's channel errors and 429 become the service's own errors.
 */

import type { Event } from '../../api/index.js';
import { compactEvent } from '../../domain/events/compact.js';
import type { DigestHeading } from '../../domain/events/context.js';
import { type EventsContextOf, type EventsContextStore, eventRef } from '../../domain/events/context.js';
import { portalHostsOf } from '../../domain/portal.js';
import type { PortalLinks } from '../../domain/portal-links.js';
import { renderDigestMessage } from '../../domain/subscriptions/digest-blocks.js';
import { POSTED_CONTEXT_TTL_MS } from '../../domain/subscriptions/posting.js';
import { postRunMessage } from '../../domain/subscriptions/slack.js';
import { filtersOf, scopeOf, TOP_EVENTS } from '../../domain/subscriptions/summary.js';
import { trendMessagePart } from '../../domain/subscriptions/trend-message.js';
import { digestTrend, type TrendSourceDeps } from '../../domain/subscriptions/trend-source.js';
import { messageEntities } from '../../domain/work-object-entity.js';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { BotClients, BotClientsDeps } from '../../slack/bot-clients.js';
import { unlessUnreadable } from '../../store/index.js';
import type { DigestContent, DigestPublisher } from './run.js';
import { digestTrendLinks } from './trend-links.js';

const DIGEST_EVENT_TYPE = 'vigil_digest';
/** At most this many events are kept behind "+N more" (the rest store's own bound). */
const MAX_REST = 200;

export interface PublisherDeps {
  contexts: EventsContextStore;
  /** The state generation of an event: buttons act only while it is current. */
  generationOf(workspaceId: string, uid: string): Promise<number>;
  /** Keeps the events beyond the top ones for "+N more"; returns the button's ref. */
  saveRest(workspaceId: string, subscriptionId: string, events: Event[]): Promise<string>;
  clock: Clock;
  logger: Logger;
  /** The outbound proxy's fetch, when one is set (for its BotClients). */
  outbound?: BotClientsDeps['outbound'];
  /** Told of the events a digest shows (Work Objects find them when their card is opened). */
  shown?: Pick<PortalLinks, 'rememberPosted'>;
  /** Where each run's counts are kept and resolutions read, for the trend; no trend without it. */
  trend?: TrendSourceDeps;
  /** The events no snooze quiets now: a preview leaves out what the run will (every event when absent). */
  unsnoozed?: (workspaceId: string, events: Event[]) => Promise<Event[]>;
}

function headingOf(
  content: DigestContent,
  sub: { severity: string | string[]; types: string[] },
  moreRef?: string,
  trend?: DigestHeading['trend'],
): DigestHeading {
  const heading: DigestHeading = {
    subscriptionId: content.subscription.id,
    localDate: content.localDate,
    late: content.late,
    scope: scopeOf(content.subscription.identifierIds),
    filters: filtersOf(sub),
    total: content.events.length,
    counts: content.counts,
    truncated: content.truncated,
  };
  if (moreRef !== undefined) heading.moreRef = moreRef;
  if (content.missing.length > 0) heading.missing = [...content.missing];
  if (trend !== undefined) heading.trend = trend;
  return heading;
}

/** The context behind the buttons of a digest message (or preview), saved; returns its id and heading. */
export async function saveDigestContext(
  deps: PublisherDeps,
  content: DigestContent,
  sub: { severity: string | string[]; types: string[] },
  userId: string,
  ttlMs?: number,
  trend?: DigestHeading['trend'],
): Promise<{ ctxId: string; ctx: EventsContextOf<'digest'> }> {
  const ws = content.subscription.teamId;
  const top = content.events.slice(0, TOP_EVENTS);
  const rest = content.events.slice(TOP_EVENTS, TOP_EVENTS + MAX_REST).map((e) => compactEvent(e));
  const moreRef = rest.length > 0 ? await deps.saveRest(ws, content.subscription.id, rest) : undefined;
  const ctx: EventsContextOf<'digest'> = {
    v: 2,
    kind: 'digest',
    workspaceId: ws,
    userId,
    channelId: content.subscription.channelId,
    commandText: `/vigil digest preview ${content.subscription.id}`,
    events: await Promise.all(
      top.map(async (event) => ({
        event: compactEvent(event),
        generation: await deps.generationOf(ws, event.metadata.uid),
      })),
    ),
    heading: headingOf(content, sub, moreRef, trend),
  };
  if (content.subscription.tenantId !== undefined) ctx.tenantId = content.subscription.tenantId;
  await deps.shown?.rememberPosted(
    ws,
    ctx.events.map((e) => e.event),
    ctx.tenantId,
  );
  return { ctxId: await deps.contexts.save(ctx, ttlMs), ctx };
}

/**
 * The run recorded and its trend drawn: the paragraph, chart, table and plain numbers, linked as
 * trend-links.ts says. A
 * preview (`store: false`) draws the same from the same records without recording the run. A damaged trend
 * record costs the trend only: the digest goes without it (the record is set aside, admins see it).
 */
export async function digestTrendPart(
  deps: PublisherDeps,
  content: DigestContent,
  weekly: boolean,
  store = true,
): Promise<DigestHeading['trend']> {
  if (deps.trend === undefined) return undefined;
  const s = content.subscription;
  const run = {
    teamId: s.teamId,
    subscriptionId: s.id,
    zone: s.timeZone,
    localDate: content.localDate,
    period: weekly ? ('week' as const) : ('day' as const),
    now: deps.clock.now(),
    store,
  };
  const trend = await unlessUnreadable(digestTrend(deps.trend, run, content.events), undefined);
  if (trend === undefined) return undefined;
  const part = trendMessagePart(trend, digestTrendLinks(content.events, content.localDate));
  return { text: part.text, blocks: part.blocks as unknown as Record<string, unknown>[] };
}

export function createDigestPublisher(
  deps: PublisherDeps,
  clients: BotClients,
  subscriptionOf: (
    id: string,
  ) => Promise<{ severity: string | string[]; types: string[]; weekday?: number | undefined } | undefined>,
): DigestPublisher {
  return {
    async post(content) {
      const sub = (await subscriptionOf(content.subscription.id)) ?? { severity: 'info', types: [] };
      const trend = await digestTrendPart(deps, content, sub.weekday !== undefined);
      // Kept as long as an alert's: the message follows its events' state for days.
      const { ctxId, ctx } = await saveDigestContext(
        deps,
        content,
        sub,
        'digest',
        POSTED_CONTEXT_TTL_MS,
        trend,
      );
      const message = renderDigestMessage({
        heading: ctx.heading,
        events: ctx.events.map((e) => e.event),
        now: deps.clock.now(),
        refs: (i) => eventRef(ctxId, i),
      });
      const posted = await postRunMessage(clients, content.subscription.teamId, {
        channelId: content.subscription.channelId,
        message,
        eventType: DIGEST_EVENT_TYPE,
        payload: {
          run_id: content.runId,
          subscription_id: content.subscription.id,
          local_date: content.localDate,
        },
        entities: messageEntities(
          ctx.events.map((e) => e.event),
          portalHostsOf(ctx.apiHost ?? ''),
        ),
      });
      return { ...posted, followed: { ctxId, shown: ctx.events.map((e) => e.event.metadata.uid) } };
    },
  };
}
