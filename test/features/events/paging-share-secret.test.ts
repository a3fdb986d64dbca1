/** Paging across empty pages, expired contexts, sharing in a channel, and the secret-query modal. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNamespace } from '../../../src/store/repos/namespaces.js';
import { buttons, getButton, textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import {
  actionCalls,
  click,
  command,
  IDENTIFIER,
  SEEDED_CHANNELS,
  searchBodies,
  startEventsStack,
  waitPostTo,
} from './support/events-stack.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;
beforeAll(async () => {
  // Every third page is empty though more follow, as the real API does.
  stack = await startEventsStack({ clock, sim: { emptyPageEvery: 3 } });
});
afterAll(async () => {
  await stack?.close();
});

const id = IDENTIFIER.domain;
type Message = { blocks: unknown[]; ts?: string };
const asMessage = (post: { body: Record<string, unknown> }): Message => ({
  blocks: post.body.blocks as unknown[],
});
const HOSTILE = ['<!channel>', '<!here>', '<@U123>', '<#C0123', '<https://evil', 'evil.example'];

describe('paging', () => {
  it('pages with the stored cursor and identical parameters, skipping empty pages, through hostile text', async () => {
    stack.sim.log.clear();
    const first = await command(stack, `events ${id} size:5 since:90d`);
    let page = asMessage(first.post);
    const seen: string[] = [textOf(page)];
    for (let n = 2; buttons(page).some((b) => b.text === 'Next page'); n++) {
      const next = await click(stack, page, 'Next page');
      const post = await waitPostTo(stack, next.responseUrl);
      expect(post.body.replace_original).toBe(true);
      page = asMessage(post);
      seen.push(textOf(page));
      if (n > 10) throw new Error('paging did not end');
    }
    const bodies = searchBodies(stack) as Record<string, unknown>[];
    // The empty third page was fetched past without the user seeing it.
    expect(bodies.length).toBeGreaterThan(seen.length);
    for (const body of bodies) {
      const { from: _from, ...rest } = body;
      expect(rest).toEqual({
        filters: { estimated_created_at: { gte: '2026-08-23T09:00:00.000Z' } },
        size: 5,
      });
    }
    expect(bodies.slice(1).every((b) => typeof b.from === 'string')).toBe(true);
    expect(seen.every((t) => !t.includes('No events on page'))).toBe(true);
    // Each page states its slice, continuing where the last one ended; only the last says no more follow.
    const slices = seen.map((t) => /\*Events (\d+)(?:–(\d+))?\*/.exec(t));
    let shown = 0;
    for (const m of slices) {
      expect(Number(m?.[1])).toBe(shown + 1);
      shown = Number(m?.[2] ?? m?.[1]);
    }
    expect(seen.slice(0, -1).every((t) => t.includes('more on the next page'))).toBe(true);
    expect(seen.at(-1)).toContain('no more after these');
    // Every seeded hostile title was shown somewhere, and none became a mention or a link.
    expect(seen.join('\n')).toContain('&lt;!channel&gt;');
    const sent = stack.slack.allText();
    for (const bad of HOSTILE) expect(sent).not.toContain(bad);
  });

  it('says "no events on this page yet" with Next page after too many empty pages', async () => {
    stack.sim.faults.add({
      path: /\/_search$/,
      times: 6,
      response: { drift: (body) => ({ ...(body as object), items: [] }) },
    });
    stack.sim.log.clear();
    const { post } = await command(stack, `events ${id} size:2`);
    expect(searchBodies(stack)).toHaveLength(6);
    expect(String(post.body.text)).toContain('No events on page 1 for identifier');
    expect(String(post.body.text)).toContain('but there are more results');
    const next = await click(stack, asMessage(post), 'Next page');
    const more = await waitPostTo(stack, next.responseUrl);
    expect(String(more.body.text)).toMatch(/^Events 1–2 for identifier/);
  });
});

describe('share in channel', () => {
  it('posts the page without unfurls, deletes the ephemeral, and later clicks update the channel message', async () => {
    const { post } = await command(stack, `events ${id} status:open size:2`);
    const shareClick = await click(stack, asMessage(post), 'Share in channel');
    const deleted = await waitPostTo(stack, shareClick.responseUrl);
    expect(deleted.body).toEqual({ delete_original: true });
    const posted = await stack.slack.waitFor('chat.postMessage');
    expect(posted.body.channel).toBe(SEEDED_CHANNELS.general);
    // The Web API client sends a form: booleans arrive as text.
    expect(String(posted.body.unfurl_links)).toBe('false');
    expect(String(posted.body.unfurl_media)).toBe('false');
    expect(posted.body.link_names).toBeUndefined();
    const message = stack.slack.messages(SEEDED_CHANNELS.general).at(-1);
    if (!message) throw new Error('nothing posted');
    expect(buttons(message).map((b) => b.text)).not.toContain('Share in channel');

    stack.sim.log.clear();
    const ignore = await click(stack, { blocks: message.blocks, ts: message.ts }, 'event_ignore:0', {
      container: 'message',
    });
    const update = await stack.slack.waitFor(
      (c) => c.method === 'chat.update' && c.body.ts === message.ts && textOf(c.body).includes('Ignored by'),
    );
    expect(update.body.channel).toBe(SEEDED_CHANNELS.general);
    expect(textOf(update.body)).toContain('Ignored by <@');
    expect(actionCalls(stack)).toHaveLength(1);
    expect(stack.slack.postsTo(ignore.responseUrl)).toHaveLength(0);
  });

  it('in a channel Vigil is not in says how to invite it', async () => {
    const { post } = await command(stack, `events ${id} size:1`, { channelId: SEEDED_CHANNELS.notJoined });
    const share = await click(stack, asMessage(post), 'Share in channel', {
      channelId: SEEDED_CHANNELS.notJoined,
    });
    const answer = await waitPostTo(stack, share.responseUrl);
    expect(answer.body.replace_original).toBe(false);
    expect(String(answer.body.text)).toContain('Vigil is not a member of this channel');
    expect(JSON.stringify(answer.body)).toContain('/invite @Vigil');
  });
});

describe('secret queries', () => {
  /** A secret the seeded events of tenant 2001 mention. */
  function seededSecret(): string {
    for (const e of stack.sim.state.events) {
      const m = /key (AKIA[0-9A-F]{16})/.exec(JSON.stringify(e.item.highlights));
      if (e.tenantId === 2001 && m?.[1] && e.item.identifiers.some((i) => i.id === id)) return m[1];
    }
    throw new Error('no seeded secret');
  }

  it('open a modal at once, search on submission, and never echo the secret anywhere', async () => {
    const secret = seededSecret();
    const callsBefore = stack.slack.calls.length;
    const postsBefore = stack.slack.responseUrlPosts.length;
    const logsBefore = stack.logs.length;
    const triggerId = stack.slack.triggerId();
    const responseUrl = stack.slack.responseUrl();
    const ack = await stack.sender.slashCommand({ text: `events ${id} secret`, responseUrl, triggerId });
    expect(ack.status).toBe(200);
    const opened = await stack.slack.waitFor('views.open');
    expect(opened.body.trigger_id).toBe(triggerId);
    const view = opened.body.view as Record<string, unknown>;
    stack.sim.log.clear();
    const submitted = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      privateMetadata: String(view.private_metadata),
      view,
      values: { secret: { value: { type: 'plain_text_input', value: secret } } },
    });
    expect(submitted.status).toBe(200);
    const results = await stack.slack.waitFor('chat.postEphemeral');
    expect(results.body.channel).toBe(SEEDED_CHANNELS.general);
    expect(String(results.body.text)).toMatch(/^Events [0-9–]+ for identifier .*a secret \(not shown\)/);
    expect(searchBodies(stack)).toEqual([{ query: { type: 'secret', secret } }]);

    const searchContexts = openNamespace(stack.store, 'search-context');
    const ref = getButton(results.body, 'Share in channel').value ?? '';
    const stored = JSON.stringify(await searchContexts.get(ref));
    expect(stored).not.toContain(secret);
    // The events quoting the secret were kept with it masked (the compact rows show only their titles).
    expect(stored).toContain('[redacted]');
    // Earlier searches showed events quoting this key as data; nothing sent since the modal may.
    const sinceModal = [
      ...stack.slack.calls.slice(callsBefore).map((c) => `${JSON.stringify(c.headers)}${c.rawBody}`),
      ...stack.slack.responseUrlPosts.slice(postsBefore).map((p) => p.rawBody),
    ].join('\n');
    expect(sinceModal).not.toContain(secret);
    expect(stack.logs.slice(logsBefore).join('\n')).not.toContain(secret);
  });

  it('ask again for an empty field instead of searching', async () => {
    const triggerId = stack.slack.triggerId();
    await stack.sender.slashCommand({
      text: `events ${id} credentials`,
      responseUrl: stack.slack.responseUrl(),
      triggerId,
    });
    const opened = await stack.slack.waitFor(
      (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
    );
    const view = opened.body.view as Record<string, unknown>;
    stack.sim.log.clear();
    const submitted = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      privateMetadata: String(view.private_metadata),
      view,
      values: {
        username: { value: { type: 'plain_text_input', value: 'ada' } },
        password: { value: { type: 'plain_text_input', value: '' } },
      },
    });
    expect(submitted.body).toEqual({
      response_action: 'errors',
      errors: { password: 'Enter the password.' },
    });
    expect(searchBodies(stack)).toHaveLength(0);
  });
});

describe('expired results', () => {
  it('answer a click with the exact command to run again', async () => {
    const { post } = await command(stack, `events ${id} severity:high size:2`);
    clock.advance(25 * 3600 * 1000);
    const next = await click(stack, asMessage(post), 'Next page');
    const answer = await waitPostTo(stack, next.responseUrl);
    expect(answer.body.replace_original).toBe(false);
    expect(String(answer.body.text)).toContain('These results have expired');
    expect(JSON.stringify(answer.body)).toContain('Run `/vigil events 3001 severity:high size:2` again');
  });
});
