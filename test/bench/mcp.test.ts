/**
 * Smoke run of bench/mcp.ts at the smallest size: an MCP tool call through the real stack and the API call it
 * makes. The benchmark verifies each call answered a page of events with one search at the API; the times
 * and the ratio are not asserted.
 */
import { describe, expect, it } from 'vitest';
import { runMcpBench } from '../../bench/mcp.js';

describe('bench/mcp.ts smoke', () => {
  it('measures real search_events calls and their API call, with and without added latency', async () => {
    const rows = await runMcpBench(2, 20, 0);
    expect(rows.map((r) => r.latencyMs)).toEqual([0, 20]);
    for (const r of rows) expect(r.ratio).toBeGreaterThan(0);
  }, 60_000);
});
