/**
 * `npx tsx bench/sim-contract.ts`: what holding every request to the published documents costs the simulated
 * API. Start-up reads no document (they load with the first request, each operation's validators compile
 * on first use); after that, checking a request is a small part of answering it. Ratios are against
 * baselines measured in the same run: the simulator's start, and a request's round trip.
 */
import { performance } from 'node:perf_hooks';
import type { SimApi } from '../packages/playground/src/sim/api/index.js';
import { isEntry } from './entry.js';
import { median } from './stats.js';
import { verifyWork } from './verify.js';

async function token(sim: SimApi): Promise<string> {
  const key = sim.keys[0];
  if (!key) throw new Error('no key');
  const res = await fetch(`${sim.url}/tokens/generate`, {
    method: 'POST',
    headers: { authorization: key.apiKey },
  });
  return ((await res.json()) as { token: string }).token;
}

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** `rounds` requests per measure (300; a smoke run takes a few). The rows of the report, verified first. */
export async function runSimContractBench(rounds = 300): Promise<Array<[string, string, string]>> {
  // ajv is not part of this: it loads with the documents, on the first request.
  const t = performance.now();
  const { startSimApi } = await import('../packages/playground/src/sim/api/index.js');
  const importMs = performance.now() - t;
  let sim: SimApi | undefined;
  const startMs = await timed(async () => {
    sim = await startSimApi({ emptyPageEvery: 0 });
  });
  if (!sim) throw new Error('no simulator');
  const s = sim;
  const body = JSON.stringify({
    query: { type: 'domain', fqdn: 'acme.example' },
    filters: { severity: 'high' },
    size: 10,
  });
  const path = `/${s.state.family}/v4/events/identifiers/3001/_search`;
  // The first request loads the documents and compiles the token operation's validators.
  const firstMs = await timed(() => token(s));
  const bearer = await token(s);
  const statuses = new Map<number, number>();
  const search = () =>
    fetch(`${s.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body,
    }).then((r) => {
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      return r.arrayBuffer();
    });
  const firstSearchMs = await timed(search);

  const roundTrip: number[] = [];
  for (let i = 0; i < rounds; i++) roundTrip.push(await timed(search));
  const check: number[] = [];
  const request = {
    method: 'POST',
    path,
    query: new URLSearchParams(),
    contentType: 'application/json',
    rawBody: Buffer.from(body),
  };
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    s.contract.checkRequest(request);
    check.push(performance.now() - t0);
  }
  const byMode: Record<string, number> = {};
  for (const mode of ['seeded', 'lean', 'rich'] as const) {
    s.state.options.answers = mode;
    const samples: number[] = [];
    for (let i = 0; i < rounds / 3; i++) samples.push(await timed(search));
    byMode[mode] = median(samples);
  }
  await s.close();
  // Every search answered 200 (a 401 or a contract rejection is fast and not what is measured).
  const searches = [...statuses.values()].reduce((a, b) => a + b, 0);
  verifyWork('sim-contract', [
    {
      what: `all ${searches} event searches answered 200`,
      ok: searches > 0 && statuses.get(200) === searches,
      got: [...statuses].map(([status, n]) => `${n}× ${status}`).join(', '),
    },
  ]);

  const rt = median(roundTrip);
  const ck = median(check);
  const rows: [string, string, string][] = [
    [
      'importing the simulator (no ajv, no document)',
      `${importMs.toFixed(1)} ms`,
      `${(importMs / startMs).toFixed(2)}× start`,
    ],
    ['simulator start (no document read)', `${startMs.toFixed(1)} ms`, '1.00×'],
    [
      'first request: ajv and documents read, operation compiled',
      `${firstMs.toFixed(1)} ms`,
      `${(firstMs / startMs).toFixed(2)}× start`,
    ],
    [
      'first event search: its operation compiled',
      `${firstSearchMs.toFixed(1)} ms`,
      `${(firstSearchMs / startMs).toFixed(2)}× start`,
    ],
    ['event search round trip, median', `${rt.toFixed(3)} ms`, '1.00×'],
    [
      'checking that request against the contract, median',
      `${ck.toFixed(3)} ms`,
      `${(ck / rt).toFixed(3)}× round trip`,
    ],
    [
      'round trip with lean answers, median',
      `${(byMode.lean ?? 0).toFixed(3)} ms`,
      `${((byMode.lean ?? 0) / (byMode.seeded ?? 1)).toFixed(2)}× seeded`,
    ],
    [
      'round trip with rich answers, median',
      `${(byMode.rich ?? 0).toFixed(3)} ms`,
      `${((byMode.rich ?? 0) / (byMode.seeded ?? 1)).toFixed(2)}× seeded`,
    ],
  ];
  return rows;
}

if (isEntry(import.meta.url)) {
  for (const [what, value, ratio] of await runSimContractBench())
    process.stdout.write(`${what.padEnd(56)} ${value.padStart(12)}  ${ratio}\n`);
}
