/**
 * Every payload Vigil sends the fake Slack is held to Slack's contract: a test after which the fake refused
 * anything for its content (invalid_blocks, msg_blocks_too_long, a view's invalid_arguments…) fails, naming
 * the payload and the json-pointer of each problem. Vigil may well survive a refusal (it logs and moves on),
 * which is exactly why the test must not pass: real Slack would have shown the user nothing.
 *
 * The mrkdwn of every message and view sent is also scanned for raw `<`, `>` and `&` that are not a control
 * sequence Vigil builds on purpose (see mrkdwn-scan.ts): Slack would read them as links or mentions.
 *
 * Importing this module registers the check for the test file; `guardSlackContract(fake)` enrols a fake.
 */
import { afterEach } from 'vitest';
import type { ContentRefusal, FakeSlack } from '../../packages/playground/src/sim/slack/index.js';
import { strayMarkupIn } from './mrkdwn-scan.js';

const guarded = new Set<FakeSlack>();
/** How far each fake's records were already scanned. */
const scanned = new WeakMap<FakeSlack, { calls: number; posts: number; acks: number }>();

/** Payloads sent to `fake` since the last scan: message and view methods, response_url posts, acks. */
function newPayloads(fake: FakeSlack): { where: string; body: unknown }[] {
  const from = scanned.get(fake) ?? { calls: 0, posts: 0, acks: 0 };
  // reset() empties the records: start over.
  if (fake.calls.length < from.calls || fake.responseUrlPosts.length < from.posts)
    from.calls = from.posts = 0;
  if (fake.socket.acks.length < from.acks) from.acks = 0;
  const out = [
    ...fake.calls
      .slice(from.calls)
      .filter((c) => /^(chat|views)\./.test(c.method))
      .map((c) => ({ where: c.method, body: c.body })),
    ...fake.responseUrlPosts.slice(from.posts).map((p) => ({ where: 'response_url', body: p.body })),
    ...fake.socket.acks.slice(from.acks).map((a) => ({ where: 'socket_ack', body: a.payload ?? {} })),
  ];
  scanned.set(fake, {
    calls: fake.calls.length,
    posts: fake.responseUrlPosts.length,
    acks: fake.socket.acks.length,
  });
  return out;
}

export function guardSlackContract<T extends FakeSlack>(fake: T): T {
  guarded.add(fake);
  return fake;
}

function describeRefusals(refusals: readonly ContentRefusal[]): string {
  return refusals
    .map((r) => {
      const sent = JSON.stringify(r.body).slice(0, 600);
      const problems = r.problems.length > 0 ? r.problems.map((p) => `\n    ${p}`).join('') : '';
      return `  ${r.where}: ${r.error}${problems}\n    sent: ${sent}`;
    })
    .join('\n');
}

// Benchmarks start the same stacks outside Vitest, where there is no test to fail (`VITEST` is Vitest's own).
if (process.env.VITEST) afterEach(checkGuardedFakes);

function checkGuardedFakes(): void {
  const refusals = [...guarded].flatMap((fake) => fake.takeRefusals());
  const stray = [...guarded].flatMap((fake) =>
    newPayloads(fake).flatMap(({ where, body }) => strayMarkupIn(body).map((s) => `  ${where}: ${s}`)),
  );
  const problems: string[] = [];
  if (refusals.length > 0) {
    problems.push(`Slack would have refused ${refusals.length} payload(s):\n${describeRefusals(refusals)}`);
  }
  if (stray.length > 0) {
    problems.push(
      `Raw <, > or & in Vigil's mrkdwn (Slack reads them as links or mentions):\n${stray.join('\n')}`,
    );
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
}
