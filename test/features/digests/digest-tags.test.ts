/**
 * `tag:` in digest filters, through the running receiver: on the command line, in the form (which offers
 * the tenant's tags seen so far, plus new ones), and in the digest's searches.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_ID } from '../../../packages/playground/src/sim/slack/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { command, SEEDED_CHANNELS, startEventsStack } from '../events/support/events-stack.js';

const START = Date.UTC(2026, 5, 10, 6, 0);
type Json = Record<string, unknown>;

describe('digest tag filter', () => {
  let stack: Stack;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock(START);
    stack = await startEventsStack({ clock, open: ['act', 'subscribe'] }); // members subscribe, as an admin allowed
  });
  afterEach(async () => {
    await stack.close();
  });

  it('takes tag: on the command line, shows it, and searches with it', async () => {
    const { post } = await command(
      stack,
      'digest add identifiers:3001 tag:vip,"needs review" tz:UTC at:09:00 always',
    );
    expect(String(post.body.text)).toContain('created');
    const [sub] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    expect(sub?.tags).toEqual(['vip', 'needs review']);
    const list = await command(stack, 'digest list');
    expect(JSON.stringify(list.post.body)).toContain('tags vip, needs review');

    const tenantId = stack.sim.keys[0]?.defaultTenantId ?? 0;
    clock.set(Date.UTC(2026, 5, 10, 8, 0));
    stack.sim.state.addEvent({
      tenantId,
      identifierIds: [3001],
      createdAt: clock.now() - 60_000,
      uid: 'leak/tagged/1',
      tags: ['vip'],
    });
    stack.sim.state.addEvent({
      tenantId,
      identifierIds: [3001],
      createdAt: clock.now() - 60_000,
      uid: 'leak/untagged/1',
    });
    stack.sim.log.clear();
    clock.set(Date.UTC(2026, 5, 10, 9, 0));
    await stack.runDigests();
    const searches = stack.sim.log.entries
      .filter((e) => e.path.endsWith('/_search'))
      .map((e) => e.body as Json);
    expect(searches.length).toBeGreaterThan(0);
    for (const body of searches) expect((body.filters as Json).tags).toEqual(['vip', 'needs review']);
    const posted = JSON.stringify(stack.slack.messages(SEEDED_CHANNELS.general));
    expect(posted).toContain('leak/tagged/1');
    expect(posted).not.toContain('leak/untagged/1');
  });

  it('refuses a bad tag: value with an example', async () => {
    // Usage errors are answered in the ack itself.
    const res = await stack.sender.slashCommand({
      text: 'digest add tag:vip,vip',
      responseUrl: stack.slack.responseUrl(),
    });
    expect(JSON.stringify(res.body)).toContain('`vip` is listed twice in `tag:`');
    expect(JSON.stringify(res.body)).toContain('/vigil digest add tag:vip,escalated');
  });

  it("offers the tenant's known tags in the form, and takes new ones", async () => {
    // Tags are learnt from results people see.
    await command(stack, 'events all tag:vip,finance size:10');
    const triggerId = stack.slack.triggerId();
    await stack.sender.slashCommand({
      text: 'digest add',
      responseUrl: stack.slack.responseUrl(),
      triggerId,
    });
    const opened = await stack.slack.waitFor(
      (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
    );
    const view = opened.body.view as Json;
    const tags = (view.blocks as Json[]).find((b) => b.block_id === 'tags')?.element as Json | undefined;
    expect(tags?.type).toBe('multi_static_select');
    const offered = ((tags?.options as Json[]) ?? []).map((o) => o.value);
    expect(offered).toEqual(expect.arrayContaining(['vip', 'finance']));

    const res = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      values: {
        channel: { value: { type: 'conversations_select', selected_conversation: SEEDED_CHANNELS.general } },
        identifiers: { value: { type: 'plain_text_input', value: null } },
        severity: { value: { type: 'static_select', selected_option: { value: 'info' } } },
        types: { value: { type: 'plain_text_input', value: null } },
        tags: { value: { type: 'multi_static_select', selected_options: [{ value: 'vip' }] } },
        tags_new: { value: { type: 'plain_text_input', value: 'escalated, vip' } },
        time: { value: { type: 'timepicker', selected_time: '07:45' } },
        tz: { value: { type: 'plain_text_input', value: 'UTC' } },
        options: { value: { type: 'checkboxes', selected_options: [] } },
      },
    });
    expect(res.status).toBe(200);
    await stack.slack.waitFor('chat.postEphemeral');
    const [sub] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    expect(sub?.tags).toEqual(['vip', 'escalated']);
  });
});
