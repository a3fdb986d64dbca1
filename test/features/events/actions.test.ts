/** Clicks on events messages: in-place updates, once-only actions, permission, ignore page, explain. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buttons, textOf } from '../../harness/index.js';
import type { Stack } from '../../support/stack.js';
import {
  actionCalls,
  addOpenEvents,
  click,
  command,
  findOption,
  IDENTIFIER,
  SEEDED_USERS,
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
afterEach(() => {
  stack.sim.faults.clear();
});

const id = IDENTIFIER.domain;
/** The event uids a message shows, verbatim in code spans (Slack displays `&amp;` as `&`). */
const uidsOf = (source: unknown) =>
  [...textOf(source).matchAll(/ID `([^`]+)`/g)].map((m) =>
    (m[1] ?? '').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&'),
  );
const blocksOfPost = (post: { body: Record<string, unknown> }) => post.body.blocks as unknown[];

/** Open events, so every one shows Ignore and Remediate. */
async function openEvents(size = 2) {
  addOpenEvents(stack, id, size);
  const { post } = await command(stack, `events ${id} status:open size:${size}`);
  return { blocks: blocksOfPost(post), text: String(post.body.text) };
}

function actionBodies(): { action: { type: string }; targets: { uid: string }[] }[] {
  return actionCalls(stack).map((e) => e.body as { action: { type: string }; targets: { uid: string }[] });
}

describe('ignore, then undo', () => {
  it('calls the API once, updates the message in place with who and when, and undoes it', async () => {
    stack.sim.log.clear();
    const page = await openEvents();
    const uid = uidsOf(page.blocks)[0];
    const clicked = await click(stack, page, 'event_ignore:0');
    expect(clicked.status).toBe(200);
    const updated = await waitPostTo(stack, clicked.responseUrl);
    expect(updated.body).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    expect(textOf(updated.body)).toContain(`Ignored by <@${SEEDED_USERS.member}> · <!date^`);
    // Undo is a visible button on the acted row, not hidden in its menu.
    expect(buttons(updated.body).find((b) => b.action_id === 'event_undo:0')?.text).toBe('Undo');
    expect(findOption(updated.body, 'event_undo:0')).toBeUndefined();
    expect(actionBodies()).toEqual([{ action: { type: 'ignore' }, targets: [{ uid }] }]);
    const audit = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(audit[0]).toMatchObject({ userId: SEEDED_USERS.member, action: 'event.ignore', target: uid });

    const undo = await click(stack, updated.body as { blocks: unknown[] }, 'event_undo:0');
    const restored = await waitPostTo(stack, undo.responseUrl);
    expect(restored.body.replace_original).toBe(true);
    expect(textOf(restored.body)).not.toContain('Ignored by');
    expect(buttons(restored.body).map((b) => b.action_id)).toContain('event_ignore:0');
    expect(actionBodies().map((b) => b.action.type)).toEqual(['ignore', 'unignore']);

    // The stale message's Ignore button no longer acts: the state moved on twice.
    const stale = await click(stack, page, 'event_ignore:0');
    const told = await waitPostTo(stack, stale.responseUrl);
    expect(told.body.replace_original).toBe(false);
    expect(String(told.body.text)).toContain(`<@${SEEDED_USERS.member}> unignored this event`);
    expect(actionCalls(stack)).toHaveLength(2);
  });

  it('remediates after the confirmation dialog', async () => {
    stack.sim.log.clear();
    const page = await openEvents();
    expect(buttons(page.blocks).find((b) => b.action_id === 'event_remediate:1')?.confirm?.confirm).toBe(
      'Remediate',
    );
    const clicked = await click(stack, page, 'event_remediate:1');
    const updated = await waitPostTo(stack, clicked.responseUrl);
    expect(textOf(updated.body)).toContain(`Remediated by <@${SEEDED_USERS.member}>`);
    expect(actionBodies().map((b) => b.action.type)).toEqual(['remediate']);
  });
});

describe('clicks at once', () => {
  it('by two people make exactly one upstream call, and the later one is told who acted', async () => {
    stack.sim.log.clear();
    const page = await openEvents();
    const [a, b] = await Promise.all([
      click(stack, page, 'event_ignore:0', { userId: SEEDED_USERS.member }),
      click(stack, page, 'event_ignore:0', { userId: SEEDED_USERS.admin }),
    ]);
    const [pa, pb] = await Promise.all([waitPostTo(stack, a.responseUrl), waitPostTo(stack, b.responseUrl)]);
    expect(actionCalls(stack)).toHaveLength(1);
    const winner = pa.body.replace_original === true ? SEEDED_USERS.member : SEEDED_USERS.admin;
    const loserPost = winner === SEEDED_USERS.member ? pb : pa;
    expect(String(loserPost.body.text)).toContain(`<@${winner}> ignored this event`);
    expect(String(loserPost.body.text)).toContain('before your click');
  });

  it('by one person clicking five times make one upstream call', async () => {
    stack.sim.log.clear();
    const page = await openEvents();
    const clicks = await Promise.all(Array.from({ length: 5 }, () => click(stack, page, 'event_ignore:1')));
    await Promise.all(clicks.map((c) => waitPostTo(stack, c.responseUrl)));
    expect(actionCalls(stack)).toHaveLength(1);
  });
});

describe('permission', () => {
  it('refuses a member when only admins may act, saying why, without replacing the results', async () => {
    await stack.repos.settings.setActors(stack.workspaceId, 'admins', SEEDED_USERS.admin);
    try {
      stack.sim.log.clear();
      const page = await openEvents();
      const refused = await click(stack, page, 'event_ignore:0', { userId: SEEDED_USERS.member });
      const post = await waitPostTo(stack, refused.responseUrl);
      expect(post.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
      expect(String(post.body.text)).toContain(
        'In this workspace only workspace admins may ignore, remediate or triage events (the `act` permission).',
      );
      expect(actionCalls(stack)).toHaveLength(0);

      const allowed = await click(stack, page, 'event_ignore:0', { userId: SEEDED_USERS.admin });
      expect(textOf((await waitPostTo(stack, allowed.responseUrl)).body)).toContain('Ignored by');
      expect(actionCalls(stack)).toHaveLength(1);
    } finally {
      await stack.repos.settings.setActors(stack.workspaceId, 'everyone', SEEDED_USERS.admin);
    }
  });

  it('refuses a click of another workspace before it reaches the context', async () => {
    const page = await openEvents();
    stack.sim.log.clear();
    const responseUrl = stack.slack.responseUrl();
    const clicked = await stack.sender.blockAction({
      actionId: 'event_ignore:0',
      blockId: 'event:0',
      value: String(buttons(page.blocks)[0]?.value),
      container: 'ephemeral',
      responseUrl,
      teamId: 'T0OTHER1',
    });
    expect(clicked.status).toBe(200);
    const post = await waitPostTo(stack, responseUrl);
    expect(post.body.replace_original).toBe(false);
    expect(String(post.body.text)).toContain('serves another Slack workspace');
    expect(actionCalls(stack)).toHaveLength(0);
  });
});

describe('ignore all on this page', () => {
  it('ignores every open event in one batch and shows each as ignored', async () => {
    stack.sim.log.clear();
    const page = await openEvents(10);
    const clicked = await click(stack, page, 'Ignore all on this page');
    const updated = await waitPostTo(stack, clicked.responseUrl);
    const bodies = actionBodies();
    expect(bodies).toHaveLength(1);
    expect(bodies[0]?.action.type).toBe('ignore');
    const shown = uidsOf(page.blocks);
    expect(bodies[0]?.targets.map((t) => t.uid).sort()).toEqual(shown.sort());
    expect(bodies[0]?.targets.length).toBeLessThanOrEqual(10);
    expect(textOf(updated.body).match(/Ignored by/g)).toHaveLength(shown.length);
    // A second click finds nothing left to do.
    const again = await click(stack, page, 'Ignore all on this page');
    expect(String((await waitPostTo(stack, again.responseUrl)).body.text)).toMatch(/already/);
    expect(actionCalls(stack)).toHaveLength(1);
  });
});

describe('explain', () => {
  it('answers the button with the AI text, ephemeral and next to the results', async () => {
    const page = await openEvents();
    const clicked = await click(stack, page, 'event_explain:0');
    const post = await waitPostTo(stack, clicked.responseUrl);
    expect(post.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(String(post.body.text)).toMatch(/^AI assistance for event /);
    expect(textOf(post.body)).toContain('AI-generated');
  });

  it('asks the API once when five people click Explain on the same event at the same time', async () => {
    const page = await openEvents();
    // The API is slow to answer, so every click arrives while the first is still asking.
    stack.sim.faults.add({ path: /ai_assistance$/, response: { delayMs: 300 } });
    const before = stack.sim.log.entries.length;
    const clicks = await Promise.all(Array.from({ length: 5 }, () => click(stack, page, 'event_explain:0')));
    const posts = await Promise.all(clicks.map((c) => waitPostTo(stack, c.responseUrl)));
    for (const post of posts) expect(String(post.body.text)).toMatch(/^AI assistance for event /);
    const asked = stack.sim.log.entries.slice(before).filter((e) => e.path.endsWith('/ai_assistance'));
    expect(asked).toHaveLength(1);
  });

  it('answers the command, and splits a long text over several messages', async () => {
    const page = await openEvents(1);
    const uid = uidsOf(page.blocks)[0] ?? '';
    const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}: ${'analysis '.repeat(60)}`).join(
      '\n\n',
    );
    stack.sim.faults.add({
      path: /ai_assistance$/,
      response: { drift: () => ({ activity_ai_assistance: { uid, response: long } }) },
    });
    const { responseUrl, post } = await command(stack, `explain ${uid}`);
    expect(post.body.replace_original).toBe(true);
    expect(String(post.body.text)).toBe(`AI assistance for event \`${uid}\``);
    const second = await waitPostTo(stack, responseUrl, 2);
    expect(second.body.replace_original).toBe(false);
    expect(String(second.body.text)).toContain('(part 2)');
  });

  it('of an unknown event says it was not found', async () => {
    const { post } = await command(stack, 'explain leak/nowhere/1');
    expect(String(post.body.text)).toContain('was not found');
  });
});
