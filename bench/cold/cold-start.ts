/**
 * Whole-process cold start: from spawning `node <entry>.js` to `/healthz` answering 200, and the process's
 * peak resident memory at that point (VmHWM), for Vigil's compiled build (production configuration, and
 * the playground with nothing configured) against a stock Bolt app started the same way. Runs alternate,
 * after one warm-up of each (the file cache), so no target always follows the same neighbour.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_BOT_TOKEN } from '../../packages/playground/src/sim/slack/index.js';
import { median } from '../stats.js';
import { SIGNING_SECRET, type Upstreams } from '../targets.js';
import { atLeast, verifyWork } from '../verify.js';

export const VIGIL_ENTRY = join('dist', 'src', 'main.js');
/** The playground's own entry (what `npm start` runs when nothing is set): Vigil's never opens it. */
const PLAYGROUND_ENTRY = join('dist', 'packages', 'playground', 'src', 'playground', 'main.js');
const BARE_ENTRY = join('bench', 'cold', 'bare-bolt.js');
const READY_TIMEOUT_MS = 30_000;

export interface ColdFigures {
  runs: number;
  /** Launch to /healthz 200, ms. */
  readyP50: number;
  readyMax: number;
  /** Peak resident set size when ready, MiB. */
  rssP50: number;
}

export interface ColdStartResult {
  bare: ColdFigures;
  vigil: ColdFigures;
  playground: ColdFigures;
  readyRatio: number;
  rssRatio: number;
  playgroundReadyRatio: number;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function healthy(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1_000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** VmHWM of a Linux process, in MiB. */
async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function coldStart(
  entry: string,
  env: Record<string, string>,
): Promise<{ ms: number; rssMiB: number }> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(port) },
    stdio: 'ignore',
  });
  try {
    while (!(await healthy(port))) {
      if (child.exitCode !== null) throw new Error(`${entry} exited with code ${child.exitCode}`);
      if (performance.now() - began > READY_TIMEOUT_MS)
        throw new Error(`${entry} not ready in ${READY_TIMEOUT_MS} ms`);
      // Not tighter: the poller shares the 2 cores with the process it measures.
      await new Promise((r) => setTimeout(r, 10));
    }
    const ms = performance.now() - began;
    return { ms, rssMiB: await peakRss(child.pid ?? 0) };
  } finally {
    await stopChild(child);
  }
}

function figures(samples: { ms: number; rssMiB: number }[]): ColdFigures {
  const ms = samples.map((s) => s.ms);
  return {
    runs: samples.length,
    readyP50: median(ms),
    readyMax: Math.max(...ms),
    rssP50: median(samples.map((s) => s.rssMiB)),
  };
}

export async function runColdStartBench(up: Upstreams, runs: number): Promise<ColdStartResult> {
  if (!existsSync(VIGIL_ENTRY)) throw new Error(`${VIGIL_ENTRY} is missing: run npm run build first`);
  const dataDir = await mkdtemp(join(tmpdir(), 'vigil-cold-'));
  try {
    const slackEnv = {
      SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: up.slack.apiUrl,
    };
    let n = 0;
    const starters = {
      bare: () => coldStart(BARE_ENTRY, slackEnv),
      vigil: () =>
        coldStart(VIGIL_ENTRY, {
          ...slackEnv,
          VIGIL_API_URL: up.sim.url,
          // A fresh store each time: a first start on a new machine.
          VIGIL_STORE: `sqlite://${join(dataDir, `cold-${++n}.sqlite`)}`,
          VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
          LOG_LEVEL: 'error',
        }),
      playground: () => coldStart(PLAYGROUND_ENTRY, { LOG_LEVEL: 'error' }),
    };
    const authBefore = up.slack.calls.filter((c) => c.method === 'auth.test' && c.response.ok).length;
    const order = ['bare', 'vigil', 'playground'] as const;
    for (const which of order) await starters[which]();
    const samples: Record<(typeof order)[number], { ms: number; rssMiB: number }[]> = {
      bare: [],
      vigil: [],
      playground: [],
    };
    for (let i = 0; i < runs; i++) {
      for (let k = 0; k < order.length; k++) {
        const which = order[(i + k) % order.length] ?? 'bare';
        samples[which].push(await starters[which]());
      }
    }
    // Each Vigil start awaited Slack's auth.test before it answered /healthz: it started as Vigil, not as
    // the playground a missing setting would give.
    const authTests = up.slack.calls.filter((c) => c.method === 'auth.test' && c.response.ok).length;
    verifyWork('bench:cold', [
      atLeast('auth.test calls answered (one per Vigil start)', authTests - authBefore, runs + 1),
    ]);
    const bare = figures(samples.bare);
    const vigil = figures(samples.vigil);
    const playground = figures(samples.playground);
    return {
      bare,
      vigil,
      playground,
      readyRatio: vigil.readyP50 / bare.readyP50,
      rssRatio: vigil.rssP50 / bare.rssP50,
      playgroundReadyRatio: playground.readyP50 / bare.readyP50,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function coldStartTable(r: ColdStartResult): string {
  const row = (name: string, f: ColdFigures, ratio: string) =>
    `| ${name.padEnd(34)} | ${f.readyP50.toFixed(0).padStart(6)} ms | ${f.readyMax.toFixed(0).padStart(6)} ms | ${f.rssP50.toFixed(1).padStart(6)} MiB | ${ratio.padEnd(18)} |`;
  return [
    `Cold start, whole process (launch → /healthz 200), ${r.bare.runs} runs each`,
    '| process                            | p50       | max       | peak RSS   | vs bare Bolt       |',
    '| ---------------------------------- | --------- | --------- | ---------- | ------------------ |',
    row('bare Bolt app (node bare-bolt.js)', r.bare, '1.00× / 1.00×'),
    row(
      'Vigil (node dist/src/main.js)',
      r.vigil,
      `${r.readyRatio.toFixed(2)}× / ${r.rssRatio.toFixed(2)}× RSS`,
    ),
    row('Vigil playground (nothing set)', r.playground, `${r.playgroundReadyRatio.toFixed(2)}×`),
  ].join('\n');
}
