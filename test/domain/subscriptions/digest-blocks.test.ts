import { describe, expect, it } from 'vitest';
import type { DigestHeading } from '../../../src/domain/events/context.js';
import { bySeverity } from '../../../src/domain/events/model.js';
import {
  digestText,
  longDate,
  renderDigestMessage,
} from '../../../src/domain/subscriptions/digest-blocks.js';
import { countEvents } from '../../../src/domain/subscriptions/summary.js';
import { blocksTextLength, LIMITS } from '../../../src/slack/kit/budget.js';
import { makeEvent, NOW } from '../../slack/kit/fixtures.js';
import { checkBlockKitLimits } from '../../slack/kit/support/block-kit-limits.js';
import { unsafeText } from '../../slack/kit/support/message-safety.js';

function heading(over: Partial<DigestHeading> = {}): DigestHeading {
  return {
    subscriptionId: 'AbCdEfGhIjKl',
    localDate: '2026-11-23',
    late: false,
    scope: 'identifier 42',
    filters: '',
    total: 0,
    counts: { severity: {}, type: {} },
    truncated: false,
    ...over,
  };
}

describe('the digest message', () => {
  it('has the date, counts by severity and type, the top events most severe first, and a +N more button', () => {
    const events = ['low', 'critical', 'medium', 'high', 'critical', 'info'].map((severity, i) =>
      makeEvent({ metadata: { uid: `leak/x/${i}`, severity, type: i % 2 ? 'paste' : 'leak' } }),
    );
    const sorted = [...events].sort(bySeverity);
    const m = renderDigestMessage({
      heading: heading({ total: 12, counts: countEvents(events), moreRef: 'RestRefAbcd1' }),
      events: sorted.slice(0, 5),
      now: NOW,
      refs: (i) => `ctx:${i}`,
    });
    expect(m.text).toBe(
      'Vigil digest for Monday 23 November 2026: 12 new events (2 critical, 1 high, 1 medium, 1 low, 1 info)',
    );
    const json = JSON.stringify(m.blocks);
    expect(json).toContain('Vigil digest · Monday 23 November 2026');
    expect(json).toContain('By type: Leak 3 · Paste 3');
    expect(json.indexOf('leak/x/1')).toBeLessThan(json.indexOf('leak/x/3'));
    expect(json.indexOf('leak/x/3')).toBeLessThan(json.indexOf('leak/x/0'));
    expect(json).toContain('+7 more');
    expect(json).toContain('event_ignore:0');
    expect(checkBlockKitLimits({ text: m.text, blocks: m.blocks }, 'message')).toEqual([]);
  });

  it('stays within 50 blocks and the text budget with huge hostile events, and lets nothing link or mention', () => {
    const hostile = '<!channel> <https://evil.example|click> @here *bold* '.repeat(200);
    const events = Array.from({ length: 20 }, (_, i) =>
      makeEvent({
        metadata: { uid: `leak/h/${i}`, severity: 'critical' },
        highlights: { title: [hostile], description: [hostile] },
      }),
    );
    const m = renderDigestMessage({
      heading: heading({ total: 20, counts: countEvents(events), scope: hostile, moreRef: 'RestRefAbcd1' }),
      events,
      now: NOW,
      refs: (i) => `ctx:${i}`,
    });
    expect(m.blocks.length).toBeLessThanOrEqual(50);
    expect(blocksTextLength(m.blocks)).toBeLessThanOrEqual(LIMITS.blocksText);
    expect(checkBlockKitLimits({ text: m.text, blocks: m.blocks }, 'message')).toEqual([]);
    // The event groups carry upstream text: inert by the shared checks. Our own head escapes what it is given.
    const groups = m.blocks.filter((b) => !('block_id' in b) || !String(b.block_id).startsWith('digest:'));
    expect(unsafeText({ text: m.text, blocks: groups }, new Set())).toEqual([]);
    const head = JSON.stringify(
      m.blocks.filter((b) => 'block_id' in b && String(b.block_id).startsWith('digest:')),
    );
    expect(head).not.toMatch(/<!channel>|<https:/);
  });

  it('says an empty day and a late digest plainly', () => {
    expect(digestText(heading({ late: true }))).toBe(
      'Vigil digest for Monday 23 November 2026: No new events — posted late',
    );
    const m = renderDigestMessage({
      heading: heading({ late: true }),
      events: [],
      now: NOW,
      refs: () => 'x',
    });
    expect(JSON.stringify(m.blocks)).toContain('posted late');
    expect(longDate('2026-03-08')).toBe('Sunday 8 March 2026');
  });
});
