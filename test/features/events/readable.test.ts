/**
 * Event results people can read and reuse, through the running receiver: ids copied back into commands,
 * the slice a page shows, compact rows with an overflow menu, `sort:severity`, production type names, and
 * an audit log in words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, menuOptions, textOf } from '../../harness/index.js';
import type { Stack } from '../../support/stack.js';
import {
  actionCalls,
  addOpenEvents,
  click,
  command,
  findOption,
  IDENTIFIER,
  SEEDED_USERS,
  searchBodies,
  startEventsStack,
  waitPostTo,
} from './support/events-stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startEventsStack();
});
afterAll(async () => {
  await stack?.close();
});

const id = IDENTIFIER.domain;
type Post = { body: Record<string, unknown> };
const asMessage = (post: Post) => ({ blocks: post.body.blocks as unknown[] });
/** What a person copies from a code span: Slack shows `&amp;`, `&lt;`, `&gt;` as the characters. */
const copied = (s: string) => s.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
const uidsOf = (source: unknown) =>
  [...textOf(source).matchAll(/ID `([^`]+)`/g)].map((m) => copied(m[1] ?? ''));
const header = (post: Post) => textOf(post.body).split('\n')[0] ?? '';

describe('ids people copy back', () => {
  it('shows an event uid verbatim, and pasting it into /vigil explain answers', async () => {
    // The seeded bucket file event has dots in its uid, which defanging used to turn into `[.]`.
    const { post } = await command(stack, `events ${id} type:buckets,bucket_object`);
    const uid = uidsOf(post.body).find((u) => u.includes('.'));
    expect(uid).toBeDefined();
    expect(textOf(post.body)).not.toContain('[.]yml');
    const explained = await command(stack, `explain ${uid}`);
    expect(String(explained.post.body.text)).toBe(`AI assistance for event \`${uid}\``);
    expect(textOf(explained.post.body)).not.toContain('not found');
  });

  it('shows the identifier name and id in code spans in the header', async () => {
    const { post } = await command(stack, `events ${id} size:3`);
    expect(header(post)).toMatch(/^\*Events 1–3\* for identifier `acme\.example` \(`3001`\) · `size:3` · /);
  });
});

describe('the slice a page shows', () => {
  it('says 1–10 then 11–20 and whether more exist, never a total', async () => {
    const { post } = await command(stack, `events ${id}`);
    expect(String(post.body.text)).toMatch(
      /^Events 1–10 for identifier acme\[\.\]example \(3001\) · more on the next page$/,
    );
    const next = await click(stack, asMessage(post), 'Next page');
    const second = await waitPostTo(stack, next.responseUrl);
    expect(String(second.body.text)).toMatch(/^Events 11–(1\d|20) for identifier /);
    expect(String(second.body.text)).not.toMatch(/^10 events/);
  });
});

describe('compact rows', () => {
  it('show Ignore and a danger Remediate as buttons on open rows, Explain and triage in the menu, and a visible Undo that acts once', async () => {
    addOpenEvents(stack, id, 2);
    const { post } = await command(stack, `events ${id} status:open size:2`);
    const page = asMessage(post);
    const labels = buttons(page).map((b) => `${b.text}${b.style ? `:${b.style}` : ''}`);
    expect(labels.filter((l) => l === 'Ignore')).toHaveLength(2);
    expect(labels.filter((l) => l === 'Remediate:danger')).toHaveLength(2);
    const menu = ['Explain (AI)', 'Snooze…', 'Tags…', 'Note…', 'Severity…'];
    expect(menuOptions(page).map((o) => o.text)).toEqual([...menu, ...menu]);
    // Two blocks per event: its text and its controls.
    expect(
      (post.body.blocks as { block_id?: string }[]).filter((b) => b.block_id?.startsWith('event:0')),
    ).toHaveLength(2);

    stack.sim.log.clear();
    const ignored = await click(stack, page, 'event_ignore:0');
    const updated = await waitPostTo(stack, ignored.responseUrl);
    // Undo is a button on the acted row now; clicked twice, it calls the API once.
    expect(buttons(updated.body).find((b) => b.action_id === 'event_undo:0')?.text).toBe('Undo');
    expect(findOption(updated.body, 'event_undo:0')).toBeUndefined();
    const first = await click(stack, asMessage(updated), 'event_undo:0');
    const second = await click(stack, asMessage(updated), 'event_undo:0');
    expect([first.status, second.status]).toEqual([200, 200]);
    await waitPostTo(stack, first.responseUrl);
    await waitPostTo(stack, second.responseUrl);
    const types = actionCalls(stack).map((e) => (e.body as { action: { type: string } }).action.type);
    expect(types).toEqual(['ignore', 'unignore']);
  });

  it('refuses an overflow option that does not belong to its menu', async () => {
    addOpenEvents(stack, id, 2);
    const { post } = await command(stack, `events ${id} status:open size:2`);
    // An option of row 0's menu, chosen from the menu of row 1.
    const option = menuOptions(asMessage(post))[0];
    if (!option) throw new Error('no menu');
    stack.sim.log.clear();
    const responseUrl = stack.slack.responseUrl();
    const res = await stack.sender.blockAction({
      actionId: 'event_more:1',
      blockId: 'event:1',
      selectedOption: {
        text: 'Unignore',
        value: option.value.replace('event_explain:0', 'event_unignore:0'),
      },
      container: 'ephemeral',
      responseUrl,
    });
    expect(res.status).toBe(200);
    const answer = await waitPostTo(stack, responseUrl);
    expect(String(answer.body.text)).toContain('no longer points at anything Vigil knows');
    expect(actionCalls(stack)).toHaveLength(0);
  });

  it('sort:severity puts the most severe events of the page first', async () => {
    const { post } = await command(stack, `events ${id} sort:severity`);
    const ranks = ['critical', 'high', 'medium', 'low', 'info'];
    const shown = [...textOf(post.body).matchAll(/^:[a-z_]+: \*([a-z]+)\*/gm)].map((m) =>
      ranks.indexOf(m[1] ?? ''),
    );
    expect(shown.length).toBeGreaterThan(3);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    expect(new Set(shown).size).toBeGreaterThan(1);
  });
});

describe('production type names', () => {
  it('are accepted as type: filters next to categories, and shown with readable labels', async () => {
    stack.sim.log.clear();
    const { post } = await command(stack, `events ${id} type:stealer_log,leak`);
    expect(searchBodies(stack)).toEqual([{ filters: { type: ['stealer_log', 'leak'] }, size: 10 }]);
    expect(post.body.replace_original).toBe(true);
    const all = await command(stack, `events ${id}`);
    const text = textOf(all.post.body);
    // The simulated API names types as production does (`forum_post`, `stealer_log`…): labels, not codes.
    expect(text).not.toMatch(/\*[a-z]+_[a-z_]+\*/);
    expect(text).toMatch(/· \*(Forum post|Stealer log|Bucket file|Paste|Leak|Listing|Blog post)\*/);
  });
});

describe('the audit log', () => {
  it('reads in words, with the event title and id, and one line for Ignore all on this page', async () => {
    addOpenEvents(stack, id, 3);
    addOpenEvents(stack, IDENTIFIER.keyword, 1);
    const { post } = await command(stack, `events ${id} status:open size:3`);
    const page = asMessage(post);
    const clicked = await click(stack, page, 'Ignore all on this page');
    await waitPostTo(stack, clicked.responseUrl);
    const fresh = await command(stack, `events ${IDENTIFIER.keyword} status:open size:1`);
    const one = await click(stack, asMessage(fresh.post), 'event_ignore:0');
    await waitPostTo(stack, one.responseUrl);
    const uid = uidsOf(fresh.post.body)[0] ?? '';

    const audit = await command(stack, 'audit 2', { userId: SEEDED_USERS.admin });
    const lines = textOf(audit.post.body).split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `<@${SEEDED_USERS.member}> ignored (?:“[^”]+”|event) \`${uid.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`$`,
      ),
    );
    expect(lines[1]).toMatch(
      new RegExp(`<@${SEEDED_USERS.member}> ignored 3 events \\(Ignore all on this page\\)$`),
    );
    expect(String(audit.post.body.text)).toBe('The last 2 actions taken through Vigil.');
    const single = await command(stack, 'audit 1', { userId: SEEDED_USERS.admin });
    expect(String(single.post.body.text)).toBe('The last action taken through Vigil.');
    expect(textOf(audit.post.body)).not.toContain('event.ignore');
  });
});
