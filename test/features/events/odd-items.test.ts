/**
 * One odd item never fails a page: an event whose `highlights` (or another field the contract does not
 * require) holds an unexpected value is shown with that field left out, the rest of the page as usual; an
 * item with no readable uid is left out, not the page.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../../harness/index.js';
import type { Stack } from '../../support/stack.js';
import { command, IDENTIFIER, startEventsStack } from './support/events-stack.js';

type Json = Record<string, unknown>;
let stack: Stack;
beforeAll(async () => {
  stack = await startEventsStack();
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => stack.sim.faults.clear());

const copied = (s: string) => s.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
const uidsOf = (source: unknown) =>
  [...textOf(source).matchAll(/ID `([^`]+)`/g)].map((m) => copied(m[1] ?? ''));

describe('odd items in an event page', () => {
  it('are shown with the odd field degraded; an item without a uid is left out', async () => {
    let sent: string[] = [];
    stack.sim.faults.add({
      path: /\/_search$/,
      response: {
        drift: (body) => {
          const items = (body as { items: Json[] }).items;
          sent = items.map((i) => String((i.metadata as Json).uid));
          const [a, b, c, d, e] = items;
          if (a) a.highlights = 'oops';
          if (b) b.highlights = { title: 'not a list', description: ['seen on <mark>paste</mark> site'] };
          if (c) c.tenant_metadata = { tags: 'vip', ignored_at: 12, notes: 'kept' };
          if (d) d.identifiers = [{ id: 'x' }, { id: IDENTIFIER.domain, name: 'acme.example' }];
          if (e) delete (e.metadata as Json).uid;
          return body;
        },
      },
    });
    const { post } = await command(stack, `events ${IDENTIFIER.domain}`);
    const text = textOf(post.body);
    expect(text).not.toContain('unexpected shape');
    expect(String(post.body.text)).toMatch(/^Events 1–9 for identifier/);
    expect(sent).toHaveLength(10);
    expect(uidsOf(post.body)).toEqual([...sent.slice(0, 4), ...sent.slice(5)]);
    expect(text).toContain('*paste*');
  });
});
