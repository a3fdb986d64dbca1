/**
 * Subscription ids are random base64url (letters, digits, `-` and `_`): the lists show them in code spans,
 * exactly as `/vigil digest remove <id>` and `/vigil alerts pause <id>` take them back. An underscore at an
 * edge or beside a dash must not become a look-alike there (mrkdwn does not format inside a code span).
 */
import { describe, expect, it } from 'vitest';
import { renderAlertList } from '../../../src/domain/subscriptions/alert-blocks.js';
import { renderDigestList } from '../../../src/domain/subscriptions/digest-blocks.js';
import { textOf } from '../../harness/index.js';

const IDS = ['_a1-_b2_', 'xY-9_', 'plain42'];

const digest = (id: string) => ({
  subscription: {
    id,
    teamId: 'T0001',
    channelId: 'C0GENERAL',
    identifierIds: 'all' as const,
    severity: 'high' as const,
    types: [],
    timeOfDay: '09:00',
    timeZone: 'UTC',
    weekdaysOnly: false,
    skipEmpty: true,
    createdBy: 'U0ADMIN01',
    createdAt: 0,
  },
  last: undefined,
  next: undefined,
  state: { kind: 'active' as const },
});

const alert = (id: string) => ({
  subscription: {
    id,
    teamId: 'T0001',
    channelId: 'C0GENERAL',
    identifierIds: 'all' as const,
    severity: 'high' as const,
    types: [],
    hold: 'noncritical' as const,
    timeZone: 'UTC',
    createdBy: 'U0ADMIN01',
    createdAt: 0,
    startAt: 0,
  },
  state: { kind: 'active' as const, quietNow: false },
});

describe('subscription lists', () => {
  it('show digest ids verbatim, to be copied into a command', () => {
    const text = textOf(renderDigestList(IDS.map(digest)));
    for (const id of IDS) expect(text).toContain(`\`${id}\` in <#C0GENERAL>`);
    expect(text).toContain('*3 digests* in this workspace');
  });

  it('show alert subscription ids verbatim, under the polling line', () => {
    const poll = {
      intervalMs: 60_000,
      effectiveMs: undefined,
      stretched: false,
      lastPollAt: undefined,
      failing: undefined,
    };
    const text = textOf(renderAlertList({ items: IDS.map(alert), poll }));
    for (const id of IDS) expect(text).toContain(`\`${id}\` in <#C0GENERAL>`);
    expect(text).toContain(
      '*3 alert subscriptions* in this workspace\nPolling every 1 minute · not polled yet',
    );
  });

  it('say when there is none, with the command that creates one', () => {
    expect(renderDigestList([]).text).toBe(
      'No digests in this workspace yet. `/vigil digest add` in a channel creates one.',
    );
  });
});
