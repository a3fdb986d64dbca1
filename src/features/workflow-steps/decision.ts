/**
 * "Ask a person to decide": posts the event with Ignore / Remediate / Escalate and completes only when the
 * person asked clicks one (a step's buttons stop working once it completes, so it completes on the click).
 * The run keeps what was asked (the decider, the event, the decisions offered): a click only picks one of those
 * by index and is answered only for the decider, once; nothing else of the click's payload is trusted.
 */
import type { App } from '@slack/bolt';
import { onSurface } from '../../kernel/audit-surface.js';
import { NotAllowedError } from '../../kernel/errors.js';
import { ephemeral } from '../../slack/context.js';
import { reportError } from '../../slack/error-reply.js';
import { userMention } from '../../slack/kit/text.js';
import { requesterOfAction } from '../../slack/requester.js';
import { routeAction } from '../../slack/router.js';
import { DECISION_ACTION, DECISIONS, renderDecided, renderDecisionRequest } from './blocks.js';
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
  const question = {
    decider,
    uid,
    decisions: [...DECISIONS],
    ...(details ? { details: details.slice(0, 2900) } : {}),
  };
  const message = renderDecisionRequest({ ...question, blockId: DECISION_BLOCK });
  // Recorded before it is posted: a click may arrive as soon as the message does.
  await run.deps.steps.waiting(run.workspaceId, run.executionId, 'ask_decision', run.workflowRun, question);
  // Posted with the workflow's token: Slack ties the buttons to this step's run.
  await run.client.chat.postMessage({ channel, ...message, unfurl_links: false, unfurl_media: false });
  return 'waiting';
}

interface FunctionData {
  execution_id?: string;
}

/** The decision a button's value picks among those stored with the run (by index), if any. */
function chosen<T>(offered: readonly T[], value: unknown): T | undefined {
  return typeof value === 'string' && /^\d$/.test(value) ? offered[Number(value)] : undefined;
}

export function registerDecisionButtons(app: App, deps: DecisionStepDeps): void {
  routeAction(app, { action_id: DECISION_ACTION, block_id: DECISION_BLOCK }, async (args) => {
    await args.ack();
    const body = args.body as typeof args.body & { function_data?: FunctionData };
    const who = requesterOfAction(body);
    const executionId = body.function_data?.execution_id;
    const context = { step: 'ask_decision', execution: executionId, team: who.workspaceId };
    deps.work.tracker.run(
      async () => {
        const complete = args.complete;
        if (executionId === undefined || complete === undefined)
          throw new NotAllowedError(
            'This question is no longer part of a running workflow.',
            'Its workflow has finished or was stopped.',
          );
        const asked = await deps.steps.question(who.workspaceId, executionId);
        if (asked === undefined) {
          await args.respond(ephemeral({ text: 'This question was already answered.' }, false));
          return;
        }
        if (who.userId !== asked.decider) {
          const mention = userMention(asked.decider) ?? 'the person asked';
          await args.respond(
            ephemeral(
              { text: `Only ${mention} can answer this question; the workflow waits for them.` },
              false,
            ),
          );
          return;
        }
        const decision = chosen(asked.decisions, (args.action as { value?: unknown }).value);
        if (decision === undefined)
          throw new NotAllowedError(
            'That is not one of the answers this question offers.',
            'Click one of its buttons.',
          );
        const decided = await deps.steps.decide(who.workspaceId, executionId);
        if (decided === undefined) {
          await args.respond(ephemeral({ text: 'This question was already answered.' }, false));
          return;
        }
        const { question } = decided;
        try {
          await complete({ outputs: { decision, decided_by: who.userId } });
        } catch (err) {
          await args.fail?.({ error: await authorMessage(deps, err, context) });
          throw err;
        }
        await onSurface(workflowSurface(decided.workflowRun || undefined), () =>
          deps.audit.record({
            teamId: who.workspaceId,
            userId: who.userId,
            action: 'workflow.decision',
            target: question.uid,
            detail: decision,
          }),
        );
        const at = deps.clock.now();
        const ts = body.container?.message_ts ?? body.message?.ts;
        if (ts !== undefined)
          await args.client.chat.update({
            channel: who.channelId,
            ts,
            ...renderDecided({ uid: question.uid, decision, by: who.userId, at, details: question.details }),
          });
      },
      (err) => reportError(deps, err, args.respond, context),
    );
  });
}
