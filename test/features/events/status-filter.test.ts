/**
 * `status:` through the real stack. The published FeedFilters has no `status` (production drops it): Vigil
 * sends what the contract can say (`is_ignored` / `is_remediated` alone), applies the rest to the returned
 * rows by their `tenant_metadata`, and pages on past rows filtered away, so a header never claims a filter
 * its rows break.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SimEvent } from '../../../packages/playground/src/sim/api/index.js';
import { textOf } from '../../harness/index.js';
import type { Stack } from '../../support/stack.js';
import { command, IDENTIFIER, searchBodies, startEventsStack } from './support/events-stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startEventsStack();
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  stack.sim.log.clear();
  stack.sim.contractViolations.splice(0);
});

const id = IDENTIFIER.domain;
const copied = (s: string) => s.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
const uidsOf = (source: unknown) =>
  [...textOf(source).matchAll(/ID `([^`]+)`/g)].map((m) => copied(m[1] ?? ''));
const newestFirst = (events: SimEvent[]) =>
  [...events].sort(
    (a, b) => b.createdMs - a.createdMs || (a.item.metadata.uid < b.item.metadata.uid ? 1 : -1),
  );
const isOpen = (e: SimEvent) => !e.item.tenant_metadata.ignored_at && !e.item.tenant_metadata.remediated_at;

describe('status filter', () => {
  it('status:open sends nothing the contract lacks and shows only open events', async () => {
    const seeded = newestFirst(stack.sim.state.eventsOf(id));
    // The newest page holds events that are not open: production would return them for status:open.
    expect(seeded.slice(0, 10).some((e) => !isOpen(e))).toBe(true);
    const { post } = await command(stack, `events ${id} status:open`);
    expect(stack.sim.contractViolations).toEqual([]);
    expect(JSON.stringify(searchBodies(stack))).not.toContain('status');
    const shown = uidsOf(post.body);
    expect(shown.length).toBeGreaterThan(0);
    for (const uid of shown) expect(isOpen(stack.sim.state.eventByUid(uid) as SimEvent), uid).toBe(true);
    // Exactly the open events of the page the API returned, in its order.
    expect(shown).toEqual(
      seeded
        .slice(0, 10)
        .filter(isOpen)
        .map((e) => e.item.metadata.uid),
    );
    expect(String(post.body.text)).toContain('status:open');
  });

  it('status:ignored is said with is_ignored, and every row shown is ignored', async () => {
    const { post } = await command(stack, `events ${id} status:ignored`);
    expect(searchBodies(stack)).toEqual([{ filters: { is_ignored: true }, size: 10 }]);
    const shown = uidsOf(post.body);
    expect(shown.length).toBeGreaterThan(0);
    for (const uid of shown)
      expect(stack.sim.state.eventByUid(uid)?.item.tenant_metadata.ignored_at).toBeTruthy();
  });

  it('pages on past a page whose rows were all filtered away', async () => {
    // Ignore the 6 newest events: the first page of 5 holds no open event at all.
    const seeded = newestFirst(stack.sim.state.eventsOf(id));
    const at = new Date(stack.sim.state.seededAt).toISOString();
    for (const e of seeded.slice(0, 6)) e.item.tenant_metadata.ignored_at = at;
    const { post } = await command(stack, `events ${id} status:open size:5`);
    const shown = uidsOf(post.body);
    expect(shown.length).toBeGreaterThan(0);
    expect(searchBodies(stack).length).toBeGreaterThan(1);
    const openInOrder = seeded.filter(isOpen).map((e) => e.item.metadata.uid);
    expect(shown).toEqual(openInOrder.slice(0, shown.length));
    expect(stack.sim.contractViolations).toEqual([]);
  });
});
