/**
 * Accepting and rejecting identifier recommendations through `POST …/identifier-recommendations/actions`,
 * once however many people click (act-once over a store lease per recommendation): the first click of a
 * decision calls the API and records who made it; later clicks of the same decision are told who did. A
 * whole page goes up in one call (at most 100 targets; a page shows 10). Audited, one entry per click. After
 * an accept, the identifier cache is refreshed so the new identifier can be searched at once.
 */
import { z } from 'zod';
import type { RecommendationAction } from '../../api/index.js';
import { ACT_LEASE_MS, whileKeptAlive } from '../../domain/events/act-once.js';
import type { IdentifierDirectory, KnownIdentifier } from '../../domain/identifiers.js';
import type { ApiAccess } from '../../domain/workspace-api.js';
import { type Clock, realSleep } from '../../kernel/clock.js';
import type { Lease, Repositories, Store } from '../../store/index.js';

const DECISION_TTL_MS = 90 * 24 * 3600_000;

const DecisionSchema = z.object({
  action: z.enum(['accept', 'reject']),
  by: z.string().min(1),
  at: z.number(),
});
type Decision = z.infer<typeof DecisionSchema>;

export interface DecisionDeps {
  api: ApiAccess;
  store: Store;
  repos: Pick<Repositories, 'recommendationDecisions' | 'audit'>;
  clock: Clock;
  identifiers: IdentifierDirectory;
  /** Waiting for a teammate's decision to be recorded (real time by default: polls, not a deadline). */
  sleep?: (ms: number) => Promise<void>;
}

const WAIT_POLLS = 40;
const POLL_MS = 100;

export interface DecideOutcome {
  /** Ids this click decided. */
  decided: number[];
  /** Ids someone had already decided the same way through Vigil: who and when. */
  before: { id: number; decision: Decision }[];
  /** Ids someone is deciding right now. */
  busy: number[];
  decision: Decision;
}

export interface DecisionTarget {
  id: number;
  /** The recommended value (`shop1.acme.example`), for the audit log and the identifier lookup. */
  value: string;
}

function repo(deps: Pick<DecisionDeps, 'repos'>) {
  return deps.repos.recommendationDecisions(DecisionSchema);
}

/** Decisions made through Vigil on these recommendations, by id. */
export async function decisionsOf(
  deps: Pick<DecisionDeps, 'repos'>,
  workspaceId: string,
  ids: readonly number[],
): Promise<Map<number, Decision>> {
  const out = new Map<number, Decision>();
  for (const id of ids) {
    const d = await repo(deps).get(workspaceId, String(id));
    if (d) out.set(id, d);
  }
  return out;
}

export async function decideRecommendations(
  deps: DecisionDeps,
  req: {
    workspaceId: string;
    by: string;
    action: RecommendationAction;
    targets: readonly DecisionTarget[];
    /** The audit log says "whole page" for the page buttons. */
    wholePage?: boolean;
  },
): Promise<DecideOutcome> {
  const { workspaceId, action } = req;
  const decision: Decision = { action, by: req.by, at: deps.clock.now() };
  const records = repo(deps);
  const outcome: DecideOutcome = { decided: [], before: [], busy: [], decision };
  const won: { target: DecisionTarget; lease: Lease }[] = [];
  for (const target of req.targets) {
    const key = String(target.id);
    const due = async () => (await records.get(workspaceId, key))?.action !== action;
    if (!(await due())) {
      const d = await records.get(workspaceId, key);
      if (d) outcome.before.push({ id: target.id, decision: d });
      continue;
    }
    const lease = await deps.store.lease(`${workspaceId}:recommendation:${key}`, ACT_LEASE_MS);
    if (!lease) {
      // A teammate is deciding it now: once their decision is recorded, say whose it was.
      const theirs = await waitForDecision(deps, () => records.get(workspaceId, key), action);
      if (theirs) outcome.before.push({ id: target.id, decision: theirs });
      else outcome.busy.push(target.id);
      continue;
    }
    if (await due()) won.push({ target, lease });
    else {
      await lease.release();
      const d = await records.get(workspaceId, key);
      if (d) outcome.before.push({ id: target.id, decision: d });
    }
  }
  if (won.length === 0) return outcome;
  try {
    await whileKeptAlive(
      won.map((w) => w.lease),
      async () => {
        await deps.api.call(workspaceId, ({ session }) =>
          session.recommendationAction({ action, ids: won.map((w) => w.target.id) }),
        );
        for (const w of won) await records.set(workspaceId, String(w.target.id), decision, DECISION_TTL_MS);
      },
    );
  } finally {
    await Promise.all(won.map((w) => w.lease.release()));
  }
  outcome.decided = won.map((w) => w.target.id);
  const first = won[0]?.target;
  await deps.repos.audit.append({
    teamId: workspaceId,
    userId: req.by,
    action: `recommendation.${action}`,
    target: String(first?.id ?? ''),
    detail: `${req.wholePage ? 'whole page; ' : ''}${won
      .map((w) => w.target.value)
      .join(', ')
      .slice(0, 300)}`,
    ...(won.length > 1 ? { count: won.length, targets: won.map((w) => String(w.target.id)) } : {}),
  });
  // The accepted identifiers may exist now: the next lookup reads the list again.
  if (action === 'accept') await deps.identifiers.invalidate(workspaceId);
  return outcome;
}

async function waitForDecision(
  deps: Pick<DecisionDeps, 'sleep'>,
  read: () => Promise<Decision | undefined>,
  action: RecommendationAction,
): Promise<Decision | undefined> {
  const sleep = deps.sleep ?? realSleep;
  for (let i = 0; i < WAIT_POLLS; i++) {
    const d = await read();
    if (d?.action === action) return d;
    await sleep(POLL_MS);
  }
  return undefined;
}

/** The identifiers that accepted recommendations became, by recommendation id (absent: not created yet). */
export async function identifiersOfAccepted(
  deps: Pick<DecisionDeps, 'identifiers'>,
  workspaceId: string,
  accepted: readonly DecisionTarget[],
  opts: { fresh?: boolean } = {},
): Promise<Map<number, KnownIdentifier>> {
  const out = new Map<number, KnownIdentifier>();
  if (accepted.length === 0) return out;
  const list = await deps.identifiers.list(workspaceId, opts);
  const byName = new Map(list.identifiers.map((i) => [i.name.trim().toLowerCase(), i]));
  for (const t of accepted) {
    const found = byName.get(t.value.trim().toLowerCase());
    if (found) out.set(t.id, found);
  }
  return out;
}
