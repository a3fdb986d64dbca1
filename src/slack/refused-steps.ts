/**
 * A workflow step the workspace gate refused (a workspace this installation does not serve, no installation,
 * the store unreachable while checking): Slack waits for every step it starts until it times out, so the
 * step is completed with an error its workflow's author can act on. The `function_executed` event carries
 * the execution's own token (`bot_access_token`) for that, so no installation is needed. Nothing is stored for
 * a workspace Vigil does not serve: a repeat this instance saw is turned away from memory, and Slack itself
 * refuses to complete an execution twice (`execution_not_in_running_state`), which any other instance meets.
 * The work is tracked and runs after the ack.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../kernel/logger.js';
import type { WorkTracker } from '../kernel/work-tracker.js';
import { slackErrorCode } from './error-code.js';
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

/** What completing a refused step needs: tracking, a log, and the count of step runs by outcome. */
export interface RefusedStepsDeps {
  logger: Logger;
  tracker: WorkTracker;
  steps: { refused(step: string): void };
}

/** Executions this instance completed lately, remembered to turn a repeat away without calling Slack. */
const REMEMBERED = 1000;

export class RefusedSteps {
  private readonly completed = new Set<string>();

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
        const key = `${step.workspaceId}:${step.executionId}`;
        if (this.completed.has(key)) {
          this.deps.logger.info('refused workflow step delivered again: already completed', context);
          return;
        }
        // Remembered before the call: a repeat arriving meanwhile is turned away too.
        this.remember(key);
        const completed = await this.completeOnce(step, error).catch((err: unknown) => {
          this.completed.delete(key);
          throw err;
        });
        if (!completed) {
          this.deps.logger.info('refused workflow step delivered again: already completed', context);
          return;
        }
        this.deps.steps.refused(step.callbackId);
        this.deps.logger.info('refused workflow step completed with an error', context);
      },
      (err) => this.deps.logger.warn('could not complete a refused workflow step', { ...context, err }),
    );
    return true;
  }

  /** False when Slack says the execution was completed already (by another delivery, on any instance). */
  private async completeOnce(step: RefusedStep, error: string): Promise<boolean> {
    try {
      await this.client.functions.completeError({
        token: step.token,
        function_execution_id: step.executionId,
        error,
      });
      return true;
    } catch (err) {
      if (slackErrorCode(err) === 'execution_not_in_running_state') return false;
      throw err;
    }
  }

  private remember(key: string): void {
    this.completed.add(key);
    // A Set iterates in insertion order: the oldest goes first.
    if (this.completed.size > REMEMBERED) this.completed.delete(this.completed.values().next().value ?? '');
  }
}
