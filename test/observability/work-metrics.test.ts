/**
 * What Vigil does on its own account, in `/metrics` (issue 38, item 6): digest runs by outcome, Slack Web API
 * calls by method with their errors and 429s (the fake Slack failing calls as Slack does), and workflow step
 * runs by step and outcome. Signed requests into the real receiver, the simulated API, the digest scheduler
 * run by hand on the injected clock, `/metrics` scraped on its own port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionExecution } from '../../packages/playground/src/sim/slack/index.js';
import { command, SEEDED_USERS } from '../features/events/support/events-stack.js';
import { ManualClock } from '../support/manual-clock.js';
import { type Families, sampleSum, scrape } from '../support/prometheus.js';
import { type Stack, startStack } from '../support/stack.js';
import { until } from '../support/until.js';

const START = Date.UTC(2026, 5, 10, 6, 0);
const admin = { userId: SEEDED_USERS.admin };

describe('/metrics of digest runs, Slack calls and workflow steps', () => {
  let stack: Stack;
  let clock: ManualClock;
  const families = async (): Promise<Families> =>
    (await scrape(`http://127.0.0.1:${stack.vigil.metricsPort}/metrics`)).families;

  beforeAll(async () => {
    clock = new ManualClock(START);
    stack = await startStack({ clock, env: { VIGIL_METRICS_PORT: '0' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('count digest runs by outcome, and the Slack calls they make by method, with errors and 429s', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always', admin);
    const before = await families();
    expect(sampleSum(before, 'vigil_digest_runs_total')).toBe(0);

    // Slack answers the digest's post 429: the run is retried later, and the 429 is counted apart.
    stack.slack.failNext('chat.postMessage', { error: 'ratelimited' });
    clock.set(Date.UTC(2026, 5, 10, 9, 0));
    await stack.runDigests();
    const limited = await families();
    expect(sampleSum(limited, 'vigil_digest_runs_total', { outcome: 'retry' })).toBe(1);
    expect(sampleSum(limited, 'vigil_slack_api_rate_limited_total', { method: 'chat.postMessage' })).toBe(1);
    expect(sampleSum(limited, 'vigil_slack_api_calls_total', { method: 'chat.postMessage' })).toBe(1);

    // Later it posts.
    clock.advance(30 * 60_000);
    await stack.runDigests();
    const posted = await families();
    expect(sampleSum(posted, 'vigil_digest_runs_total', { outcome: 'posted' })).toBe(1);
    expect(sampleSum(posted, 'vigil_slack_api_calls_total', { method: 'chat.postMessage' })).toBeGreaterThan(
      1,
    );
    expect(sampleSum(posted, 'vigil_slack_api_errors_total')).toBe(0);

    // A Slack error (`ok: false` with 200, as Slack answers) is counted by method and error code.
    stack.slack.failNext('views.publish', { error: 'invalid_arguments' });
    await stack.sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.admin });
    await stack.slack.waitFor((c) => c.method === 'views.publish');
    const failed = await families();
    expect(
      sampleSum(failed, 'vigil_slack_api_errors_total', {
        method: 'views.publish',
        error: 'invalid_arguments',
      }),
    ).toBe(1);
  });

  /** Starts a run of the step in the fake Slack, delivers its event, and waits for its completion. */
  const runStep = async (callbackId: string, inputs: Record<string, unknown>) => {
    const { execution, event } = stack.slack.startFunction({ callbackId, inputs, unchecked: true });
    const deliver = async () =>
      (await stack.sender.event({ type: 'function_executed', fields: event })).status;
    expect(await deliver()).toBe(200);
    await stack.slack.waitFor(
      (c) => c.method.startsWith('functions.complete') && c.body.function_execution_id === execution.id,
    );
    return { execution: execution as FunctionExecution, deliver };
  };

  it('count workflow step runs by step and outcome, a redelivery apart', async () => {
    const done = await runStep('search_events', { identifier: '3001', since: '90d' });
    expect(done.execution.state).toBe('completed');
    const empty = await runStep('search_events', {});
    expect(empty.execution.state).toBe('failed');
    // Slack delivers the first run again: it is not run twice, and counted as repeated.
    const repeatedBefore = stack.logs.filter((l) => l.includes('delivered again')).length;
    expect(await done.deliver()).toBe(200);
    await until(
      'the redelivery',
      () => stack.logs.filter((l) => l.includes('delivered again')).length > repeatedBefore,
    );
    const all = await families();
    const runs = (outcome: string) =>
      sampleSum(all, 'vigil_workflow_step_runs_total', { step: 'search_events', outcome });
    expect(runs('completed')).toBe(1);
    expect(runs('failed')).toBe(1);
    expect(runs('repeated')).toBe(1);
  });
});
