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
import { ManualClock } from '../test/support/manual-clock.js';
import { type Stack, startStack } from '../test/support/stack.js';
import { isEntry } from './entry.js';
import { median } from './stats.js';
import { excerpt, verifyWork } from './verify.js';

export interface ByNameResult {
  identifiers: number;
  rounds: number;
  /** Medians, ms. */
  byIdMs: number;
  warmMs: number;
  coldMs: number;
}

async function timed(stack: Stack, text: string): Promise<number> {
  const responseUrl = stack.slack.responseUrl();
  const started = performance.now();
  const res = await stack.sender.slashCommand({ text, responseUrl });
  // A slow answer is preceded by a "Still working" notice it later replaces: the answer is what follows.
  const post = await stack.slack.waitForPost(
    (p) => `${stack.slack.url}${p.path}` === responseUrl && !String(p.body.text).includes('Still working'),
    60_000,
  );
  const ms = performance.now() - started;
  const answer = String(post.body.text);
  verifyWork(`by-name (${text})`, [
    { what: 'the command acked with 200', ok: res.status === 200, got: String(res.status) },
    {
      what: 'a page of events of identifier 3001',
      ok: answer.startsWith('Events') && answer.includes('(3001)'),
      got: `"${excerpt(answer)}"`,
    },
  ]);
  return ms;
}

/** `extra` identifiers besides the seed's, `rounds` measured rounds; every answer verified a page of results. */
export async function runByNameBench(extra: number, rounds: number): Promise<ByNameResult> {
  // Moved by hand: past the list's cache age for a cold read, which also refills the API's request budget.
  const clock = new ManualClock(Date.now());
  const stack = await startStack({ clock, sim: { emptyPageEvery: 0 } });
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
      clock.advance(5 * 60_000 + 1);
      cold.push(await timed(stack, 'events acme.example size:5'));
      // The cold read spent the organization's request budget: it refills before the next round.
      clock.advance(60_000);
    }
    return {
      identifiers: extra + 3,
      rounds,
      byIdMs: median(byId),
      warmMs: median(warm),
      coldMs: median(cold),
    };
  } finally {
    await stack.close();
  }
}

if (isEntry(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      identifiers: { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '9' },
    },
  });
  runByNameBench(Number(values.identifiers), Number(values.rounds)).then(
    (r) => {
      const rows = [
        ['`events 3001` (baseline)', r.byIdMs],
        ['`events acme.example`, list cached', r.warmMs],
        [`\`events acme.example\`, cold (${Math.ceil(r.identifiers / 100)} pages of 100)`, r.coldMs],
      ] as const;
      process.stdout.write(
        `${r.identifiers} identifiers in the tenant, ${r.rounds} rounds, median from the signed command to the results\n\n`,
      );
      process.stdout.write('| command | time | vs baseline |\n| --- | --- | --- |\n');
      for (const [name, ms] of rows)
        process.stdout.write(`| ${name} | ${ms.toFixed(1)} ms | ${(ms / r.byIdMs).toFixed(2)}× |\n`);
    },
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
