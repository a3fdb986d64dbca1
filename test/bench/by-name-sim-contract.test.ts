/**
 * Smoke runs of bench/by-name.ts and bench/sim-contract.ts at their smallest sizes. Each verifies its answers
 * were the work it times (pages of events of the identifier; searches answered 200); no timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { runByNameBench } from '../../bench/by-name.js';
import { runSimContractBench } from '../../bench/sim-contract.js';

describe('bench/by-name.ts and bench/sim-contract.ts smoke', () => {
  it('by-name: every search by id and by name answers with the identifier’s events', async () => {
    const r = await runByNameBench(10, 1);
    expect(r).toMatchObject({ identifiers: 13, rounds: 1 });
  }, 60_000);

  it('sim-contract: every measured search is answered 200', async () => {
    const rows = await runSimContractBench(6);
    expect(rows).toHaveLength(8);
  }, 60_000);
});
