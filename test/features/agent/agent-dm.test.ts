/**
 * Vigil's agent DM through the running stack: signed events into the receiver, the streaming methods of the
 * fake Slack (which refuses malformed chunks and unknown task states, so every answer here is a valid stream),
 * the simulated threat-intel API behind it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEEDED_CHANNELS, SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { buttons, textOf } from '../../harness/block-kit.js';
import { type Stack, startStack } from '../../support/stack.js';
import { until } from '../../support/until.js';
import { finalBlocks, markdownOf, say } from './support.js';

const GUEST = 'U0GUEST01';
let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
  stack.slack.addUser({ id: GUEST, name: 'gwen', is_restricted: true });
});
afterAll(async () => stack.close());
beforeEach(() => stack.sim.log.clear());

const searches = () => stack.sim.log.entries.filter((e) => /\/events|\/credentials|\/leaks/.test(e.path));
const actions = () => stack.sim.log.entries.filter((e) => e.path.endsWith('/v4/events/actions'));

describe('opening the DM', () => {
  it('suggests prompts named after the workspace’s own identifiers, each one Vigil understands', async () => {
    const dm = stack.slack.openDm(SEEDED_USERS.member);
    await stack.sender.event({
      type: 'app_home_opened',
      userId: SEEDED_USERS.member,
      fields: { tab: 'messages', channel: dm.id },
    });
    const set = await until('prompts', () => stack.slack.suggestedPrompts(dm.id));
    expect(set.prompts.map((p) => p.title)).toEqual([
      'Leaks for acme.example',
      'What’s new on Project Nightjar',
      'Critical events this week',
      'What can you do?',
    ]);
    // The Home tab is not published for the Messages tab.
    expect(stack.slack.homeView(SEEDED_USERS.member)).toBeUndefined();
  });

  it('shows a guest nothing of the workspace', async () => {
    const dm = stack.slack.openDm(GUEST);
    await stack.sender.event({
      type: 'app_home_opened',
      userId: GUEST,
      fields: { tab: 'messages', channel: dm.id },
    });
    const set = await until('prompts', () => stack.slack.suggestedPrompts(dm.id));
    expect(set.prompts.map((p) => p.message)).toEqual(['status', 'help']);
  });
});

describe('a request in the DM', () => {
  it('reads /vigil grammar and streams the plan, each task as it runs, then the command’s own blocks', async () => {
    const said = await say(stack, SEEDED_USERS.member, 'events 3001');
    const { stream } = said;
    const [plan, ...first] = stream.chunks;
    expect(plan).toMatchObject({ type: 'plan_update' });
    expect(first.slice(0, 3).map((c) => (c as { status: string }).status)).toEqual([
      'pending',
      'pending',
      'pending',
    ]);
    expect([...stream.tasks.values()].map((t) => t.status)).toEqual(['complete', 'complete', 'complete']);
    expect(stream.tasks.get('api')?.title).toBe('Search the events of identifier 3001');
    const blocks = finalBlocks(stack, said);
    expect(buttons(blocks).map((b) => b.action_id)).toContain('event_ignore:0');
    expect(searches().length).toBeGreaterThan(0);
  });

  it.each([
    ['leaks for acme.example this week', SEEDED_USERS.admin, '/vigil creds domain acme.example since:7d'],
    ["what's new on Project Nightjar", SEEDED_USERS.member, '/vigil events "Project Nightjar" since:7d'],
    ['critical events this week', SEEDED_USERS.member, '/vigil events all severity:critical since:7d'],
  ])('reads the plain request “%s” as a command and says which', async (text, userId, read) => {
    const said = await say(stack, userId, text);
    expect(markdownOf(said.stream)).toContain(`I read that as \`${read}\`.`);
    expect([...said.stream.tasks.values()].every((t) => t.status === 'complete')).toBe(true);
    expect(finalBlocks(stack, said).length).toBeGreaterThan(0);
  });

  it('says what it can do when it does not understand, with prompts, and calls nothing', async () => {
    const said = await say(stack, SEEDED_USERS.member, 'tell me a joke about ransomware');
    const md = markdownOf(said.stream);
    expect(md).toContain('I did not understand that, so I did nothing.');
    expect(md).toContain('`leaks for acme.example this week`');
    expect(said.stream.tasks.size).toBe(0);
    expect(searches()).toEqual([]);
    expect(actions()).toEqual([]);
  });

  it('neither reads nor repeats a secret typed in the DM, in the stream or the log', async () => {
    const secret = 'Xk9#vQ2!mZ7@pL4$';
    const said = await say(stack, SEEDED_USERS.member, `leaks for acme.example password ${secret}`);
    expect(markdownOf(said.stream)).toContain('looks like it holds a secret');
    expect(JSON.stringify(said.stream.chunks)).not.toContain(secret);
    expect(stack.logs.some((l) => l.includes(secret))).toBe(false);
    expect(searches()).toEqual([]);
  });

  it('gives a guest what the command gives a guest: a refusal before any API call', async () => {
    const said = await say(stack, GUEST, 'events 3001');
    expect(said.stream.tasks.get('access')?.status).toBe('error');
    expect(said.stream.tasks.get('api')?.status).toBe('pending');
    expect(textOf(finalBlocks(stack, said))).toContain(':no_entry_sign:');
    expect(searches()).toEqual([]);
    // Audited as the command's refusal is, on the agent surface.
    const audited = stack.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.audit === true && l.user === GUEST);
    expect(audited).toMatchObject({ action: 'permission.refused', outcome: 'refused', surface: 'agent' });
  });
});

describe('"that one": the one event the conversation shows', () => {
  it('does nothing when the conversation shows no event', async () => {
    const said = await say(stack, SEEDED_USERS.admin, 'ignore that one');
    expect(markdownOf(said.stream)).toContain('Nothing was done.');
    expect(said.stream.tasks.get('find')?.status).toBe('error');
    expect(buttons(finalBlocks(stack, said))).toEqual([]);
    expect(actions()).toEqual([]);
  });

  it('does nothing when the thread shows several events', async () => {
    const listed = await say(stack, SEEDED_USERS.admin, 'events 3001 size:5');
    const rows = buttons(finalBlocks(stack, listed)).filter((b) => b.action_id?.startsWith('event_ignore'));
    expect(rows.length).toBeGreaterThan(1);
    const said = await say(stack, SEEDED_USERS.admin, 'ignore that one', listed.ts);
    expect(markdownOf(said.stream)).toContain(`shows ${rows.length} events`);
    expect(buttons(finalBlocks(stack, said))).toEqual([]);
    expect(actions()).toEqual([]);
  });

  it('offers the one event’s own Ignore button, with a confirmation; the click acts through the row’s listener', async () => {
    const listed = await say(stack, SEEDED_USERS.admin, 'events 3001 size:1');
    const [shown] = buttons(finalBlocks(stack, listed)).filter((b) => b.action_id === 'event_ignore:0');
    const said = await say(stack, SEEDED_USERS.admin, 'ignore that one', listed.ts);
    const blocks = finalBlocks(stack, said);
    const [offered] = buttons(blocks);
    expect(offered).toMatchObject({ action_id: 'event_ignore:0', value: shown?.value });
    expect((offered as { confirm?: unknown }).confirm).toBeDefined();
    expect(actions()).toEqual([]);
    await stack.sender.blockAction({
      actionId: offered?.action_id ?? '',
      value: offered?.value ?? '',
      ...(offered?.block_id === undefined ? {} : { blockId: offered.block_id }),
      container: 'message',
      userId: SEEDED_USERS.admin,
      channelId: said.channel,
      responseUrl: stack.slack.responseUrl(),
      message: { ts: said.stream.ts, blocks },
    });
    await until('the ignore call', () => actions().length > 0);
    expect(actions()[0]?.body).toMatchObject({ action: { type: 'ignore' } });
  });

  // Another identifier's event: the test before ignored the first of 3001.
  it('reads the Vigil message the person is looking at, and refuses someone who may not act, as the button would', async () => {
    const listed = await say(stack, SEEDED_USERS.admin, 'events 3002 size:1');
    const posted = stack.slack.addMessage({
      channel: SEEDED_CHANNELS.general,
      text: 'An event',
      blocks: finalBlocks(stack, listed),
    });
    await stack.sender.event({
      type: 'app_context_changed',
      userId: SEEDED_USERS.member,
      fields: {
        context: {
          entities: [
            {
              type: 'slack#/types/message_context',
              value: { channel_id: SEEDED_CHANNELS.general, message_ts: posted.ts },
            },
          ],
        },
      },
    });
    const said = await say(stack, SEEDED_USERS.member, 'ignore that one');
    expect(said.stream.tasks.get('find')?.status).toBe('complete');
    expect(said.stream.tasks.get('access')?.status).toBe('error');
    expect(textOf(finalBlocks(stack, said))).toContain(':no_entry_sign:');
    expect(buttons(finalBlocks(stack, said))).toEqual([]);
    expect(actions()).toEqual([]);
  });

  it('explains the event of the Flare link the person is looking at ("what is this")', async () => {
    const listed = await say(stack, SEEDED_USERS.member, 'events 3002 size:1');
    const link = /<(https?:\/\/[^|>]+)\|Open in portal>/.exec(
      JSON.stringify(finalBlocks(stack, listed)),
    )?.[1];
    expect(link).toBeDefined();
    const pasted = stack.slack.addMessage({
      channel: SEEDED_CHANNELS.general,
      text: `seen this? <${link}>`,
      user: SEEDED_USERS.admin,
      bot_id: undefined,
    });
    await stack.sender.event({
      type: 'app_context_changed',
      userId: SEEDED_USERS.member,
      fields: {
        context: {
          entities: [
            {
              type: 'slack#/types/message_context',
              value: { channel_id: SEEDED_CHANNELS.general, message_ts: pasted.ts },
            },
          ],
        },
      },
    });
    const said = await say(stack, SEEDED_USERS.member, 'what is this?');
    expect(said.stream.tasks.get('api')?.title).toMatch(/^Ask for an explanation of event \S+\/\S+/);
    expect([...said.stream.tasks.values()].map((t) => t.status)).toEqual([
      'complete',
      'complete',
      'complete',
    ]);
  });
});
