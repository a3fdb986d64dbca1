/**
 * Unassign across a crash, with real processes on one store: Vigil is killed with SIGKILL while the API applies
 * an unassign (the DELETE reached it, the assignment is gone, Vigil recorded nothing yet). A Vigil restarted on
 * the same store settles what the dead process meant to do: it finds the assignment gone and audits the
 * unassign in the name of the person who asked; a re-submission of the same form right after the restart is
 * told it was already done, and the API is not called again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimApi, SimPolicy } from '../../packages/playground/src/sim/api/index.js';
import {
  type FakeSlack,
  SEEDED_CHANNELS,
  SEEDED_USERS,
} from '../../packages/playground/src/sim/slack/index.js';
import { getButton, textOf } from '../harness/index.js';
import { type CrashWorld, openCrashWorld } from '../support/crash-world.js';
import { until } from '../support/until.js';

type Json = Record<string, unknown>;

let world: CrashWorld;
let sim: SimApi;
let slack: FakeSlack;

beforeAll(async () => {
  world = await openCrashWorld({ sim: { emptyPageEvery: 0 } });
  ({ sim, slack } = world);
});

afterAll(async () => {
  await world?.close();
});

const deletes = (policy: SimPolicy) =>
  sim.log.entries.filter((e) => e.method === 'DELETE' && e.path.endsWith(`/${policy.uuid}/assignments`));

describe('an Unassign whose process died while the API applied it', () => {
  it('is audited after the restart, and a re-submission is told it is done, without a second call', async () => {
    const key = sim.keys[0];
    const policy = sim.state.policies.find(
      (p) => p.tenantId === key?.defaultTenantId && p.assignments.length > 3,
    );
    if (!key || !policy) throw new Error('no seeded policy with assignments');
    const env = world.env();
    const sender = world.sender;
    const command = async (url: string, text: string) => {
      const responseUrl = slack.responseUrl();
      await sender(url).slashCommand({ text, responseUrl, userId: SEEDED_USERS.admin });
      return slack.waitForPost((p) => `${slack.url}${p.path}` === responseUrl, 15_000);
    };

    const first = await world.start(env);
    const list = await command(first.url, `assignments ${policy.uuid}`);
    const unassign = getButton(list.body, 'assignment_unassign:0');
    const triggerId = slack.triggerId();
    await sender(first.url).blockAction({
      actionId: unassign.action_id ?? '',
      value: unassign.value ?? '',
      ...(unassign.block_id ? { blockId: unassign.block_id } : {}),
      container: 'ephemeral',
      responseUrl: slack.responseUrl(),
      channelId: SEEDED_CHANNELS.general,
      userId: SEEDED_USERS.admin,
      triggerId,
    });
    const opened = await slack.waitFor(
      (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
      15_000,
    );
    const viewId = String((opened.response.view as Json).id);
    const formCall = await slack.waitFor(
      (c) =>
        c.method === 'views.update' &&
        c.body.view_id === viewId &&
        (c.body.view as Json).callback_id === 'assignment_unassign',
      15_000,
    );
    const form = formCall.body.view as Json;
    const target = [...policy.assignments].sort((a, b) => b.assigned_at.localeCompare(a.assigned_at))[0];
    if (!target) throw new Error('no assignment');
    const submit = (url: string) =>
      sender(url).viewSubmission({
        callbackId: 'assignment_unassign',
        privateMetadata: String(form.private_metadata),
        view: form,
        viewId,
        userId: SEEDED_USERS.admin,
        values: { unassign_clean: { clean_past_events: { type: 'checkboxes', selected_options: [] } } },
      });

    // The API receives the DELETE and applies it, but its answer never reaches Vigil, which dies.
    sim.faults.add({ method: 'DELETE', path: /\/assignments$/, response: { delayMs: 60_000 } });
    await submit(first.url);
    await until('the DELETE to reach the API', () => deletes(policy).length === 1);
    const applied = policy.assignments.filter((a) => a.identifier_id !== target.identifier_id);
    policy.assignments.splice(0, policy.assignments.length, ...applied);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    sim.faults.clear();

    const second = await world.start(env);
    // Re-submitted at once after the restart: told it is done, by whom; no second DELETE.
    const updatesBefore = slack.callsTo('views.update').length;
    await submit(second.url);
    const answer = await until('the re-submission’s answer', () =>
      slack
        .callsTo('views.update')
        .slice(updatesBefore)
        .find((c) => c.body.view_id === viewId && !/Unassigning…/.test(textOf(c.body))),
    );
    expect(textOf(answer.body)).toContain(`<@${SEEDED_USERS.admin}> already unassigned it`);
    expect(textOf(answer.body)).not.toContain('right now');
    expect(deletes(policy)).toHaveLength(1);

    // The audit log has the unassign, in the name of the person who asked.
    const audit = await until('the audit entry', async () => {
      const post = await command(second.url, 'audit 5');
      const text = textOf(post.body);
      return text.includes(`unassigned from policy \`${policy.uuid}\``) ? text : undefined;
    });
    expect(audit).toContain(`<@${SEEDED_USERS.admin}>`);
    expect(audit).toContain(`identifier ${target.identifier_id}`);
    second.child.kill('SIGTERM');
  }, 120_000);
});
