/** Human tables and one JSON line per result (prefixed `BENCH `) for machines. */
import type { AckLevelResult } from './ack-latency.js';
import type { StartupResult } from './startup.js';

const ms = (v: number) => `${v.toFixed(2)} ms`;
const x = (v: number) => `${v.toFixed(2)}×`;
const rps = (v: number) => `${Math.round(v)}/s`;

function table(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))))
    .map((r) => r.join('  '))
    .join('\n');
}

export function ackTable(r: AckLevelResult): string {
  return [
    `/vigil help ack — concurrency ${r.concurrency}, ${r.vigil.count} requests each`,
    table([
      ['', 'p50', 'p99', 'throughput'],
      ['bare Bolt (short text)', ms(r.baseline.p50), ms(r.baseline.p99), rps(r.baseline.rps)],
      ['Vigil', ms(r.vigil.p50), ms(r.vigil.p99), rps(r.vigil.rps)],
      ['ratio', x(r.p50Ratio), x(r.p99Ratio), x(r.throughputRatio)],
      ["bare Bolt (Vigil's help body)", ms(r.sameBody.p50), ms(r.sameBody.p99), rps(r.sameBody.rps)],
      ['ratio vs same body', x(r.p50RatioSameBody), '', x(r.throughputRatioSameBody)],
    ]),
    '(latency ratio = Vigil ÷ bare Bolt; throughput ratio = bare Bolt ÷ Vigil; 1.00× = no overhead)',
  ].join('\n');
}

export function startupTable(r: StartupResult): string {
  return [
    `start-up to listening — ${r.vigil.runs} starts each`,
    table([
      ['', 'min', 'p50', 'max'],
      ['bare Bolt (stock)', ms(r.baseline.min), ms(r.baseline.p50), ms(r.baseline.max)],
      [
        'bare Bolt, auth.test awaited',
        ms(r.baselineInit.min),
        ms(r.baselineInit.p50),
        ms(r.baselineInit.max),
      ],
      ['Vigil', ms(r.vigil.min), ms(r.vigil.p50), ms(r.vigil.max)],
      ['ratio p50 vs stock', '', x(r.p50Ratio), ''],
      ['ratio p50 vs auth.test awaited', '', x(r.p50RatioInit), ''],
    ]),
    '(stock Bolt fires auth.test without waiting; Vigil waits for it so a bad token fails the start)',
  ].join('\n');
}

const round = (v: number) => Math.round(v * 1000) / 1000;

export function ackJson(r: AckLevelResult): string {
  const side = (s: AckLevelResult['vigil']) => ({
    count: s.count,
    p50Ms: round(s.p50),
    p99Ms: round(s.p99),
    meanMs: round(s.mean),
    maxMs: round(s.max),
    rps: round(s.rps),
  });
  return `BENCH ${JSON.stringify({
    bench: 'ack-latency',
    command: '/vigil help',
    concurrency: r.concurrency,
    baseline: side(r.baseline),
    vigil: side(r.vigil),
    p50Ratio: round(r.p50Ratio),
    p99Ratio: round(r.p99Ratio),
    throughputRatio: round(r.throughputRatio),
    baselineSameBody: side(r.sameBody),
    p50RatioSameBody: round(r.p50RatioSameBody),
    throughputRatioSameBody: round(r.throughputRatioSameBody),
  })}`;
}

export function startupJson(r: StartupResult): string {
  const side = (s: StartupResult['vigil']) => ({
    runs: s.runs,
    minMs: round(s.min),
    p50Ms: round(s.p50),
    maxMs: round(s.max),
  });
  return `BENCH ${JSON.stringify({
    bench: 'startup',
    baseline: side(r.baseline),
    baselineAuthTestAwaited: side(r.baselineInit),
    vigil: side(r.vigil),
    p50Ratio: round(r.p50Ratio),
    p50RatioAuthTestAwaited: round(r.p50RatioInit),
  })}`;
}
