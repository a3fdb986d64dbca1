/**
 * Vigil's steps in Workflow Builder (manifest.yml `functions`): search leaked credentials, search events, act
 * on an event, post a digest now, ask a person to decide, and the Tenant menu they share. Each calls the same
 * services as the commands, under the same rules (see run.ts).
 */
import type { App } from '@slack/bolt';
import type { Feature } from '../../slack/context.js';
import { actOnEvent, postDigest } from './acting.js';
import { askDecision, registerDecisionButtons } from './decision.js';
import type { WorkflowStepsDeps } from './deps.js';
import { onStep, type StepResult, type StepRun } from './run.js';
import { searchCredentials, searchEvents } from './searches.js';
import { tenantOptions } from './tenants.js';

const STEPS: Record<string, (run: StepRun) => Promise<StepResult>> = {
  search_credentials: searchCredentials,
  search_events: searchEvents,
  act_on_event: actOnEvent,
  post_digest: postDigest,
  ask_decision: askDecision,
};

/** Every step manifest.yml declares, by callback id. @internal */
export const STEP_IDS: readonly string[] = [...Object.keys(STEPS), 'tenant_options'];

function register(app: App, deps: WorkflowStepsDeps): void {
  for (const [id, handler] of Object.entries(STEPS)) onStep(app, deps, id, handler);
  onStep(app, deps, 'tenant_options', tenantOptions, { answerInAck: true });
  registerDecisionButtons(app, deps);
}

export const workflowStepsFeature: Feature<WorkflowStepsDeps> = { commands: {}, register };
