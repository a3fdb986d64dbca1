/**
 * Smoke run of `npm run bench:scale` at its smallest size: one Vigil process, one workspace, one member, two
 * searches. It asserts the burst was real work (every answer a page of results, each search at the API, one
 * token generation), never a timing. Issue 44: the members were unknown to the simulated Slack, so every search
 * was refused and the benchmark measured refusals; the second test keeps that failure visible.
 */
import { describe, expect, it } from 'vitest';
import { runScaleBench, type ScaleOptions } from '../../bench/scale/run-scale.js';
import { BenchDidNotWork } from '../../bench/verify.js';

const SMALLEST: ScaleOptions = { instances: [1], searches: 2, members: 1, orgs: 1, inFlight: 1 };

describe('bench:scale smoke', () => {
  it('answers every search with results, each one an API search, one token generation per workspace', async () => {
    const [r] = await runScaleBench(SMALLEST);
    expect(r).toMatchObject({ answered: 2, notResults: 0, tokenGenerations: 1, tenants: 1 });
    expect(r?.searchCalls).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('fails naming the refusal when its members are unknown to Slack', async () => {
    const run = runScaleBench({ ...SMALLEST, membersKnown: false });
    await expect(run).rejects.toBeInstanceOf(BenchDidNotWork);
    await expect(run).rejects.toThrow(/not results, the first: ".*Slack does not know your user/);
  }, 60_000);
});
