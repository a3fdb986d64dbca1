/**
 * The fairness figure of the fleet run (slowest tenth ÷ median of the workspaces' mean alert delay, goal
 * ≤ 1.5) and what a perfectly fair scheduler would show with the same samples, so a reader sees in the same
 * run how much of the figure is the scheduler and how much the sampling.
 *
 * Why a baseline: a workspace is polled every `pollMs` at a phase of its own, so an event that appears at a
 * random moment waits uniform 0..pollMs for the next poll however fair the scheduler is. With two events a
 * workspace, the mean of two uniforms is triangular on 0..pollMs: its median is pollMs/2 and P(mean > m) is
 * 2(1 − m/pollMs)² above it, so its p90 is (1 − √0.05)·pollMs = 0.776·pollMs and p90 ÷ median = 1.55 with no
 * scheduler unfairness at all. With k events a workspace the spread of the mean shrinks as 1/√k (about 1.23 at
 * ten). The baseline here is that model run on the run's own samples: the same workspaces, the same event
 * times, each workspace polled exactly every `pollMs` at a random phase and posting at once (no cost, so no
 * delay shared by all that would narrow the ratio), over many draws of the phases.
 */
import { percentile } from '../stats.js';

/** Slowest tenth (p90) ÷ median of per-workspace mean delays; NaN without samples. */
export function slowestTenthRatio(means: readonly number[]): number {
  const sorted = Float64Array.from(means).sort();
  return percentile(sorted, 0.9) / percentile(sorted, 0.5);
}

/** A small seeded generator (mulberry32): the baseline is the same for the same samples. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FairBaseline {
  /** The median over the draws of a perfectly fair scheduler's ratio, and the 5th and 95th percentiles. */
  ratio: number;
  low: number;
  high: number;
  /** Samples (alerts) per workspace, on average. */
  perWorkspace: number;
}

/**
 * `eventTimes`: per workspace, when each of its measured events appeared (ms). Each draw gives every workspace
 * a phase in 0..pollMs; an event waits until the next poll at that phase.
 */
export function fairBaseline(
  eventTimes: readonly (readonly number[])[],
  pollMs: number,
  draws = 201,
  random: () => number = seededRandom(43),
): FairBaseline {
  const used = eventTimes.filter((times) => times.length > 0);
  const ratios: number[] = [];
  for (let d = 0; d < draws; d++) {
    const means = used.map((times) => {
      const phase = random() * pollMs;
      let sum = 0;
      for (const at of times) sum += (((phase - at) % pollMs) + pollMs) % pollMs;
      return sum / times.length;
    });
    ratios.push(slowestTenthRatio(means));
  }
  const sorted = Float64Array.from(ratios).sort();
  const samples = used.reduce((n, times) => n + times.length, 0);
  return {
    ratio: percentile(sorted, 0.5),
    low: percentile(sorted, 0.05),
    high: percentile(sorted, 0.95),
    perWorkspace: used.length === 0 ? 0 : samples / used.length,
  };
}
