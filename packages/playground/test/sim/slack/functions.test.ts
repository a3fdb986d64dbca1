/**
 * The fake Slack's workflow steps: an execution per run with its own token, completed once, and outputs
 * refused when they break the manifest's declaration, as Slack refuses them (parameter_validation_failed).
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { manifestFunctions } from '../../../../../test/support/manifest.js';
import { type FakeSlack, startFakeSlack } from '../../../src/sim/slack/index.js';
import { callForm, callJson } from './helpers.js';

const fake: FakeSlack = await startFakeSlack({ functions: manifestFunctions() });
afterAll(() => fake.close());
beforeEach(() => fake.reset());

/** Inputs Slack delivers: every required one, of its declared type. */
const EVENTS_IN = { identifier: '3001' };
const DECISION_IN = { event_uid: 'leak/1', decider: 'U0ADMIN01', channel: 'C0GENERAL' };
const PERSON = { id: 'U0MEMBER1', secret: 'c2VjcmV0' };
const DIGEST_IN = {
  subscription_id: 's1',
  interactivity: { interactivity_pointer: '1.2.a', interactor: PERSON },
};

const GOOD_EVENTS = { count: 2, summary: 'Two events', highest_severity: 'high', first_event_uid: 'leak/1' };

describe('functions.completeSuccess and completeError', () => {
  it('gives each run a function_executed event with its declared parameters and a workflow token', () => {
    const { execution, event } = fake.startFunction({
      callbackId: 'search_events',
      inputs: { identifier: '3001' },
    });
    expect(event).toMatchObject({
      type: 'function_executed',
      function_execution_id: execution.id,
      bot_access_token: execution.token,
      inputs: { identifier: '3001' },
      function: { callback_id: 'search_events', title: 'Search events' },
    });
    const params = (event.function as { output_parameters: { name: string }[] }).output_parameters;
    expect(params.map((p) => p.name)).toEqual(['count', 'highest_severity', 'summary', 'first_event_uid']);
    expect(execution.token.startsWith('xwfp-')).toBe(true);
  });

  it('accepts outputs of the declared types, once (form or JSON)', async () => {
    for (const call of [callForm, callJson]) {
      const { execution } = fake.startFunction({ callbackId: 'search_events', inputs: EVENTS_IN });
      const args = { function_execution_id: execution.id, outputs: GOOD_EVENTS };
      expect((await call(fake, 'functions.completeSuccess', args, execution.token)).body).toEqual({
        ok: true,
      });
      expect(execution).toMatchObject({ state: 'completed', outputs: GOOD_EVENTS });
      expect((await call(fake, 'functions.completeSuccess', args, execution.token)).body).toEqual({
        ok: false,
        error: 'execution_not_in_running_state',
      });
    }
  });

  it('refuses outputs that break the declaration: a wrong type, a missing required one, an undeclared one', async () => {
    const { execution } = fake.startFunction({ callbackId: 'search_events', inputs: EVENTS_IN });
    const refused = async (outputs: Record<string, unknown>) =>
      (
        await callJson(
          fake,
          'functions.completeSuccess',
          { function_execution_id: execution.id, outputs },
          execution.token,
        )
      ).body;
    expect(await refused({ ...GOOD_EVENTS, count: '2' })).toMatchObject({
      ok: false,
      error: 'parameter_validation_failed',
      errors: ['output count is not an integer'],
    });
    const { summary: _gone, ...noSummary } = GOOD_EVENTS;
    expect((await refused(noSummary)).errors).toEqual(['output summary is required']);
    expect((await refused({ ...GOOD_EVENTS, extra: 1 })).errors).toEqual(['output extra is not declared']);
    const decision = fake.startFunction({ callbackId: 'ask_decision', inputs: DECISION_IN }).execution;
    const bad = await callJson(
      fake,
      'functions.completeSuccess',
      { function_execution_id: decision.id, outputs: { decision: 'ignore', decided_by: 'not-a-user' } },
      decision.token,
    );
    expect(bad.body.errors).toEqual(['output decided_by is not a slack#/types/user_id']);
    expect(execution.state).toBe('running');
  });

  it('runs a step only with inputs Workflow Builder would publish: required, typed, within their enum', () => {
    const start = (callbackId: string, inputs: Record<string, unknown>) => () =>
      fake.startFunction({ callbackId, inputs: inputs as never });
    expect(start('search_events', {})).toThrow(/input identifier is required/);
    expect(start('search_events', { ...EVENTS_IN, severity: 'urgent' })).toThrow(
      /input severity is not one of info, low, medium, high, critical/,
    );
    expect(start('search_events', { ...EVENTS_IN, run_as: { id: 'U0MEMBER1' } })).toThrow(
      /input run_as is not a user_context/,
    );
    expect(start('search_events', { ...EVENTS_IN, extra: 'x' })).toThrow(/input extra is not declared/);
    expect(start('post_digest', { ...DIGEST_IN, interactivity: { interactor: PERSON } })).toThrow(
      /input interactivity is not an interactivity/,
    );
    expect(start('search_credentials', { query: 'acme.example', run_as: PERSON })).not.toThrow();
    // A test of the app's own checks may still deliver what Slack would not.
    expect(() =>
      fake.startFunction({ callbackId: 'search_events', inputs: {}, unchecked: true }),
    ).not.toThrow();
  });

  it('records an error completion; an unknown execution or step is refused', async () => {
    const { execution } = fake.startFunction({ callbackId: 'post_digest', inputs: DIGEST_IN });
    expect(
      (await callForm(fake, 'functions.completeError', { function_execution_id: 'Fx404', error: 'x' })).body,
    ).toEqual({ ok: false, error: 'function_execution_not_found' });
    const args = { function_execution_id: execution.id, error: 'The subscription is paused.' };
    expect((await callForm(fake, 'functions.completeError', args, execution.token)).body).toEqual({
      ok: true,
    });
    expect(execution).toMatchObject({ state: 'failed', error: 'The subscription is paused.' });
    expect(() => fake.startFunction({ callbackId: 'not_declared', inputs: {} })).toThrow(
      /declares no function/,
    );
  });
});
