/**
 * `GET /{family}/v4/events/?uid=` and `GET /{family}/v4/events/_expand?field=&uid=` for the events of
 * infected devices (`stealer_log`, and the `bot` listings that sell such a machine): the full event (malware
 * and victim details) and what the stealer took, credentials or cookies, in pages of at most 20. The log is
 * generated from the uid (data/stealer-logs.ts); some of its hosts are the tenant's own domains. Other event
 * types are not served in full by the simulator (404): Vigil reads them from searches only.
 */
import { requireSession } from '../auth.js';
import { queryDigest } from '../cursors.js';
import { stealerLogOf } from '../data/stealer-logs.js';
import { fail, type Handler, json, type RouteContext } from '../http.js';
import { arraySequence, paginate } from '../paging.js';
import type { SimEvent } from '../types.js';

const INFECTED = new Set(['stealer_log', 'bot']);

function infectedEvent(ctx: RouteContext, uid: string): SimEvent {
  const session = requireSession(ctx);
  const event = ctx.state.eventByUid(uid);
  if (event === undefined || event.tenantId !== session.tenantId)
    return fail(404, 'EVENT_NOT_FOUND', 'Event not found');
  if (!INFECTED.has(event.item.metadata.type))
    return fail(404, 'EVENT_NOT_FOUND', 'The simulator serves infected-device events only');
  return event;
}

function logOf(ctx: RouteContext, event: SimEvent) {
  const domains = ctx.state
    .identifiersOf(event.tenantId)
    .filter((i) => i.kind === 'domain')
    .map((i) => i.name);
  return stealerLogOf(event.item.metadata.uid, domains, event.createdMs);
}

export const getEvent: Handler = (ctx) => {
  const { uid } = ctx.input.query as { uid: string };
  const event = infectedEvent(ctx, uid);
  const log = logOf(ctx, event);
  const m = event.item.metadata;
  const metadata = {
    estimated_created_at: m.estimated_created_at,
    flare_url: m.flare_url,
    matched_at: m.matched_at,
    severity: m.severity,
    uid: m.uid,
  };
  if (m.type === 'bot') {
    return json(200, {
      event_type: 'bot',
      metadata,
      data: {
        name: `Bot ${log.victim.hwid.slice(0, 8)}`,
        url: null,
        actor: { id: null },
        victim_information: {
          country_code: log.victim.country_code,
          location: null,
          isp: null,
          installed_at: log.malware.infected_at,
          os: log.victim.os,
        },
        price: '10',
        currency: 'USD',
      },
    });
  }
  return json(200, {
    event_type: 'stealer_log',
    metadata,
    data: {
      malware_information: log.malware,
      victim_information: {
        ip_address: null,
        ip_network: null,
        username: log.victim.username,
        country_code: log.victim.country_code,
        zip_code: null,
        location: null,
        hwid: log.victim.hwid,
        current_language: 'en-US',
        screensize_width: 1920,
        screensize_height: 1080,
        timezone: log.victim.timezone,
        os: log.victim.os,
        uac: null,
        process_elevation: false,
        available_keyboards: ['en-US'],
        hardware: null,
        anti_viruses: ['Windows Defender'],
      },
    },
  });
};

export const expandEvent: Handler = (ctx) => {
  const q = ctx.input.query as {
    uid: string;
    field: 'credentials' | 'cookies';
    from?: string | null;
    size: number;
  };
  const session = requireSession(ctx);
  const event = infectedEvent(ctx, q.uid);
  const log = logOf(ctx, event);
  const items: object[] = q.field === 'credentials' ? log.credentials : log.cookies;
  const indexed = items.map((item, i) => ({ item, i }));
  const page = paginate(arraySequence(indexed), {
    from: q.from,
    size: q.size,
    digest: queryDigest({
      route: 'expand',
      tenant: session.tenantId,
      uid: q.uid,
      field: q.field,
      size: q.size,
    }),
    loc: ['query', 'from'],
    keyOf: (x) => [x.i, ''],
    order: 'asc',
    emptyPageEvery: ctx.state.options.emptyPageEvery,
  });
  return json(200, { items: page.items.map((x) => structuredClone(x.item)), next: page.next });
};
