/** `/vigil recommendations`: filters on the wire, ten shown out of API pages of 100, rendering per type. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const PATH = '/v4/identifier-recommendations/';

describe('/vigil recommendations', () => {
  it('sends types as a repeated parameter with status and query, exactly', async () => {
    stack.sim.log.clear();
    const { post } = await command(stack, 'recommendations type:domain,email status:recommended query:shop');
    const calls = apiCalls(stack, PATH);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.query).toEqual({
      types: ['domain', 'email'],
      status: 'recommended',
      query: 'shop',
      size: '100',
    });
    const text = textOf(post.body);
    expect(text).toContain('matching `type:domain,email status:recommended query:shop`');
    expect(text).toMatch(/\*Domain\* · `shop\d+\.acme\.example`/);
    expect(text).not.toContain('[.]');
  });

  it('shows ten at a time and fetches the next API page only once the first is used up', async () => {
    stack.sim.log.clear();
    // Tenant 2001 has 120 recommendations: one page of 100, then one of 20.
    let { post } = await command(stack, 'recommendations');
    expect(String(post.body.text)).toBe('Identifier recommendations 1–10 · more follow.');
    const text = textOf(post.body);
    expect(text).toMatch(/\*Domain\* · `/);
    expect(text).toMatch(/\*Azure tenant\* · `[0-9a-f-]{36}`/);
    expect(text).toMatch(/\*E-mail\* · `user\d+@acme\.example`/);
    expect(text).toMatch(/\*Username\* · `/);
    expect(text).toMatch(/Status: (Recommended|Accepted|Rejected) · relevancy: (High|Medium|Low)/);
    for (let shown = 10; shown < 120; shown += 10) {
      const next = await click(stack, post.body, 'recommendations_next');
      post = await waitPostTo(stack, next.responseUrl);
      expect(post.body.replace_original).toBe(true);
      expect(String(post.body.text)).toContain(`${shown + 1}–${shown + 10}`);
      // The second API page is read on the click that needs item 101, not before.
      expect(apiCalls(stack, PATH)).toHaveLength(shown < 100 ? 1 : 2);
    }
    expect(String(post.body.text)).toBe('Identifier recommendations 111–120 · end of the list.');
    expect(buttons(post.body).map((b) => b.action_id)).not.toContain('recommendations_next');
    const calls = apiCalls(stack, PATH);
    expect(calls[0]?.query).toEqual({ size: '100' });
    expect(Object.keys(calls[1]?.query ?? {}).sort()).toEqual(['from', 'size']);
  });

  it('renders an unknown recommendation type and a missing type discriminator', async () => {
    const added = [
      { tenantId: 2001, id: 990001, data: { type: 'github_org', org: 'acme-labs' }, status: 'recommended' },
      { tenantId: 2001, id: 990002, data: { fqdn: 'no-type.acme.example' } },
    ];
    stack.sim.state.recommendations.unshift(...(added as never[]));
    try {
      const { post } = await command(stack, 'recommendations query:acme-labs');
      expect(textOf(post.body)).toContain('*Github org* · Org: `acme-labs`');
      const second = await command(stack, 'recommendations query:no-type');
      expect(textOf(second.post.body)).toContain('*Domain* · `no-type.acme.example`');
    } finally {
      stack.sim.state.recommendations.splice(0, added.length);
    }
  });

  it('says so when nothing matches', async () => {
    const { post } = await command(stack, 'recommendations query:nothing-matches-this');
    expect(String(post.body.text)).toBe('No identifier recommendations match these filters.');
  });
});
