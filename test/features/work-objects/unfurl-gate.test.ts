/**
 * Who gets a Work Object card, through the real HTTP stack: a portal link unfurls only when its poster may
 * `use` Vigil, in a conversation not shared with another organization, and only for an event Vigil showed
 * in the workspace's tenant. A guest's, an unknown user's and a Slack Connect channel's link get no card and
 * cause no API call; an event the API knows but Vigil never showed, another tenant's event and a uid that
 * exists nowhere get the same answer (no card, nothing asked upstream), so a card never tells a uid exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../support/stack.js';
import { until } from '../../support/until.js';
import { command, IDENTIFIER, SEEDED_USERS, startEventsStack } from '../events/support/events-stack.js';

type Json = Record<string, unknown>;
let stack: Stack;
let shownUrl: string;
const GUEST = 'U0WOGUEST1';
const SHARED = 'C0SHARED01';
const PENDING = 'C0PENDING1';

beforeAll(async () => {
  stack = await startEventsStack();
  stack.slack.addUser({ id: GUEST, name: 'gwen', is_restricted: true });
  stack.slack.addChannel({ id: SHARED, name: 'with-vendor', shared: 'external' });
  stack.slack.addChannel({ id: PENDING, name: 'invited-vendor', shared: 'pending' });
  const { post } = await command(stack, `events ${IDENTIFIER.domain} size:3`);
  const text = JSON.stringify(post.body);
  const event = stack.sim.state.events.find(
    (e) => e.tenantId === 2001 && text.includes(e.item.metadata.uid.split('/').pop() ?? '\u0000'),
  );
  if (!event) throw new Error('the search showed no seeded event');
  shownUrl = event.item.metadata.flare_url;
});
afterAll(async () => {
  await stack?.close();
});

const unfurls = () => stack.slack.callsTo('chat.unfurl');
const apiCalls = () => stack.sim.log.entries.length;
const decisions = () => stack.logs.filter((l) => l.includes('portal link not unfurled')).length;
const lastDecision = () => stack.logs.filter((l) => l.includes('portal link not unfurled')).at(-1) ?? '';

/** Shares `url` as `user` in `channel`; whether Vigil unfurled it, and what the log said otherwise. */
async function share(url: string, user: string, channel = 'C0GENERAL') {
  const [before, decided, calls] = [unfurls().length, decisions(), apiCalls()];
  const res = await stack.sender.event({
    type: 'link_shared',
    fields: {
      channel,
      user,
      is_bot_user_member: true,
      message_ts: '1764000000.000300',
      links: [{ domain: new URL(url).hostname, url }],
    },
  });
  expect(res.status).toBe(200);
  await until('Vigil decided on the link', () => unfurls().length > before || decisions() > decided);
  await stack.tracker.idle();
  return {
    cards: unfurls().slice(before),
    reason: decisions() > decided ? lastDecision() : undefined,
    apiCalls: apiCalls() - calls,
  };
}

describe('who gets a card', () => {
  it('a member who may use Vigil, in the workspace’s own channel', async () => {
    const { cards, apiCalls: calls } = await share(shownUrl, SEEDED_USERS.member);
    expect(cards).toHaveLength(1);
    expect(calls).toBe(0);
  });

  it('not a guest, nor a user Slack does not know: no card, no API call', async () => {
    for (const user of [GUEST, 'U0NOBODY99']) {
      const { cards, reason, apiCalls: calls } = await share(shownUrl, user);
      expect(cards).toEqual([]);
      expect(reason).toContain('poster');
      expect(calls).toBe(0);
    }
  });

  it('not a member outside the group `use` is opened to', async () => {
    await stack.repos.settings.setPermission(
      stack.workspaceId,
      'use',
      { usergroup: 'S0SECOPS1' },
      SEEDED_USERS.admin,
    );
    try {
      stack.slack.addUser({ id: 'U0OUTSIDE1', name: 'olga' });
      expect((await share(shownUrl, 'U0OUTSIDE1')).cards).toEqual([]);
      expect((await share(shownUrl, SEEDED_USERS.member)).cards).toHaveLength(1);
    } finally {
      await stack.repos.settings.setPermission(stack.workspaceId, 'use', 'everyone', SEEDED_USERS.admin);
    }
  });

  it('not in a channel shared with another organization, or invited to be: no card, no API call', async () => {
    for (const channel of [SHARED, PENDING]) {
      const { cards, reason, apiCalls: calls } = await share(shownUrl, SEEDED_USERS.member, channel);
      expect(cards).toEqual([]);
      expect(reason).toContain('shared-channel');
      expect(calls).toBe(0);
    }
  });
});

describe('an admin opening cards in a channel shared outside', () => {
  it('opens them in that channel alone, audited; a member may not; closed shuts them again', async () => {
    const refused = await command(stack, `settings cards <#${SHARED}|with-vendor> open`, {
      userId: SEEDED_USERS.member,
    });
    expect(JSON.stringify(refused.post.body)).not.toContain('From now on');
    expect((await share(shownUrl, SEEDED_USERS.member, SHARED)).cards).toEqual([]);

    const opened = await command(stack, `settings cards <#${SHARED}|with-vendor> open`, {
      userId: SEEDED_USERS.admin,
    });
    expect(String(opened.post.body.text)).toContain(`<#${SHARED}> get event cards`);
    expect((await share(shownUrl, SEEDED_USERS.member, SHARED)).cards).toHaveLength(1);
    // Another shared channel stays closed; a guest still gets none in the opened one.
    expect((await share(shownUrl, SEEDED_USERS.member, PENDING)).reason).toContain('shared-channel');
    expect((await share(shownUrl, GUEST, SHARED)).reason).toContain('poster');
    const shown = await command(stack, 'settings', { userId: SEEDED_USERS.admin });
    expect(JSON.stringify(shown.post.body)).toContain(`channels shared outside:* <#${SHARED}>`);
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({ userId: SEEDED_USERS.admin, action: 'settings.cards', target: SHARED });

    await command(stack, `settings cards <#${SHARED}|with-vendor> closed`, { userId: SEEDED_USERS.admin });
    expect((await share(shownUrl, SEEDED_USERS.member, SHARED)).reason).toContain('shared-channel');
  });
});

describe('a link to an event Vigil never showed here', () => {
  it('gets the same answer whether the uid is unseen, another tenant’s or unknown, and nothing is asked upstream', async () => {
    const unseen = 'paste/wobj/unseen-1';
    stack.sim.state.addEvent({
      tenantId: 2001,
      identifierIds: [IDENTIFIER.domain],
      createdAt: Date.now(),
      severity: 'critical',
      type: 'paste',
      title: 'Unseen paste naming the acme admin',
      uid: unseen,
    });
    const foreign = stack.sim.state.events.find((e) => e.tenantId === 2002);
    if (!foreign) throw new Error('no seeded event of tenant 2002');
    const answers: Json[] = [];
    for (const uid of [unseen, foreign.item.metadata.uid, 'leak/nowhere/never-1']) {
      const {
        cards,
        reason,
        apiCalls: calls,
      } = await share(
        `https://app.flare.io/#/feed/2001/event/${encodeURIComponent(uid)}`,
        SEEDED_USERS.member,
      );
      answers.push({ cards, reason: reason?.replace(/^.*portal link not unfurled/, ''), calls });
    }
    expect(answers[0]).toEqual({ cards: [], reason: expect.stringContaining('unknown'), calls: 0 });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });
});
