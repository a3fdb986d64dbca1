/**
 * `PATCH …/v4/events/tenant/metadata?uid=<event uid>` with `UpdateTenantMetadataBody`: sets the event's tags,
 * note and severity override for the token's tenant and answers `TenantMetadataResponse` (the override, or
 * null, as `severity`). A field left out stays as it is; `notes: null` removes the note, `severity: null`
 * the override, `tags: null` is treated as no change. An event of another tenant is 404 `EVENT_NOT_FOUND`.
 */
import { requireSession } from '../auth.js';
import { fail, type Handler, json } from '../http.js';
import type { UpdateTenantMetadataBody } from '../requests.js';

export const updateTenantMetadata: Handler = (ctx) => {
  const session = requireSession(ctx);
  // The contract requires `uid` and the body; the server has held the request to it already.
  const { uid } = ctx.input.query as { uid: string };
  const body = ctx.input.body as UpdateTenantMetadataBody;
  const event = ctx.state.eventByUid(uid);
  if (!event || event.tenantId !== session.tenantId) {
    return fail(404, 'EVENT_NOT_FOUND', `Unknown event uid: ${uid}`, { uids: [uid] });
  }
  const meta = event.item.tenant_metadata;
  if (body.tags !== undefined && body.tags !== null) meta.tags = [...new Set(body.tags)];
  if (body.notes !== undefined) meta.notes = body.notes;
  if (body.severity !== undefined) {
    const original = event.item.metadata.severity;
    meta.severity = body.severity === null ? null : { original, override: body.severity };
  }
  return json(200, {
    uid,
    notes: meta.notes,
    tags: [...meta.tags],
    severity: meta.severity?.override ?? null,
  });
};
