/** `/vigil events <id> [filters]`: the exact search body each filter produces, and how results read. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, menuOptions, textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { command, IDENTIFIER, searchBodies, startEventsStack } from './support/events-stack.js';

// 2026-11-21T09:00:00Z: relative times resolve against it.
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;
beforeAll(async () => {
  stack = await startEventsStack({ clock });
});
afterAll(async () => {
  await stack?.close();
});

const id = IDENTIFIER.domain;

describe('filters', () => {
  it.each([
    ['severity:high', { filters: { severity: 'high' } }],
    ['severity:high,critical', { filters: { severity: ['high', 'critical'] } }],
    ['type:leak,paste', { filters: { type: ['leak', 'paste'] } }],
    // The published FeedFilters has no `status`: what it can say is sent, the rest applied to the rows.
    ['status:open,ignored', {}],
    ['status:ignored', { filters: { is_ignored: true } }],
    ['status:remediated', { filters: { is_remediated: true } }],
    ['tag:vip,finance', { filters: { tags: ['vip', 'finance'] } }],
    ['since:7d', { filters: { estimated_created_at: { gte: '2026-11-14T09:00:00.000Z' } } }],
    ['since:24h', { filters: { estimated_created_at: { gte: '2026-11-20T09:00:00.000Z' } } }],
    ['until:2026-11-01', { filters: { estimated_created_at: { lt: '2026-11-02T00:00:00Z' } } }],
    [
      'since:2026-11-01T10:00:00+02:00 until:2026-11-20',
      { filters: { estimated_created_at: { gte: '2026-11-01T10:00:00+02:00', lt: '2026-11-21T00:00:00Z' } } },
    ],
    ['order:asc', { order: 'asc' }],
    ['size:3', {}],
    [
      'domain:acme.example severity:medium type:leak status:open since:30d order:desc size:5',
      {
        query: { type: 'domain', fqdn: 'acme.example' },
        filters: {
          severity: 'medium',
          type: ['leak'],
          estimated_created_at: { gte: '2026-10-22T09:00:00.000Z' },
        },
        order: 'desc',
      },
    ],
  ])('events %s', async (filters, expected) => {
    stack.sim.log.clear();
    await command(stack, `events ${id} ${filters}`);
    const size = /size:(\d+)/.exec(filters)?.[1];
    expect(searchBodies(stack)).toEqual([{ ...expected, size: size === undefined ? 10 : Number(size) }]);
  });
});

describe('results', () => {
  it('are ephemeral, say what was searched, and offer the buttons of each event and the page', async () => {
    const { post } = await command(stack, `events ${id} size:4`);
    expect(post.body).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    expect(post.body.text).toBe(
      `Events 1–4 for identifier acme[.]example (${id}) · size:4 · more on the next page`,
    );
    const text = textOf(post.body);
    expect(text).toContain('<!date^');
    expect(text).toMatch(/ID `\w+\/\w+\/\d+/);
    const labels = buttons(post.body).map((b) => b.text);
    // Explain on every row: a button, or an option of the row's menu when the row has other rare actions.
    const explains = [...labels, ...menuOptions(post.body).map((o) => o.text)].filter(
      (t) => t === 'Explain (AI)',
    );
    expect(explains).toHaveLength(4);
    expect(labels).toEqual(
      expect.arrayContaining(['Next page', 'Ignore all on this page', 'Share in channel']),
    );
    // Values are opaque references: a short id and an index, never data.
    for (const b of buttons(post.body)) expect(b.value).toMatch(/^[A-Za-z0-9_-]{12}(:\d+)?$/);
    const remediate = buttons(post.body).find((b) => b.text === 'Remediate');
    expect(remediate?.confirm?.title).toBe('Remediate this event?');
  });

  it('of an identifier of another tenant say so, with the tenant', async () => {
    const { post } = await command(stack, 'events 3004');
    // In place of the "Searching…" placeholder.
    expect(post.body.replace_original).toBe(true);
    expect(String(post.body.text)).toContain(
      'Identifier 3004 was not found in tenant Acme Production (2001).',
    );
  });

  it('that are empty suggest how to broaden the search', async () => {
    const { post } = await command(stack, `events ${id} keyword:zzzz-nothing-matches`);
    expect(post.body.text).toBe(`No events for identifier ${id} matching keyword:zzzz-nothing-matches.`);
    expect(textOf(post.body)).toContain(`identifier \`${id}\` matching \`keyword:zzzz-nothing-matches\``);
    expect(textOf(post.body)).toContain('remove filters');
  });
});
