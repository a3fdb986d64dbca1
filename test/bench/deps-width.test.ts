import { describe, expect, it } from 'vitest';
import { measureDepsWidth } from '../../bench/deps-width.js';

describe('the dependency interface each feature’s handlers receive', () => {
  it('is at most 8 members wide, inherited members counted, for every feature', () => {
    const widths = measureDepsWidth();
    // Every registered feature is measured: a rename that hid them all would otherwise pass.
    expect(widths.map((w) => w.feature)).toEqual(
      expect.arrayContaining(['homeFeature', 'eventsFeature', 'actStep']),
    );
    const over = widths
      .filter((w) => w.members.length > 8)
      .map((w) => `${w.feature}: ${w.members.join(', ')}`);
    expect(over).toEqual([]);
  }, 60_000);
});
