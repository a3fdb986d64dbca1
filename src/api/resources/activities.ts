/** AI assistance on one event (v2 activities). Every field of the v2 answer is optional in its contract. */
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

export interface ActivitiesApi {
  getAiAssistance(eventUid: string): Promise<AiAssistance>;
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
  };
}
