/**
 * `GET /{family}/v2/activities/{index}/{source}/{id}/ai_assistance`, where `id` may contain unescaped
 * slashes. The event must belong to the token's tenant; otherwise 404.
 */
import { requireSession } from '../auth.js';
import { fail, type Handler, json } from '../http.js';

const decode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

export const aiAssistance: Handler = (ctx) => {
  const session = requireSession(ctx);
  const [index = '', source = '', id = ''] = ctx.params;
  const uid = `${decode(index)}/${decode(source)}/${id.split('/').map(decode).join('/')}`;
  const event = ctx.state.eventByUid(uid);
  if (!event || event.tenantId !== session.tenantId)
    return fail(404, 'NOT_FOUND', `Activity ${uid} not found`);
  const text = ctx.state.aiAssistance.get(uid) ?? {
    prompt: `Explain the ${event.item.metadata.type} event ${uid}.`,
    response: `No specific analysis yet for this ${event.item.metadata.type} event.`,
  };
  return json(200, { activity_ai_assistance: { uid, prompt: text.prompt, response: text.response } });
};
