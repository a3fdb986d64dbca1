/**
 * A long playground session: the playground runs in its own process (its entry,
 * `packages/playground/src/playground/main.ts`, with nothing configured, as `npm start` runs it), and a
 * client does what the page does, command after command, polling the state it has as the page polls it. After 10 and after 300 commands it measures the poll latency (the
 * polls that brought each of the last ten replies, and idle polls) and the process's resident memory; the
 * figures after 300 are reported as ratios of those after 10 (goal: at most 1.2×).
 *
 * Memory is read twice: as found after 20 s of idle polling, and after a full collection asked for through
 * the inspector (the process runs with `--inspect` on 127.0.0.1 for that). V8 lets garbage pile up to a
 * limit it sets from the live size, so the first figure moves with when the collector last ran; the second
 * is what the session keeps, the figure a leak would show in.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { percentile } from './stats.js';

const p50 = (values: number[]) => percentile(Float64Array.from(values).sort(), 0.5);

import { allResults, exactly, NOT_A_RESULT, verifyWork } from './verify.js';

const READY_TIMEOUT_MS = 60_000;
const CHANNEL = 'C0GENERAL';
/** Idle polls at each measure, as often as the page polls: about 20 seconds. */
const IDLE_POLLS = 30;
const IDLE_EVERY_MS = 700;

/** What a newcomer types, in turn: small and large replies, forms, searches of both APIs. */
const SESSION = [
  'help',
  'status',
  'policies',
  'events 3001 severity:high since:90d',
  'creds domain acme.example',
  'recommendations',
  'help events',
  'digest list',
  'explain stealer_log/lumma/100014',
  'audit',
  'report 141a81bc-2df0-49b3-bae7-0ed321c7c200',
  'assignments 47710112-c89f-48df-bf5c-27a2358af085',
  'tenants',
  'settings',
];

export interface SessionPoint {
  commands: number;
  /** Polls that brought the reply to each of the last ten commands, ms. */
  replyPollP50: number;
  /** Polls with nothing new, ms. */
  idlePollP50: number;
  /** Bytes the reply polls carried, median. */
  replyPollBytes: number;
  /** VmRSS of the playground process, MiB, as found after idling. */
  rssMiB: number;
  /** VmRSS after a full garbage collection, MiB. */
  rssCollectedMiB: number;
}

export interface PlaygroundSessionResult {
  at10: SessionPoint;
  at300: SessionPoint;
  replyPollRatio: number;
  idlePollRatio: number;
  rssRatio: number;
  rssCollectedRatio: number;
}

async function vmRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Asks the process for a full garbage collection through its inspector. */
async function collectGarbage(inspectorUrl: string): Promise<void> {
  const ws = new WebSocket(inspectorUrl);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  await new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      if ((JSON.parse(String(data)) as { id?: number }).id === 1) resolve();
    });
    ws.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
  });
  ws.close();
}

async function start(): Promise<{ child: ChildProcess; url: string; inspector: string }> {
  const child = spawn(
    process.execPath,
    ['--inspect=127.0.0.1:0', '--import', 'tsx', 'packages/playground/src/playground/main.ts'],
    {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', LOG_FORMAT: 'json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const collect = (d: string) => {
    out += d;
  };
  child.stdout?.setEncoding('utf8').on('data', collect);
  let err = '';
  const collectErr = (d: string) => {
    err += d;
  };
  child.stderr?.setEncoding('utf8').on('data', collectErr);
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (performance.now() < deadline) {
    const line = out.split('\n').find((l) => l.includes('playground ready'));
    const inspector = /Debugger listening on (ws:\/\/\S+)/.exec(err)?.[1];
    if (line && inspector) {
      // From here on its log is not read (it is not part of what is measured).
      child.stdout?.off('data', collect).resume();
      child.stderr?.off('data', collectErr).resume();
      return { child, url: (JSON.parse(line) as { url: string }).url, inspector };
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`the playground did not start:\n${out}`);
}

interface Poll {
  ms: number;
  bytes: number;
  body: { version: number; unchanged?: boolean; entries?: { kind: string; html: string }[] };
}

/**
 * `total` commands, measured after `early` and after all; `idlePolls` idle polls at each measure (fewer for a
 * smoke run). Every command must be answered, and not with a refusal or an error, or no figure is returned.
 */
export async function runPlaygroundSessionBench(
  total = 300,
  early = 10,
  idlePolls = IDLE_POLLS,
): Promise<PlaygroundSessionResult> {
  const { child, url, inspector } = await start();
  let version = 0;
  /** Each command's reply, as rendered (or that none came). */
  const answers: string[] = [];
  const poll = async (): Promise<Poll> => {
    const t = performance.now();
    const res = await fetch(new URL(`/playground/api/state?tz=UTC&c=${CHANNEL}&since=${version}`, url));
    const text = await res.text();
    const ms = performance.now() - t;
    const body = JSON.parse(text) as Poll['body'];
    version = body.version;
    return { ms, bytes: text.length, body };
  };
  const command = async (text: string): Promise<Poll[]> => {
    await fetch(new URL('/playground/api/command', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: `/vigil ${text}`, conversation: CHANNEL }),
    });
    // As the page does: poll until the reply has replaced its placeholder (or nothing more comes).
    const polls: Poll[] = [];
    for (let i = 0; i < 40; i++) {
      const p = await poll();
      polls.push(p);
      const replies = (p.body.entries ?? []).filter((e) => e.kind === 'ephemeral');
      const reply = replies.find((e) => !/…<\/div>/.test(e.html) || e.html.length > 900);
      if (reply) {
        answers.push(`/vigil ${text}: ${reply.html}`);
        return polls;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    answers.push(`/vigil ${text}: no reply after ${polls.length} polls`);
    return polls;
  };
  const measure = async (commands: number, replyPolls: Poll[]): Promise<SessionPoint> => {
    // A page left open: it polls every 700 ms while nothing happens. V8 collects idle garbage then (its
    // memory reducer), so the memory measured is what the session keeps, not what it has not swept yet.
    const idle: number[] = [];
    for (let i = 0; i < idlePolls; i++) {
      idle.push((await poll()).ms);
      await new Promise((r) => setTimeout(r, IDLE_EVERY_MS));
    }
    const changed = replyPolls.filter((p) => p.body.unchanged !== true);
    const rssMiB = await vmRss(child.pid ?? 0);
    await collectGarbage(inspector);
    return {
      commands,
      replyPollP50: p50(changed.map((p) => p.ms)),
      idlePollP50: p50(idle),
      replyPollBytes: p50(changed.map((p) => p.bytes)),
      rssMiB,
      rssCollectedMiB: await vmRss(child.pid ?? 0),
    };
  };
  try {
    await poll();
    let recent: Poll[] = [];
    let at10: SessionPoint | undefined;
    for (let n = 1; n <= total; n++) {
      const polls = await command(SESSION[(n - 1) % SESSION.length] ?? 'help');
      // The poll that brought the reply: the last of the command's polls.
      const last = polls.at(-1);
      if (last) recent.push(last);
      if (recent.length > early) recent = recent.slice(-early);
      if (n === early) at10 = await measure(n, recent);
    }
    const at300 = await measure(total, recent);
    if (!at10) throw new Error('no early measure');
    verifyWork('playground session', [
      exactly('commands answered', answers.length, total),
      allResults('replies', answers, (a) => !NOT_A_RESULT.test(a) && !/: no reply after \d+ polls$/.test(a)),
    ]);
    return {
      at10,
      at300,
      replyPollRatio: at300.replyPollP50 / at10.replyPollP50,
      idlePollRatio: at300.idlePollP50 / at10.idlePollP50,
      rssRatio: at300.rssMiB / at10.rssMiB,
      rssCollectedRatio: at300.rssCollectedMiB / at10.rssCollectedMiB,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('close', r));
  }
}

export function playgroundSessionTable(r: PlaygroundSessionResult): string {
  const row = (label: string, a: string, b: string, ratio: number) =>
    `| ${label.padEnd(39)} | ${a.padStart(10)} | ${b.padStart(11)} | ${`${ratio.toFixed(2)}×`.padStart(6)} |`;
  return [
    `| playground session (commands)           | after ${r.at10.commands.toString().padStart(4)} | after ${r.at300.commands.toString().padStart(5)} | ratio  |`,
    '| --------------------------------------- | ---------- | ----------- | ------ |',
    row(
      'poll bringing a reply, p50',
      `${r.at10.replyPollP50.toFixed(1)} ms`,
      `${r.at300.replyPollP50.toFixed(1)} ms`,
      r.replyPollRatio,
    ),
    row(
      'idle poll, p50',
      `${r.at10.idlePollP50.toFixed(1)} ms`,
      `${r.at300.idlePollP50.toFixed(1)} ms`,
      r.idlePollRatio,
    ),
    row(
      'resident memory after a full collection',
      `${r.at10.rssCollectedMiB.toFixed(0)} MiB`,
      `${r.at300.rssCollectedMiB.toFixed(0)} MiB`,
      r.rssCollectedRatio,
    ),
    row(
      'resident memory as found, after idling',
      `${r.at10.rssMiB.toFixed(0)} MiB`,
      `${r.at300.rssMiB.toFixed(0)} MiB`,
      r.rssRatio,
    ),
    `(reply polls carried ${Math.round(r.at10.replyPollBytes / 1024)} KB and ${Math.round(r.at300.replyPollBytes / 1024)} KB, p50; goal: ratios ≤ 1.2×)`,
  ].join('\n');
}
