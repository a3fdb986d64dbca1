/**
 * A workflow step across a crash, with real processes: Vigil is killed with SIGKILL while a step's search is
 * in flight (acknowledged, so Slack will not deliver it again). A Vigil restarted on the same store completes
 * that execution with an error saying so, with the execution's own token (kept sealed in the run); a step
 * killed after its act was made and recorded (while completing it) is finished with its outputs instead. That
 * it is settled once across instances is shown on both store backends in test/features/workflow-steps/runs.test.ts.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimApi } from '../../packages/playground/src/sim/api/index.js';
import { type FakeSlack, SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { type CrashWorld, openCrashWorld } from '../support/crash-world.js';
import { until } from '../support/until.js';

let world: CrashWorld;
let sim: SimApi;
let slack: FakeSlack;

beforeAll(async () => {
  world = await openCrashWorld({ slackContract: true });
  ({ sim, slack } = world);
});

afterAll(async () => {
  await world?.close();
});

const searches = () => sim.log.entries.filter((e) => /\/events\/identifiers\/\d+\/_search$/.test(e.path));
const actions = () => sim.log.entries.filter((e) => e.path.endsWith('/events/actions'));

describe('a workflow step whose process died mid-step', () => {
  it('is finished with its outputs when its act was made and recorded before the crash', async () => {
    const env = world.env({}, 'acted.sqlite');
    const first = await world.start(env);
    const [event] = sim.state.eventsOf(3002);
    const uid = event?.item.metadata.uid ?? '';
    const { execution, event: delivery } = slack.startFunction({
      callbackId: 'act_on_event',
      inputs: {
        event_uid: uid,
        action: 'ignore',
        interactivity: {
          interactivity_pointer: '1234.5678.abcd',
          interactor: { id: SEEDED_USERS.admin, secret: 'c2VjcmV0' },
        },
      },
    });
    // The act is made and recorded; Slack holds the completion until Vigil is gone.
    const held = slack.hold('functions.completeSuccess');
    const sender = world.sender(first.url);
    expect((await sender.event({ type: 'function_executed', fields: delivery })).status).toBe(200);
    await held.arrived;
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    expect(execution.state).toBe('running');
    expect(actions()).toHaveLength(1);

    const second = await world.start(env);
    const finished = await slack.waitFor(
      (c) =>
        c.method === 'functions.completeSuccess' &&
        c.body.function_execution_id === execution.id &&
        c.response?.ok === true,
    );
    expect(finished.token).toBe(execution.token);
    expect(execution.state).toBe('completed');
    expect(execution.outputs).toEqual({ state: 'ignored' });
    // Not acted again, and not told as failed.
    expect(actions()).toHaveLength(1);
    expect(slack.calls.filter((c) => c.method === 'functions.completeError')).toHaveLength(0);
    second.child.kill('SIGTERM');
  }, 120_000);

  it('is completed with an error by the restarted Vigil, once, instead of waiting forever', async () => {
    const env = world.env();
    const first = await world.start(env);
    const { execution, event } = slack.startFunction({
      callbackId: 'search_events',
      inputs: { identifier: '3001', since: '90d' },
    });
    // The API receives the search and answers only after Vigil is gone.
    sim.faults.add({ method: 'POST', path: /\/_search$/, response: { delayMs: 60_000 } });
    const sender = world.sender(first.url);
    expect((await sender.event({ type: 'function_executed', fields: event })).status).toBe(200);
    await until('the step’s search to reach the API', () => searches().length === 1);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    expect(execution.state).toBe('running');
    // The token is in the store only sealed (the database and its write-ahead log).
    for (const file of (await readdir(world.dir)).filter((f) => f.startsWith('vigil.sqlite')))
      expect((await readFile(join(world.dir, file))).includes(execution.token)).toBe(false);

    const second = await world.start(env);
    const completed = await slack.waitFor(
      (c) => c.method === 'functions.completeError' && c.body.function_execution_id === execution.id,
    );
    expect(completed.token).toBe(execution.token);
    expect(completed.response.ok).toBe(true);
    expect(execution.state).toBe('failed');
    expect(execution.error).toContain('Vigil stopped');
    expect(execution.error).toContain('run the workflow again');

    expect(searches()).toHaveLength(1);
    second.child.kill('SIGTERM');
  }, 120_000);
});
