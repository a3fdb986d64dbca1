/**
 * Ack latency of `/vigil help` against a bare Bolt app, at fixed concurrency levels. All servers run side by
 * side and are measured in rotating rounds after a warm-up each, so drift in the machine's load or JIT state
 * falls on all of them alike. A second Bolt app acking Vigil's exact help message splits Vigil's overhead
 * into what its larger answer costs and what its own code costs.
 */
import type { LoadClient } from './load/client.js';
import type { LoadResult } from './load/protocol.js';
import { type Summary, summarize } from './stats.js';
import { BASELINE_ACK_TEXT, type Target } from './targets.js';
import { excerpt, verifyWork } from './verify.js';

export interface AckBenchOptions {
  levels: readonly number[];
  /** Requests per target per level before measuring. */
  warmup: number;
  /** Measured requests per target per level, split over `rounds`. */
  count: number;
  rounds: number;
}

export interface AckLevelResult {
  concurrency: number;
  /** Bare Bolt acking a short ephemeral text. */
  baseline: Summary;
  /** Bare Bolt acking the same help message Vigil sends. */
  sameBody: Summary;
  vigil: Summary;
  /** Vigil ÷ baseline: how many times slower Vigil acks. */
  p50Ratio: number;
  p99Ratio: number;
  /** Baseline ÷ Vigil: how many times less Vigil serves per second. */
  throughputRatio: number;
  /** Vigil ÷ same-body Bolt, p50: Vigil's own code, the answer's size factored out. */
  p50RatioSameBody: number;
  throughputRatioSameBody: number;
}

export const TARGETS = ['baseline', 'sameBody', 'vigil'] as const;
export type Which = (typeof TARGETS)[number];

export interface AckBenchTargets {
  client: LoadClient;
  servers: Record<Which, Target>;
  signingSecret: string;
  responseUrl: string;
}

/** What each server must answer, so a fast wrong answer (a 200 with nothing in it) cannot pass. */
function checkAnswer(which: Which, body: string | undefined): void {
  const parsed = body
    ? (JSON.parse(body) as { response_type?: string; text?: string; blocks?: unknown[] })
    : {};
  const ok =
    parsed.response_type === 'ephemeral' &&
    (which === 'baseline'
      ? parsed.text === BASELINE_ACK_TEXT
      : Array.isArray(parsed.blocks) && parsed.blocks.length > 0 && /help/i.test(JSON.stringify(parsed)));
  verifyWork(`ack latency (${which})`, [
    { what: 'an ephemeral ack with its help message', ok, got: excerpt(String(body), 300) },
  ]);
}

export async function runAckBench(opts: AckBenchOptions, t: AckBenchTargets): Promise<AckLevelResult[]> {
  const results: AckLevelResult[] = [];
  const perRound = Math.ceil(opts.count / opts.rounds);

  const fire = async (which: Which, concurrency: number, count: number): Promise<LoadResult> => {
    const result = await t.client.run({
      url: t.servers[which].eventsUrl,
      signingSecret: t.signingSecret,
      text: 'help',
      responseUrl: t.responseUrl,
      concurrency,
      count,
    });
    verifyWork(`ack latency (${which})`, [
      {
        what: `all ${count} requests answered 200`,
        ok: result.failures === 0,
        got: `${result.failures} failed, the first: ${result.firstFailure}`,
      },
    ]);
    checkAnswer(which, result.sampleBody);
    return result;
  };

  for (const concurrency of opts.levels) {
    for (const which of TARGETS) await fire(which, concurrency, opts.warmup);
    const samples: Record<Which, Float64Array[]> = { baseline: [], sameBody: [], vigil: [] };
    const wall: Record<Which, number> = { baseline: 0, sameBody: 0, vigil: 0 };
    for (let round = 0; round < opts.rounds; round++) {
      // Rotate who goes first so none always follows the same neighbour.
      for (let k = 0; k < TARGETS.length; k++) {
        const which = TARGETS[(round + k) % TARGETS.length] as Which;
        const r = await fire(which, concurrency, perRound);
        samples[which].push(r.latenciesMs);
        wall[which] += r.wallMs;
      }
    }
    const [baseline, sameBody, vigil] = TARGETS.map((w) => summarize(concat(samples[w]), wall[w])) as [
      Summary,
      Summary,
      Summary,
    ];
    results.push({
      concurrency,
      baseline,
      sameBody,
      vigil,
      p50Ratio: vigil.p50 / baseline.p50,
      p99Ratio: vigil.p99 / baseline.p99,
      throughputRatio: baseline.rps / vigil.rps,
      p50RatioSameBody: vigil.p50 / sameBody.p50,
      throughputRatioSameBody: sameBody.rps / vigil.rps,
    });
  }
  return results;
}

function concat(parts: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
