import { describe, expect, it } from 'vitest';
import type { AlertHeading } from '../../../src/domain/events/context.js';
import { bySeverity } from '../../../src/domain/events/model.js';
import {
  alertText,
  pollLine,
  renderAlertMessage,
  renderStateReply,
} from '../../../src/domain/subscriptions/alert-blocks.js';
import { countEvents } from '../../../src/domain/subscriptions/summary.js';
import { blocksTextLength, LIMITS } from '../../../src/slack/kit/budget.js';
import { makeEvent, NOW } from '../../slack/kit/fixtures.js';
import { checkBlockKitLimits } from '../../slack/kit/support/block-kit-limits.js';
import { unsafeText } from '../../slack/kit/support/message-safety.js';

function heading(over: Partial<AlertHeading> = {}): AlertHeading {
  return {
    subscriptionIds: ['AbCdEfGhIjKl'],
    total: 1,
    counts: { severity: {}, type: {} },
    scope: 'identifier 3001',
    filters: 'severity ≥ high',
    ...over,
  };
}

describe('the alert message', () => {
  it('is one compact row with its buttons for one event', () => {
    const event = makeEvent({ metadata: { uid: 'leak/one/1', severity: 'critical', type: 'stealer_log' } });
    const m = renderAlertMessage({
      heading: heading({ counts: countEvents([event]) }),
      events: [event],
      now: NOW,
      refs: (i) => `ctx:${i}`,
    });
    expect(m.text).toMatch(/^Vigil alert: critical Stealer log/);
    const json = JSON.stringify(m.blocks);
    expect(json).toContain('identifier 3001 · severity ≥ high · alert `AbCdEfGhIjKl`');
    expect(json).toContain('event_ignore:0');
    expect(json).not.toContain('alert:summary');
    expect(checkBlockKitLimits({ text: m.text, blocks: m.blocks }, 'message')).toEqual([]);
  });

  it('groups several with counts, the most severe first, "+N more", and says when quiet hours held them', () => {
    const events = ['high', 'critical', 'high', 'critical', 'high', 'high', 'high'].map((severity, i) =>
      makeEvent({ metadata: { uid: `leak/g/${i}`, severity, type: 'leaked_credential' } }),
    );
    const sorted = [...events].sort(bySeverity);
    const m = renderAlertMessage({
      heading: heading({
        total: 7,
        counts: countEvents(events),
        moreRef: 'RestRefAbcd1',
        quiet: '22:00–07:00 Europe/Paris',
        dropped: 3,
      }),
      events: sorted.slice(0, 5),
      now: NOW,
      refs: (i) => `ctx:${i}`,
    });
    expect(m.text).toBe('Vigil alert (held during quiet hours): 7 new events (5 high, 2 critical)');
    const json = JSON.stringify(m.blocks);
    expect(json).toContain('*7 new events* · :red_circle: 2 critical · :large_orange_circle: 5 high');
    expect(json).toContain('Held during quiet hours (22:00–07:00 Europe/Paris)');
    expect(json).toContain('3 older events waited too long');
    expect(json).toContain('+2 more');
    expect(json.indexOf('leak/g/1')).toBeLessThan(json.indexOf('leak/g/0'));
    expect(checkBlockKitLimits({ text: m.text, blocks: m.blocks }, 'message')).toEqual([]);
  });

  it('stays within the limits with huge hostile events, and lets nothing link or mention', () => {
    const hostile = '<!channel> <https://evil.example|click> @here *bold* '.repeat(200);
    const events = Array.from({ length: 5 }, (_, i) =>
      makeEvent({
        metadata: { uid: `leak/h/${i}`, severity: 'critical' },
        highlights: { title: [hostile], description: [hostile] },
      }),
    );
    const m = renderAlertMessage({
      heading: heading({ total: 500, counts: countEvents(events), scope: hostile, moreRef: 'RestRefAbcd1' }),
      events,
      now: NOW,
      refs: (i) => `ctx:${i}`,
    });
    expect(m.blocks.length).toBeLessThanOrEqual(50);
    expect(blocksTextLength(m.blocks)).toBeLessThanOrEqual(LIMITS.blocksText);
    expect(checkBlockKitLimits({ text: m.text, blocks: m.blocks }, 'message')).toEqual([]);
    const groups = m.blocks.filter((b) => !('block_id' in b) || !String(b.block_id).startsWith('alert:'));
    expect(unsafeText({ text: m.text, blocks: groups }, new Set())).toEqual([]);
    expect(JSON.stringify(m.blocks.filter((b) => String(b.block_id).startsWith('alert:')))).not.toMatch(
      /<!channel>|<https:/,
    );
    expect(alertText(heading({ total: 1 }), events[0])).not.toMatch(/<!channel>|<https:/);
  });

  it('records a change in the thread with who, what and when, and escapes the title', () => {
    const r = renderStateReply({
      uid: 'leak/one/1',
      action: 'remediate',
      by: 'U0MEMBER1',
      at: NOW,
      title: 'see https://evil.example <!here>',
    });
    expect(r.text).toBe('<@U0MEMBER1> remediated `leak/one/1`');
    const json = JSON.stringify(r.blocks);
    expect(json).toContain('<@U0MEMBER1> remediated `leak/one/1` — see hxxps://evil[.]example');
    expect(json).not.toMatch(/<!here>|<https:/);
  });

  it('says how the polls keep up', () => {
    const base = { intervalMs: 60_000, lastPollAt: undefined, failing: undefined };
    expect(pollLine({ ...base, effectiveMs: undefined, stretched: false })).toBe(
      'Polling every 1 minute · not polled yet',
    );
    expect(pollLine({ ...base, effectiveMs: 95_000, stretched: true })).toContain(
      '*Polling every 95 s*, not every 1 minute',
    );
    expect(
      pollLine({
        ...base,
        effectiveMs: 60_000,
        stretched: false,
        failing: { failures: 3, error: 'Not connected.' },
      }),
    ).toContain('*Polling is failing* (3 attempts in a row): Not connected.');
  });
});
