/**
 * `npx tsx bench/by-name.ts [--identifiers 1000] [--rounds 9]`: what finding an identifier by name costs.
 * Through the real stack (signed requests into Vigil, simulated API and Slack on 127.0.0.1), the time from
 * the signed `/vigil events …` to the results reaching the response_url, median of the rounds:
 *   - baseline: `events <identifier-id>` (one search);
 *   - `events <name>` with the identifier list cached (a local match, then the same search);
 *   - `events <name>` with a cold cache (the list read page by page at the API's 4 requests/s, then the search).
 * Reported as ratios against the baseline measured in the same run.
 */
import { parseArgs } from 'node:util';
import { type Stack, startStack } from '../test/support/stack.js';
import { median } from './stats.js';

const { values } = parseArgs({
  options: {
    identifiers: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '9' },
  },
});
const extra = Number(values.identifiers);
const rounds = Number(values.rounds);

async function timed(stack: Stack, text: string): Promise<number> {
  const responseUrl = stack.slack.responseUrl();
  const started = performance.now();
  const res = await stack.sender.slashCommand({ text, responseUrl });
  if (res.status !== 200) throw new Error(`${text}: ${res.status}`);
  const post = await stack.slack.waitForPost(
    (p) => `${stack.slack.url}${p.path}` === responseUrl && String(p.body.text).startsWith('Events'),
    60_000,
  );
  if (!String(post.body.text).includes('(3001)'))
    throw new Error(`unexpected answer: ${String(post.body.text)}`);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const stack = await startStack({ sim: { emptyPageEvery: 0 } });
  try {
    for (let n = 0; n < extra; n++) stack.sim.state.addIdentifier(2001, `vendor-${n}.example`, 'domain');
    const byId: number[] = [];
    const warm: number[] = [];
    const cold: number[] = [];
    // One warm-up of each, not measured.
    await timed(stack, 'events 3001 size:5');
    await timed(stack, 'events acme.example size:5');
    for (let r = 0; r < rounds; r++) {
      byId.push(await timed(stack, 'events 3001 size:5'));
      warm.push(await timed(stack, 'events acme.example size:5'));
      await stack.vigil.deps.identifiers.invalidate(stack.workspaceId);
      cold.push(await timed(stack, 'events acme.example size:5'));
      // The cold read spent the organization's request budget: let it refill so the next round is fair.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }
    const base = median(byId);
    const rows = [
      ['`events 3001` (baseline)', base],
      ['`events acme.example`, list cached', median(warm)],
      [`\`events acme.example\`, cold (${Math.ceil((extra + 3) / 100)} pages of 100)`, median(cold)],
    ] as const;
    process.stdout.write(
      `${extra + 3} identifiers in the tenant, ${rounds} rounds, median from the signed command to the results\n\n`,
    );
    process.stdout.write('| command | time | vs baseline |\n| --- | --- | --- |\n');
    for (const [name, ms] of rows)
      process.stdout.write(`| ${name} | ${ms.toFixed(1)} ms | ${(ms / base).toFixed(2)}× |\n`);
  } finally {
    await stack.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
