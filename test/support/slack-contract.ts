/**
 * Every payload Vigil sends the fake Slack is held to Slack's contract: a test after which the fake refused
 * anything for its content (invalid_blocks, msg_blocks_too_long, a view's invalid_arguments…) fails, naming
 * the payload and the json-pointer of each problem. Vigil may well survive a refusal (it logs and moves on),
 * which is exactly why the test must not pass: real Slack would have shown the user nothing.
 *
 * Importing this module registers the check for the test file; `guardSlackContract(fake)` enrols a fake.
 */
import { afterEach } from 'vitest';
import type { ContentRefusal, FakeSlack } from '../../src/sim/slack/index.js';

const guarded = new Set<FakeSlack>();

export function guardSlackContract<T extends FakeSlack>(fake: T): T {
  guarded.add(fake);
  return fake;
}

export function releaseSlackContract(fake: FakeSlack): void {
  guarded.delete(fake);
}

export function describeRefusals(refusals: readonly ContentRefusal[]): string {
  return refusals
    .map((r) => {
      const sent = JSON.stringify(r.body).slice(0, 600);
      const problems = r.problems.length > 0 ? r.problems.map((p) => `\n    ${p}`).join('') : '';
      return `  ${r.where}: ${r.error}${problems}\n    sent: ${sent}`;
    })
    .join('\n');
}

afterEach(() => {
  const refusals = [...guarded].flatMap((fake) => fake.takeRefusals());
  if (refusals.length > 0) {
    throw new Error(`Slack would have refused ${refusals.length} payload(s):\n${describeRefusals(refusals)}`);
  }
});
