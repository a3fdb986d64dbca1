/**
 * Exporting credentials: 10,000 rows from the simulated API streamed into a CSV and uploaded to the fake
 * Slack (upload v2, into a DM), against the baseline of the same pages fetched and dropped, in the same run.
 * Reported: time of each and their ratio, and peak RSS growth over the resident size before each started
 * (sampled every 5 ms), after a warm-up round. Both simulators run in this process; the fake Slack keeps the uploaded file in
 * memory, so its size is printed beside the memory figures.
 *
 * The client's rate limits are lifted for both runs: production's one search per second would add the same
 * second per page to each and hide what Vigil itself costs.
 */
import { WebClient } from '@slack/web-api';
import { startSimApi } from '../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_BOT_TOKEN,
  SEEDED_USERS,
  startFakeSlack,
} from '../packages/playground/src/sim/slack/index.js';
import { type ApiSession, createApiClient } from '../src/api/index.js';
import type { WorkspaceApi } from '../src/domain/workspace-api.js';
import { startExport } from '../src/features/credentials/export.js';
import { exportPageSize } from '../src/features/credentials/export-size.js';
import { systemClock } from '../src/kernel/clock.js';
import { silentLogger } from '../src/kernel/logger.js';
import { openDm, uploadFileToDm } from '../src/slack/file-upload.js';
import { atLeast, exactly, verifyWork } from './verify.js';

export interface CredsExportResult {
  rows: number;
  pageSize: number;
  rounds: number;
  /** Median of the rounds. */
  apiMs: number;
  exportMs: number;
  ratio: number;
  /** Worst round. */
  apiRssGrowthMb: number;
  exportRssGrowthMb: number;
  csvMb: number;
}

const MB = 1024 * 1024;

async function peakRssGrowth<T>(fn: () => Promise<T>): Promise<{ value: T; growthMb: number; ms: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const started = performance.now();
  try {
    const value = await fn();
    const ms = performance.now() - started;
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, growthMb: (peak - before) / MB, ms };
  } finally {
    clearInterval(timer);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function runCredsExportBench(rows: number, rounds: number): Promise<CredsExportResult> {
  const sim = await startSimApi({ emptyPageEvery: 0 });
  const slack = await startFakeSlack();
  const key = sim.keys[0];
  if (!key) throw new Error('the simulated API has no keys');
  sim.state.searchQuota(key.organizationId).remaining = 1_000_000;
  const client = createApiClient({
    baseUrl: sim.url,
    allowedHosts: [],
    rateLimits: { ordinaryPerSecond: 10_000, searchPerSecond: 10_000 },
  });
  const session: ApiSession = client.session({ apiKey: key.apiKey, tenantId: key.defaultTenantId });
  const workspace: WorkspaceApi = {
    session,
    host: '127.0.0.1',
    connection: undefined,
    fromEnvironment: true,
  };
  const web = new WebClient(DEFAULT_BOT_TOKEN, { slackApiUrl: slack.apiUrl });
  const search = { query: { type: 'domain' as const, fqdn: 'bulk.example' } };
  const pageSize = exportPageSize(rows);
  const deps = {
    api: { call: <T>(_ws: string, fn: (api: WorkspaceApi) => Promise<T>) => fn(workspace) },
    audit: { append: async () => undefined },
    leases: { lease: async () => ({ renew: async () => true, release: async () => undefined }) },
    // The record of an export under way: kept in memory here (the store is not what is measured).
    running: {
      get: async () => undefined,
      set: async <T>(_ws: string, _key: string, value: T) => value,
      delete: async () => true,
      entries: async () => [],
    },
    clock: systemClock,
    logger: silentLogger,
  };
  const api: number[] = [];
  const exp: number[] = [];
  let apiGrowth = 0;
  let exportGrowth = 0;
  let bytes = 0;
  try {
    await session.generateToken();
    // Round 0 warms up (JIT, connection pools, token) and is not counted.
    for (let round = 0; round <= rounds; round++) {
      const dm = await openDm(web, SEEDED_USERS.member);
      // Baseline: the same pages, fetched and dropped.
      const a = await peakRssGrowth(async () => {
        let n = 0;
        for await (const step of session.iterateCredentials({ ...search, size: pageSize })) {
          n += step.items.length;
          if (n >= rows || step.done) break;
        }
        return n;
      });
      const e = await peakRssGrowth(async () => {
        const started = await startExport(deps, {
          workspaceId: 'T0BENCH',
          userId: 'U0BENCH',
          search,
          limit: rows,
        });
        return started.run({
          progress: async () => undefined,
          deliver: async (file) => {
            await uploadFileToDm(web, dm, { ...file, title: 'bench export' });
          },
        });
      });
      const uploads = slack.calls.filter((c) => c.method === 'files.completeUploadExternal' && c.response.ok);
      verifyWork('creds export', [
        atLeast('credential rows fetched by the baseline', a.value, rows),
        exactly('rows exported', e.value.rows, rows),
        exactly('file uploaded to the DM', uploads.length, 1),
      ]);
      slack.reset();
      if (round === 0) continue;
      api.push(a.ms);
      exp.push(e.ms);
      apiGrowth = Math.max(apiGrowth, a.growthMb);
      exportGrowth = Math.max(exportGrowth, e.growthMb);
      bytes = e.value.bytes;
    }
  } finally {
    await client.close();
    await Promise.allSettled([sim.close(), slack.close()]);
  }
  const apiMs = median(api);
  const exportMs = median(exp);
  return {
    rows,
    pageSize,
    rounds,
    apiMs,
    exportMs,
    ratio: exportMs / apiMs,
    apiRssGrowthMb: apiGrowth,
    exportRssGrowthMb: exportGrowth,
    csvMb: bytes / MB,
  };
}

export function credsExportTable(r: CredsExportResult): string {
  const f = (v: number) => v.toFixed(1);
  return [
    `credentials export — ${r.rows.toLocaleString('en-US')} rows in pages of ${r.pageSize}, median of ${r.rounds} rounds`,
    `  simulated API serving the pages: ${f(r.apiMs)} ms; peak RSS growth ${f(r.apiRssGrowthMb)} MB`,
    `  Vigil export (stream → CSV file → upload v2): ${f(r.exportMs)} ms (${r.ratio.toFixed(2)}× the API's time); peak RSS growth ${f(r.exportRssGrowthMb)} MB`,
    `  CSV ${f(r.csvMb)} MB (held in memory by the in-process fake Slack)`,
  ].join('\n');
}
