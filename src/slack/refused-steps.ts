/**
 * A workflow step the workspace gate refused (a workspace this installation does not serve, no installation,
 * the store unreachable while checking): Slack waits for every step it starts until it times out, so the
 * step is completed with an error its workflow's author can act on. The `function_executed` event carries
 * the execution's own token (`bot_access_token`) for that, so no installation is needed; each execution is
 * completed once however often Slack delivers it. The work is tracked and runs after the ack.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../kernel/logger.js';
import type { WorkTracker } from '../kernel/work-tracker.js';
import { answerFor } from './error-reply.js';
import { type EnvelopeIds, workspaceOfEnvelope } from './requester.js';

interface RefusedStep {
  workspaceId: string;
  executionId: string;
  callbackId: string;
  token: string;
}

/** The step a refused request would have run, when it is a `function_executed` event. */
function refusedStepOf(body: unknown): RefusedStep | undefined {
  const b = body as (EnvelopeIds & { type?: unknown; event?: Record<string, unknown> }) | undefined;
  const e = b?.type === 'event_callback' ? b.event : undefined;
  if (e?.type !== 'function_executed') return undefined;
  const { function_execution_id: executionId, bot_access_token: token } = e;
  const callbackId = (e.function as { callback_id?: unknown } | undefined)?.callback_id;
  if (typeof executionId !== 'string' || typeof token !== 'string' || token === '') return undefined;
  return {
    workspaceId: workspaceOfEnvelope(b as EnvelopeIds),
    executionId,
    callbackId: typeof callbackId === 'string' ? callbackId : 'step',
    token,
  };
}

/** The error a refused step completes with: the refusal in our words, what to do, and that nothing ran. */
export function refusedStepError(err: unknown): string {
  const refusal = answerFor(err);
  const why = refusal ? `${refusal.message} ${refusal.hint}` : 'Vigil refused it.';
  return `Vigil did not run this step: ${why}`.slice(0, 1000);
}

/** What completing a refused step needs: the runs of Vigil's steps (each completes once), tracking, a log. */
export interface RefusedStepsDeps {
  logger: Logger;
  tracker: WorkTracker;
  steps: {
    begin(workspaceId: string, executionId: string, step: string): Promise<boolean>;
    done(workspaceId: string, executionId: string, step: string, outcome: 'failed'): Promise<void>;
  };
}

export class RefusedSteps {
  constructor(
    private readonly deps: RefusedStepsDeps,
    /** A client without a token of its own: each call carries the execution's token. */
    private readonly client: WebClient,
  ) {}

  /** Completes the step `body` would have run with `error`; false when `body` is no step. */
  complete(body: unknown, error: string): boolean {
    const step = refusedStepOf(body);
    if (step === undefined) return false;
    const context = { step: step.callbackId, execution: step.executionId, team: step.workspaceId };
    this.deps.tracker.run(
      async () => {
        // Bolt acks a refused request once its error handler returns: the ack leaves before this call.
        await new Promise((resolve) => setImmediate(resolve));
        if (!(await this.once(step))) {
          this.deps.logger.info('refused workflow step delivered again: already completed', context);
          return;
        }
        await this.client.functions.completeError({
          token: step.token,
          function_execution_id: step.executionId,
          error,
        });
        await this.deps.steps.done(step.workspaceId, step.executionId, step.callbackId, 'failed');
        this.deps.logger.info('refused workflow step completed with an error', context);
      },
      (err) => this.deps.logger.warn('could not complete a refused workflow step', { ...context, err }),
    );
    return true;
  }

  /** Whether this delivery completes the step; with the store unreachable, Slack's own once applies. */
  private async once(step: RefusedStep): Promise<boolean> {
    try {
      return await this.deps.steps.begin(step.workspaceId, step.executionId, step.callbackId);
    } catch (err) {
      this.deps.logger.warn('refused workflow step: store unavailable, completing anyway', { err });
      return true;
    }
  }
}
