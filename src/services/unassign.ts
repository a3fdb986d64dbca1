/**
 * Unassigning a matching policy from one identifier, once however many people submit the form: the first
 * takes the claim and calls the API; the others are told who did it (or is doing it). Audited.
 */
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Repositories, Store } from '../store/index.js';
import type { ApiAccess } from './workspace-api.js';

/** Outlives the lists (24 h) whose buttons could still ask for the same unassign. */
const DONE_TTL_MS = 25 * 60 * 60 * 1000;
const CLAIM_TTL_MS = 2 * 60 * 1000;

export type UnassignOutcome =
  | { kind: 'done'; at: number; cleanPastEvents: boolean }
  | { kind: 'done-before'; by: string; at: number }
  | { kind: 'in-progress'; by?: string | undefined };

export interface UnassignRequest {
  workspaceId: string;
  userId: string;
  policyUuid: string;
  identifierId: number;
  identifierName: string;
  cleanPastEvents: boolean;
}

const DoneSchema = z.object({ by: z.string(), at: z.number() });

export async function unassignOnce(
  deps: { api: ApiAccess; store: Store; repos: Pick<Repositories, 'audit'>; clock: Clock },
  req: UnassignRequest,
): Promise<UnassignOutcome> {
  const key = `${req.workspaceId}:${req.policyUuid}:${req.identifierId}`;
  const done = deps.store.namespace('unassign-done');
  const before = DoneSchema.safeParse(await done.get(key));
  if (before.success) return { kind: 'done-before', ...before.data };
  if (!(await deps.store.claim(`unassign:${key}`, CLAIM_TTL_MS))) return { kind: 'in-progress' };
  const at = deps.clock.now();
  try {
    await deps.api.call(req.workspaceId, ({ session }) =>
      session.unassignPolicy({
        policyUuid: req.policyUuid,
        identifierIds: [req.identifierId],
        cleanPastEvents: req.cleanPastEvents,
      }),
    );
    // Recorded before the claim goes, so a later submission finds it done.
    await done.set(key, { by: req.userId, at }, DONE_TTL_MS);
  } finally {
    await deps.store.release(`unassign:${key}`);
  }
  await deps.repos.audit.append({
    teamId: req.workspaceId,
    userId: req.userId,
    action: 'policy.unassign',
    target: req.policyUuid,
    detail: `identifier ${req.identifierId} (${req.identifierName.slice(0, 100)})${req.cleanPastEvents ? ', past events cleaned' : ''}`,
  });
  return { kind: 'done', at, cleanPastEvents: req.cleanPastEvents };
}
