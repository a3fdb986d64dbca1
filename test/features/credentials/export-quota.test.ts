/**
 * The global-search quota in sight, end to end: an export that would draw more than a tenth of the searches
 * left is asked about first (nothing exported, nothing spent), and goes ahead on "Export anyway"; the figure
 * shows in the results' footer, `status` and App Home. Refused without the `export` permission.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { click, command, waitPostTo } from '../events/support/events-stack.js';
import { credsBodies, startCredsStack } from './support/creds-stack.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
const admin = SEEDED_USERS.admin;
let stack: Stack;
let results: { blocks?: unknown[] };

beforeAll(async () => {
  stack = await startCredsStack({ clock });
  stack.sim.state.searchQuota(stack.sim.keys[0]?.organizationId ?? 0).remaining = 60;
  const { post } = await command(stack, 'creds domain bulk.example limit:1000', { userId: admin });
  results = post.body as { blocks?: unknown[] };
});
afterAll(async () => {
  await stack?.close();
});

describe('search quota', () => {
  it('shows what is left in the results’ footer, in status and in App Home', async () => {
    const blocks = (results.blocks ?? []) as { block_id?: string }[];
    expect(blocks.at(-1)?.block_id).toBe('creds:quota');
    expect(textOf(results)).toContain('Global searches left: 59');
    const status = await command(stack, 'status', { userId: admin });
    expect(textOf(status.post.body)).toMatch(/Global searches left:\* 59/);
    await stack.sender.event({ type: 'app_home_opened', userId: admin });
    const home = await stack.slack.waitFor('views.publish');
    expect(JSON.stringify(home.body)).toMatch(/Global searches left:\* 59/);
  });

  it('refuses the export to a member (admins only by default) before asking or spending anything', async () => {
    stack.sim.log.clear();
    const clicked = await click(stack, results, 'Export CSV', { userId: SEEDED_USERS.member });
    const answer = await waitPostTo(stack, clicked.responseUrl);
    expect(textOf(answer.body)).toContain('only workspace admins may export');
    expect(credsBodies(stack)).toHaveLength(0);
  });

  it('asks before an export of 10 searches out of 59, and exports on "Export anyway"', async () => {
    stack.sim.log.clear();
    const clicked = await click(stack, results, 'Export CSV', { userId: admin });
    const ask = await waitPostTo(stack, clicked.responseUrl);
    expect(ask.body.replace_original).toBe(false);
    expect(textOf(ask.body)).toContain('uses about 10 global searches of the 59');
    expect(credsBodies(stack)).toHaveLength(0);

    const callsBefore = stack.slack.calls.length;
    const anyway = await click(stack, ask.body, 'Export anyway', { userId: admin });
    const started = await waitPostTo(stack, anyway.responseUrl);
    expect(textOf(started.body)).toContain('Exporting up to 1,000 rows');
    await stack.slack.waitFor(
      (c) => c.method === 'files.completeUploadExternal' && stack.slack.calls.indexOf(c) >= callsBefore,
    );
    expect(credsBodies(stack).length).toBeGreaterThan(0);
    expect(stack.sim.state.searchQuotas.get(stack.sim.keys[0]?.organizationId ?? 0)?.remaining).toBe(49);
  });
});
