/**
 * The fleet's fairness baseline (bench/scale/fair-baseline.ts) against the closed forms: a perfectly fair
 * scheduler polling every interval at a random phase, with two events a workspace, shows a slowest tenth
 * 1.55× the median (the mean of two uniforms is triangular: p90 = 1 − √0.05 of the interval, median one
 * half); with one event 1.8 (0.9 ÷ 0.5); with ten about 1.23 (the mean's spread shrinks as 1/√10). Pure:
 * seeded random numbers, no clock.
 */
import { describe, expect, it } from 'vitest';
import { fairBaseline, seededRandom, slowestTenthRatio } from '../../bench/scale/fair-baseline.js';

const POLL_MS = 10_000;

function randomTimes(workspaces: number, perWorkspace: number, seed: number): number[][] {
  const random = seededRandom(seed);
  return Array.from({ length: workspaces }, () =>
    Array.from({ length: perWorkspace }, () => random() * 60_000),
  );
}

describe('fairness baseline of the fleet bench', () => {
  it('is 1.55 with two events a workspace, the figure the 2,000-workspace runs printed', () => {
    const closedForm = (1 - Math.sqrt(0.05)) / 0.5;
    expect(closedForm).toBeCloseTo(1.553, 3);
    const b = fairBaseline(randomTimes(20_000, 2, 1), POLL_MS, 21);
    expect(b.perWorkspace).toBe(2);
    expect(Math.abs(b.ratio - closedForm)).toBeLessThan(0.03);
    expect(b.low).toBeGreaterThan(1.5);
  });

  it('is 1.8 with one event, and about 1.23 with ten: more events a workspace let the goal (1.5) show', () => {
    expect(Math.abs(fairBaseline(randomTimes(20_000, 1, 2), POLL_MS, 21).ratio - 1.8)).toBeLessThan(0.03);
    const ten = fairBaseline(randomTimes(5_000, 10, 3), POLL_MS, 21);
    expect(Math.abs(ten.ratio - (1 + (1.2816 * Math.sqrt(1 / 120)) / 0.5))).toBeLessThan(0.03);
    expect(ten.high).toBeLessThan(1.3);
  });

  it('reads the ratio as the fleet table does: p90 over median of the means', () => {
    expect(slowestTenthRatio([1, 1, 1, 1, 1, 1, 1, 1, 1, 3])).toBe(1);
    expect(slowestTenthRatio([1, 1, 1, 1, 1, 2, 2, 2, 4, 4])).toBe(4);
  });
});
