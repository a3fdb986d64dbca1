/**
 * One event's v2 activity endpoints: AI assistance (every field of the v2 answer is optional in its contract)
 * and its highlights, read live (`POST …/v2/activities/{index}/{source}/{id}/highlights`, Swagger 2.0
 * document firework-v2-swagger.json: body `HighlightPayload` `{query_string?, identifier_ids?}`; the 200
 * answer has no published schema, docs/API-NOTES.md#event-uids says what is read of it).
 */
import { z } from 'zod';
import { eventUidPath } from '../core/event-uid.js';
import type { ResourceSession } from '../core/resource-session.js';

/** @internal */
export const AiAssistanceSchema = z.object({
  activity_ai_assistance: z
    .object({
      uid: z.string().optional(),
      prompt: z.string().optional(),
      response: z.string().optional(),
    })
    .nullish(),
});
type AiAssistance = {
  /** The event uid (the requested one when the answer omits it). */
  uid: string;
  prompt?: string | undefined;
  /** Empty when the API had nothing to say. */
  response: string;
};

/** Field name → fragments with `<mark>`, as an event's `highlights` (threat-intel specification, Event). */
type Highlights = Record<string, string[]>;

const FragmentsSchema = z.array(z.string());
/**
 * The answer is undocumented: `{highlights: {field: [fragment]}}`, or the map itself; a field that is not a
 * list of strings is left out rather than failing the whole answer.
 */
const HighlightsAnswerSchema = z.record(z.string(), z.unknown()).transform((answer): Highlights => {
  const map = answer.highlights;
  const fields = typeof map === 'object' && map !== null && !Array.isArray(map) ? map : answer;
  const out: Highlights = {};
  for (const [field, fragments] of Object.entries(fields)) {
    const read = FragmentsSchema.safeParse(fragments);
    if (read.success) out[field] = read.data;
  }
  return out;
});

interface HighlightsQuery {
  /** The identifiers the highlights are about (those the event matched). */
  identifierIds?: number[];
  queryString?: string;
}

export interface ActivitiesApi {
  getAiAssistance(eventUid: string): Promise<AiAssistance>;
  /** The event's highlights as the API has them now (nothing of them is kept by Vigil in clear). */
  getHighlights(eventUid: string, query?: HighlightsQuery): Promise<Highlights>;
}

export function activitiesResource({ call, v2 }: ResourceSession): ActivitiesApi {
  return {
    async getAiAssistance(eventUid) {
      const { data } = await call({
        method: 'GET',
        path: `${v2}/activities/${eventUidPath(eventUid)}/ai_assistance`,
        route: `${v2}/activities/{uid}/ai_assistance`,
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema: AiAssistanceSchema,
      });
      const a = data.activity_ai_assistance ?? {};
      return {
        uid: a.uid ?? eventUid,
        ...(a.prompt === undefined ? {} : { prompt: a.prompt }),
        response: a.response ?? '',
      };
    },
    async getHighlights(eventUid, query = {}) {
      const body: { identifier_ids?: number[]; query_string?: string } = {};
      if (query.identifierIds !== undefined) body.identifier_ids = query.identifierIds;
      if (query.queryString !== undefined) body.query_string = query.queryString;
      const { data } = await call({
        method: 'POST',
        path: `${v2}/activities/${eventUidPath(eventUid)}/highlights`,
        route: `${v2}/activities/{uid}/highlights`,
        body,
        tier: 'ordinary',
        // A read, though sent as a POST: repeating it changes nothing.
        idempotent: true,
        auth: 'token',
        schema: HighlightsAnswerSchema,
      });
      return data;
    },
  };
}
