/**
 * How every Vigil step runs when a workflow reaches it (`function_executed`): acked at once (Bolt's
 * auto-acknowledgement, before any other call), then tracked work that runs each execution once however often
 * Slack delivers it, in the step's tenant, audited "via workflow …", and completed with its outputs or with an
 * error a workflow author can act on (never a stack trace).
 */
import type { App, RespondArguments, RespondFn } from '@slack/bolt';

interface Completion {
  complete(params: { outputs: Record<string, unknown> }): Promise<unknown>;
  fail(params: { error: string }): Promise<unknown>;
}

import type { WebClient } from '@slack/web-api';
import { inTenant } from '../../domain/workspace-api.js';
import { onSurface } from '../../kernel/audit-surface.js';
import { realSleep } from '../../kernel/clock.js';
import { InvalidInputError, NotAllowedError } from '../../kernel/errors.js';
import { PERMISSION_WORDS, type Permission } from '../../kernel/permission-rules.js';
import { reportError } from '../../slack/error-reply.js';
import { type EnvelopeIds, workspaceOfEnvelope } from '../../slack/requester.js';
import type { StepDeps } from './deps.js';

export interface StepRun<D extends StepDeps = StepDeps> {
  deps: D;
  workspaceId: string;
  teamId: string;
  executionId: string;
  /** Slack's id of the workflow's run (its events name no workflow). */
  workflowRun: string | undefined;
  inputs: Record<string, unknown>;
  /** The workflow's token for this execution (Bolt's client for function events). */
  client: WebClient;
}

/** Outputs to complete with, or a question posted: the asked person's click completes the step later. */
/** Outputs to complete the step with, or `'waiting'`: the handler recorded a question a click will answer. */
export type StepResult = { outputs: Record<string, unknown> } | 'waiting';

interface FunctionEvent {
  function_execution_id: string;
  /** The execution's own token, kept (sealed) while it runs: what completing it after a crash needs. */
  bot_access_token?: string;
  workflow_execution_id?: string;
  inputs?: Record<string, unknown>;
}

/** The audit trail's surface for work done by a workflow (Slack's events name the run, not the workflow). */
export function workflowSurface(workflowExecutionId: string | undefined): `via workflow ${string}` {
  return `via workflow ${(workflowExecutionId ?? 'run').slice(0, 27)}`;
}

/** A string input, trimmed; undefined when absent or empty. */
export function textInput(inputs: Record<string, unknown>, name: string): string | undefined {
  const v = inputs[name];
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

export function requiredInput(inputs: Record<string, unknown>, name: string, title: string): string {
  const v = textInput(inputs, name);
  if (v === undefined)
    throw new InvalidInputError(
      `The step's “${title}” input is empty.`,
      `Fill in “${title}” in the step's settings.`,
    );
  return v;
}

/**
 * Who ran the workflow, as Slack vouches for it (the interactivity input's interactor): the person acting
 * steps act as. A workflow started by a schedule or an event has nobody: such a workflow may not act.
 */
export function actorOf(inputs: Record<string, unknown>): string {
  const id = interactorOf(inputs);
  if (id !== undefined) return id;
  throw new NotAllowedError(
    'This step acts as the person who ran the workflow, and Slack did not say who that is, so Vigil did nothing.',
    'Start the workflow from a link, a button or a shortcut, and set the step’s “Person acting” to the person who used the workflow. A scheduled or event-started workflow cannot act through Vigil.',
  );
}

function interactorOf(inputs: Record<string, unknown>): string | undefined {
  const interactivity = inputs.interactivity as { interactor?: { id?: unknown } } | undefined;
  const id = interactivity?.interactor?.id;
  return typeof id === 'string' && /^[UW][A-Z0-9]+$/.test(id) ? id : undefined;
}

/**
 * Who ran the workflow, from the `run_as` input (`slack#/types/user_context`): Workflow Builder fills it with
 * the person who used the workflow (a builder cannot type it), so Slack vouches for the id. Undefined for a
 * workflow nobody started (a schedule, an event) unless a step of it set the person.
 */
function personOf(inputs: Record<string, unknown>): string | undefined {
  const id = (inputs.run_as as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && /^[UW][A-Z0-9]+$/.test(id) ? id : undefined;
}

/**
 * A search step's permission, as for the command: the person who ran the workflow must have it. A workflow
 * without a person searches only when the workspace opened the permission to every member. Returns the person.
 */
export async function requireSearcher(
  run: StepRun,
  permission: Extract<Permission, 'use' | 'creds'>,
): Promise<string | undefined> {
  const person = personOf(run.inputs);
  if (person !== undefined) {
    await run.deps.authz.requirePermission(run.client, run.workspaceId, run.teamId, person, permission);
    return person;
  }
  const actors = (await run.deps.scope.settings(run.workspaceId)).permissions[permission];
  if (actors === 'everyone') return undefined;
  throw new NotAllowedError(
    `In this workspace not every member may ${PERMISSION_WORDS[permission]} (the \`${permission}\` permission), and Slack did not say who ran this workflow, so Vigil did not search.`,
    `Start the workflow from a link, a button or a shortcut (Workflow Builder then fills the step’s “Person running the workflow”) and make sure that person may ${PERMISSION_WORDS[permission]}; or an admin can open it to every member with \`/vigil settings ${permission} everyone\`.`,
  );
}

/** The Tenant input: a tenant id from the step's menu; empty keeps the workspace's own tenant. */
function tenantOf(inputs: Record<string, unknown>): number | undefined {
  const v = textInput(inputs, 'tenant');
  if (v === undefined) return undefined;
  if (!/^\d{1,12}$/.test(v))
    throw new InvalidInputError(
      `The step's Tenant input (${v.slice(0, 40)}) is not a tenant id.`,
      'Pick the tenant from the step’s Tenant menu, or leave it empty for the workspace’s own tenant.',
    );
  return Number(v);
}

/**
 * A tenant other than those the workspace already uses (its own, its digests' and alerts') is for a Vigil
 * admin, as `/vigil tenant` is: the person who ran the workflow must be one; a workflow nobody ran may not.
 */
async function requireTenant(run: StepRun, tenant: number): Promise<void> {
  if ((await run.deps.scope.tenantsInUse(run.workspaceId)).has(tenant)) return;
  const person = personOf(run.inputs) ?? interactorOf(run.inputs);
  if (person === undefined)
    throw new NotAllowedError(
      `The step's Tenant input (${tenant}) is not this workspace's tenant; only an admin may use another, and Slack did not say who ran this workflow, so Vigil did nothing.`,
      'Leave the Tenant input empty for the workspace’s own tenant, or have an admin run the workflow from a link, a button or a shortcut (Workflow Builder then fills the step’s person).',
    );
  await run.deps.authz.requireAdmin(
    run.client,
    { workspaceId: run.workspaceId, teamId: run.teamId, userId: person },
    `use another tenant (${tenant}) than this workspace’s in a workflow step`,
  );
}

/** The error as a workflow author reads it in Slack: what went wrong, what to do, and a reference. */
export async function authorMessage(
  deps: StepDeps,
  err: unknown,
  context: Record<string, unknown>,
): Promise<string> {
  let told = 'Vigil could not run this step.';
  const capture = (async (msg: string | RespondArguments) => {
    if (typeof msg === 'string') return;
    const blocks = (msg as { blocks?: unknown[] }).blocks ?? [];
    const parts = blocks.flatMap((b) => {
      const block = b as { text?: { text?: string }; elements?: { text?: string }[] };
      return [block.text?.text, ...(block.elements ?? []).map((e) => e.text)];
    });
    told = parts
      .filter((p): p is string => typeof p === 'string' && p !== '')
      .join(' ')
      .replace(/:(warning|no_entry_sign): /g, '')
      .replace(/\s+·\s+/g, ' ');
  }) as unknown as RespondFn;
  await reportError(deps, err, capture, context);
  return told.slice(0, 1000);
}

/** How long a step that answers in its ack (dynamic options) may hold the ack, well inside Slack's 3 s. */
const ANSWER_IN_ACK_MS = 2_000;

/** Runs the step once per execution and completes it; never throws (failures complete with an error). */
async function runOnce<D extends StepDeps>(
  run: StepRun<D>,
  callbackId: string,
  handler: (run: StepRun<D>) => Promise<StepResult>,
  slack: Completion,
  token: string | undefined,
): Promise<void> {
  const { deps } = run;
  const context = { step: callbackId, execution: run.executionId, team: run.workspaceId };
  if (!(await deps.steps.begin(run.workspaceId, run.executionId, callbackId, token))) {
    deps.logger.info('workflow step delivered again: already run', context);
    return;
  }
  let outcome: 'completed' | 'failed' = 'completed';
  try {
    const tenant = tenantOf(run.inputs);
    if (tenant !== undefined) await requireTenant(run, tenant);
    const result = await onSurface(workflowSurface(run.workflowRun), () =>
      inTenant(tenant, () => handler(run)),
    );
    if (result === 'waiting') return;
    await slack.complete({ outputs: result.outputs });
  } catch (err) {
    await slack.fail({ error: await authorMessage(deps, err, context) });
    outcome = 'failed';
  }
  await deps.steps.done(run.workspaceId, run.executionId, callbackId, outcome);
}

/**
 * Registers `handler` for the step `callbackId`. `answerInAck`: the step feeds a Workflow Builder menu, which
 * Slack wants completed before the ack; the ack then waits for it, but never more than ANSWER_IN_ACK_MS.
 */
export function onStep<D extends StepDeps>(
  app: App,
  deps: D,
  callbackId: string,
  handler: (run: StepRun<D>) => Promise<StepResult>,
  opts: { answerInAck?: boolean } = {},
): void {
  const answerInAck = opts.answerInAck === true;
  app.function(callbackId, { autoAcknowledge: !answerInAck }, async (args) => {
    const e = args.event as unknown as FunctionEvent;
    const envelope = args.body as EnvelopeIds & { team_id?: string };
    const run: StepRun<D> = {
      deps,
      workspaceId: workspaceOfEnvelope(envelope),
      teamId: envelope.team_id ?? '',
      executionId: e.function_execution_id,
      workflowRun: e.workflow_execution_id,
      inputs: e.inputs ?? {},
      client: args.client,
    };
    let settled: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      settled = resolve;
    });
    deps.work.tracker.run(
      () => runOnce(run, callbackId, handler, args, e.bot_access_token).finally(settled),
      (err) =>
        deps.logger.error('workflow step could not complete', {
          step: callbackId,
          execution: run.executionId,
          err,
        }),
    );
    if (answerInAck) {
      await Promise.race([done, (deps.work.sleep ?? realSleep)(ANSWER_IN_ACK_MS)]);
      await (args as unknown as { ack: () => Promise<void> }).ack();
    }
  });
}
