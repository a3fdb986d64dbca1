/**
 * Vigil's Workflow Builder steps through the real HTTP stack: signed `function_executed` events into the
 * receiver, the fake Slack running each step's execution (workflow token, outputs checked against
 * manifest.yml's declared types, as Slack does), the simulated API behind. Each step completes with outputs
 * of its declared types, errors complete with completeError and a message an author can act on, the decision
 * step completes on the click and not before, and a redelivery completes once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type FunctionExecution,
  type RecordedCall,
  SEEDED_CHANNELS,
  SEEDED_USERS,
} from '../../packages/playground/src/sim/slack/index.js';
import { addCredential } from '../features/credentials/support/creds-stack.js';
import { buttons } from '../harness/index.js';
import { type Stack, startStack } from '../support/stack.js';
import { until } from '../support/until.js';

let stack: Stack;

beforeAll(async () => {
  // An admin opened `act` to members (admins only by default): the workflows here are run by a plain member.
  stack = await startStack({ sim: { emptyPageEvery: 0 }, open: ['act'] });
});

afterAll(async () => {
  await stack?.close();
});

/** The interactivity input Slack fills with the person who ran the workflow. */
function ranBy(userId: string) {
  return { interactivity_pointer: '1234.5678.abcd', interactor: { id: userId, secret: 'c2VjcmV0' } };
}

/** The user_context input Slack fills with the person who ran the workflow (`run_as`). */
function person(userId: string) {
  return { id: userId, secret: 'c2VjcmV0' };
}

/** Starts a run of the step in the fake Slack and delivers its `function_executed` event, signed. */
async function runStep(
  callbackId: string,
  inputs: Record<string, unknown>,
  opts: { retryNum?: number; unchecked?: boolean } = {},
): Promise<{ execution: FunctionExecution; deliver: (retryNum?: number) => Promise<number> }> {
  const { execution, event } = stack.slack.startFunction({
    callbackId,
    inputs,
    ...(opts.unchecked ? { unchecked: true } : {}),
  });
  const deliver = async (retryNum?: number) => {
    const res = await stack.sender.event({
      type: 'function_executed',
      fields: event,
      ...(retryNum === undefined ? {} : { retryNum }),
    });
    return res.status;
  };
  expect(await deliver(opts.retryNum)).toBe(200);
  return { execution, deliver };
}

function isCompletion(call: RecordedCall, executionId: string): boolean {
  return (
    (call.method === 'functions.completeSuccess' || call.method === 'functions.completeError') &&
    call.body.function_execution_id === executionId
  );
}

/** The accepted completion of the execution (the fake refuses outputs that break the manifest). */
async function completion(execution: FunctionExecution): Promise<RecordedCall> {
  const call = await stack.slack.waitFor((c) => isCompletion(c, execution.id) && c.response.ok === true);
  return call;
}

function completionsOf(execution: FunctionExecution): RecordedCall[] {
  return stack.slack.calls.filter((c) => isCompletion(c, execution.id));
}

describe('Workflow Builder steps over HTTP', () => {
  it('search_events is acked at once and completes with the declared outputs, most severe first', async () => {
    // Completion held back: the event's HTTP answer (the ack) does not wait for the step's work.
    const held = stack.slack.hold('functions.completeSuccess');
    const { execution } = await runStep('search_events', { identifier: '3001', since: '90d' });
    await held.arrived;
    expect(execution.state).toBe('running');
    held.release();
    const call = await completion(execution);
    expect(call.method).toBe('functions.completeSuccess');
    expect(execution.state).toBe('completed');
    const out = execution.outputs as Record<string, unknown>;
    expect(Number.isInteger(out.count)).toBe(true);
    expect(out.count).toBeGreaterThan(0);
    expect(['critical', 'high', 'medium', 'low', 'info']).toContain(out.highest_severity);
    const uids = stack.sim.state.eventsOf(3001).map((e) => e.item.metadata.uid);
    expect(uids).toContain(out.first_event_uid);
    expect(String(out.summary)).toContain('found for identifier');
    // Nothing of the step went to a channel.
    expect(stack.slack.callsTo('chat.postMessage').filter((c) => c.token === execution.token)).toEqual([]);
  });

  it('search_events in another tenant chosen in the step: the Tenant menu lists them, only an admin may use one', async () => {
    // The menu's step answers before its ack, as Slack wants for dynamic options.
    const menu = await runStep('tenant_options', {});
    expect(completionsOf(menu.execution)).toHaveLength(1);
    await completion(menu.execution);
    const options = (menu.execution.outputs as { options: { value: string; text: { text: string } }[] })
      .options;
    expect(options.map((o) => o.value)).toEqual(expect.arrayContaining(['2001', '2002', '2003']));
    expect(options.find((o) => o.value === '2002')?.text.text).toContain('Acme Subsidiaries');

    const inTenant2002 = (inputs: Record<string, unknown>) =>
      runStep('search_events', { identifier: '3004', since: '90d', tenant: '2002', ...inputs });
    const searches = () => stack.sim.log.entries.length;
    const before = searches();
    // A plain member, or a workflow nobody ran, may not reach another tenant (as `/vigil tenant` is for admins).
    for (const inputs of [{ run_as: person(SEEDED_USERS.member) }, {}]) {
      const refused = await inTenant2002(inputs);
      await completion(refused.execution);
      expect(refused.execution.state).toBe('failed');
      expect(refused.execution.error).toContain('admin');
      expect(refused.execution.error).toContain('2002');
    }
    expect(searches()).toBe(before);
    // The workspace's own tenant, named in the input, stays open to them.
    const own = await runStep('search_events', {
      identifier: '3001',
      since: '90d',
      tenant: '2001',
      run_as: person(SEEDED_USERS.member),
    });
    await completion(own.execution);
    expect(own.execution.state).toBe('completed');

    const { execution } = await inTenant2002({ run_as: person(SEEDED_USERS.admin) });
    await completion(execution);
    expect(execution.state).toBe('completed');
    const out = execution.outputs as Record<string, unknown>;
    expect(out.count).toBeGreaterThan(0);
    const uids = stack.sim.state.eventsOf(3004).map((e) => e.item.metadata.uid);
    expect(uids).toContain(out.first_event_uid);
  });

  it('search_credentials posts a masked summary and outputs typed values; the secret goes nowhere', async () => {
    const secret = 'Wf-Step-Secret-Value-0042';
    addCredential(stack, { identity_name: 'jo@steps.example', domain: 'steps.example', hash: secret });
    const { execution } = await runStep('search_credentials', {
      query: 'steps.example',
      channel: SEEDED_CHANNELS.security,
      // `creds` is for admins by default: an admin ran this workflow.
      run_as: person(SEEDED_USERS.admin),
    });
    await completion(execution);
    expect(execution.state).toBe('completed');
    const out = execution.outputs as Record<string, unknown>;
    expect(out.count).toBe(1);
    expect(Number.isInteger(out.newest_import)).toBe(true);
    // Upstream text is defanged, as in every message Vigil writes.
    expect(String(out.summary)).toContain('jo@steps[.]example');
    const posted = stack.slack
      .messages(SEEDED_CHANNELS.security)
      .filter((m) => m.text.includes('steps.example'));
    expect(posted).toHaveLength(1);
    expect(stack.slack.allText()).not.toContain(secret);
    expect(JSON.stringify(execution.outputs)).not.toContain(secret);
    // Shared in a channel, as from `/vigil creds`: audited, as the person, via the workflow.
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({
      userId: SEEDED_USERS.admin,
      action: 'credentials.share',
      target: 'domain',
    });
    expect(entry?.surface).toBe(`via workflow ${execution.workflowExecutionId}`);
  });

  it('search_credentials needs a person allowed `creds`: without one it says which permission and how to open it', async () => {
    const searches = () => stack.sim.log.entries.filter((e) => e.path.includes('credentials')).length;
    const before = searches();
    // Nobody ran it (a scheduled workflow) while `creds` is for admins.
    const nobody = await runStep('search_credentials', { query: 'steps.example' });
    expect((await completion(nobody.execution)).method).toBe('functions.completeError');
    expect(nobody.execution.error).toContain('`creds` permission');
    expect(nobody.execution.error).toContain('Person running the workflow');
    expect(nobody.execution.error).toContain('/vigil settings creds everyone');
    // A member ran it: refused as `/vigil creds` refuses them.
    const member = await runStep('search_credentials', {
      query: 'steps.example',
      run_as: person(SEEDED_USERS.member),
    });
    await completion(member.execution);
    expect(member.execution.state).toBe('failed');
    expect(member.execution.error).toContain('only workspace admins may search leaked credentials');
    expect(member.execution.error).toContain('/vigil settings creds group:');
    expect(searches()).toBe(before);
  });

  it('search_events without a person runs only while `use` is open to every member', async () => {
    const setUse = (actors: 'admins' | 'everyone') =>
      stack.repos.settings.setPermission(stack.workspaceId, 'use', actors, SEEDED_USERS.admin);
    await setUse('admins');
    try {
      const nobody = await runStep('search_events', { identifier: '3001', since: '90d' });
      await completion(nobody.execution);
      expect(nobody.execution.state).toBe('failed');
      expect(nobody.execution.error).toContain('`use` permission');
      expect(nobody.execution.error).toContain('/vigil settings use everyone');
      const member = await runStep('search_events', {
        identifier: '3001',
        run_as: person(SEEDED_USERS.member),
      });
      await completion(member.execution);
      expect(member.execution.error).toContain('only workspace admins may search events');
      const admin = await runStep('search_events', {
        identifier: '3001',
        since: '90d',
        run_as: person(SEEDED_USERS.admin),
      });
      await completion(admin.execution);
      expect(admin.execution.state).toBe('completed');
    } finally {
      await setUse('everyone');
    }
  });

  it('act_on_event acts as the person who ran the workflow, once, audited via the workflow', async () => {
    const [event] = stack.sim.state.eventsOf(3002);
    const uid = event?.item.metadata.uid ?? '';
    const before = stack.sim.log.entries.filter((e) => e.path.endsWith('/events/actions')).length;
    const { execution, deliver } = await runStep('act_on_event', {
      event_uid: uid,
      action: 'ignore',
      interactivity: ranBy(SEEDED_USERS.member),
    });
    await completion(execution);
    expect(execution.outputs).toEqual({ state: 'ignored' });
    // Slack delivers it again (a retry): nothing more is done or completed.
    expect(await deliver(1)).toBe(200);
    expect(await deliver(2)).toBe(200);
    await until('both redeliveries are turned away', () =>
      stack.logs.filter((l) => l.includes('delivered again') && l.includes(execution.id)).length === 2
        ? true
        : undefined,
    );
    const actions = stack.sim.log.entries.filter((e) => e.path.endsWith('/events/actions'));
    expect(actions.length - before).toBe(1);
    expect(completionsOf(execution)).toHaveLength(1);
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({ userId: SEEDED_USERS.member, action: 'event.ignore', target: uid });
    expect(entry?.surface).toBe(`via workflow ${execution.workflowExecutionId}`);
    expect(entry?.detail).toBe('workflow step Act on an event');
  });

  it('a step nobody may act through (no person: a scheduled workflow) completes with a clear error', async () => {
    const [event] = stack.sim.state.eventsOf(3002);
    const before = stack.sim.log.entries.filter((e) => e.path.endsWith('/events/actions')).length;
    // Workflow Builder publishes no workflow that leaves the required Person acting empty; should Slack
    // deliver one anyway, Vigil still refuses it.
    const { execution } = await runStep(
      'act_on_event',
      { event_uid: event?.item.metadata.uid, action: 'remediate' },
      { unchecked: true },
    );
    const call = await completion(execution);
    expect(call.method).toBe('functions.completeError');
    expect(execution.error).toContain('person who ran the workflow');
    expect(execution.error).not.toMatch(/at .*\.ts:\d+/);
    expect(stack.sim.log.entries.filter((e) => e.path.endsWith('/events/actions')).length).toBe(before);
  });

  it('act_on_event is refused to a person the workspace does not let act', async () => {
    await stack.repos.settings.setPermission(stack.workspaceId, 'act', 'admins', SEEDED_USERS.admin);
    try {
      const [event] = stack.sim.state.eventsOf(3003);
      const { execution } = await runStep('act_on_event', {
        event_uid: event?.item.metadata.uid,
        action: 'ignore',
        interactivity: ranBy(SEEDED_USERS.member),
      });
      const call = await completion(execution);
      expect(call.method).toBe('functions.completeError');
      expect(execution.error).toContain('only workspace admins may');
    } finally {
      await stack.repos.settings.setPermission(stack.workspaceId, 'act', 'everyone', SEEDED_USERS.admin);
    }
  });

  it('a step run from a workspace this Vigil does not serve is refused by the workspace gate, completed once with why', async () => {
    const before = stack.sim.log.entries.length;
    // Another workspace, where another Vigil is installed, runs a workflow with the step.
    stack.slack.addTeam({ teamId: 'T0OTHER01', botToken: 'xoxb-other-vigil', botUserId: 'U0BOTOTHER' });
    const { execution, event } = stack.slack.startFunction({
      callbackId: 'search_events',
      inputs: { identifier: '3001' },
      teamId: 'T0OTHER01',
    });
    // The completion is held back: the ack does not wait for it.
    const held = stack.slack.hold('functions.completeError');
    const deliver = () =>
      stack.sender.event({ type: 'function_executed', fields: event, teamId: 'T0OTHER01' });
    expect((await deliver()).status).toBe(200);
    await held.arrived;
    expect(execution.state).toBe('running');
    held.release();
    const call = await completion(execution);
    // With the execution's own token: Vigil holds no token for that workspace.
    expect(call.token).toBe(execution.token);
    expect(execution.state).toBe('failed');
    expect(execution.error).toContain('Vigil did not run this step');
    expect(execution.error).toContain('serves another Slack workspace');
    expect(execution.error).toContain('install it there');
    // Slack delivers it again: refused again, completed no more.
    expect((await deliver()).status).toBe(200);
    await until('the redelivery is turned away', () =>
      stack.logs.some((l) => l.includes('delivered again') && l.includes(execution.id)) ? true : undefined,
    );
    expect(completionsOf(execution)).toHaveLength(1);
    expect(stack.sim.log.entries.length).toBe(before);
    // Nothing is kept for a workspace this Vigil does not serve.
    expect(await stack.repos.workflowSteps(z.unknown()).keys('T0OTHER01')).toEqual([]);
  });

  it('an unknown identifier, by name or by id, completes with an error naming it and how to find one', async () => {
    const byName = await runStep('search_events', { identifier: 'no such thing anywhere' });
    await completion(byName.execution);
    expect(byName.execution.state).toBe('failed');
    expect(byName.execution.error).toContain('no such thing anywhere');
    expect(byName.execution.error).toContain('/vigil identifiers');
    const byId = await runStep('search_events', { identifier: '987654' });
    await completion(byId.execution);
    expect(byId.execution.state).toBe('failed');
    expect(byId.execution.error).toContain('987654');
    expect(byId.execution.error).toContain('/vigil identifiers');
  });

  it('a step input Vigil cannot use is logged as a refusal, at info, without a stack', async () => {
    const { execution } = await runStep('search_events', { identifier: '3001', tenant: 'acme' });
    await completion(execution);
    expect(execution.state).toBe('failed');
    expect(execution.error).toContain('Tenant');
    const lines = stack.logs.filter((l) => l.includes(execution.id)).map((l) => JSON.parse(l));
    const refusal = lines.find((l) => l.msg === 'request refused');
    expect(refusal).toMatchObject({ level: 'info', refusal: 'InvalidInputError' });
    expect(lines.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });

  it('ask_decision waits for the person asked, completes on their click only, once', async () => {
    const [event] = stack.sim.state.eventsOf(3001);
    const uid = event?.item.metadata.uid ?? '';
    // Details mapped by the author (a search step's summary, here with a broadcast slipped in).
    const details = `*HIGH* · Combo list <!here> · \`${uid}\``;
    const inputs = {
      event_uid: uid,
      decider: SEEDED_USERS.admin,
      channel: SEEDED_CHANNELS.security,
      details,
    };
    const { execution } = await runStep('ask_decision', inputs);
    const post = await stack.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.token === execution.token && c.response.ok === true,
    );
    const ts = String((post.response as { ts?: string }).ts);
    // A copy: the stored message loses its buttons when updated, and a late click still carries them.
    const message = structuredClone(stack.slack.messages(SEEDED_CHANNELS.security).find((m) => m.ts === ts));
    expect(buttons(message?.blocks ?? []).map((b) => b.text)).toEqual(['Ignore', 'Remediate', 'Escalate']);
    const shown = JSON.stringify(message?.blocks);
    expect(shown).toContain('Combo list &lt;!here&gt;');
    expect(shown).not.toContain('<!here>');
    expect(execution.state).toBe('running');
    expect(completionsOf(execution)).toEqual([]);

    const click = (userId: string, actionId: string) =>
      stack.sender.blockAction({
        actionId,
        container: 'message',
        channelId: SEEDED_CHANNELS.security,
        responseUrl: stack.slack.responseUrl(),
        userId,
        ...(message ? { message } : {}),
        functionRun: {
          executionId: execution.id,
          callbackId: 'ask_decision',
          inputs,
          token: execution.token,
        },
      });
    // Someone else's click is refused and leaves the step waiting.
    expect((await click(SEEDED_USERS.member, 'step_decision_ignore')).status).toBe(200);
    await stack.slack.waitForPost((p) => JSON.stringify(p.body).includes('Only'));
    expect(execution.state).toBe('running');

    expect((await click(SEEDED_USERS.admin, 'step_decision_escalate')).status).toBe(200);
    await completion(execution);
    expect(execution.outputs).toEqual({ decision: 'escalate', decided_by: SEEDED_USERS.admin });
    const update = await stack.slack.waitFor((c) => c.method === 'chat.update' && c.body.ts === ts);
    expect(buttons(update.body.blocks ?? [])).toEqual([]);
    expect(JSON.stringify(update.body.blocks)).toContain('Escalate');
    expect(JSON.stringify(update.body.blocks)).toContain('Combo list');

    // A late second click (sent before the message lost its buttons) completes nothing more.
    expect((await click(SEEDED_USERS.admin, 'step_decision_ignore')).status).toBe(200);
    await stack.slack.waitForPost((p) => JSON.stringify(p.body).includes('already answered'));
    expect(completionsOf(execution)).toHaveLength(1);
  });

  it('ask_decision escapes what it posts and trusts no click: the decider and decisions are the stored run’s', async () => {
    // An event uid a workflow mapped from elsewhere, with a broadcast and a link in it.
    const uid = '<!channel> <https://evil.example|open>';
    const inputs = { event_uid: uid, decider: SEEDED_USERS.admin, channel: SEEDED_CHANNELS.security };
    const { execution } = await runStep('ask_decision', inputs);
    const post = await stack.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.token === execution.token && c.response.ok === true,
    );
    expect(String(post.body.text)).not.toContain('<!channel>');
    expect(String(post.body.text)).not.toContain('<https://');
    expect(JSON.stringify(post.body.blocks)).not.toContain('<!channel>');
    const ts = String((post.response as { ts?: string }).ts);
    const message = structuredClone(stack.slack.messages(SEEDED_CHANNELS.security).find((m) => m.ts === ts));
    const guest = stack.slack.addUser({ id: 'U0GUEST07', name: 'gwen', is_restricted: true }).id;
    const click = (userId: string, value: string, forgedInputs: Record<string, unknown> = inputs) =>
      stack.sender.blockAction({
        actionId: 'step_decision_ignore',
        value,
        container: 'message',
        channelId: SEEDED_CHANNELS.security,
        responseUrl: stack.slack.responseUrl(),
        userId,
        ...(message ? { message } : {}),
        functionRun: {
          executionId: execution.id,
          callbackId: 'ask_decision',
          inputs: forgedInputs,
          token: execution.token,
        },
      });
    // A guest, or a member naming themselves the decider in a forged payload: refused, ephemerally.
    for (const userId of [guest, SEEDED_USERS.member]) {
      expect((await click(userId, '0', { ...inputs, decider: userId })).status).toBe(200);
      await stack.slack.waitForPost(
        (p) => JSON.stringify(p.body).includes('Only') && JSON.stringify(p.body).includes('ephemeral'),
      );
    }
    // The decider with a forged value: no decision of the run's, so none.
    expect((await click(SEEDED_USERS.admin, '<!channel> pwned')).status).toBe(200);
    await stack.slack.waitForPost((p) => JSON.stringify(p.body).includes('not one of the answers'));
    expect(execution.state).toBe('running');
    expect(completionsOf(execution)).toEqual([]);
    // The decider's click picks a stored decision by index.
    expect((await click(SEEDED_USERS.admin, '1')).status).toBe(200);
    await completion(execution);
    expect(execution.outputs).toEqual({ decision: 'remediate', decided_by: SEEDED_USERS.admin });
    const update = await stack.slack.waitFor((c) => c.method === 'chat.update' && c.body.ts === ts);
    expect(String(update.body.text)).not.toContain('<!channel>');
    expect(JSON.stringify(update.body.blocks)).not.toContain('<!channel>');
  });

  it('post_digest posts the subscription’s digest now and outputs a link to it', async () => {
    // Stored as the digest form stores one (the step reads it by id).
    const sub = await stack.repos.digestSubscriptions.add({
      teamId: stack.workspaceId,
      channelId: SEEDED_CHANNELS.security,
      createdBy: SEEDED_USERS.member,
      identifierIds: [3001],
      severity: 'info',
      types: [],
      timeOfDay: '09:00',
      timeZone: 'UTC',
      weekdaysOnly: false,
      skipEmpty: false,
    });
    const { execution } = await runStep('post_digest', {
      subscription_id: sub.id,
      interactivity: ranBy(SEEDED_USERS.member),
    });
    const call = await completion(execution);
    expect(call.method).toBe('functions.completeSuccess');
    const link = String((execution.outputs as { message_link?: unknown }).message_link);
    expect(link).toContain(SEEDED_CHANNELS.security);
  });
});

describe('Workflow Builder steps in a workspace not connected yet', () => {
  let fresh: Stack;

  beforeAll(async () => {
    fresh = await startStack({ connect: false });
  });

  afterAll(async () => {
    await fresh?.close();
  });

  it('a step completes with an error that says how to connect, instead of timing out', async () => {
    const { execution, event } = fresh.slack.startFunction({
      callbackId: 'search_events',
      inputs: { identifier: '3001' },
    });
    expect((await fresh.sender.event({ type: 'function_executed', fields: event })).status).toBe(200);
    await fresh.slack.waitFor(
      (c) => c.method === 'functions.completeError' && c.body.function_execution_id === execution.id,
    );
    expect(execution.state).toBe('failed');
    expect(execution.error).toContain('not connected');
    expect(execution.error).toContain('/vigil connect');
    expect(fresh.sim.log.entries).toEqual([]);
  });
});
