/** `tenant <id>` asks first when digests or alerts follow the workspace's tenant (issue 25, item 5). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_CHANNELS, SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { type Stack, startStack } from '../../support/stack.js';
import { click, command, waitPostTo } from './support.js';

const admin = SEEDED_USERS.admin;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sim: { emptyPageEvery: 0 } });
});
afterAll(async () => {
  await stack?.close();
});

const tenantNow = async () => (await stack.repos.workspaces.get(stack.workspaceId))?.tenantId;

describe('tenant switch with subscriptions', () => {
  it('names the digests and alerts it affects, with their channels, and switches nothing yet', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC', { userId: admin });
    await command(stack, `alerts add <#${SEEDED_CHANNELS.security}> identifiers:3001`, { userId: admin });
    const { post } = await command(stack, 'tenant 2003', { userId: admin });
    expect(post.body.replace_original).toBe(true);
    expect(String(post.body.text)).toBe(
      `Switch this workspace from tenant 2001 to tenant 2003? 1 digest (in <#${SEEDED_CHANNELS.general}>) and 1 alert subscription (in <#${SEEDED_CHANNELS.security}>) keep the tenant they were made for; searches and new subscriptions will use tenant 2003.`,
    );
    expect(await tenantNow()).toBe(2001);

    // A member's click on the prompt is refused; the admin's switches, audited.
    const refused = await click(stack, post.body, 'tenant_switch_confirm', { userId: SEEDED_USERS.member });
    expect(textOf((await waitPostTo(stack, refused.responseUrl)).body)).toContain(
      'Only workspace admins can switch the tenant.',
    );
    expect(await tenantNow()).toBe(2001);
    const confirmed = await click(stack, post.body, 'tenant_switch_confirm', { userId: admin });
    const done = await waitPostTo(stack, confirmed.responseUrl);
    expect(done.body.text).toBe('This workspace now uses tenant Acme Staging (id 2003).');
    expect(await tenantNow()).toBe(2003);
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({
      userId: admin,
      action: 'tenant.switch',
      target: '2003',
      detail: 'from 2001',
    });
  });

  it('Cancel removes the prompt and switches nothing', async () => {
    const { post } = await command(stack, 'tenant 2001', { userId: admin });
    expect(String(post.body.text)).toContain('from tenant 2003 to tenant 2001?');
    const cancel = await click(stack, post.body, 'tenant_switch_cancel', { userId: admin });
    expect((await waitPostTo(stack, cancel.responseUrl)).body).toEqual({ delete_original: true });
    expect(await tenantNow()).toBe(2003);
  });
});
