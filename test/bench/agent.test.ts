/**
 * Smoke run of bench/agent.ts at its smallest size: it verifies its answers were the work it times (the
 * command's page of events; a stream started with the plan and finished with event rows); no timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { runAgentBench } from '../../bench/agent.js';

describe('bench/agent.ts smoke', () => {
  it('measures the command and the DM answer, each verified', async () => {
    const r = await runAgentBench(1);
    expect(r.rounds).toBe(1);
    expect(r.firstChunkMs).toBeGreaterThan(0);
    expect(r.streamDoneMs).toBeGreaterThanOrEqual(r.firstChunkMs);
  }, 60_000);
});
