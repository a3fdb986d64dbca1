/** `/vigil policies` and `/vigil assignments`: exact queries, paging, rendering of known and unknown types. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { buttons, textOf } from '../../harness/index.js';
import { type Stack, startStack } from '../../support/stack.js';
import { apiCalls, click, command, waitPostTo } from './support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sim: { emptyPageEvery: 0 } });
});
afterAll(async () => {
  await stack?.close();
});

const TENANT = 2001;
const policiesOfTenant = () => stack.sim.state.policies.filter((p) => p.tenantId === TENANT);

describe('/vigil policies', () => {
  it('pages 25 at a time with Next, sending only `from` on the next page', async () => {
    stack.sim.log.clear();
    const { post } = await command(stack, 'policies');
    expect(post.body).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    expect(String(post.body.text)).toBe('Matching policies 1–25 · more follow.');
    const text = textOf(post.body);
    expect(text).toContain('*Matching policies* 1–25 · more follow');
    expect(text).toContain('Included keywords');
    expect(text).toContain('Keywords: `acme`, `vpn`, `payroll`');
    expect(text).toContain('Query: `"acme.example" AND (password OR token)`');
    expect(text).toContain('Cookie names: `session`, `SSO_TOKEN`');
    expect(buttons(post.body).filter((b) => b.text === 'Assignments')).toHaveLength(25);

    const next = await click(stack, post.body, 'policies_next');
    const second = await waitPostTo(stack, next.responseUrl);
    expect(second.body.replace_original).toBe(true);
    expect(String(second.body.text)).toBe('Matching policies 26–28 · end of the list.');
    expect(buttons(second.body).map((b) => b.action_id)).not.toContain('policies_next');

    const calls = apiCalls(stack, '/v4/matching-policies');
    expect(calls).toHaveLength(2);
    expect(calls[0]?.query).toEqual({});
    expect(Object.keys(calls[1]?.query ?? {})).toEqual(['from']);
  });

  it('sends size and order as given', async () => {
    stack.sim.log.clear();
    const { post } = await command(stack, 'policies size:10 order:asc');
    expect(String(post.body.text)).toBe('Matching policies 1–10 · more follow.');
    expect(apiCalls(stack, '/v4/matching-policies')[0]?.query).toEqual({ size: '10', order: 'asc' });
    // Oldest first: the first policy created is the first shown.
    const oldest = [...policiesOfTenant()].sort((a, b) => a.created_at.localeCompare(b.created_at))[0];
    expect(textOf(post.body).indexOf(oldest?.uuid ?? '?')).toBeGreaterThan(0);
  });

  it('renders a policy type Vigil does not know, field by field', async () => {
    const uuid = 'a1b2c3d4-0000-4000-8000-00000000beef';
    stack.sim.state.policies.push({
      tenantId: TENANT,
      uuid,
      name: 'Brand <new> policy',
      policy_type: 'BRAND_NEW_TYPE',
      value: { watched_hosts: ['login.acme.example'], nested: { depth: 2 } },
      created_at: '2099-01-01T00:00:00Z',
      last_updated_at: '2099-01-01T00:00:00Z',
      assignments: [],
    });
    try {
      const { post } = await command(stack, 'policies size:1');
      const text = textOf(post.body);
      expect(text).toContain('*Brand &lt;new&gt; policy* · Brand new type');
      expect(text).toContain('Watched hosts: `login.acme.example`');
      expect(text).toContain('Nested: `{"depth":2}`');
      expect(text).toContain(`ID: \`${uuid}\``);
    } finally {
      stack.sim.state.policies.splice(
        stack.sim.state.policies.findIndex((p) => p.uuid === uuid),
        1,
      );
    }
  });
});

describe('/vigil assignments', () => {
  it('pages the assignments of a policy, from the command and from the Assignments button', async () => {
    const policy = policiesOfTenant().find((p) => p.assignments.length === 30);
    if (!policy) throw new Error('seed has no policy with 30 assignments');
    stack.sim.log.clear();
    const { post } = await command(stack, `assignments ${policy.uuid}`);
    expect(String(post.body.text)).toContain('1–25 · more follow');
    expect(buttons(post.body).filter((b) => b.text === 'Unassign')).toHaveLength(25);
    const next = await click(stack, post.body, 'assignments_next');
    const second = await waitPostTo(stack, next.responseUrl);
    expect(String(second.body.text)).toContain('26–30 · end of the list');
    const calls = apiCalls(stack, `/v4/matching-policies/${policy.uuid}/assignments`);
    expect(calls.map((c) => Object.keys(c.query))).toEqual([[], ['from']]);

    // The button on the policies list opens the same list as a new message.
    const list = await command(stack, 'policies order:asc size:1');
    const button = buttons(list.post.body).find((b) => b.text === 'Assignments');
    expect(button?.value).toMatch(/^[0-9a-f-]{36}$/);
    const opened = await click(stack, list.post.body, button?.action_id ?? '');
    const shown = await waitPostTo(stack, opened.responseUrl);
    expect(shown.body.replace_original).toBe(false);
    expect(String(shown.body.text)).toContain('Assignments of policy');
  });

  it('refuses a malformed policy id locally, with no API call', async () => {
    stack.sim.log.clear();
    const res = await stack.sender.slashCommand({
      text: 'assignments not-a-uuid',
      responseUrl: stack.slack.responseUrl(),
      userId: SEEDED_USERS.member,
    });
    expect(JSON.stringify(res.body)).toContain('policy id');
    expect(stack.sim.log.entries).toHaveLength(0);
  });
});
