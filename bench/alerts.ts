/**
 * `npm run bench:alerts`: 1,000 alert subscriptions over 100 tenants (100 workspaces installed through OAuth,
 * 10 channels each, each workspace connected to its own tenant; the tenants spread over 10 organizations, one
 * API key each). Vigil runs in a child process (bench/alerts-worker.ts) on the real clock with its default
 * one-minute poll; the simulated API (enforcing its per-organization limits) and the fake Slack run here and
 * record every call. While Vigil runs, each tenant gets new events at random moments (one a minute on
 * average). Prints: polls and API calls per tenant per minute (with the per-subscription baseline), alert
 * latency p50/p99 from an event's appearance in the API to its post in each channel, posts per channel per
 * second, 429s, and Vigil's CPU.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSimApi } from '../packages/playground/src/sim/api/index.js';
import { startFakeSlack } from '../packages/playground/src/sim/slack/index.js';
import { silentLogger } from '../src/kernel/logger.js';
import { createRepositories, openStore, Sealer } from '../src/store/index.js';
import { ManualClock } from '../test/support/manual-clock.js';
import { isEntry } from './entry.js';
import { percentile } from './stats.js';
import { atLeast, exactly, verifyWork } from './verify.js';

export interface AlertsBenchOptions {
  tenants: number;
  /** Channels (one subscription each) per tenant's workspace. */
  channels: number;
  organizations: number;
  /** Event slots: each tenant gets one new event at a random moment of each. */
  minutes: number;
  pollMs: number;
  /** Length of a slot, 60,000 (a minute) unless a smoke run shortens it. */
  slotMs?: number;
  /** How long Vigil runs past the last slot and one poll, for the last alerts to be posted. */
  graceMs?: number;
  print?: (text: string) => void;
}

export interface AlertsBenchResult {
  events: number;
  /** Event alerts posted (one event in one channel), and how many the subscriptions called for. */
  alerts: number;
  expected: number;
  feedSearches: number;
  received429: number;
}

function peakPerSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= 1000) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Seeds the subscriptions, runs Vigil in a child process on the real clock while events appear, and checks
 * that every alert the subscriptions call for was posted (after feed searches at the API) before returning.
 */
export async function runAlertsBench(opts: AlertsBenchOptions): Promise<AlertsBenchResult> {
  const {
    tenants: TENANTS,
    channels: CHANNELS,
    organizations: ORGS,
    minutes: MINUTES,
    pollMs: POLL_MS,
  } = opts;
  const SLOT_MS = opts.slotMs ?? 60_000;
  const print = opts.print ?? (() => {});
  const sim = await startSimApi({ emptyPageEvery: 0, enforceRateLimits: true });
  const slack = await startFakeSlack();
  const dir = await mkdtemp(join(tmpdir(), 'vigil-bench-alerts-'));
  const storeUrl = `sqlite://${join(dir, 'vigil.sqlite')}`;
  const encryptionKey = randomBytes(32);
  try {
    const created = Date.now();
    const store = await openStore(storeUrl, { logger: silentLogger });
    const repos = createRepositories(store, {
      clock: new ManualClock(created),
      sealer: new Sealer(encryptionKey),
    });
    const tenantIdentifiers = new Map<number, number[]>();
    for (let o = 0; o < ORGS; o++) sim.state.organizations.push({ id: 9000 + o, name: `Bench org ${o}` });
    const keys = Array.from({ length: ORGS }, (_, o) => ({
      apiKey: `fw_bench_${o}_${randomBytes(16).toString('hex')}`,
      apiKeyId: 9500 + o,
      organizationId: 9000 + o,
      defaultTenantId: 0,
      tenantIds: [] as number[],
      scopes: ['firework'],
      features: { sandbox: false, reports: false },
    }));
    for (let t = 0; t < TENANTS; t++) {
      const tenantId = 8000 + t;
      const key = keys[t % ORGS];
      if (!key) throw new Error('no key');
      key.tenantIds.push(tenantId);
      if (key.defaultTenantId === 0) key.defaultTenantId = tenantId;
      sim.state.tenants.push({
        id: tenantId,
        name: `Bench tenant ${t}`,
        type: 'enterprise',
        description: 'benchmark',
        organization_id: key.organizationId,
        urn: `urn:flare:tenant:${tenantId}`,
        industry: 'software',
        number_of_employees: 100,
        is_disabled: false,
        is_archived: false,
        identifier_limit: null,
        prevent_global_search: false,
        access_end_at: null,
      });
      const ids = [0, 1, 2].map((i) => 700_000 + t * 10 + i);
      for (const id of ids)
        sim.state.identifiers.push({ id, tenantId, name: `bench-${t}-${id}.example`, kind: 'domain' });
      tenantIdentifiers.set(tenantId, ids);

      const teamId = `TBA${String(t).padStart(3, '0')}`;
      const botToken = `xoxb-bench-${t}-${randomBytes(6).toString('hex')}`;
      slack.addTeam({ teamId, botToken, botUserId: `UBOT${t}`, name: `Bench ${t}` });
      await repos.installations.storeInstallation({
        team: { id: teamId },
        enterprise: undefined,
        isEnterpriseInstall: false,
        user: { id: `UADMIN${t}`, token: undefined, scopes: undefined },
        bot: { token: botToken, scopes: ['chat:write'], id: `B${t}`, userId: `UBOT${t}` },
      } as never);
      await repos.workspaces.put(teamId, {
        teamId,
        apiHost: new URL(sim.url).host,
        apiKey: key.apiKey,
        apiKeyId: key.apiKeyId,
        organizationId: key.organizationId,
        tenantId,
        tenantName: `Bench tenant ${t}`,
        scopes: key.scopes,
        connectedBy: `UADMIN${t}`,
      });
      for (let c = 0; c < CHANNELS; c++) {
        const channelId = `CA${String(t).padStart(3, '0')}X${c}`;
        slack.addChannel({ id: channelId, name: `alerts-${t}-${c}`, team_id: teamId, is_member: true });
        // Most channels take every identifier's high and critical events; some one identifier's critical.
        const one = c % 3 === 2;
        await repos.alertSubscriptions.add({
          teamId,
          channelId,
          identifierIds: one ? [ids[c % ids.length] as number] : 'all',
          severity: one ? 'critical' : 'high',
          types: [],
          hold: 'noncritical',
          timeZone: 'UTC',
          createdBy: `UADMIN${t}`,
          startAt: created,
        });
      }
    }
    sim.state.keys.push(...keys);
    await store.close();
    const subscriptions = TENANTS * CHANNELS;
    print(
      `alerts benchmark: ${subscriptions} subscriptions over ${TENANTS} tenants in ${ORGS} organizations, polling every ${seconds(POLL_MS)}, events for ${MINUTES} minutes`,
    );

    const runMs = MINUTES * SLOT_MS + POLL_MS + (opts.graceMs ?? 15_000);
    const child = spawn(join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['bench/alerts-worker.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SLACK_SIGNING_SECRET: 'bench-alerts-signing-secret-0123456789',
        SLACK_CLIENT_ID: '1111.2222',
        SLACK_CLIENT_SECRET: 'bench-client-secret',
        SLACK_STATE_SECRET: 'bench-state-secret-0123456789',
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        VIGIL_STORE: storeUrl,
        VIGIL_ENCRYPTION_KEY: encryptionKey.toString('base64'),
        VIGIL_API_URL: sim.url,
        VIGIL_API_ALLOWED_HOSTS: new URL(sim.url).hostname,
        VIGIL_DIGEST_TICK_MS: '3600000',
        VIGIL_ALERT_POLL_MS: String(POLL_MS),
        BENCH_RUN_MS: String(runMs),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));

    // Wait for Vigil to be up (its first poll of every tenant), then add events at random moments.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const appeared = new Map<
      string,
      { at: number; tenantId: number; identifier: number; critical: boolean }
    >();
    const started = Date.now();
    const timers: NodeJS.Timeout[] = [];
    let n = 0;
    for (let t = 0; t < TENANTS; t++) {
      const tenantId = 8000 + t;
      const ids = tenantIdentifiers.get(tenantId) ?? [];
      for (let m = 0; m < MINUTES; m++) {
        const delay = m * SLOT_MS + Math.floor(Math.random() * SLOT_MS);
        const identifier = ids[Math.floor(Math.random() * ids.length)] as number;
        const critical = Math.random() < 0.3;
        const uid = `leak/bench_alert/${t}-${m}-${n++}`;
        timers.push(
          setTimeout(() => {
            const at = Date.now();
            sim.state.addEvent({
              tenantId,
              identifierIds: [identifier],
              createdAt: at,
              severity: critical ? 'critical' : 'high',
              type: 'stealer_log',
              uid,
            });
            appeared.set(uid, { at, tenantId, identifier, critical });
          }, delay),
        );
      }
    }
    const code = await exited;
    for (const timer of timers) clearTimeout(timer);
    if (code !== 0) throw new Error(`the Vigil process exited with ${code}`);
    const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as {
      cpuMs: number;
      runMs: number;
      feeds: { polls: number; requests: number; intervals: number[] }[];
    };

    const posts = slack.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.response.ok === true &&
        JSON.stringify(c.body.metadata ?? '').includes('vigil_alert'),
    );
    const latencies: number[] = [];
    const waits: number[] = [];
    const deliveries: number[] = [];
    const delivered = new Map<string, Set<string>>();
    for (const post of posts) {
      const text = JSON.stringify(post.body.blocks ?? '');
      const raw = post.body.metadata;
      const metadata = (typeof raw === 'string' ? JSON.parse(raw) : raw) as {
        event_payload?: { queued_at?: number };
      };
      const queuedAt = Number(metadata?.event_payload?.queued_at);
      for (const m of text.matchAll(/ID `(leak\/bench_alert\/[^`\\"]+)`/g)) {
        const uid = m[1] ?? '';
        const event = appeared.get(uid);
        if (!event) continue;
        const channels = delivered.get(uid) ?? new Set<string>();
        channels.add(String(post.body.channel));
        delivered.set(uid, channels);
        latencies.push(post.at - event.at);
        if (Number.isFinite(queuedAt)) {
          waits.push(queuedAt - event.at);
          deliveries.push(post.at - queuedAt);
        }
      }
    }
    // Which channels should have had each event: 'all' high channels always; one-identifier ones when critical.
    let expected = 0;
    for (const [, e] of appeared) {
      const ids = tenantIdentifiers.get(e.tenantId) ?? [];
      for (let c = 0; c < CHANNELS; c++) {
        const one = c % 3 === 2;
        if (!one || (e.critical && ids[c % ids.length] === e.identifier)) expected++;
      }
    }
    const sorted = Float64Array.from(latencies).sort();
    verifyWork('bench:alerts', [
      atLeast('events appeared', appeared.size, TENANTS * MINUTES),
      exactly('event alerts posted (one per event and channel subscribed to it)', latencies.length, expected),
      atLeast(
        'feed searches at the API',
        sim.log.entries.filter((e) => e.path.endsWith('/events/tenant/_search') && e.status === 200).length,
        TENANTS,
      ),
    ]);
    const feedSearches = sim.log.entries.filter((e) => e.path.endsWith('/events/tenant/_search'));
    const tokens = sim.log.entries.filter((e) => e.path.endsWith('/tokens/generate'));
    const throttled = sim.log.entries.filter((e) => e.status === 429).length;
    const minutes = result.runMs / 60_000;
    const polls = result.feeds.map((f) => f.polls / minutes).sort((a, b) => a - b);
    const requests = result.feeds.map((f) => f.requests / minutes).sort((a, b) => a - b);
    const gaps = result.feeds.flatMap((f) => f.intervals).sort((a, b) => a - b);
    const byChannel = new Map<string, number[]>();
    for (const p of posts)
      byChannel.set(String(p.body.channel), [...(byChannel.get(String(p.body.channel)) ?? []), p.at]);
    const perChannelPeak = Math.max(0, ...[...byChannel.values()].map(peakPerSecond));
    const perTenant = (xs: number[]) =>
      `${percentile(xs, 0.5).toFixed(2)} median (min ${xs[0]?.toFixed(2)}, max ${xs.at(-1)?.toFixed(2)})`;

    print(`events: ${appeared.size} appeared over ${((Date.now() - started) / 60_000).toFixed(1)} minutes`);
    print(`posts: ${latencies.length} event alerts of ${expected} expected, in ${posts.length} messages`);
    print(`polls per tenant per minute: ${perTenant(polls)} over ${minutes.toFixed(1)} minutes`);
    print(
      `API calls per tenant per minute: ${perTenant(requests)}; at the API: ${feedSearches.length} feed searches and ${tokens.length} token generations in all, ${throttled} answered 429`,
    );
    print(
      `baseline, one search per subscription per interval: ${(CHANNELS * (60_000 / POLL_MS)).toFixed(1)} calls per tenant per minute → ${((CHANNELS * (60_000 / POLL_MS)) / Math.max(0.01, percentile(requests, 0.5))).toFixed(1)}× fewer`,
    );
    print(
      `interval between polls: p50 ${seconds(percentile(gaps, 0.5))}, p99 ${seconds(percentile(gaps, 0.99))} (configured ${seconds(POLL_MS)})`,
    );
    print(
      `alert latency (appearance → post): p50 ${seconds(percentile(sorted, 0.5))}, p99 ${seconds(percentile(sorted, 0.99))}, max ${seconds(sorted.at(-1) ?? Number.NaN)}; uniform arrivals and an ideal poll would give p50 ${seconds(POLL_MS / 2)}, p99 ${seconds(POLL_MS * 0.99)}`,
    );
    const pct = (xs: number[], q: number) => seconds(percentile(Float64Array.from(xs).sort(), q));
    print(
      `  of which waiting for the next poll: p50 ${pct(waits, 0.5)}, p99 ${pct(waits, 0.99)}; queued → posted (Vigil's own work): p50 ${pct(deliveries, 0.5)}, p99 ${pct(deliveries, 0.99)}`,
    );
    print(
      `Slack: highest per-channel rate ${perChannelPeak} message(s) in one second; overall ${peakPerSecond(posts.map((p) => p.at))}/s`,
    );
    print(
      `Vigil CPU: ${result.cpuMs.toFixed(0)} ms over ${seconds(result.runMs)} (${((result.cpuMs / result.runMs) * 100).toFixed(1)}% of one core); machine load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')} on ${cpus().length} cores`,
    );
    return {
      events: appeared.size,
      alerts: latencies.length,
      expected,
      feedSearches: feedSearches.length,
      received429: throttled,
    };
  } finally {
    await Promise.allSettled([sim.close(), slack.close()]);
    await rm(dir, { recursive: true, force: true });
  }
}

if (isEntry(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      tenants: { type: 'string', default: '100' },
      channels: { type: 'string', default: '10' },
      organizations: { type: 'string', default: '10' },
      minutes: { type: 'string', default: '3' },
      'poll-ms': { type: 'string', default: '60000' },
    },
  });
  runAlertsBench({
    tenants: Number(values.tenants),
    channels: Number(values.channels),
    organizations: Number(values.organizations),
    minutes: Number(values.minutes),
    pollMs: Number(values['poll-ms']),
    print: (text) => process.stdout.write(`${text}\n`),
  }).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
