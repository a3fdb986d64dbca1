/**
 * Unassigning a matching policy from one identifier, once however many people submit the form (act-once
 * over a store lease): the first caller calls the API and records who did it; the others are told.
 * Audited. The record outlives the lists (24 h) whose buttons could ask for the same unassign again.
 */
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Repositories, Store } from '../store/index.js';
import { ACT_LEASE_MS, actOnce } from './act-once.js';
import type { ApiAccess } from './workspace-api.js';

const DONE_TTL_MS = 25 * 60 * 60 * 1000;

export type UnassignOutcome =
  | { kind: 'done'; at: number; cleanPastEvents: boolean }
  | { kind: 'done-before'; by: string; at: number }
  | { kind: 'in-progress' };

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
  deps: {
    api: ApiAccess;
    store: Store;
    repos: Pick<Repositories, 'audit' | 'policyUnassigns'>;
    clock: Clock;
  },
  req: UnassignRequest,
): Promise<UnassignOutcome> {
  const done = deps.repos.policyUnassigns(DoneSchema);
  const key = `${req.policyUuid}:${req.identifierId}`;
  const at = deps.clock.now();
  const outcome = await actOnce({
    // Keyed by workspace first, so forgetting the workspace drops it.
    acquire: () => deps.store.lease(`${req.workspaceId}:unassign:${key}`, ACT_LEASE_MS),
    stillDue: async () => (await done.get(req.workspaceId, key)) === undefined,
    act: async () => {
      await deps.api.call(req.workspaceId, ({ session }) =>
        session.unassignPolicy({
          policyUuid: req.policyUuid,
          identifierIds: [req.identifierId],
          cleanPastEvents: req.cleanPastEvents,
        }),
      );
      await done.set(req.workspaceId, key, { by: req.userId, at }, DONE_TTL_MS);
      await deps.repos.audit.append({
        teamId: req.workspaceId,
        userId: req.userId,
        action: 'policy.unassign',
        target: req.policyUuid,
        detail: `identifier ${req.identifierId} (${req.identifierName.slice(0, 100)})${req.cleanPastEvents ? ', past events cleaned' : ''}`,
      });
    },
  });
  if (outcome.kind === 'done') return { kind: 'done', at, cleanPastEvents: req.cleanPastEvents };
  if (outcome.kind === 'busy') return { kind: 'in-progress' };
  const record = await done.get(req.workspaceId, key);
  return record ? { kind: 'done-before', ...record } : { kind: 'in-progress' };
}
