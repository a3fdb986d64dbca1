/**
 * Runs of Vigil's workflow steps, by Slack's function execution id: a delivery Slack repeats (a retry, a second
 * instance receiving it) runs and completes once. The record lives in the store, so every instance sees it;
 * each transition is a read-modify-write under the store's lock. A running record keeps who runs it and the
 * execution's token, sealed: Slack never redelivers an acknowledged step, so a run its process died in is
 * completed at the next start (`settleInterrupted`): finished with its outputs when the effect it was after is
 * known done (an act on an event the act-once record shows made), else with an error.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Metrics } from '../../observability/metrics.js';
import type { Repositories, Store } from '../../store/index.js';
import { DECISIONS } from './blocks.js';

/** A run not finished by then is taken as crashed: a later delivery of it may run it again. */
export const RUNNING_MS = 2 * 60_000;
/** Slack gives up on a step long before; the record only has to outlive its redeliveries and clicks. */
const KEEP_MS = 14 * 24 * 60 * 60_000;
/** One instance at a time settles what crashed runs left. */
const SETTLE_LEASE = 'workflow-steps:settle';
const SETTLE_LEASE_MS = 60_000;

/** What a decision step asked, kept with its run: the click is checked against it, never against itself. */
const QuestionSchema = z.object({
  decider: z.string().min(1),
  uid: z.string(),
  decisions: z.array(z.enum(DECISIONS)).min(1).max(DECISIONS.length),
  details: z.string().optional(),
});
export type Question = z.infer<typeof QuestionSchema>;

/**
 * The upstream effect a running step is after, written before it asks for it: an act on an event by a person,
 * and the outputs the step completes with once the act-once record shows that act made.
 */
const EffectSchema = z.object({
  kind: z.literal('event-action'),
  uid: z.string().min(1),
  action: z.enum(['ignore', 'remediate', 'unignore', 'unremediate']),
  by: z.string().min(1),
  outputs: z.record(z.string(), z.string()),
});
export type StepEffect = z.infer<typeof EffectSchema>;

const RunSchema = z.object({
  step: z.string().min(1),
  /** `waiting`: a person's click completes it (ask_decision). */
  state: z.enum(['running', 'waiting', 'done']),
  at: z.number(),
  /** Slack's id of the workflow's run, for the audit trail of a later click. */
  workflowRun: z.string().optional(),
  /** The instance running it (the store's holder id), while running. */
  holder: z.string().optional(),
  /** The execution's token, sealed, while running: what completing it after a crash needs. */
  sealedToken: z.string().optional(),
  question: QuestionSchema.optional(),
  /** While running: what it is doing upstream, so a crash after it was done still finishes the step. */
  effect: EffectSchema.optional(),
});

/**
 * A run its process died in, as handed over to be completed: with `outputs` when its effect is known done,
 * else with an error.
 */
export interface InterruptedRun {
  workspaceId: string;
  executionId: string;
  step: string;
  token: string;
  outputs?: Record<string, string>;
}

export class StepRuns {
  private readonly runs;

  constructor(
    private readonly deps: {
      repos: Pick<Repositories, 'workflowSteps' | 'stepTokens' | 'eventStates'>;
      store: Pick<Store, 'holderId' | 'isHolderAlive' | 'lease'>;
      clock: Clock;
      /** Runs counted by outcome, when metrics are on. */
      metrics?: Pick<Metrics, 'stepRun'>;
    },
  ) {
    this.runs = deps.repos.workflowSteps(RunSchema);
  }

  /**
   * True for the one delivery of `executionId` that runs it; false for a repeat (or while one runs). `token`:
   * the execution's, kept sealed until the run is done.
   */
  async begin(workspaceId: string, executionId: string, step: string, token?: string): Promise<boolean> {
    const now = this.deps.clock.now();
    let mine = false;
    await this.runs.update(
      workspaceId,
      executionId,
      (run) => {
        if (run !== undefined && (run.state !== 'running' || now - run.at < RUNNING_MS)) return undefined;
        mine = true;
        const sealedToken = token ? this.deps.repos.stepTokens.seal(workspaceId, token) : undefined;
        return {
          step,
          state: 'running',
          at: now,
          holder: this.deps.store.holderId,
          ...(sealedToken ? { sealedToken } : {}),
        };
      },
      KEEP_MS,
    );
    if (!mine) this.deps.metrics?.stepRun(step, 'repeated');
    return mine;
  }

  /**
   * The running step is about to ask for `effect` upstream: kept with its run, so that settling it after a
   * crash can tell whether it was done. Only on the run this instance holds.
   */
  async expect(workspaceId: string, executionId: string, effect: StepEffect): Promise<void> {
    await this.runs.update(
      workspaceId,
      executionId,
      (run) =>
        run?.state === 'running' && run.holder === this.deps.store.holderId ? { ...run, effect } : undefined,
      KEEP_MS,
    );
  }

  /** The run now waits for a person to answer `question` (posted). */
  async waiting(
    workspaceId: string,
    executionId: string,
    step: string,
    workflowRun: string | undefined,
    question: Question,
  ): Promise<void> {
    const run = {
      step,
      state: 'waiting' as const,
      at: this.deps.clock.now(),
      ...(workflowRun ? { workflowRun } : {}),
      question,
    };
    await this.runs.set(workspaceId, executionId, run, KEEP_MS);
    this.deps.metrics?.stepRun(step, 'waiting');
  }

  /** The question a waiting run asks; undefined once answered, or when it never asked one. */
  async question(workspaceId: string, executionId: string): Promise<Question | undefined> {
    const run = await this.runs.get(workspaceId, executionId);
    return run?.state === 'waiting' ? run.question : undefined;
  }

  /**
   * For the one click that completes a waiting run: its question and workflow run (or '' when unknown).
   * Undefined once it is done, or when it never waited.
   */
  async decide(
    workspaceId: string,
    executionId: string,
  ): Promise<{ workflowRun: string; question: Question } | undefined> {
    const now = this.deps.clock.now();
    let mine: { workflowRun: string; question: Question } | undefined;
    await this.runs.update(
      workspaceId,
      executionId,
      (run) => {
        if (run?.state !== 'waiting' || run.question === undefined) return undefined;
        mine = { workflowRun: run.workflowRun ?? '', question: run.question };
        return { step: run.step, state: 'done', at: now };
      },
      KEEP_MS,
    );
    return mine;
  }

  /** The run completed (with its outputs, or failed with its error): a later delivery does nothing. */
  async done(
    workspaceId: string,
    executionId: string,
    step: string,
    outcome: 'completed' | 'failed',
  ): Promise<void> {
    await this.runs.set(
      workspaceId,
      executionId,
      { step, state: 'done', at: this.deps.clock.now() },
      KEEP_MS,
    );
    this.deps.metrics?.stepRun(step, outcome);
  }

  /** A step refused before it ran (a workspace Vigil does not serve): counted, nothing stored. */
  refused(step: string): void {
    this.deps.metrics?.stepRun(step, 'failed');
  }

  /**
   * Completes, through `complete`, each run left running by a process that is gone (or running past
   * RUNNING_MS) and begun before `before` (this instance's start: its own runs are in flight); each is marked
   * done first, so it is completed once whoever settles. One instance settles at a time. Returns how many were
   * settled and how many were left to a holder still taken as alive.
   */
  async settleInterrupted(
    complete: (run: InterruptedRun) => Promise<void>,
    before: number,
  ): Promise<{ settled: number; held: number }> {
    const lease = await this.deps.store.lease(SETTLE_LEASE, SETTLE_LEASE_MS);
    // Another instance is settling them now.
    if (lease === undefined) return { settled: 0, held: 1 };
    let settled = 0;
    let held = 0;
    try {
      for (const { workspaceId, key } of await this.runs.entries()) {
        const run = await this.runs.get(workspaceId, key).catch(() => undefined);
        if (run?.state !== 'running' || run.at >= before) continue;
        if (await this.live(run)) {
          held++;
          continue;
        }
        const taken = await this.take(workspaceId, key, run.at);
        if (taken === undefined) continue;
        settled++;
        const outputs = await this.knownDone(workspaceId, taken);
        this.deps.metrics?.stepRun(run.step, outputs ? 'completed' : 'failed');
        if (taken.sealedToken === undefined) continue;
        let token: string;
        try {
          token = this.deps.repos.stepTokens.open(workspaceId, taken.sealedToken);
        } catch {
          // Sealed with a key Vigil no longer has: Slack's own timeout ends that step.
          continue;
        }
        await complete({
          workspaceId,
          executionId: key,
          step: run.step,
          token,
          ...(outputs ? { outputs } : {}),
        });
        await lease.renew();
      }
    } finally {
      await lease.release().catch(() => undefined);
    }
    return { settled, held };
  }

  /**
   * The outputs of a crashed run whose effect is known done: the event's act-once record shows the act it was
   * after, by its person, made since the run began. Undefined when it is not known (never asked, or not made).
   */
  private async knownDone(
    workspaceId: string,
    run: z.output<typeof RunSchema>,
  ): Promise<Record<string, string> | undefined> {
    const effect = run.effect;
    if (effect === undefined) return undefined;
    const last = (await this.deps.repos.eventStates.get(workspaceId, effect.uid).catch(() => undefined))
      ?.last;
    const made = last?.action === effect.action && last.by === effect.by && last.at >= run.at;
    return made ? effect.outputs : undefined;
  }

  /** Whether a running record may still be running: its holder alive (this instance included), and young. */
  private async live(run: z.output<typeof RunSchema>): Promise<boolean> {
    if (this.deps.clock.now() - run.at >= RUNNING_MS) return false;
    return run.holder !== undefined && (await this.deps.store.isHolderAlive(run.holder));
  }

  /** Marks the run done if it is still the running record seen: the record as it was, or undefined. */
  private async take(workspaceId: string, executionId: string, at: number) {
    let taken: z.output<typeof RunSchema> | undefined;
    await this.runs.update(
      workspaceId,
      executionId,
      (run) => {
        if (run?.state !== 'running' || run.at !== at) return undefined;
        taken = run;
        return { step: run.step, state: 'done', at: this.deps.clock.now() };
      },
      KEEP_MS,
    );
    return taken;
  }
}
