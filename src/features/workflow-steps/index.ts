/**
 * Vigil's steps in Workflow Builder (manifest.yml `functions`): search leaked credentials, search events, act
 * on an event, post a digest now, ask a person to decide, and the Tenant menu they share. Each calls the same
 * services as the commands, under the same rules (see run.ts).
 */
import type { Feature } from '../../slack/context.js';
import { actOnEvent, postDigest } from './acting.js';
import { askDecision, registerDecisionButtons } from './decision.js';
import type { DecisionStepDeps, StepDeps } from './deps.js';
import { onStep, type StepResult, type StepRun } from './run.js';
import { searchCredentials, searchEvents } from './searches.js';
import { tenantOptions } from './tenants.js';

/** A step as a feature of its own, over the deps it declares. */
function stepFeature<D extends StepDeps>(
  callbackId: string,
  handler: (run: StepRun<D>) => Promise<StepResult>,
  opts: { answerInAck?: boolean } = {},
): Feature<D> {
  return { commands: {}, register: (app, deps) => onStep(app, deps, callbackId, handler, opts) };
}

export const credentialSearchStep = stepFeature('search_credentials', searchCredentials);
export const eventSearchStep = stepFeature('search_events', searchEvents);
export const actStep = stepFeature('act_on_event', actOnEvent);
export const digestStep = stepFeature('post_digest', postDigest);
/** Asking a person to decide, and their click on the buttons that complete the step. */
export const decisionStep: Feature<DecisionStepDeps> = {
  commands: {},
  register(app, deps) {
    onStep(app, deps, 'ask_decision', askDecision);
    registerDecisionButtons(app, deps);
  },
};
/** The Tenant menu the steps share: Slack wants its options completed before the ack. */
export const tenantStep = stepFeature('tenant_options', tenantOptions, { answerInAck: true });

/** Every step manifest.yml declares, by callback id. @internal */
export const STEP_IDS: readonly string[] = [
  'search_credentials',
  'search_events',
  'act_on_event',
  'post_digest',
  'ask_decision',
  'tenant_options',
];
