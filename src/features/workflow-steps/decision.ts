/**
 * "Ask a person to decide": posts the event with Ignore / Remediate / Escalate and completes only when the
 * person asked clicks one (a step's buttons stop working once it completes, so it completes on the click).
 * The click carries the step's context (`function_data`); only the decider may answer, once.
 */
import type { App } from '@slack/bolt';
import { onSurface } from '../../kernel/audit-surface.js';
import { NotAllowedError } from '../../kernel/errors.js';
import { ephemeral } from '../../slack/context.js';
import { reportError } from '../../slack/error-reply.js';
import { userMention } from '../../slack/kit/text.js';
import { requesterOfAction } from '../../slack/requester.js';
import { routeAction } from '../../slack/router.js';
import { DECISION_ACTION, type Decision, renderDecided, renderDecisionRequest } from './blocks.js';
import type { DecisionStepDeps } from './deps.js';
import {
  authorMessage,
  requiredInput,
  type StepResult,
  type StepRun,
  textInput,
  workflowSurface,
} from './run.js';

const DECISION_BLOCK = 'vigil_step_decision';

export async function askDecision(run: StepRun<DecisionStepDeps>): Promise<StepResult> {
  const { inputs } = run;
  const uid = requiredInput(inputs, 'event_uid', 'Event uid');
  const decider = requiredInput(inputs, 'decider', 'Who decides');
  const channel = requiredInput(inputs, 'channel', 'Channel');
  const details = textInput(inputs, 'details');
  const message = renderDecisionRequest({ uid, decider, blockId: DECISION_BLOCK, details });
  // Posted with the workflow's token: Slack ties the buttons to this step's run.
  await run.client.chat.postMessage({ channel, ...message, unfurl_links: false, unfurl_media: false });
  return 'waiting';
}

interface FunctionData {
  execution_id?: string;
  inputs?: Record<string, unknown>;
}

export function registerDecisionButtons(app: App, deps: DecisionStepDeps): void {
  routeAction(app, { action_id: DECISION_ACTION, block_id: DECISION_BLOCK }, async (args) => {
    await args.ack();
    const body = args.body as typeof args.body & { function_data?: FunctionData };
    const who = requesterOfAction(body);
    const decision = (args.action as { value?: string }).value as Decision;
    const data = body.function_data;
    const executionId = data?.execution_id;
    const context = { step: 'ask_decision', execution: executionId, team: who.workspaceId };
    deps.work.tracker.run(
      async () => {
        if (executionId === undefined || args.complete === undefined)
          throw new NotAllowedError(
            'This question is no longer part of a running workflow.',
            'Its workflow has finished or was stopped.',
          );
        const decider = typeof data?.inputs?.decider === 'string' ? data.inputs.decider : undefined;
        if (who.userId !== decider) {
          const asked = (decider && userMention(decider)) ?? 'the person asked';
          await args.respond(
            ephemeral(
              { text: `Only ${asked} can answer this question; the workflow waits for them.` },
              false,
            ),
          );
          return;
        }
        const workflowRun = await deps.steps.decide(who.workspaceId, executionId);
        if (workflowRun === undefined) {
          await args.respond(ephemeral({ text: 'This question was already answered.' }, false));
          return;
        }
        const uid = typeof data?.inputs?.event_uid === 'string' ? data.inputs.event_uid : '';
        try {
          await args.complete({ outputs: { decision, decided_by: who.userId } });
        } catch (err) {
          await args.fail?.({ error: await authorMessage(deps, err, context) });
          throw err;
        }
        await onSurface(workflowSurface(workflowRun || undefined), () =>
          deps.audit.record({
            teamId: who.workspaceId,
            userId: who.userId,
            action: 'workflow.decision',
            target: uid,
            detail: decision,
          }),
        );
        const at = deps.clock.now();
        const ts = body.container?.message_ts ?? body.message?.ts;
        if (ts !== undefined)
          await args.client.chat.update({
            channel: who.channelId,
            ts,
            ...renderDecided({
              uid,
              decision,
              by: who.userId,
              at,
              details: textInput(data?.inputs ?? {}, 'details'),
            }),
          });
      },
      (err) => reportError(deps, err, args.respond, context),
    );
  });
}
