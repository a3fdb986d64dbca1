/**
 * `npm run bench:agent [-- --rounds 15]`: how soon Vigil's agent DM shows something after a message, through the
 * real stack (signed events into Vigil, simulated API and Slack on 127.0.0.1). Medians of the rounds, from the
 * signed request to:
 *   - baseline, measured in the same run: `/vigil events 3001 size:5` acked (the command's first feedback) and
 *     its results posted to the response_url;
 *   - the same request typed in the DM (`events 3001 size:5`): the first streamed chunk (`chat.startStream`
 *     reaching Slack: the plan, before any API call) and the finished stream (`chat.stopStream` with the results).
 * Goal: the first chunk under 1 s with the simulated API. Every answer is checked to be the work it times.
 */
import { parseArgs } from 'node:util';
import { SEEDED_USERS } from '../packages/playground/src/sim/slack/index.js';
import { type Stack, startStack } from '../test/support/stack.js';
import { isEntry } from './entry.js';
import { median } from './stats.js';
import { excerpt, verifyWork } from './verify.js';

export interface AgentBenchResult {
  rounds: number;
  /** Medians, ms. */
  commandAckMs: number;
  commandResultMs: number;
  firstChunkMs: number;
  streamDoneMs: number;
}

const QUERY = 'events 3001 size:5';
const FIRST_CHUNK_GOAL_MS = 1_000;

async function timedCommand(stack: Stack): Promise<{ ackMs: number; resultMs: number }> {
  const responseUrl = stack.slack.responseUrl();
  const started = performance.now();
  const res = await stack.sender.slashCommand({ text: QUERY, responseUrl, userId: SEEDED_USERS.member });
  const ackMs = performance.now() - started;
  const post = await stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl, 60_000);
  const resultMs = performance.now() - started;
  const answer = String(post.body.text);
  verifyWork('agent (command baseline)', [
    { what: 'the command acked with 200', ok: res.status === 200, got: String(res.status) },
    {
      what: 'a page of events of identifier 3001',
      ok: answer.includes('(3001)'),
      got: `"${excerpt(answer)}"`,
    },
  ]);
  return { ackMs, resultMs };
}

async function timedMessage(stack: Stack): Promise<{ firstMs: number; doneMs: number }> {
  const dm = stack.slack.openDm(SEEDED_USERS.member);
  const message = stack.slack.addMessage({
    channel: dm.id,
    text: QUERY,
    user: SEEDED_USERS.member,
    bot_id: undefined,
  });
  const isStart = (c: { method: string; body: Record<string, unknown> }) =>
    c.method === 'chat.startStream' && c.body.thread_ts === message.ts;
  const started = performance.now();
  const res = await stack.sender.event({
    type: 'message',
    userId: SEEDED_USERS.member,
    fields: { channel: dm.id, channel_type: 'im', text: QUERY, ts: message.ts },
  });
  const start = await stack.slack.waitFor(isStart, 60_000);
  const firstMs = performance.now() - started;
  const streamTs = String(start.response.ts);
  const stop = await stack.slack.waitFor(
    (c) => c.method === 'chat.stopStream' && c.body.ts === streamTs,
    60_000,
  );
  const doneMs = performance.now() - started;
  const blocks = JSON.stringify(stop.body.blocks ?? []);
  verifyWork('agent (DM)', [
    { what: 'the event acked with 200', ok: res.status === 200, got: String(res.status) },
    {
      what: 'a stream started with the plan',
      ok: start.response.ok === true,
      got: excerpt(JSON.stringify(start.response)),
    },
    {
      what: 'the stream finished with event rows',
      ok: blocks.includes('event_ignore'),
      got: excerpt(blocks),
    },
  ]);
  return { firstMs, doneMs };
}

export async function runAgentBench(rounds: number): Promise<AgentBenchResult> {
  const stack = await startStack({ sim: { emptyPageEvery: 0 } });
  try {
    // One warm-up of each (token, identifier list, JIT), not measured.
    await timedCommand(stack);
    await timedMessage(stack);
    const ack: number[] = [];
    const result: number[] = [];
    const first: number[] = [];
    const done: number[] = [];
    for (let r = 0; r < rounds; r++) {
      // Alternate who goes first so neither always follows the other.
      let c: { ackMs: number; resultMs: number };
      let m: { firstMs: number; doneMs: number };
      if (r % 2 === 0) {
        c = await timedCommand(stack);
        m = await timedMessage(stack);
      } else {
        m = await timedMessage(stack);
        c = await timedCommand(stack);
      }
      ack.push(c.ackMs);
      result.push(c.resultMs);
      first.push(m.firstMs);
      done.push(m.doneMs);
    }
    return {
      rounds,
      commandAckMs: median(ack),
      commandResultMs: median(result),
      firstChunkMs: median(first),
      streamDoneMs: median(done),
    };
  } finally {
    await stack.close();
  }
}

if (isEntry(import.meta.url)) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' } } });
  runAgentBench(Number(values.rounds)).then(
    (r) => {
      const rows = [
        ['`/vigil events 3001 size:5` acked (baseline)', r.commandAckMs, r.commandAckMs],
        ['DM message → first streamed chunk', r.firstChunkMs, r.commandAckMs],
        ['`/vigil events 3001 size:5` results posted (baseline)', r.commandResultMs, r.commandResultMs],
        ['DM message → stream finished with the results', r.streamDoneMs, r.commandResultMs],
      ] as const;
      process.stdout.write(`${r.rounds} rounds, medians from the signed request\n\n`);
      process.stdout.write('| step | time | vs its baseline |\n| --- | --- | --- |\n');
      for (const [name, ms, base] of rows)
        process.stdout.write(`| ${name} | ${ms.toFixed(1)} ms | ${(ms / base).toFixed(2)}× |\n`);
      const met = r.firstChunkMs < FIRST_CHUNK_GOAL_MS;
      process.stdout.write(`\nFirst chunk goal (< ${FIRST_CHUNK_GOAL_MS} ms): ${met ? 'met' : 'NOT met'}\n`);
      if (!met) process.exitCode = 1;
    },
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
