/**
 * Start-up time: from calling `startVigil` to it listening (config parsed, SQLite store created, sealer
 * loaded, `auth.test` against the fake Slack awaited, server bound), against `new App(...)` plus
 * `app.start()` of a bare Bolt app — stock, and with `auth.test` awaited like Vigil does. Modules are already
 * loaded, so no figure includes import time. Alternated, after one warm-up start of each.
 */
import { performance } from 'node:perf_hooks';
import { median, percentile } from './stats.js';
import { startBareBolt, startVigilTarget, type Target, type Upstreams } from './targets.js';
import { atLeast, verifyWork } from './verify.js';

export interface StartupFigures {
  runs: number;
  min: number;
  p50: number;
  max: number;
}

export interface StartupResult {
  /** Stock Bolt: `auth.test` is fired but not awaited before listening. */
  baseline: StartupFigures;
  /** Bolt with `deferInitialization` and `await app.init()`: the like-for-like floor. */
  baselineInit: StartupFigures;
  vigil: StartupFigures;
  /** Vigil ÷ stock Bolt, of the medians. */
  p50Ratio: number;
  /** Vigil ÷ Bolt with `auth.test` awaited, of the medians. */
  p50RatioInit: number;
}

async function timeStart(start: () => Promise<Target>): Promise<number> {
  const began = performance.now();
  const target = await start();
  const elapsed = performance.now() - began;
  await target.stop();
  return elapsed;
}

function figures(ms: readonly number[]): StartupFigures {
  const sorted = Float64Array.from(ms).sort();
  return { runs: ms.length, min: sorted[0] ?? Number.NaN, p50: median(ms), max: percentile(sorted, 1) };
}

type Which = 'baseline' | 'baselineInit' | 'vigil';
const ORDER: readonly Which[] = ['baseline', 'baselineInit', 'vigil'];

export async function runStartupBench(up: Upstreams, runs: number): Promise<StartupResult> {
  const starters: Record<Which, () => Promise<Target>> = {
    baseline: () => startBareBolt(up),
    baselineInit: () => startBareBolt(up, { awaitInit: true }),
    vigil: () => startVigilTarget(up),
  };
  for (const which of ORDER) await timeStart(starters[which]);
  const ms: Record<Which, number[]> = { baseline: [], baselineInit: [], vigil: [] };
  const authTests = () => up.slack.calls.filter((c) => c.method === 'auth.test' && c.response.ok).length;
  const authBefore = authTests();
  for (let i = 0; i < runs; i++) {
    // Rotate who goes first so none always follows the same neighbour.
    for (let k = 0; k < ORDER.length; k++) {
      const which = ORDER[(i + k) % ORDER.length] as Which;
      ms[which].push(await timeStart(starters[which]));
    }
  }
  // Each awaited start asked Slack who it is: a start that failed early would be fast and not a start.
  verifyWork('startup', [
    atLeast('auth.test calls answered (one per awaited start)', authTests() - authBefore, 2 * runs),
  ]);
  const baseline = figures(ms.baseline);
  const baselineInit = figures(ms.baselineInit);
  const vigil = figures(ms.vigil);
  return {
    baseline,
    baselineInit,
    vigil,
    p50Ratio: vigil.p50 / baseline.p50,
    p50RatioInit: vigil.p50 / baselineInit.p50,
  };
}
