/**
 * The figures of one fleet run (fleet.ts) from what reached the simulated API and Slack, and their table.
 * Slack's limits are per app per workspace per method; the tiers are those of
 * https://docs.slack.dev/apis/web-api/rate-limits (Tier 1: 1+/min, Tier 2: 20+/min, Tier 3: 50+/min,
 * Tier 4: 100+/min; chat.postMessage: about one message a second per channel).
 */
import type { LoggedRequest } from '../../packages/playground/src/sim/api/types.js';
import type { RecordedCall } from '../../packages/playground/src/sim/slack/types.js';
import { percentile } from '../stats.js';
import { type FairBaseline, fairBaseline, slowestTenthRatio } from './fair-baseline.js';

export interface Posted {
  uid: string;
  team: string;
  at: number;
}

export interface Takeover {
  /** Alerts the event added to every tenant at the kill called for, and how many were posted. */
  expected: number;
  alerted: number;
  /** From the SIGKILL to the median and to the last of those alerts. */
  p50Ms: number;
  allMs: number;
}

/** Per minute and workspace, the limit of the methods Vigil calls (undefined: not in a tier table). */
const PER_MINUTE: Record<string, number> = {
  'chat.postMessage': 60,
  'chat.update': 50,
  'chat.postEphemeral': 100,
  'chat.getPermalink': 100,
  'conversations.info': 50,
  'users.info': 100,
  'auth.test': 100,
  'team.info': 20,
};

export interface FleetResult {
  instances: number;
  workspaces: number;
  tenants: number;
  seedMs: number;
  windowMs: number;
  events: number;
  /** Event alerts (an event in one workspace) posted for the measured events, and how many were due. */
  alerts: number;
  expected: number;
  p50Ms: number;
  p99Ms: number;
  /** Median of the workspaces' mean delays, and the slowest tenth's (p90) over it: the fairness goal is ≤ 1.5. */
  workspaceMedianMs: number;
  /** Events with no alert in any workspace of their tenant, and with alerts in some but not all. */
  eventsMissed: number;
  eventsPartly: number;
  slowestTenthRatio: number;
  /** The same figure for a perfectly fair scheduler with the same samples (fair-baseline.ts). */
  fair: FairBaseline;
  feedSearches: number;
  apiCallsPerTenantPerMinute: number;
  api429: number;
  slack429: number;
  /** Per method: the most calls one workspace made in any minute, against its limit. */
  slackPeak: Record<string, { perMinute: number; limit: number | undefined }>;
  digests: number;
  /** Digests due with something to say: workspaces whose tenant had an event before they fell due. */
  digestsDue: number;
  /** When they fell due, from the window's start (planned: a 1/k of the window, k events per tenant). */
  digestAfterMs: number;
  rssMb: number[];
  storeBytesPerWorkspace: number;
  keysPerWorkspace: number;
  takeover: Takeover | undefined;
  warnings: number;
  /** The same lines by message. */
  warned: Record<string, number>;
}

function peakPerMinute(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= 60_000) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

export interface FleetRun {
  instances: number;
  opts: { workspaces: number; tenants: number; pollMs: number };
  seedMs: number;
  windowMs: number;
  appeared: Map<string, { at: number; tenant: { tenantId: number } }>;
  teamsOfTenant: Map<number, string[]>;
  posted: Posted[];
  apiLog: LoggedRequest[];
  slackCalls: RecordedCall[];
  teamOfToken: Map<string, string>;
  rss: number[];
  store: { usedBytes: number; keys: number };
  takeover: Takeover | undefined;
  /** Warning and error log lines of the instances, by message. */
  warnings: Record<string, number>;
  digestsDue: number;
  digestAfterMs: number;
}

export function figuresOf(run: FleetRun): FleetResult {
  const delays: number[] = [];
  const byTeam = new Map<string, number[]>();
  // When each workspace's measured events appeared: the fair baseline's samples are the same as the figure's.
  const appearedFor = new Map<string, number[]>();
  const seen = new Set<string>();
  for (const p of run.posted) {
    const event = run.appeared.get(p.uid);
    const pair = `${p.uid} ${p.team}`;
    if (!event || seen.has(pair)) continue;
    seen.add(pair);
    delays.push(p.at - event.at);
    byTeam.set(p.team, [...(byTeam.get(p.team) ?? []), p.at - event.at]);
    appearedFor.set(p.team, [...(appearedFor.get(p.team) ?? []), event.at]);
  }
  const expected = [...run.appeared.values()].reduce(
    (sum, e) => sum + (run.teamsOfTenant.get(e.tenant.tenantId)?.length ?? 0),
    0,
  );
  const alertedIn = new Map<string, number>();
  for (const pair of seen) {
    const uid = pair.split(' ')[0] ?? '';
    alertedIn.set(uid, (alertedIn.get(uid) ?? 0) + 1);
  }
  const missing = [...run.appeared].map(
    ([uid, e]) => [alertedIn.get(uid) ?? 0, run.teamsOfTenant.get(e.tenant.tenantId)?.length ?? 0] as const,
  );
  const sorted = Float64Array.from(delays).sort();
  const means = [...byTeam.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length);
  const median = percentile(Float64Array.from(means).sort(), 0.5);
  const perMethod = new Map<string, Map<string, number[]>>();
  for (const c of run.slackCalls) {
    const team = run.teamOfToken.get(c.token ?? '');
    if (!team) continue;
    const teams = perMethod.get(c.method) ?? new Map<string, number[]>();
    teams.set(team, [...(teams.get(team) ?? []), c.at]);
    perMethod.set(c.method, teams);
  }
  const slackPeak = Object.fromEntries(
    [...perMethod].map(([method, teams]) => [
      method,
      { perMinute: Math.max(0, ...[...teams.values()].map(peakPerMinute)), limit: PER_MINUTE[method] },
    ]),
  );
  const minutes = run.windowMs / 60_000;
  const feedSearches = run.apiLog.filter((e) => e.path.endsWith('/_search') && e.status === 200).length;
  return {
    instances: run.instances,
    workspaces: run.opts.workspaces,
    tenants: run.opts.tenants,
    seedMs: run.seedMs,
    windowMs: run.windowMs,
    events: run.appeared.size,
    alerts: delays.length,
    expected,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    workspaceMedianMs: median,
    eventsMissed: missing.filter(([got]) => got === 0).length,
    eventsPartly: missing.filter(([got, due]) => got > 0 && got < due).length,
    slowestTenthRatio: slowestTenthRatio(means),
    fair: fairBaseline([...appearedFor.values()], run.opts.pollMs),
    feedSearches,
    apiCallsPerTenantPerMinute: run.apiLog.length / run.opts.tenants / minutes,
    api429: run.apiLog.filter((e) => e.status === 429).length,
    slack429: run.slackCalls.filter((c) => c.response.error === 'ratelimited').length,
    slackPeak,
    digests: run.slackCalls.filter(
      (c) =>
        c.method === 'chat.postMessage' && JSON.stringify(c.body.metadata ?? '').includes('vigil_digest'),
    ).length,
    digestsDue: run.digestsDue,
    digestAfterMs: run.digestAfterMs,
    rssMb: run.rss.map((b) => b / 2 ** 20),
    storeBytesPerWorkspace: run.store.usedBytes / run.opts.workspaces,
    keysPerWorkspace: run.store.keys / run.opts.workspaces,
    takeover: run.takeover,
    warnings: Object.values(run.warnings).reduce((a, b) => a + b, 0),
    warned: run.warnings,
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One table row per instance count, ratios against the first (the baseline of the same run). */
export function fleetTable(results: FleetResult[]): string {
  const base = results[0];
  const ratio = (v: number, b: number | undefined) => (b ? ` (${(v / b).toFixed(2)}×)` : '');
  const head = [
    'instances',
    'alerts',
    'delay p50 / p99',
    'slowest tenth / median',
    'fair scheduler, same samples',
    'API calls /tenant/min',
    '429 API / Slack',
    'digests / due after an event',
    'RSS per instance',
    'store /workspace',
  ];
  const rows = results.map((r) => [
    String(r.instances),
    `${r.alerts}/${r.expected}`,
    `${s(r.p50Ms)}${ratio(r.p50Ms, base?.p50Ms)} / ${s(r.p99Ms)}${ratio(r.p99Ms, base?.p99Ms)}`,
    `${r.slowestTenthRatio.toFixed(2)} (goal ≤ 1.5)`,
    `${r.fair.ratio.toFixed(2)} (${r.fair.low.toFixed(2)}–${r.fair.high.toFixed(2)}), ${r.fair.perWorkspace.toFixed(1)} alerts/ws`,
    `${r.apiCallsPerTenantPerMinute.toFixed(1)}${ratio(r.apiCallsPerTenantPerMinute, base?.apiCallsPerTenantPerMinute)}`,
    `${r.api429} / ${r.slack429}`,
    `${r.digests}/${r.digestsDue}`,
    r.rssMb.map((m) => `${m.toFixed(0)} MB`).join(', '),
    `${(r.storeBytesPerWorkspace / 1024).toFixed(1)} KiB, ${r.keysPerWorkspace.toFixed(1)} keys`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Slack calls per workspace per method (the busiest workspace's busiest minute) and the takeover. */
export function fleetDetails(r: FleetResult): string[] {
  const methods = Object.entries(r.slackPeak)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([m, p]) => `${m} ${p.perMinute}/min (limit ${p.limit ?? '?'})`);
  const lines = [
    `${r.instances} instance(s): Slack per workspace, busiest minute: ${methods.join('; ')}`,
    `  digests fell due ${s(r.digestAfterMs)} into the window: ${r.digests} posted, ${r.digestsDue} after their tenant's first event`,
  ];
  if (r.alerts < r.expected)
    lines.push(
      `  missed: ${r.expected - r.alerts} alerts; ${r.eventsMissed} events alerted nowhere, ${r.eventsPartly} in some workspaces of their tenant only`,
    );
  if (r.takeover) {
    const t = r.takeover;
    lines.push(
      `  takeover after SIGKILL of one of two: ${t.alerted}/${t.expected} alerts, median ${s(t.p50Ms)}, all by ${s(t.allMs)} after the kill`,
    );
  }
  const warned = Object.entries(r.warned);
  if (warned.length > 0) lines.push(`  logged: ${warned.map(([m, n]) => `${n}× "${m}"`).join('; ')}`);
  return lines;
}
