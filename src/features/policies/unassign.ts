/**
 * Unassigning a matching policy from one identifier, once however many people submit the form (act-once
 * over a store lease): the first caller calls the API and records who did it; the others are told.
 * Audited. The record outlives the lists (24 h) whose buttons could ask for the same unassign again.
 *
 * Across a crash: the intent (who asked, what) is recorded before the call and cleared once the outcome is
 * recorded. An intent left behind (the process died, or the answer was lost) is settled by whoever next holds
 * the lease, at start-up or on the next submission: if the assignment is gone upstream, the unassign is
 * recorded and audited in the asker's name; if it is still there, the intent is dropped and the call made.
 */
import { z } from 'zod';
import { ApiError } from '../../api/index.js';
import { ACT_LEASE_MS, actOnce } from '../../domain/events/act-once.js';
import type { ApiAccess } from '../../domain/workspace-api.js';
import { type Clock, realSleep, type Sleep } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { Repositories, Store } from '../../store/index.js';

const DONE_TTL_MS = 25 * 60 * 60 * 1000;
/** Page size when looking through a policy's assignments for one identifier. */
const LOOKUP_PAGE = 100;

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

export interface UnassignDeps {
  api: ApiAccess;
  store: Store;
  repos: Pick<Repositories, 'audit' | 'policyUnassigns' | 'unassignIntents'>;
  clock: Clock;
  /** Waiting for a holder to finish; real time when absent. */
  sleep?: Sleep;
}

/**
 * A submission finding the unassign held (a teammate's call, or a restart settling an interrupted one) waits
 * this many steps for its outcome, so it can answer "done by…" rather than "someone is at it".
 */
const BUSY_STEPS = 40;
const BUSY_STEP_MS = 250;

const DoneSchema = z.object({ by: z.string(), at: z.number() });
const IntentSchema = z.object({
  by: z.string(),
  at: z.number(),
  policyUuid: z.string(),
  identifierId: z.number().int(),
  identifierName: z.string(),
  cleanPastEvents: z.boolean(),
});
type Intent = z.infer<typeof IntentSchema>;

const keyOf = (policyUuid: string, identifierId: number) => `${policyUuid}:${identifierId}`;
// Keyed by workspace first, so forgetting the workspace drops it.
const leaseOf = (workspaceId: string, key: string) => `${workspaceId}:unassign:${key}`;

function records(deps: UnassignDeps) {
  return {
    done: deps.repos.policyUnassigns(DoneSchema),
    intents: deps.repos.unassignIntents(IntentSchema),
  };
}

/** The API certainly did not apply the call: refused it (4xx) or never processed it. */
function certainlyNotApplied(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return err.rejectedBeforeProcessing || (err.status !== undefined && err.status >= 400 && err.status < 500);
}

async function recordDone(deps: UnassignDeps, workspaceId: string, intent: Intent, note = ''): Promise<void> {
  const { done } = records(deps);
  await done.set(
    workspaceId,
    keyOf(intent.policyUuid, intent.identifierId),
    { by: intent.by, at: intent.at },
    DONE_TTL_MS,
  );
  await deps.repos.audit.append({
    teamId: workspaceId,
    userId: intent.by,
    action: 'policy.unassign',
    target: intent.policyUuid,
    detail: `identifier ${intent.identifierId} (${intent.identifierName.slice(0, 100)})${intent.cleanPastEvents ? ', past events cleaned' : ''}${note}`,
  });
}

/** Whether the identifier is still assigned to the policy, upstream. */
async function stillAssigned(deps: UnassignDeps, workspaceId: string, intent: Intent): Promise<boolean> {
  return deps.api.call(workspaceId, async ({ session }) => {
    for await (const step of session.iteratePolicyAssignments(intent.policyUuid, { size: LOOKUP_PAGE })) {
      if (step.items.some((a) => a.identifier_id === intent.identifierId)) return true;
    }
    return false;
  });
}

/**
 * Settles an intent nobody recorded the outcome of (hold the lease): 'done' when the assignment is gone (the
 * unassign is recorded and audited in the asker's name), 'not-applied' when it is still there.
 */
async function settleIntent(
  deps: UnassignDeps,
  workspaceId: string,
  intent: Intent,
): Promise<'done' | 'not-applied'> {
  const { intents } = records(deps);
  const key = keyOf(intent.policyUuid, intent.identifierId);
  if (await stillAssigned(deps, workspaceId, intent)) {
    await intents.delete(workspaceId, key);
    return 'not-applied';
  }
  await recordDone(deps, workspaceId, intent, '; confirmed after its call was interrupted');
  await intents.delete(workspaceId, key);
  return 'done';
}

export async function unassignOnce(deps: UnassignDeps, req: UnassignRequest): Promise<UnassignOutcome> {
  const { done, intents } = records(deps);
  const key = keyOf(req.policyUuid, req.identifierId);
  const at = deps.clock.now();
  const intent: Intent = {
    by: req.userId,
    at,
    policyUuid: req.policyUuid,
    identifierId: req.identifierId,
    identifierName: req.identifierName,
    cleanPastEvents: req.cleanPastEvents,
  };
  const attempt = () =>
    actOnce({
      acquire: () => deps.store.lease(leaseOf(req.workspaceId, key), ACT_LEASE_MS),
      stillDue: async () => (await done.get(req.workspaceId, key)) === undefined,
      act: async (): Promise<'done' | 'settled'> => {
        const earlier = await intents.get(req.workspaceId, key);
        if (earlier && (await settleIntent(deps, req.workspaceId, earlier)) === 'done') return 'settled';
        await intents.set(req.workspaceId, key, intent, DONE_TTL_MS);
        try {
          await deps.api.call(req.workspaceId, ({ session }) =>
            session.unassignPolicy({
              policyUuid: req.policyUuid,
              identifierIds: [req.identifierId],
              cleanPastEvents: req.cleanPastEvents,
            }),
          );
        } catch (err) {
          // An unknown outcome keeps the intent: whoever comes next looks before calling again.
          if (certainlyNotApplied(err)) await intents.delete(req.workspaceId, key);
          throw err;
        }
        await recordDone(deps, req.workspaceId, intent);
        await intents.delete(req.workspaceId, key);
        return 'done';
      },
    });
  let outcome = await attempt();
  const sleep = deps.sleep ?? realSleep;
  for (let step = 0; outcome.kind === 'busy' && step < BUSY_STEPS; step++) {
    await sleep(BUSY_STEP_MS);
    outcome = await attempt();
  }
  if (outcome.kind === 'done' && outcome.value === 'done')
    return { kind: 'done', at, cleanPastEvents: req.cleanPastEvents };
  if (outcome.kind === 'busy') return { kind: 'in-progress' };
  const record = await done.get(req.workspaceId, key);
  return record ? { kind: 'done-before', ...record } : { kind: 'in-progress' };
}

/**
 * At start-up: settles the unassigns a crashed process called without recording the outcome. Each is taken
 * over with its lease (a dead holder's is free at once; a live process's is left alone).
 */
export async function settleInterruptedUnassigns(deps: UnassignDeps & { logger: Logger }): Promise<number> {
  const { done, intents } = records(deps);
  let settled = 0;
  for (const { workspaceId, key } of await intents.entries()) {
    const lease = await deps.store.lease(leaseOf(workspaceId, key), ACT_LEASE_MS);
    if (!lease) continue;
    try {
      const intent = await intents.get(workspaceId, key);
      if (!intent) continue;
      if ((await done.get(workspaceId, key)) !== undefined) await intents.delete(workspaceId, key);
      else if ((await settleIntent(deps, workspaceId, intent)) === 'done') settled++;
    } catch (err) {
      deps.logger.warn('could not settle an interrupted unassign', { workspaceId, err });
    } finally {
      await lease.release().catch(() => undefined);
    }
  }
  if (settled > 0) deps.logger.info('interrupted unassigns settled', { count: settled });
  return settled;
}
