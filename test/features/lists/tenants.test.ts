/** `/vigil tenants` pages when the organization has many tenants (an MSSP with 60 in the simulator). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { buttons, textOf } from '../../harness/index.js';
import { type Stack, startStack } from '../../support/stack.js';
import { apiCalls, click, command, waitPostTo } from './support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sim: { emptyPageEvery: 0 } });
  const key = stack.sim.keys[2];
  if (!key) throw new Error('the simulator has no third key');
  await stack.repos.workspaces.put(stack.workspaceId, {
    teamId: stack.workspaceId,
    apiHost: new URL(stack.sim.url).host,
    apiKey: key.apiKey,
    apiKeyId: key.apiKeyId,
    organizationId: key.organizationId,
    tenantId: key.defaultTenantId,
    tenantName: 'Globex Main',
    scopes: key.scopes,
    connectedBy: SEEDED_USERS.admin,
  });
});
afterAll(async () => {
  await stack?.close();
});

describe('/vigil tenants', () => {
  it('pages over several pages with Next, the same size each time', async () => {
    const key = stack.sim.keys[2];
    const total = stack.sim.state.tenants.filter((t) => t.organization_id === key?.organizationId).length;
    expect(total).toBeGreaterThan(50);
    stack.sim.log.clear();
    let { post } = await command(stack, 'tenants', { userId: SEEDED_USERS.member });
    expect(String(post.body.text)).toBe(
      `Tenants 1–25 of ${total}; tenant ${key?.defaultTenantId} is in use.`,
    );
    expect(textOf(post.body)).toContain(
      `:white_check_mark: *Globex Main* (id ${key?.defaultTenantId}) — in use`,
    );
    const seen = new Set<string>();
    const collect = () => {
      for (const m of textOf(post.body).matchAll(/\(id (\d+)\)/g)) seen.add(m[1] ?? '');
    };
    collect();
    let first = 1;
    while (buttons(post.body).some((b) => b.action_id === 'tenants_next')) {
      const next = await click(stack, post.body, 'tenants_next');
      post = await waitPostTo(stack, next.responseUrl);
      expect(post.body.replace_original).toBe(true);
      first += 25;
      expect(String(post.body.text)).toContain(`Tenants ${first}–`);
      collect();
    }
    expect(seen.size).toBe(total);
    const calls = apiCalls(stack, `/v2/organizations/${key?.organizationId}/tenants`);
    expect(calls).toHaveLength(Math.ceil(total / 25));
    expect(calls[0]?.query).toEqual({ size: '25' });
    for (const c of calls.slice(1)) expect(Object.keys(c.query).sort()).toEqual(['from', 'size']);
  });

  it('lists long, hostile names over several sections that Slack accepts, with every entity whole', async () => {
    const key = stack.sim.keys[2];
    const mine = stack.sim.state.tenants
      .filter((t) => t.organization_id === key?.organizationId)
      .slice(0, 25);
    const saved = mine.map((t) => ({ name: t.name, description: t.description }));
    try {
      for (const t of mine) {
        t.name = `${t.name} <${'R&D > Ops '.repeat(35)}>`;
        t.description = `${'Security & <IT> '.repeat(20)}`;
      }
      const { post } = await command(stack, 'tenants', { userId: SEEDED_USERS.member });
      // The contract guard fails this test if Slack would refuse the answer (a section over 3,000).
      expect(post.status).toBe(200);
      const sections = (post.body.blocks as { type: string; text?: { text: string } }[]).filter(
        (b) => b.type === 'section',
      );
      expect(sections.length).toBeGreaterThan(2);
      const text = textOf(post.body);
      expect(text).not.toMatch(/&(?!(?:amp|lt|gt);)|&amp;[a-z]/);
      const listed = new Set([...text.matchAll(/\(id (\d+)\)/g)].map((m) => m[1]));
      const left = Number(/(\d+) more tenants? on this page did not fit/.exec(text)?.[1] ?? 0);
      expect(listed.size + left).toBe(25);
    } finally {
      for (const [i, t] of mine.entries()) Object.assign(t, saved[i]);
    }
  });
});
