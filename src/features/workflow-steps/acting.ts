/**
 * The acting steps: act on an event as the person who ran the workflow (who must be allowed to act on events,
 * as for a button), and post a digest now (its creator or an admin). Acting goes through the same act-once
 * path as the buttons: one upstream call, recorded and audited.
 */
import type { EventActionType } from '../../api/index.js';
import { InvalidInputError, VigilError } from '../../kernel/errors.js';
import type { ActStepDeps, DigestStepDeps } from './deps.js';
import { actorOf, requiredInput, type StepResult, type StepRun } from './run.js';

const ACTIONS: readonly EventActionType[] = ['ignore', 'remediate', 'unignore', 'unremediate'];
const STATE_AFTER: Record<EventActionType, string> = {
  ignore: 'ignored',
  remediate: 'remediated',
  unignore: 'open',
  unremediate: 'open',
};

export async function actOnEvent(run: StepRun<ActStepDeps>): Promise<StepResult> {
  const { deps, inputs } = run;
  const uid = requiredInput(inputs, 'event_uid', 'Event uid');
  const action = requiredInput(inputs, 'action', 'Action') as EventActionType;
  if (!ACTIONS.includes(action))
    throw new InvalidInputError(
      `The step's Action (${String(action).slice(0, 40)}) is not one Vigil knows.`,
      'Choose ignore, remediate, unignore or unremediate.',
    );
  const actor = actorOf(inputs);
  await deps.authz.requireActor(run.client, run.workspaceId, run.teamId, actor);
  const outputs = { state: STATE_AFTER[action] };
  // Kept with the run before the act: a crash after the act-once record still finishes the step.
  await deps.steps.expect(run.workspaceId, run.executionId, {
    kind: 'event-action',
    uid,
    action,
    by: actor,
    outputs,
  });
  const act = (from: number) =>
    deps.events.actOnEvent({
      workspaceId: run.workspaceId,
      uid,
      from,
      action,
      by: actor,
      // The step by its title: Slack names the run (the audit's surface), never the workflow.
      detail: 'workflow step Act on an event',
    });
  let outcome = await act(await deps.events.generationOf(run.workspaceId, uid));
  // Someone acted between the read and the call: act on the state they left, once.
  if (outcome.kind === 'stale') outcome = await act(outcome.generation);
  if (outcome.kind !== 'acted')
    throw new VigilError(
      'Someone is acting on this event right now, so the step did not.',
      'Run the workflow again in a moment.',
    );
  return { outputs };
}

export async function postDigest(run: StepRun<DigestStepDeps>): Promise<StepResult> {
  const { deps, inputs } = run;
  const id = requiredInput(inputs, 'subscription_id', 'Subscription id');
  const actor = actorOf(inputs);
  const sub = await deps.digests.get(run.workspaceId, id);
  if (sub.createdBy !== actor)
    await deps.authz.requireAdmin(
      run.client,
      { ...run, userId: actor },
      'post a digest someone else subscribed',
    );
  const posted = await deps.digestNow.post(run.workspaceId, sub.id);
  const link = await run.client.chat.getPermalink({ channel: posted.channelId, message_ts: posted.ts });
  if (typeof link.permalink !== 'string')
    throw new VigilError(
      'Slack gave no link to the digest message.',
      'The digest was posted; look in its channel.',
    );
  return { outputs: { message_link: link.permalink } };
}
