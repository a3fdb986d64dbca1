/**
 * `/vigil status` for a workspace connected from the environment asks the API once for each thing it needs:
 * one token test (its result also names the organization) and one page of the tenant list, even when the
 * tenant cannot be found there (lean answers carry no tenant ids) and the organization has many pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimApi } from '../../packages/playground/src/sim/api/index.js';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../harness/index.js';
import { type Stack, startStack } from '../support/stack.js';

describe('status requests', () => {
  let stack: Stack;
  beforeAll(async () => {
    // A managed-service key: an organization with some 60 tenants, several pages of them.
    const probe = await startSimApi();
    const key = probe.keys[2];
    await probe.close();
    if (!key) throw new Error('no third simulated key');
    stack = await startStack({
      connect: false,
      sim: { answers: 'lean' },
      env: { VIGIL_API_KEY: key.apiKey, VIGIL_TENANT_ID: String(key.defaultTenantId) },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('calls tokens/test once and reads one page of tenants', async () => {
    const key = stack.sim.keys[2];
    const tenants = stack.sim.state.tenants.filter((t) => t.organization_id === key?.organizationId);
    expect(tenants.length).toBeGreaterThan(50);
    stack.sim.log.clear();
    const responseUrl = stack.slack.responseUrl();
    await stack.sender.slashCommand({ text: 'status', userId: SEEDED_USERS.member, responseUrl });
    const post = await stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl);
    await stack.tracker.idle();
    expect(textOf(post.body)).toContain(`${key?.defaultTenantId}`);
    const paths = stack.sim.log.entries.map((e) => `${e.method} ${e.path.replace(/\d+/g, '#')}`);
    expect(paths.filter((p) => p === 'GET /tokens/test')).toHaveLength(1);
    expect(paths.filter((p) => p.endsWith('/tenants'))).toHaveLength(1);
    expect(stack.sim.contractViolations).toEqual([]);
  });
});
