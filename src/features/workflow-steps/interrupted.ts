/**
 * Steps a crashed process left running: Slack does not deliver an acknowledged `function_executed` again, so
 * such a workflow would wait forever. At start-up (and again once a dead holder's heartbeat has lapsed) each
 * is completed, with the execution's own token kept sealed in its run: finished with its outputs when what it
 * did upstream is known (runs.ts), else with an error saying so.
 */
import type { WebClient } from '@slack/web-api';
import type { Clock, Sleep } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { InterruptedRun, StepRuns } from './runs.js';

const INTERRUPTED_STEP_ERROR =
  'Vigil stopped (it was restarted) while running this step, so the step did not finish; part of its work may have been done. Look at what it was doing, then run the workflow again.';

export interface InterruptedStepsDeps {
  steps: Pick<StepRuns, 'settleInterrupted'>;
  logger: Logger;
  clock: Clock;
  sleep: Sleep;
  /** A client calling with the execution's token. */
  clientFor(token: string): WebClient;
  /** How long to wait between looks: about a heartbeat's ttl, after which a dead holder is known dead. */
  everyMs: number;
  /** How long a holder may still be taken as alive: after it, nothing dead holds a run. */
  untilMs: number;
  /** True once shutdown began: stop looking. */
  stopping: () => boolean;
}

export async function settleInterruptedSteps(deps: InterruptedStepsDeps): Promise<void> {
  const started = deps.clock.now();
  const complete = async (run: InterruptedRun) => {
    const context = { step: run.step, execution: run.executionId, team: run.workspaceId };
    try {
      const functions = deps.clientFor(run.token).functions;
      if (run.outputs) {
        await functions.completeSuccess({ function_execution_id: run.executionId, outputs: run.outputs });
        deps.logger.info('interrupted workflow step finished: its effect was made before', context);
        return;
      }
      await functions.completeError({
        function_execution_id: run.executionId,
        error: INTERRUPTED_STEP_ERROR,
      });
      deps.logger.info('interrupted workflow step completed with an error', context);
    } catch (err) {
      // Slack may have timed it out meanwhile (execution_not_in_running_state): nothing more to do.
      deps.logger.warn('could not complete an interrupted workflow step', { ...context, err });
    }
  };
  let { held } = await deps.steps.settleInterrupted(complete, started);
  while (held > 0 && !deps.stopping() && deps.clock.now() - started <= deps.untilMs) {
    await deps.sleep(deps.everyMs);
    if (deps.stopping()) return;
    ({ held } = await deps.steps.settleInterrupted(complete, started));
  }
}
