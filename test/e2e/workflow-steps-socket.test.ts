/**
 * Vigil's workflow steps over Socket Mode: the `function_executed` envelope is acked on the socket, the step
 * completes with its declared outputs (checked by the fake against manifest.yml), a redelivered envelope of the
 * same execution completes nothing more, and the decision step completes on the click carried by the socket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_APP_TOKEN,
  type FunctionExecution,
  type RecordedCall,
  SEEDED_CHANNELS,
  SEEDED_USERS,
} from '../../packages/playground/src/sim/slack/index.js';
import { blockActionPayload, eventEnvelope } from '../harness/index.js';
import { type Stack, startStack } from '../support/stack.js';
import { until } from '../support/until.js';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    env: { SLACK_APP_TOKEN: DEFAULT_APP_TOKEN, SLACK_SIGNING_SECRET: '' },
    sim: { emptyPageEvery: 0 },
  });
});

afterAll(async () => {
  await stack?.close();
});

function completionsOf(execution: FunctionExecution): RecordedCall[] {
  return stack.slack.calls.filter(
    (c) =>
      (c.method === 'functions.completeSuccess' || c.method === 'functions.completeError') &&
      c.body.function_execution_id === execution.id,
  );
}

describe('Workflow Builder steps over Socket Mode', () => {
  it('search_events is acked on the socket and completes once, however often it is delivered', async () => {
    const { execution, event } = stack.slack.startFunction({
      callbackId: 'search_events',
      inputs: { identifier: '3001', severity: 'high', since: '90d' },
    });
    const payload = eventEnvelope(
      { type: 'function_executed', fields: event },
      Math.floor(Date.now() / 1000),
    );
    const ack = await stack.slack.socket.send({ type: 'events_api', payload });
    expect(ack.refusal).toBeUndefined();
    await stack.slack.waitFor((c) => completionsOf(execution).includes(c));
    expect(execution.state).toBe('completed');
    const out = execution.outputs as Record<string, unknown>;
    expect(Number.isInteger(out.count)).toBe(true);
    expect(['high', 'critical']).toContain(out.highest_severity);

    // The same envelope again (Slack retries an envelope it thinks was lost).
    await stack.slack.socket.send({ type: 'events_api', payload, retryAttempt: 1, retryReason: 'timeout' });
    await until('the redelivery is turned away', () =>
      stack.logs.some((l) => l.includes('delivered again') && l.includes(execution.id)),
    );
    expect(completionsOf(execution)).toHaveLength(1);
  });

  it('a step of a workspace this Vigil does not serve completes with the refusal, once', async () => {
    stack.slack.addTeam({ teamId: 'T0OTHER02', botToken: 'xoxb-other-vigil-2', botUserId: 'U0BOTOTHR2' });
    const { execution, event } = stack.slack.startFunction({
      callbackId: 'search_events',
      inputs: { identifier: '3001' },
      teamId: 'T0OTHER02',
    });
    const payload = eventEnvelope(
      { type: 'function_executed', fields: event, teamId: 'T0OTHER02' },
      Math.floor(Date.now() / 1000),
    );
    await stack.slack.socket.send({ type: 'events_api', payload });
    await stack.slack.waitFor((c) => completionsOf(execution).includes(c) && c.response.ok === true);
    expect(execution.state).toBe('failed');
    expect(execution.error).toContain('serves another Slack workspace');
    await stack.slack.socket.send({ type: 'events_api', payload, retryAttempt: 1, retryReason: 'timeout' });
    await until('the redelivery is turned away', () =>
      stack.logs.some((l) => l.includes('delivered again') && l.includes(execution.id)),
    );
    expect(completionsOf(execution)).toHaveLength(1);
  });

  it('ask_decision completes on the decider’s click, sent over the socket', async () => {
    const [first] = stack.sim.state.eventsOf(3001);
    const inputs = {
      event_uid: first?.item.metadata.uid ?? '',
      decider: SEEDED_USERS.member,
      channel: SEEDED_CHANNELS.general,
    };
    const { execution, event } = stack.slack.startFunction({ callbackId: 'ask_decision', inputs });
    const now = Math.floor(Date.now() / 1000);
    await stack.slack.socket.send({
      type: 'events_api',
      payload: eventEnvelope({ type: 'function_executed', fields: event }, now),
    });
    const post = await stack.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.token === execution.token,
    );
    const ts = String(post.response.ts);
    const message = structuredClone(stack.slack.messages(SEEDED_CHANNELS.general).find((m) => m.ts === ts));
    expect(completionsOf(execution)).toEqual([]);
    const click = blockActionPayload(
      {
        actionId: 'step_decision_remediate',
        container: 'message',
        channelId: SEEDED_CHANNELS.general,
        responseUrl: stack.slack.responseUrl(),
        userId: SEEDED_USERS.member,
        ...(message ? { message } : {}),
        functionRun: {
          executionId: execution.id,
          callbackId: 'ask_decision',
          inputs,
          token: execution.token,
        },
      },
      now,
    );
    const ack = await stack.slack.socket.send({ type: 'interactive', payload: click });
    expect(ack.refusal).toBeUndefined();
    await stack.slack.waitFor((c) => completionsOf(execution).includes(c));
    expect(execution.outputs).toEqual({ decision: 'remediate', decided_by: SEEDED_USERS.member });
  });
});
