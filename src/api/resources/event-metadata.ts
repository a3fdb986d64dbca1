/**
 * An event's tenant metadata (v4, published contract: `PATCH …/v4/events/tenant/metadata?uid=`): tags, a
 * note and a severity override. A field left out is left as it is; `null` clears the note or the override.
 */
import { z } from 'zod';
import type { ResourceSession } from '../core/resource-session.js';
import { nullableString } from '../core/schema.js';
import { type Json, Problems } from '../core/wire.js';
import { SEVERITIES, type Severity } from './events.js';

export interface EventMetadataChange {
  /** The whole list of tags (replaces the event's tags). */
  tags?: string[];
  /** The note; null removes it. */
  notes?: string | null;
  /** The override; null goes back to the original severity. */
  severity?: Severity | null;
}

/** `TenantMetadataResponse`: the event's metadata after the change. */
const TenantMetadataSchema = z.object({
  uid: z.string().optional(),
  notes: nullableString.optional(),
  tags: z.array(z.string()).optional(),
  severity: nullableString.optional(),
});
export type TenantMetadata = z.infer<typeof TenantMetadataSchema>;

function eventMetadataBody(change: EventMetadataChange): Json {
  const problems = new Problems();
  const body: Json = {};
  if (change.tags !== undefined) {
    change.tags.forEach((t, i) => {
      if (typeof t !== 'string' || t.trim() === '') problems.add(`tags.${i}`, 'must be a non-empty string');
    });
    body.tags = [...new Set(change.tags)];
  }
  if (change.notes !== undefined) body.notes = change.notes;
  if (change.severity !== undefined) {
    if (change.severity !== null && !(SEVERITIES as readonly string[]).includes(change.severity))
      problems.add('severity', `must be one of ${SEVERITIES.join(', ')}`);
    body.severity = change.severity;
  }
  if (Object.keys(body).length === 0) problems.add('change', 'names no field to change');
  problems.throwIfAny('event metadata change');
  return body;
}

export interface EventMetadataApi {
  /** Sets the given fields of one event's tenant metadata; the same change twice is harmless. */
  updateEventMetadata(uid: string, change: EventMetadataChange): Promise<TenantMetadata>;
}

export function eventMetadataResource({ call, v4 }: ResourceSession): EventMetadataApi {
  return {
    async updateEventMetadata(uid, change) {
      const problems = new Problems();
      if (typeof uid !== 'string' || uid === '') problems.add('uid', 'must be a non-empty event uid');
      problems.throwIfAny('event metadata change');
      const res = await call({
        method: 'PATCH',
        path: `${v4}/events/tenant/metadata`,
        // The uid travels as a query parameter, slashes and all (URLSearchParams encodes it).
        query: [['uid', uid]],
        body: eventMetadataBody(change),
        tier: 'ordinary',
        // Setting the same values again changes nothing: safe to retry.
        idempotent: true,
        auth: 'token',
        schema: TenantMetadataSchema,
      });
      return res.data;
    },
  };
}
