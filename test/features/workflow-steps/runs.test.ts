/**
 * Runs of workflow steps in the store, on both backends and across instances (two connections to one store):
 * a delivery Slack repeats runs once, a run whose instance crashed may run again later, and a waiting run
 * is completed by exactly one click.
 */
import { describe, expect, it } from 'vitest';
import { StepRuns } from '../../../src/features/workflow-steps/runs.js';
import { BACKENDS, useStoreFixture } from '../../store/support/backends.js';
import { reposFor } from '../../store/support/repos.js';

describe.each(BACKENDS)('workflow step runs on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  async function twoInstances() {
    const a = reposFor(await fixture.open());
    const b = reposFor(await fixture.open());
    return {
      a: new StepRuns({ repos: a.repos, clock: fixture.clock }),
      b: new StepRuns({ repos: b.repos, clock: fixture.clock }),
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
    await a.waiting('T1', 'Fx4', 'ask_decision', 'Wx9');
    expect(await b.begin('T1', 'Fx4', 'ask_decision')).toBe(false);
    const clicks = await Promise.all([a, b, a, b].map((runs) => runs.decide('T1', 'Fx4')));
    expect(clicks.filter((c) => c !== undefined)).toEqual(['Wx9']);
  });
});
