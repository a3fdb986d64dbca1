/**
 * `GET /{family}/v2/activities/{index}/{source}/{id}/ai_assistance` and
 * `POST /{family}/v2/activities/{index}/{source}/{id}/highlights`, where `id` may contain unescaped slashes.
 * The event must belong to the token's tenant; otherwise 404 (the Swagger document's `HttpError`).
 */
import { requireSession } from '../auth.js';
import { fail, type Handler, json, type RouteContext, type SimResponse } from '../http.js';
import type { SimEvent } from '../types.js';

const decode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The event the path names in the token's tenant, or the 404 answer. */
function activityOf(ctx: RouteContext): { uid: string; event: SimEvent } | SimResponse {
  const session = requireSession(ctx);
  const [index = '', source = '', id = ''] = ctx.params;
  const uid = `${decode(index)}/${decode(source)}/${id.split('/').map(decode).join('/')}`;
  const event = ctx.state.eventByUid(uid);
  if (!event || event.tenantId !== session.tenantId)
    return fail(404, 'NOT_FOUND', `Activity ${uid} not found`);
  return { uid, event };
}

export const aiAssistance: Handler = (ctx) => {
  const found = activityOf(ctx);
  if (!('uid' in found)) return found;
  const { uid, event } = found;
  const text = ctx.state.aiAssistance.get(uid) ?? {
    prompt: `Explain the ${event.item.metadata.type} event ${uid}.`,
    response: `No specific analysis yet for this ${event.item.metadata.type} event.`,
  };
  return json(200, { activity_ai_assistance: { uid, prompt: text.prompt, response: text.response } });
};

/**
 * The event's highlights as they are now (the body, `HighlightPayload`, was held to the Swagger document
 * before this runs). The 200 answer has no published schema: `{highlights: {field: [fragment]}}`, the shape
 * of an event's highlights (docs/API-NOTES.md#event-uids).
 */
export const activityHighlights: Handler = (ctx) => {
  const found = activityOf(ctx);
  if (!('uid' in found)) return found;
  return json(200, { highlights: found.event.item.highlights });
};
