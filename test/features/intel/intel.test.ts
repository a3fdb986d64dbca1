/**
 * Intel on request through the real HTTP stack: `/vigil intel …` asks Threat Flow (published contract),
 * answers "requested" at once, starts a thread in the requester's DM, and the follower (ticked by hand, time
 * from the injected clock) posts the report there as a `markdown` block once it is ready, even after a
 * restart on the same SQLite file. `report <uuid>` keeps working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { type RunningVigil, startVigil } from '../../../src/app/start.js';
import { createLogger } from '../../../src/kernel/logger.js';
import { contractProblems, fromSimLog } from '../../api/support/openapi.js';
import { buttons, createSlackSender, textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { ManualTicker } from '../../support/manual-ticker.js';
import { SIGNING_SECRET, type Stack, startStack } from '../../support/stack.js';
import { apiCalls, command } from '../lists/support.js';

const clock = new ManualClock(Date.UTC(2026, 10, 26, 9, 0, 0));
/** The follower ticks only when the test says (`byHand.tick()`), on whichever instance runs. */
const byHand = new ManualTicker();
let stack: Stack;
let restarted: RunningVigil | undefined;
beforeAll(async () => {
  stack = await startStack({ clock, intelTicker: byHand, sim: { emptyPageEvery: 0 } });
  // Requesting intel is admins' by default (the `intel` permission): this workspace opens it to members.
  await stack.repos.settings.setPermission(stack.workspaceId, 'intel', 'everyone', 'U0ADMIN01');
});
afterAll(async () => {
  expect(contractProblems(stack.sim.log.entries.map(fromSimLog))).toEqual([]);
  await restarted?.stop();
  await stack?.close();
});

const member = SEEDED_USERS.member;
const UUID = /Request `([0-9a-f-]{36})`/;
const posts = () => stack.slack.callsTo('chat.postMessage');
/** The follower's records, read from the store file as any instance would. */
const RecordSchema = z.object({ requestUuid: z.string(), posting: z.boolean().optional() });
async function records(): Promise<Array<z.infer<typeof RecordSchema>>> {
  const repo = stack.repos.intelRequests(RecordSchema);
  const out = [];
  for (const key of await repo.keys(stack.workspaceId)) {
    const record = await repo.get(stack.workspaceId, key);
    if (record) out.push({ requestUuid: record.requestUuid, ...(record.posting ? { posting: true } : {}) });
  }
  return out;
}

async function ask(text: string): Promise<{ uuid: string; requested: string }> {
  const { post, ack } = await command(stack, text, { userId: member });
  expect(String((ack as { text?: unknown }).text)).toBe('Asking Threat Flow…');
  const requested = textOf(post.body);
  const uuid = UUID.exec(requested)?.[1];
  if (uuid === undefined) throw new Error(`no request id in ${requested}`);
  return { uuid, requested };
}

describe('intel', () => {
  it('asks Threat Flow, answers at once, follows the request across a restart and posts the report in the thread', async () => {
    stack.sim.log.clear();
    const { uuid, requested } = await ask(
      'intel "Who sells VPN access to Acme?" since:30d keywords:acme,vpn exclude:test',
    );
    expect(requested).toContain('Requested.');
    expect(requested).toContain('in the thread of your request');
    const [asked] = apiCalls(stack, '/v4/threat_flow/reports/requests', 'POST');
    expect(asked?.body).toEqual({
      report_title: 'Who sells VPN access to Acme?',
      question: 'Who sells VPN access to Acme?',
      time_range_type: 'range',
      time_range_from: new Date(clock.now() - 30 * 86_400_000).toISOString(),
      time_range_to: new Date(clock.now()).toISOString(),
      included_keywords: ['acme', 'vpn'],
      excluded_keywords: ['test'],
    });
    // The thread the report will follow in, in the requester's DM with Vigil.
    const start = posts().at(-1);
    expect(textOf(start?.body)).toContain('You asked Threat Flow:');
    const dm = String(start?.body.channel);
    const threadTs = String(start?.response.ts);
    expect((await records()).map((r) => r.requestUuid)).toEqual([uuid]);
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({ userId: member, action: 'intel.request', target: uuid });

    // Not due yet: nothing asked of the API.
    await stack.runIntel();
    expect(apiCalls(stack, `/v4/threat_flow/reports/requests/${uuid}`)).toEqual([]);
    // Due, still processing: asked once, nothing posted, followed later.
    clock.advance(31_000);
    const before = posts().length;
    await stack.runIntel();
    expect(apiCalls(stack, `/v4/threat_flow/reports/requests/${uuid}`)).toHaveLength(1);
    expect(posts()).toHaveLength(before);

    // A restart: a new instance on the same SQLite file finds the request and delivers it.
    await stack.vigil.stop();
    restarted = await startVigil({
      config: stack.config,
      logger: createLogger({ level: 'error', write: () => {} }),
      host: '127.0.0.1',
      clock,
      intelTicker: byHand,
    });
    clock.advance(5 * 60_000);
    await byHand.tick();
    const report = posts().at(-1);
    expect(report?.body.channel).toBe(dm);
    expect(report?.body.thread_ts).toBe(threadTs);
    expect(String(report?.body.unfurl_links)).toBe('false');
    const blocks = report?.body.blocks as Array<{ type: string; text?: unknown }>;
    const markdown = blocks.find((b) => b.type === 'markdown');
    expect(String(markdown?.text)).toContain('## Key findings');
    // Upstream text formats but cannot mention or pose as Slack syntax.
    expect(String(markdown?.text)).not.toContain('<!channel>');
    expect(String(markdown?.text).length).toBeLessThanOrEqual(12_000);
    const related = stack.sim.state.reportRequests.find((r) => r.uuid === uuid)?.report
      ?.related_activity_uids;
    expect(related?.length).toBeGreaterThan(0);
    expect(buttons(report?.body).filter((b) => b.action_id?.startsWith('report_explain:'))).toHaveLength(
      Math.min(10, related?.length ?? 0),
    );
    expect(await records()).toEqual([]);
    // Delivered once: another tick posts nothing.
    const after = posts().length;
    await byHand.tick();
    expect(posts()).toHaveLength(after);
  });

  it('keeps `report <request-uuid>` working for a request asked through Vigil', async () => {
    const uuid = stack.sim.state.reportRequests.at(-1)?.uuid;
    const { post } = await command(peer(), `report ${uuid}`, { userId: member });
    expect(textOf(post.body)).toContain('*Completed*');
  });

  it('posts what lean and rich answers of the contract carry, inert', async () => {
    for (const mode of ['lean', 'rich'] as const) {
      stack.sim.state.options.answers = mode;
      try {
        const { post } = await command(peer(), `intel what is new about acme (${mode})`, { userId: member });
        expect(UUID.exec(textOf(post.body))?.[1]).toMatch(/^[0-9a-f-]{36}$/);
        clock.advance(10 * 60_000);
        await byHand.tick();
        const report = posts().at(-1);
        const text = `${String(report?.body.text)}\n${textOf(report?.body)}`;
        const blocks = (report?.body.blocks ?? []) as Array<{ type: string; text?: unknown }>;
        const markdown = blocks.find((b) => b.type === 'markdown');
        if (mode === 'lean') {
          // The contract does not require the report in the answer: lean answers leave it out.
          expect(text).toContain('Threat Flow finished, but the API returned no report.');
        } else {
          expect(text).toContain('Threat Flow report');
          expect(String(markdown?.text)).not.toMatch(/<[@!#]|\]\(https?:/);
          expect(String(markdown?.text).length).toBeLessThanOrEqual(12_000);
        }
        expect(text).not.toContain('<!channel>');
        expect(await records()).toEqual([]);
      } finally {
        stack.sim.state.options.answers = 'seeded';
      }
    }
  });

  it('recovers from its own record, never reading the conversation: a post whose answer was lost comes again, marked as a repeat', async () => {
    // What the requester sees: the reports that landed in their DM (a failed call may have landed too).
    const reports = (dm: string) =>
      stack.slack.messages(dm).filter((m) => String(m.text).startsWith('Threat Flow report'));
    const reads = () =>
      stack.slack.callsTo('conversations.history').length +
      stack.slack.callsTo('conversations.replies').length;
    const readsBefore = reads();

    // The post lands, but Slack answers `fatal_error` (it says part of the call may have succeeded): the
    // report is in the thread, Vigil's record still there, marked.
    const { post } = await command(peer(), 'intel answer lost after posting', { userId: member });
    const uuid = UUID.exec(textOf(post.body))?.[1];
    const dm = String(posts().at(-1)?.body.channel);
    clock.advance(10 * 60_000);
    const before = reports(dm).length;
    stack.slack.failNext('chat.postMessage', { error: 'fatal_error', landed: true });
    await byHand.tick();
    expect(reports(dm)).toHaveLength(before + 1);
    expect(JSON.stringify(reports(dm).at(-1)?.blocks)).not.toContain('interrupted');
    expect(await records()).toEqual([{ requestUuid: uuid, posting: true }]);
    // Recovery cannot know the post landed without a rationed read: it posts again, saying it may repeat.
    await byHand.tick();
    expect(reports(dm)).toHaveLength(before + 2);
    const again = posts().at(-1);
    expect(again?.body.metadata).toEqual({
      event_type: 'vigil_intel_report',
      event_payload: { request_uuid: uuid },
    });
    expect(JSON.stringify(again?.body.blocks)).toContain(
      'Vigil was interrupted while sending this report; if you already have it above, this is a repeat.',
    );
    expect(await records()).toEqual([]);

    // The post fails without landing (Slack down): the marked record is posted once by the next tick.
    const second = await command(peer(), 'intel post failed', { userId: member });
    const secondUuid = UUID.exec(textOf(second.post.body))?.[1];
    clock.advance(10 * 60_000);
    stack.slack.failNext('chat.postMessage', { error: 'internal_error' });
    await byHand.tick();
    expect(reports(dm)).toHaveLength(before + 2);
    expect(await records()).toEqual([{ requestUuid: secondUuid, posting: true }]);
    await byHand.tick();
    expect(reports(dm)).toHaveLength(before + 3);
    expect(posts().at(-1)?.body.metadata).toEqual({
      event_type: 'vigil_intel_report',
      event_payload: { request_uuid: secondUuid },
    });
    expect(await records()).toEqual([]);
    await byHand.tick();
    expect(reports(dm)).toHaveLength(before + 3);
    expect(reads()).toBe(readsBefore);
  });
});

/** The stack, answered by the restarted instance. */
function peer(): Stack {
  if (!restarted) throw new Error('not restarted yet');
  return {
    ...stack,
    vigil: restarted,
    sender: createSlackSender({
      receiverUrl: `${restarted.url}/slack/events`,
      signingSecret: SIGNING_SECRET,
    }),
  };
}
