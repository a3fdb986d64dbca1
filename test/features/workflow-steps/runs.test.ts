/**
 * Runs of workflow steps in the store, on both backends and across instances (two connections to one store):
 * a delivery Slack repeats runs once, a run whose instance crashed may run again later, a waiting run is
 * completed by exactly one click with what was asked, and a crashed run is settled once, with its token.
 */
import { describe, expect, it } from 'vitest';
import { StepRuns } from '../../../src/features/workflow-steps/runs.js';
import { BACKENDS, useStoreFixture } from '../../store/support/backends.js';
import { reposFor } from '../../store/support/repos.js';

describe.each(BACKENDS)('workflow step runs on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  async function twoInstances() {
    const storeA = await fixture.open();
    const storeB = await fixture.open();
    const a = reposFor(storeA);
    // Instances share the encryption key.
    const b = reposFor(storeB, { sealer: a.sealer });
    return {
      a: new StepRuns({ repos: a.repos, store: storeA, clock: fixture.clock }),
      b: new StepRuns({ repos: b.repos, store: storeB, clock: fixture.clock }),
    };
  }

  it('one of many simultaneous deliveries, on any instance, runs the step; none after it is done', async () => {
    const { a, b } = await twoInstances();
    const tries = await Promise.all([a, b, a, b].map((runs) => runs.begin('T1', 'Fx1', 'search_events')));
    expect(tries.filter(Boolean)).toHaveLength(1);
    await a.done('T1', 'Fx1', 'search_events', 'completed');
    fixture.clock.advance(10 * 60_000);
    expect(await b.begin('T1', 'Fx1', 'search_events')).toBe(false);
    // Another execution, or the same id in another workspace, is another run.
    expect(await b.begin('T1', 'Fx2', 'search_events')).toBe(true);
    expect(await b.begin('T2', 'Fx1', 'search_events')).toBe(true);
  });

  it('a run left unfinished (its instance died) may run again once it is clearly abandoned', async () => {
    const { a, b } = await twoInstances();
    expect(await a.begin('T1', 'Fx3', 'act_on_event')).toBe(true);
    fixture.clock.advance(30_000);
    expect(await b.begin('T1', 'Fx3', 'act_on_event')).toBe(false);
    fixture.clock.advance(5 * 60_000);
    expect(await b.begin('T1', 'Fx3', 'act_on_event')).toBe(true);
  });

  it('a waiting run is decided by exactly one click, with its workflow run for the audit', async () => {
    const { a, b } = await twoInstances();
    expect(await a.decide('T1', 'Fx4')).toBeUndefined();
    expect(await a.begin('T1', 'Fx4', 'ask_decision')).toBe(true);
    const question = { decider: 'U1', uid: 'ev-1', decisions: ['ignore' as const, 'escalate' as const] };
    await a.waiting('T1', 'Fx4', 'ask_decision', 'Wx9', question);
    expect(await b.begin('T1', 'Fx4', 'ask_decision')).toBe(false);
    expect(await b.question('T1', 'Fx4')).toEqual(question);
    const clicks = await Promise.all([a, b, a, b].map((runs) => runs.decide('T1', 'Fx4')));
    expect(clicks.filter((c) => c !== undefined)).toEqual([{ workflowRun: 'Wx9', question }]);
    expect(await b.question('T1', 'Fx4')).toBeUndefined();
  });

  it('a run left running is settled once with its token, not while its live holder may still finish it', async () => {
    const { a, b } = await twoInstances();
    expect(await a.begin('T1', 'Fx5', 'search_events', 'xwfp-secret-1')).toBe(true);
    expect(await a.begin('T1', 'Fx6', 'search_events', 'xwfp-secret-2')).toBe(true);
    await a.done('T1', 'Fx6', 'search_events', 'completed');
    const completed: string[] = [];
    const complete = async (run: { executionId: string; token: string }) => {
      completed.push(`${run.executionId}:${run.token}`);
    };
    // Its holder (this process) is alive and the run young: left alone.
    const now = fixture.clock.now() + 1;
    expect(await b.settleInterrupted(complete, now)).toEqual({ settled: 0, held: 1 });
    fixture.clock.advance(3 * 60_000);
    // Runs begun after an instance started are its own, in flight.
    expect(await b.settleInterrupted(complete, now - 1)).toEqual({ settled: 0, held: 0 });
    const settles = await Promise.all([a, b, b].map((runs) => runs.settleInterrupted(complete, now)));
    expect(settles.reduce((n, s) => n + s.settled, 0)).toBe(1);
    expect(completed).toEqual(['Fx5:xwfp-secret-1']);
    // Settled is done: a late delivery does not run it again.
    expect(await b.begin('T1', 'Fx5', 'search_events')).toBe(false);
  });
});
