/**
 * Accept and Reject on identifier recommendations, through the real HTTP stack: the actions endpoint of the
 * published contract, permission `recommend` (admins by default), once however many clicks, the list
 * updated in place, audited, and "Search its events" once the accepted identifier exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { contractProblems, fromSimLog } from '../../api/support/openapi.js';
import { buttons, textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { apiCalls, click, command, waitPostTo } from './support.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ clock, sim: { emptyPageEvery: 0 } });
});
afterAll(async () => {
  expect(contractProblems(stack.sim.log.entries.map(fromSimLog))).toEqual([]);
  await stack?.close();
});

const ACTIONS = '/v4/identifier-recommendations/actions';
const decisions = () => apiCalls(stack, ACTIONS, 'POST').map((e) => e.body);
const admin = SEEDED_USERS.admin;
const member = SEEDED_USERS.member;
const recommendation = (id: number) => stack.sim.state.recommendations.find((r) => r.id === id);

/** Recommended ones only: every row offers Accept and Reject. */
async function openList(userId: string = admin, query = '') {
  const { post } = await command(stack, `recommendations status:recommended${query}`, { userId });
  return post.body;
}
const idOfRow = (body: unknown, index: number) => {
  const ids = [...textOf(body).matchAll(/ID: `(\d+)`/g)].map((m) => Number(m[1]));
  const id = ids[index];
  if (id === undefined) throw new Error(`no row ${index}`);
  return id;
};

describe('Accept and Reject', () => {
  it('accepts one row through the actions endpoint, redraws the list in place, audits it', async () => {
    const list = await openList();
    expect(buttons(list).map((b) => b.action_id)).toEqual(
      expect.arrayContaining([
        'recommendation_accept:0',
        'recommendation_reject:0',
        'recommendations_accept_page',
      ]),
    );
    const id = idOfRow(list, 0);
    const value = recommendation(id)?.data.fqdn;
    stack.sim.log.clear();
    const clicked = await click(stack, list, 'recommendation_accept:0', { userId: admin });
    const updated = await waitPostTo(stack, clicked.responseUrl);
    expect(updated.body.replace_original).toBe(true);
    expect(decisions()).toEqual([{ action: { type: 'accept' }, targets: [{ id }] }]);
    expect(recommendation(id)?.status).toBe('accepted');
    const text = textOf(updated.body);
    expect(text).toContain(`<@${admin}> accepted \`${value}\``);
    expect(text).toContain(`Accepted by <@${admin}>`);
    // The simulated API created the identifier: the row offers its events.
    const created = stack.sim.state.identifiersOf(2001).find((i) => i.name === value);
    const search = buttons(updated.body).find((b) => b.action_id === 'identifier_events:0');
    expect(search?.text).toBe('Search its events');
    expect(search?.value).toBe(String(created?.id));
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({ userId: admin, action: 'recommendation.accept', target: String(id) });

    const events = await click(stack, updated.body, 'identifier_events:0', { userId: admin });
    const results = await waitPostTo(stack, events.responseUrl);
    expect(String(results.body.text)).toBe(`No events for identifier ${created?.id}.`);
  });

  it('acts once however many people click at once, and tells the others who did', async () => {
    const list = await openList();
    const id = idOfRow(list, 0);
    stack.sim.log.clear();
    const [a, b] = await Promise.all([
      click(stack, list, 'recommendation_reject:0', { userId: admin }),
      click(stack, list, 'recommendation_reject:0', { userId: SEEDED_USERS.owner }),
    ]);
    const [pa, pb] = await Promise.all([waitPostTo(stack, a.responseUrl), waitPostTo(stack, b.responseUrl)]);
    expect(decisions()).toEqual([{ action: { type: 'reject' }, targets: [{ id }] }]);
    const both = `${textOf(pa.body)}\n${textOf(pb.body)}`;
    const winner = textOf(pa.body).includes(`<@${admin}> rejected`) ? admin : SEEDED_USERS.owner;
    const loser = winner === admin ? textOf(pb.body) : textOf(pa.body);
    expect(loser).toContain(`<@${winner}> had already rejected`);
    expect(both).toContain(`<@${winner}> rejected`);
    expect(recommendation(id)?.status).toBe('rejected');
  });

  it('refuses a member by default (admins decide), without calling the API', async () => {
    const list = await openList(member);
    stack.sim.log.clear();
    const clicked = await click(stack, list, 'recommendation_accept:0', { userId: member });
    const told = await waitPostTo(stack, clicked.responseUrl);
    expect(told.body.replace_original).toBe(false);
    expect(String(told.body.text)).toContain(
      'only workspace admins may accept or reject identifier recommendations',
    );
    expect(decisions()).toEqual([]);

    await stack.repos.settings.setPermission(stack.workspaceId, 'recommend', 'everyone', admin);
    try {
      const again = await click(stack, list, 'recommendation_reject:1', { userId: member });
      await waitPostTo(stack, again.responseUrl);
      expect(decisions()).toHaveLength(1);
    } finally {
      await stack.repos.settings.setPermission(stack.workspaceId, 'recommend', 'admins', admin);
    }
  });

  it('rejects a whole page in one call, leaving out the rows already rejected', async () => {
    const list = await openList(admin, ' type:email');
    const ids = [...textOf(list).matchAll(/ID: `(\d+)`/g)].map((m) => Number(m[1]));
    expect(ids.length).toBeGreaterThan(1);
    stack.sim.log.clear();
    const clicked = await click(stack, list, 'recommendations_reject_page', { userId: admin });
    const updated = await waitPostTo(stack, clicked.responseUrl);
    expect(decisions()).toEqual([{ action: { type: 'reject' }, targets: ids.map((id) => ({ id })) }]);
    expect(textOf(updated.body)).toContain(`<@${admin}> rejected ${ids.length} recommendations`);
    expect(buttons(updated.body).map((b) => b.action_id)).not.toContain('recommendation_reject:0');
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({ action: 'recommendation.reject', count: ids.length });
    const audit = await command(stack, 'audit 1', { userId: admin });
    expect(textOf(audit.post.body)).toContain(`rejected ${ids.length} recommendations (whole page;`);

    const again = await click(stack, updated.body, 'recommendations_reject_page', { userId: admin });
    const told = await waitPostTo(stack, again.responseUrl);
    expect(String(told.body.text)).toBe('Every recommendation on this page is already rejected.');
    expect(apiCalls(stack, ACTIONS, 'POST')).toHaveLength(1);
  });

  it('offers to look for the identifier until it exists, then Search its events', async () => {
    const list = await openList(admin, ' type:username');
    const id = idOfRow(list, 0);
    const value = recommendation(id)?.data.username ?? '';
    stack.sim.state.options.createIdentifierOnAccept = false;
    let accepted: Awaited<ReturnType<typeof waitPostTo>>;
    try {
      const clicked = await click(stack, list, 'recommendation_accept:0', { userId: admin });
      accepted = await waitPostTo(stack, clicked.responseUrl);
    } finally {
      stack.sim.state.options.createIdentifierOnAccept = true;
    }
    expect(textOf(accepted.body)).toContain('its identifier is not created yet');
    const look = buttons(accepted.body).find((b) => b.action_id === 'recommendation_recheck:0');
    expect(look?.text).toBe('Look for its identifier');

    const early = await click(stack, accepted.body, 'recommendation_recheck:0', { userId: admin });
    const told = await waitPostTo(stack, early.responseUrl, 2);
    expect(String(told.body.text)).toContain('Its identifier is not there yet');

    const created = stack.sim.state.addIdentifier(2001, value, 'username');
    // The list read just now is reused for ten seconds: a later look reads it again.
    clock.advance(10_001);
    const later = await click(stack, accepted.body, 'recommendation_recheck:0', { userId: admin });
    const redrawn = await waitPostTo(stack, later.responseUrl);
    const search = buttons(redrawn.body).find((b) => b.action_id === 'identifier_events:0');
    expect(search?.value).toBe(String(created.id));
  });
});
