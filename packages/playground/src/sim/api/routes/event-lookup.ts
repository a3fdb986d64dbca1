/**
 * `GET /{family}/v4/events/?uid=` for any event: infected devices' events in full (stealer-logs.ts), every
 * other type as the published `EmptyFireworkEvent` (`event_type`, `metadata`, no data). The published
 * operation names no tenant and its answer carries none, so the simulator serves those from any tenant: a
 * client must not take an answer as proof that the event is its tenant's.
 */
import { requireSession } from '../auth.js';
import { fail, type Handler, json } from '../http.js';
import { getEvent } from './stealer-logs.js';

const INFECTED = new Set(['stealer_log', 'bot']);
/** The published `ActivityModelName` values the simulator's event types use; anything else is `event`. */
const MODEL_NAMES = new Set([
  'blog_post',
  'chat_message',
  'forum_post',
  'leak',
  'leaked_credential',
  'listing',
  'lookalike',
  'paste',
  'ransomleak',
  'service',
  'social_media_account',
  'source_code_secret',
  'bucket',
  'docker_image',
]);

export const getAnyEvent: Handler = (ctx) => {
  requireSession(ctx);
  const { uid } = ctx.input.query as { uid: string };
  const event = ctx.state.eventByUid(uid);
  if (event === undefined) return fail(404, 'EVENT_NOT_FOUND', 'Event not found');
  const m = event.item.metadata;
  if (INFECTED.has(m.type)) return getEvent(ctx);
  return json(200, {
    event_type: MODEL_NAMES.has(m.type) ? m.type : 'event',
    metadata: {
      estimated_created_at: m.estimated_created_at,
      flare_url: m.flare_url,
      matched_at: m.matched_at,
      severity: m.severity,
      uid: m.uid,
    },
  });
};
