/**
 * `POST /{family}/v4/events/identifiers/{identifier_id}/_search` and `POST /{family}/v4/events/actions`.
 *
 * Actions: every target must be an event of the token's tenant; otherwise nothing is changed and the answer
 * is 404 `EVENT_NOT_FOUND` with the unknown uids in `error.data.uids` (all-or-nothing, so a retry is safe).
 * Success is 200 with an empty body. Acting twice is harmless (ignore keeps the first `ignored_at`).
 */
import { requireSession } from '../auth.js';
import { queryDigest } from '../cursors.js';
import { isoFromMs } from '../data/seed.js';
import { fail, type Handler, json, jsonNull } from '../http.js';
import { matchesFilters, matchesQuery } from '../matching.js';
import { arraySequence, compareKeys, paginate } from '../paging.js';
import type { EventActionsBody, EventSearchBody } from '../requests.js';
import type { SimEvent } from '../types.js';

export const searchEvents: Handler = (ctx) => {
  const session = requireSession(ctx);
  const identifierId = ctx.input.path.identifier_id as number;
  const body = ctx.input.body as EventSearchBody;
  const identifier = ctx.state.identifiers.find(
    (i) => i.id === identifierId && i.tenantId === session.tenantId,
  );
  if (!identifier) return fail(404, 'NOT_FOUND', `Identifier ${identifierId} not found`);

  const dir = body.order === 'asc' ? 1 : -1;
  const query = body.query;
  const matching = ctx.state
    .eventsOf(identifierId)
    .filter((e) => e.tenantId === session.tenantId)
    .filter((e) => (query ? matchesQuery(e, query) : true))
    .filter((e) => matchesFilters(e, body.filters))
    .sort((a, b) => compareKeys(keyOf(a), keyOf(b)) * dir);

  const { from, ...rest } = body;
  const page = paginate(arraySequence(matching), {
    from,
    size: body.size,
    digest: queryDigest({ route: 'events', tenant: session.tenantId, identifierId, ...rest }),
    loc: ['body', 'from'],
    keyOf,
    order: body.order,
    emptyPageEvery: ctx.state.options.emptyPageEvery,
    shortPageEvery: ctx.state.options.shortPageEvery,
    overlap: ctx.state.options.cursorOverlap,
  });
  return json(200, { items: page.items.map((e) => structuredClone(e.item)), next: page.next });
};

/** `POST /{family}/v4/events/tenant/_search`: the same search over every identifier of the token's tenant. */
export const searchTenantEvents: Handler = (ctx) => {
  const session = requireSession(ctx);
  const body = ctx.input.body as EventSearchBody;
  const dir = body.order === 'asc' ? 1 : -1;
  const query = body.query;
  const matching = ctx.state.events
    .filter((e) => e.tenantId === session.tenantId)
    .filter((e) => (query ? matchesQuery(e, query) : true))
    .filter((e) => matchesFilters(e, body.filters))
    .sort((a, b) => compareKeys(keyOf(a), keyOf(b)) * dir);
  const { from, ...rest } = body;
  const page = paginate(arraySequence(matching), {
    from,
    size: body.size,
    digest: queryDigest({ route: 'tenant-events', tenant: session.tenantId, ...rest }),
    loc: ['body', 'from'],
    keyOf,
    order: body.order,
    emptyPageEvery: ctx.state.options.emptyPageEvery,
    shortPageEvery: ctx.state.options.shortPageEvery,
    overlap: ctx.state.options.cursorOverlap,
  });
  return json(200, { items: page.items.map((e) => structuredClone(e.item)), next: page.next });
};

const keyOf = (e: SimEvent): [number, string] => [e.createdMs, e.item.metadata.uid];

export const eventActions: Handler = (ctx) => {
  const session = requireSession(ctx);
  const body = ctx.input.body as EventActionsBody;
  const targets = body.targets ?? [];
  const events = targets.map((t) => ctx.state.eventByUid(t.uid));
  const unknown = targets.filter((_, i) => events[i]?.tenantId !== session.tenantId).map((t) => t.uid);
  if (unknown.length > 0) {
    return fail(404, 'EVENT_NOT_FOUND', `Unknown event uid: ${unknown.join(', ')}`, { uids: unknown });
  }
  const now = isoFromMs(ctx.clock.now());
  for (const event of events) {
    const meta = event?.item.tenant_metadata;
    if (!meta) continue;
    switch (body.action.type) {
      case 'ignore':
        meta.ignored_at ??= now;
        break;
      case 'unignore':
        meta.ignored_at = null;
        break;
      case 'remediate':
        meta.remediated_at ??= now;
        break;
      case 'unremediate':
        meta.remediated_at = null;
        break;
    }
  }
  return jsonNull();
};
