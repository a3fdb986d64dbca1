/**
 * Remediate and Ignore on leaked credentials, end to end against the contract-validating simulated API (lean
 * and rich answers): the confirmation says what the API does, one call per click however many clicks, the row
 * shows who did it with the reverse action, a whole page in one call, audited; refused without `act`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerMode } from '../../../packages/playground/src/sim/api/index.js';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { click, command, waitPostTo } from '../events/support/events-stack.js';
import { addCredential, startCredsStack } from './support/creds-stack.js';

type Block = { type: string; block_id?: string; text?: { text?: string }; elements?: unknown[] };

const actionCalls = (stack: Stack) =>
  stack.sim.log.entries.filter((e) => e.path.endsWith('/v4/credentials/actions'));

/** The blocks of the row showing `identity` (its section, state line and actions). */
function rowOf(message: { blocks?: unknown[] }, identity: string): { blocks: unknown[] } {
  const blocks = (message.blocks ?? []) as Block[];
  const at = blocks.findIndex((b) => b.type === 'section' && b.text?.text?.includes(`\`${identity}`));
  if (at < 0) throw new Error(`no row for ${identity}`);
  const index = /creds:row:(\d+)/.exec(blocks[at]?.block_id ?? '')?.[1];
  return {
    blocks: blocks.filter((b) => b.block_id?.startsWith(`creds:`) && b.block_id.endsWith(`:${index}`)),
  };
}

describe.each<AnswerMode>(['lean', 'rich'])('credential actions (%s answers)', (answers) => {
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
  let stack: Stack;
  let results: { blocks?: unknown[] };

  beforeAll(async () => {
    stack = await startCredsStack({ clock });
    stack.sim.state.options.answers = answers;
    addCredential(stack, { identity_name: 'ada@act.example', credential_hash: 'a'.repeat(64) });
    addCredential(stack, {
      identity_name: 'ada@act.example',
      credential_hash: 'b'.repeat(64),
      id: 70_500_001,
    });
    addCredential(stack, { identity_name: 'linus@act.example', credential_hash: 'c'.repeat(64) });
    addCredential(stack, { identity_name: 'nohash@act.example' });
    const { post } = await command(stack, 'creds domain act.example', { userId: SEEDED_USERS.admin });
    results = post.body as { blocks?: unknown[] };
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('offers Remediate (confirming what the API does) and Ignore per row with a pair id, and for the page', () => {
    const row = JSON.stringify(rowOf(results, 'linus@act.example'));
    expect(row).toContain('identical pairs it finds later');
    expect(row).toContain('Ignore this identity?');
    expect(JSON.stringify(rowOf(results, 'nohash@act.example'))).not.toMatch(/Remediate|Ignore/);
    expect(JSON.stringify(results)).toContain('Remediate all on this page');
  });

  it('refuses a member while only admins may act, before any call, and audits the attempt as refused', async () => {
    await command(stack, 'settings act admins', { userId: SEEDED_USERS.admin });
    const before = (await stack.repos.audit.recent(stack.workspaceId, 50)).length;
    const clicked = await click(stack, rowOf(results, 'linus@act.example'), 'Remediate', {
      userId: SEEDED_USERS.member,
    });
    const answer = await waitPostTo(stack, clicked.responseUrl);
    expect(textOf(answer.body)).toContain('only workspace admins may ignore, remediate or triage');
    expect(actionCalls(stack)).toHaveLength(0);
    const audit = await stack.repos.audit.recent(stack.workspaceId, 50);
    expect(audit).toHaveLength(before + 1);
    expect(audit[0]).toMatchObject({ action: 'permission.refused', target: 'act', outcome: 'refused' });
  });

  it('remediates once however many clicks, shows who did it with Unremediate, and audits it', async () => {
    const row = rowOf(results, 'linus@act.example');
    const clicks = await Promise.all(
      [1, 2, 3].map(() => click(stack, row, 'Remediate', { userId: SEEDED_USERS.admin })),
    );
    const posts = await Promise.all(clicks.map((c) => waitPostTo(stack, c.responseUrl)));
    // Which click takes the lease is the scheduler's choice (a busy one redraws what is stored at once): the
    // row to check is the taker's, redrawn once it acted.
    const redrawn =
      posts.find((p) => textOf(rowOf(p.body, 'linus@act.example')).includes('Remediated by')) ?? posts[0];
    if (!redrawn) throw new Error('no redraw');
    expect(actionCalls(stack)).toHaveLength(1);
    expect(actionCalls(stack)[0]?.body).toEqual({
      targets: [{ credential_hash: 'c'.repeat(64) }],
      action: { type: 'remediate' },
    });
    expect(stack.sim.state.remediatedCredentials.get(stack.sim.keys[0]?.defaultTenantId ?? 0)).toContain(
      'c'.repeat(64),
    );
    const after = rowOf(redrawn.body, 'linus@act.example');
    expect(textOf(after)).toContain(`Remediated by <@${SEEDED_USERS.admin}>`);
    expect(JSON.stringify(after)).toContain('Unremediate');
    const audit = await stack.repos.audit.recent(stack.workspaceId, 5);
    expect(audit.filter((e) => e.action === 'credential.remediate')).toHaveLength(1);

    // The reverse, from the redrawn row.
    const undo = await click(stack, after, 'Unremediate', { userId: SEEDED_USERS.admin });
    const back = await waitPostTo(stack, undo.responseUrl);
    expect(textOf(rowOf(back.body, 'linus@act.example'))).toContain('Unremediated by');
    expect(JSON.stringify(rowOf(back.body, 'linus@act.example'))).toContain('"Remediate"');
    expect(actionCalls(stack)).toHaveLength(2);
  });

  it('ignores an identity for every pair of it, and the page in one call for what is left', async () => {
    const ignore = await click(stack, rowOf(results, 'ada@act.example'), 'Ignore', {
      userId: SEEDED_USERS.admin,
    });
    const redrawn = await waitPostTo(stack, ignore.responseUrl);
    // Both rows of the identity say so.
    const adaRows = ((redrawn.body.blocks ?? []) as Block[]).filter(
      (b) => b.block_id?.startsWith('creds:state:') && textOf({ blocks: [b] }).includes('Identity ignored'),
    );
    expect(adaRows).toHaveLength(2);
    const calls = actionCalls(stack).length;
    const page = await click(stack, redrawn.body, 'Ignore all on this page', { userId: SEEDED_USERS.admin });
    const after = await waitPostTo(stack, page.responseUrl);
    expect(actionCalls(stack)).toHaveLength(calls + 1);
    expect(actionCalls(stack).at(-1)?.body).toEqual({
      targets: [{ credential_hash: 'c'.repeat(64) }],
      action: { type: 'ignore' },
    });
    expect(textOf(after.body)).toContain('Identity ignored by');
    const notice = await waitPostTo(stack, page.responseUrl, 2);
    expect(String(notice.body.text)).toMatch(/had already ignored `ada@act\.example/);
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({ action: 'credential.ignore', userId: SEEDED_USERS.admin });
    expect(entry?.detail).toContain('whole page');
  });
});
