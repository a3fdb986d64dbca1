/** Events as a context keeps them: bounded, with the searched secret masked. */
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../src/api/index.js';
import { compactEvent } from '../../../src/domain/events/compact.js';
import { event } from '../../support/services/event.js';

describe('compact events', () => {
  it('masks the searched secret everywhere and bounds highlights', () => {
    const secret = 'AKIAABCDEF0123456789';
    const big: Event = {
      ...event(),
      highlights: {
        title: [`key ${secret} found`],
        description: Array.from({ length: 10 }, () => `${secret} ${'x'.repeat(5000)}`),
      },
    };
    const compact = compactEvent(big, [secret]);
    expect(JSON.stringify(compact)).not.toContain(secret);
    expect(compact.highlights?.description).toHaveLength(3);
    expect(compact.highlights?.description?.[0]?.length).toBeLessThanOrEqual(1000);
    expect(compact.highlights?.title?.[0]).toBe('key [redacted] found');
  });
});
