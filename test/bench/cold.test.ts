/**
 * Smoke run of `npm run bench:cold` at its smallest size, on the build `npm start` runs: each Vigil start
 * must have been Vigil (its auth.test answered before /healthz), and the playground its own entry. Asserts the
 * work was real and the figures exist, never a timing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runColdStartBench } from '../../bench/cold/cold-start.js';
import { startUpstreams, type Upstreams } from '../../bench/targets.js';
import { buildIfStale } from '../support/launcher.js';

let up: Upstreams;
beforeAll(async () => {
  await buildIfStale();
  up = await startUpstreams();
}, 300_000);
afterAll(async () => {
  await up.close();
});

it('starts bare Bolt, Vigil and the playground, each for real', async () => {
  const cold = await runColdStartBench(up, 1);
  for (const figures of [cold.bare, cold.vigil, cold.playground]) {
    expect(figures.runs).toBe(1);
    expect(figures.readyP50).toBeGreaterThan(0);
  }
  expect(cold.readyRatio).toBeGreaterThan(0);
}, 120_000);
