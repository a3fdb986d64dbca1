/**
 * Portal links and the events behind them. Every event Vigil shows carries `metadata.flare_url`, its page in
 * the threat-intel portal; Vigil remembers that link, the event's uid and tenant, and the event as it was last
 * seen (compact, with any searched secret already masked), in the store every instance shares. A link pasted
 * in Slack is then found by the link itself, or by the uid the link carries (`…/event/<uid>`, `?uid=`), so a
 * link to the same event on another portal host or with other query parameters still resolves.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type Event, EventSchema } from '../api/index.js';
import type { Clock } from '../kernel/clock.js';
import { type Repositories, uidKey } from '../store/index.js';
import type { ApiAccess } from './workspace-api.js';

/** An event unseen for this long is forgotten; searching, a digest or an alert that shows it again renews it. */
const PORTAL_EVENT_TTL_MS = 90 * 24 * 3600_000;
/** Longer links are not portal event links (the published contract bounds `flare_url` to 2083). */
const MAX_URL = 2083;

const SeenEventSchema = z.object({
  uid: z.string().min(1),
  /** The tenant whose events these were; null for the API key's default tenant. */
  tenantId: z.number().int().nullable(),
  flareUrl: z.string().max(MAX_URL),
  event: EventSchema,
  seenAt: z.number(),
});
export type SeenEvent = z.infer<typeof SeenEventSchema>;
const LinkSchema = z.object({ uid: z.string().min(1) });

/** What a portal link itself says: the event uid and the tenant, when it carries them. */
interface PortalLinkParts {
  uid: string | undefined;
  tenantId: number | undefined;
}

/** The uid shape (`<index>/<source>/<id>`), without dot segments. */
const looksLikeUid = (s: string) =>
  /^[^/\s]+\/[^/\s]+\/\S+$/.test(s) && !s.split('/').some((p) => p === '.' || p === '..');

function decode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/**
 * The parts of a portal link: `…#/feed/<tenant>/event/<uid>` (the portal's own links, the uid
 * percent-encoded), `…/events/<uid>`, or a `uid=` parameter in the query or the fragment.
 */
export function portalLinkParts(url: URL): PortalLinkParts {
  const route = `${url.pathname}${url.hash.replace(/^#/, '')}`;
  const [routePath = '', routeQuery = ''] = route.split('?', 2);
  const params = new URLSearchParams(`${url.search.slice(1)}&${routeQuery}`);
  const fromParam = params.get('uid') ?? undefined;
  const fromPath = /\/events?\/([^?#]+)$/.exec(routePath.replace(/\/+$/, ''))?.[1];
  const raw = fromParam ?? (fromPath === undefined ? undefined : decode(fromPath));
  const tenantRaw = /\/(?:feed|tenants?)\/(\d{1,15})(?:\/|$)/.exec(routePath)?.[1] ?? params.get('tenant_id');
  const tenant = tenantRaw && /^\d{1,15}$/.test(tenantRaw) ? Number(tenantRaw) : undefined;
  return { uid: raw !== undefined && looksLikeUid(raw) ? raw : undefined, tenantId: tenant };
}

/** The same link however it was typed: scheme and host lower-cased, no default port, no trailing slash. */
function linkKey(url: URL): string {
  const path = url.pathname.replace(/\/+$/, '');
  const normalized = `${url.protocol}//${url.hostname.toLowerCase()}${path}${url.search}${url.hash}`;
  return `link:${createHash('sha256').update(normalized).digest('base64url').slice(0, 32)}`;
}

/** A URL Vigil would unfurl: https (or http on loopback, the simulator), on one of `hosts`, not too long. */
export function parsePortalUrl(raw: string, hosts: readonly string[]): URL | undefined {
  if (raw.length > MAX_URL) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase();
  if (url.username || url.password) return undefined;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && host === '127.0.0.1')) return undefined;
  return hosts.includes(host) ? url : undefined;
}

export class PortalLinks {
  constructor(
    private readonly deps: {
      repos: Pick<Repositories, 'portalEvents'>;
      clock: Clock;
      hosts: readonly string[];
      /** The workspace's current tenant, for a posted message that names none. */
      api: Pick<ApiAccess, 'home'>;
    },
  ) {}

  private get events() {
    return this.deps.repos.portalEvents(SeenEventSchema);
  }

  private get links() {
    return this.deps.repos.portalEvents(LinkSchema);
  }

  get hosts(): readonly string[] {
    return this.deps.hosts;
  }

  /** Remembers the events shown to a workspace (already compact and masked) by their portal links. */
  async remember(workspaceId: string, tenantId: number | undefined, events: readonly Event[]): Promise<void> {
    const seenAt = this.deps.clock.now();
    const writes: Promise<unknown>[] = [];
    for (const event of events) {
      const flareUrl = event.metadata.flare_url;
      const url = flareUrl === undefined ? undefined : parsePortalUrl(flareUrl, this.deps.hosts);
      if (url === undefined || flareUrl === undefined) continue;
      const uid = event.metadata.uid;
      const record = { uid, tenantId: tenantId ?? null, flareUrl, event, seenAt };
      writes.push(this.events.set(workspaceId, `uid:${uidKey(uid)}`, record, PORTAL_EVENT_TTL_MS));
      writes.push(this.links.set(workspaceId, linkKey(url), { uid }, PORTAL_EVENT_TTL_MS));
    }
    // Independent records: written at once, so a page of ten costs one round of writes, not twenty.
    await Promise.all(writes);
  }

  /**
   * The events of a posted alert or digest (both features post them), under the tenant they were read in (the
   * subscription's; the workspace's current one when the message names none): their messages carry entities,
   * and opening one's card finds the event here. Never fails the post it follows.
   */
  async rememberPosted(
    workspaceId: string,
    events: readonly Event[],
    tenantId: number | undefined,
  ): Promise<void> {
    // The connection's own tenant: one read, not a session (a post needs no key unsealed for this).
    const home =
      tenantId === undefined ? await this.deps.api.home(workspaceId).catch(() => undefined) : { tenantId };
    if (home !== undefined) await this.remember(workspaceId, home.tenantId, events).catch(() => {});
  }

  /** The event behind a link (by the link, else by the uid it carries), as last seen; undefined when unknown. */
  async find(workspaceId: string, url: URL): Promise<SeenEvent | undefined> {
    const byLink = await this.links.get(workspaceId, linkKey(url));
    const uid = byLink?.uid ?? portalLinkParts(url).uid;
    return uid === undefined ? undefined : this.byUid(workspaceId, uid);
  }

  byUid(workspaceId: string, uid: string): Promise<SeenEvent | undefined> {
    return this.events.get(workspaceId, `uid:${uidKey(uid)}`);
  }

  /** Keeps the remembered event in step with a change made through Vigil. */
  async update(workspaceId: string, uid: string, change: (event: Event) => Event): Promise<void> {
    await this.events.update(
      workspaceId,
      `uid:${uidKey(uid)}`,
      (seen) => seen && { ...seen, event: change(seen.event) },
      PORTAL_EVENT_TTL_MS,
    );
  }
}
