/**
 * Fairness of searches: another member's `/vigil events` latency while one member floods 20 searches, through
 * the signed HTTP path, against the simulated API (which holds the organization's rate limit). Vigil with its
 * fair gate is compared with the same Vigil whose gate admits everything (the behaviour before the gate),
 * in the same run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_BOT_TOKEN, SEEDED_USERS } from '../packages/playground/src/sim/slack/index.js';
import { loadConfig } from '../src/app/config.js';
import { startVigil } from '../src/app/start.js';
import type { FairGateOptions } from '../src/domain/fair-gate.js';
import { createLogger } from '../src/kernel/logger.js';
import { createSlackSender } from '../test/harness/index.js';
import { median } from './stats.js';
import { SIGNING_SECRET, type Upstreams } from './targets.js';
import { allResults, verifyWork } from './verify.js';

export interface FairnessResult {
  label: string;
  /** Another member's search alone, ms (median of rounds). */
  idleMs: number;
  /** The same search while one member floods `flood` searches, ms (median of rounds). */
  floodedMs: number;
  /** Flooding searches answered "wait for them" instead of being queued. */
  refused: number;
}

const IDENTIFIER = 3001;
/** An answer (its JSON) that is a page of events. */
const isResult = (answer: string) => /Events 1/.test(answer);
/** The fair gate's answer to a member with too many searches in flight. */
const isGateRefusal = (answer: string) => /"text":"You have/.test(answer);

async function measure(
  up: Upstreams,
  label: string,
  gate: Partial<FairGateOptions>,
  flood: number,
  rounds: number,
): Promise<FairnessResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vigil-bench-fair-'));
  const key = up.sim.keys[0];
  if (!key) throw new Error('no simulated key');
  const config = loadConfig({
    SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: up.slack.apiUrl,
    PORT: '0',
    VIGIL_STORE: `sqlite://${join(dataDir, 'vigil.sqlite')}`,
    VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    VIGIL_API_URL: up.sim.url,
    VIGIL_API_KEY: key.apiKey,
    VIGIL_TENANT_ID: String(key.defaultTenantId),
    LOG_LEVEL: 'error',
  });
  const vigil = await startVigil({
    config,
    logger: createLogger({ level: 'error', write: () => {} }),
    host: '127.0.0.1',
    searchGate: gate,
  });
  const sender = createSlackSender({
    receiverUrl: `${vigil.url}/slack/events`,
    signingSecret: SIGNING_SECRET,
  });
  /** One search by `userId`: ms from the signed request to the answer on its response_url. */
  const search = async (userId: string, size: number): Promise<{ ms: number; text: string }> => {
    const responseUrl = up.slack.responseUrl();
    const path = new URL(responseUrl).pathname;
    const started = performance.now();
    const answered = up.slack.waitForPost((p) => p.path === path, 120_000);
    await sender.slashCommand({ text: `events ${IDENTIFIER} size:${size}`, responseUrl, userId });
    const post = await answered;
    return { ms: performance.now() - started, text: JSON.stringify(post.body) };
  };
  try {
    await search(SEEDED_USERS.admin, 1); // warm: token, tenant, SQLite
    const idle: number[] = [];
    const flooded: number[] = [];
    const measured: string[] = [];
    const floodAnswers: string[] = [];
    let refused = 0;
    const timed = async () => {
      const { ms, text } = await search(SEEDED_USERS.admin, 1);
      measured.push(text);
      return ms;
    };
    for (let r = 0; r < rounds; r++) {
      await new Promise((resolve) => setTimeout(resolve, 1100)); // let the rate window empty between rounds
      idle.push(await timed());
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const floods = Array.from({ length: flood }, (_, i) => search(SEEDED_USERS.member, 1 + (i % 10)));
      flooded.push(await timed());
      for (const f of await Promise.all(floods)) {
        if (isGateRefusal(f.text)) refused++;
        floodAnswers.push(f.text);
      }
    }
    // The timed searches are results, and the flood is searches (or the gate's "wait for them"), not refusals.
    verifyWork(`fairness (${label})`, [
      allResults("other member's searches", measured, isResult),
      allResults('flooding searches', floodAnswers, (t) => isResult(t) || isGateRefusal(t)),
    ]);
    return { label, idleMs: median(idle), floodedMs: median(flooded), refused: refused / rounds };
  } finally {
    await vigil.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function runFairnessBench(up: Upstreams, flood = 20, rounds = 3): Promise<FairnessResult[]> {
  const unbounded = { perUser: Number.MAX_SAFE_INTEGER, concurrency: Number.MAX_SAFE_INTEGER };
  return [
    await measure(up, 'no gate (before)', unbounded, flood, rounds),
    await measure(up, 'fair gate (after)', {}, flood, rounds),
  ];
}

export function fairnessTable(results: FairnessResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.label.padEnd(18)} | ${r.idleMs.toFixed(0).padStart(6)} ms | ${r.floodedMs.toFixed(0).padStart(7)} ms | ${(r.floodedMs / r.idleMs).toFixed(1).padStart(6)}× | ${String(r.refused).padStart(7)} |`,
  );
  const [before, after] = results;
  const gain =
    before && after
      ? `\nflooded latency before/after: ${(before.floodedMs / after.floodedMs).toFixed(1)}×`
      : '';
  return (
    [
      "| another member's search | alone     | 20 flooding | ratio   | refused |",
      '| ------------------------ | --------- | ----------- | ------- | ------- |',
      ...rows,
    ].join('\n') + gain
  );
}
