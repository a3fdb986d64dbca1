/**
 * Ack latency of `/vigil help` against a bare Bolt app, at fixed concurrency levels. Both servers run side by
 * side and are measured in alternating rounds (ABBA order) after a warm-up each, so drift in the machine's
 * load or JIT state falls on both equally.
 */
import type { LoadClient } from './load/client.js';
import type { LoadResult } from './load/protocol.js';
import { type Summary, summarize } from './stats.js';
import { BASELINE_ACK_TEXT, type Target } from './targets.js';

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
  baseline: Summary;
  vigil: Summary;
  /** Vigil ÷ baseline: how many times slower Vigil acks. */
  p50Ratio: number;
  p99Ratio: number;
  /** Baseline ÷ Vigil: how many times less Vigil serves per second. */
  throughputRatio: number;
}

export interface AckBenchTargets {
  client: LoadClient;
  baseline: Target;
  vigil: Target;
  signingSecret: string;
  responseUrl: string;
}

type Which = 'baseline' | 'vigil';

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
  if (!ok) throw new Error(`${which} did not ack with its help message: ${String(body).slice(0, 300)}`);
}

export async function runAckBench(opts: AckBenchOptions, t: AckBenchTargets): Promise<AckLevelResult[]> {
  const results: AckLevelResult[] = [];
  const perRound = Math.ceil(opts.count / opts.rounds);

  const fire = async (which: Which, concurrency: number, count: number): Promise<LoadResult> => {
    const result = await t.client.run({
      url: t[which].eventsUrl,
      signingSecret: t.signingSecret,
      text: 'help',
      responseUrl: t.responseUrl,
      concurrency,
      count,
    });
    if (result.failures > 0) {
      throw new Error(`${which}: ${result.failures}/${count} requests failed, first: ${result.firstFailure}`);
    }
    checkAnswer(which, result.sampleBody);
    return result;
  };

  for (const concurrency of opts.levels) {
    await fire('baseline', concurrency, opts.warmup);
    await fire('vigil', concurrency, opts.warmup);
    const samples: Record<Which, Float64Array[]> = { baseline: [], vigil: [] };
    const wall: Record<Which, number> = { baseline: 0, vigil: 0 };
    for (let round = 0; round < opts.rounds; round++) {
      const order: Which[] = round % 2 === 0 ? ['baseline', 'vigil'] : ['vigil', 'baseline'];
      for (const which of order) {
        const r = await fire(which, concurrency, perRound);
        samples[which].push(r.latenciesMs);
        wall[which] += r.wallMs;
      }
    }
    const baseline = summarize(concat(samples.baseline), wall.baseline);
    const vigil = summarize(concat(samples.vigil), wall.vigil);
    results.push({
      concurrency,
      baseline,
      vigil,
      p50Ratio: vigil.p50 / baseline.p50,
      p99Ratio: vigil.p99 / baseline.p99,
      throughputRatio: baseline.rps / vigil.rps,
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
