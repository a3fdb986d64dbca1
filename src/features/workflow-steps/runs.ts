/**
 * Runs of Vigil's workflow steps, by Slack's function execution id: a delivery Slack repeats (a retry, a second
 * instance receiving it) runs and completes once. The record lives in the store, so every instance sees it;
 * each transition is a read-modify-write under the store's lock.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Metrics } from '../../observability/metrics.js';
import type { Repositories } from '../../store/index.js';

/** A run not finished by then is taken as crashed: a later delivery of it may run it again. */
const RUNNING_MS = 2 * 60_000;
/** Slack gives up on a step long before; the record only has to outlive its redeliveries and clicks. */
const KEEP_MS = 14 * 24 * 60 * 60_000;

const RunSchema = z.object({
  step: z.string().min(1),
  /** `waiting`: a person's click completes it (ask_decision). */
  state: z.enum(['running', 'waiting', 'done']),
  at: z.number(),
  /** Slack's id of the workflow's run, for the audit trail of a later click. */
  workflowRun: z.string().optional(),
});

export class StepRuns {
  private readonly runs;

  constructor(
    private readonly deps: {
      repos: Pick<Repositories, 'workflowSteps'>;
      clock: Clock;
      /** Runs counted by outcome, when metrics are on. */
      metrics?: Pick<Metrics, 'stepRun'>;
    },
  ) {
    this.runs = deps.repos.workflowSteps(RunSchema);
  }

  /** True for the one delivery of `executionId` that runs it; false for a repeat (or while one runs). */
  async begin(workspaceId: string, executionId: string, step: string): Promise<boolean> {
    const now = this.deps.clock.now();
    let mine = false;
    await this.runs.update(
      workspaceId,
      executionId,
      (run) => {
        if (run !== undefined && (run.state !== 'running' || now - run.at < RUNNING_MS)) return undefined;
        mine = true;
        return { step, state: 'running', at: now };
      },
      KEEP_MS,
    );
    if (!mine) this.deps.metrics?.stepRun(step, 'repeated');
    return mine;
  }

  /** The run now waits for a person (its question was posted). */
  async waiting(
    workspaceId: string,
    executionId: string,
    step: string,
    workflowRun: string | undefined,
  ): Promise<void> {
    await this.set(workspaceId, executionId, step, 'waiting', workflowRun);
    this.deps.metrics?.stepRun(step, 'waiting');
  }

  /**
   * For the one click that completes a waiting run: its workflow run (or '' when unknown). Undefined once it
   * is done, or when it never waited.
   */
  async decide(workspaceId: string, executionId: string): Promise<string | undefined> {
    const now = this.deps.clock.now();
    let mine: string | undefined;
    await this.runs.update(
      workspaceId,
      executionId,
      (run) => {
        if (run?.state !== 'waiting') return undefined;
        mine = run.workflowRun ?? '';
        return { ...run, state: 'done', at: now };
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
    await this.set(workspaceId, executionId, step, 'done');
    this.deps.metrics?.stepRun(step, outcome);
  }

  private async set(
    workspaceId: string,
    executionId: string,
    step: string,
    state: 'waiting' | 'done',
    workflowRun?: string,
  ): Promise<void> {
    const run = { step, state, at: this.deps.clock.now(), ...(workflowRun ? { workflowRun } : {}) };
    await this.runs.set(workspaceId, executionId, run, KEEP_MS);
  }
}
