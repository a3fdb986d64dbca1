/**
 * What a digest's numbers link to: only a number counting exactly one event of the digest itself, to that
 * event's portal page (the one portal link the API documents); every other number stays unlinked.
 */
import { describe, expect, it } from 'vitest';
import { digestTrendLinks } from '../../../src/features/digests/trend-links.js';
import { makeEvent } from '../../slack/kit/fixtures.js';

const page = (id: string) => `https://app.flare.io/#/activity/leak/pastebin/${id}`;
const event = (id: string, severity: string, identifier: number, at: string) =>
  makeEvent({
    metadata: { uid: `leak/pastebin/${id}`, severity, flare_url: page(id), estimated_created_at: at },
    identifiers: [{ id: identifier, name: `id-${identifier}` }],
  });

describe('digest trend links', () => {
  const events = [
    event('c1', 'critical', 3001, '2026-11-21T08:00:00Z'),
    event('h1', 'high', 3001, '2026-11-21T07:00:00Z'),
    event('h2', 'high', 3002, '2026-11-21T06:00:00Z'),
  ];
  const { linkOf, row } = digestTrendLinks(events, '2026-11-21');
  const today = { from: '2026-11-21', to: '2026-11-21' };

  it('links a count of one event of this digest to its page', () => {
    expect(linkOf(today, 1)).toBeUndefined(); // three events, whatever the count says
    expect(linkOf({ ...today, severity: 'critical' }, 1)).toBe(page('c1'));
    expect(linkOf({ ...today, identifierId: 3002 }, 1)).toBe(page('h2'));
    expect(linkOf({ ...today, severity: 'high', identifierId: 3001 }, 1)).toBe(page('h1'));
  });

  it('leaves unlinked a count of several, of an earlier period, and what is open or resolved', () => {
    expect(linkOf({ ...today, severity: 'high' }, 2)).toBeUndefined();
    // A count of one whose events are not exactly one of this digest's (an earlier run of the same week).
    expect(linkOf({ ...today, severity: 'high' }, 1)).toBeUndefined();
    expect(linkOf({ from: '2026-11-20', to: '2026-11-20', severity: 'critical' }, 1)).toBeUndefined();
    expect(linkOf({ ...today, severity: 'critical', status: 'open' }, 1)).toBeUndefined();
    expect(linkOf({ ...today, severity: 'critical', status: 'resolved' }, 1)).toBeUndefined();
  });

  it("opens each identifier's newest event of the digest from its table row", () => {
    const stat = { name: 'x', events: 2, previous: 0, highest: 'critical' as const, lastSeen: 0 };
    expect(row({ ...stat, id: 3001 })).toBe(page('c1'));
    expect(row({ ...stat, id: 3002 })).toBe(page('h2'));
    expect(row({ ...stat, id: 9999 })).toBeUndefined();
  });
});
