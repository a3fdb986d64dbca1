/**
 * Smoke runs of the benchmarks `npm run bench` runs (ack latency, start-up, fairness, credentials export, the
 * playground session) at their smallest sizes. Each benchmark verifies that it did the work it times (answers
 * that are results, API calls made, files uploaded) and throws BenchDidNotWork otherwise: these tests assert
 * that verification passed and the figures exist, never a timing. Cold start: test/bench/cold.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAckBench } from '../../bench/ack-latency.js';
import { runCredsExportBench } from '../../bench/creds-export.js';
import { runFairnessBench } from '../../bench/fairness.js';
import { startLoadClient } from '../../bench/load/client.js';
import { runPlaygroundSessionBench } from '../../bench/playground.js';
import { runStartupBench } from '../../bench/startup.js';
import {
  SIGNING_SECRET,
  startBareBolt,
  startUpstreams,
  startVigilTarget,
  type Upstreams,
  vigilHelpAck,
} from '../../bench/targets.js';

describe('npm run bench, smoke', () => {
  let up: Upstreams;
  beforeAll(async () => {
    up = await startUpstreams();
  });
  afterAll(async () => {
    await up.close();
  });

  it('ack latency: every server acks each request with its help message', async () => {
    const baseline = await startBareBolt(up);
    const sameBody = await startBareBolt(up, { ackBody: vigilHelpAck() });
    const vigil = await startVigilTarget(up);
    const client = startLoadClient();
    try {
      const [level] = await runAckBench(
        { count: 4, warmup: 2, rounds: 2, levels: [2] },
        {
          client,
          servers: { baseline, sameBody, vigil },
          signingSecret: SIGNING_SECRET,
          responseUrl: up.responseUrl,
        },
      );
      expect([level?.baseline.count, level?.sameBody.count, level?.vigil.count]).toEqual([4, 4, 4]);
    } finally {
      await client.close();
      await Promise.allSettled([baseline.stop(), sameBody.stop(), vigil.stop()]);
    }
  }, 60_000);

  it('start-up: each start is a real one (Slack asked who the app is)', async () => {
    const r = await runStartupBench(up, 1);
    expect([r.baseline.runs, r.baselineInit.runs, r.vigil.runs]).toEqual([1, 1, 1]);
  });

  it("fairness: the other member's searches are answered with results", async () => {
    const results = await runFairnessBench(up, 2, 1);
    expect(results.map((r) => r.label)).toEqual(['no gate (before)', 'fair gate (after)']);
  }, 60_000);

  it('credentials export: every row fetched and exported, the file uploaded', async () => {
    const r = await runCredsExportBench(50, 1);
    expect(r).toMatchObject({ rows: 50, rounds: 1 });
    expect(r.csvMb).toBeGreaterThan(0);
  });

  it('playground session: every command answered, none with a refusal or an error', async () => {
    const r = await runPlaygroundSessionBench(SESSION_SMOKE, 2, 1);
    expect(r.at300.commands).toBe(SESSION_SMOKE);
  }, 60_000);
});

/** One pass over the playground session's 14 commands. */
const SESSION_SMOKE = 14;
