/**
 * `npm run bench:digest`: 1,000 digest subscriptions in 100 workspaces (OAuth installations, 10 channels
 * each, spread over the simulated API's organizations) all due in the same minute. Vigil runs in a child
 * process (bench/digest-worker.ts) so its CPU is its own; the simulated API (enforcing its per-organization
 * limits) and the fake Slack run here and record every call. Prints: all posted?, time taken, Vigil's CPU
 * per digest, and the highest per-channel and per-organization request rates over any one-second window.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSimApi } from '../packages/playground/src/sim/api/index.js';
import { startFakeSlack } from '../packages/playground/src/sim/slack/index.js';
import { silentLogger } from '../src/kernel/logger.js';
import { createRepositories, openStore, Sealer } from '../src/store/index.js';
import { ManualClock } from '../test/support/manual-clock.js';
import { isEntry } from './entry.js';
import { atLeast, exactly, verifyWork } from './verify.js';

export interface DigestBenchOptions {
  workspaces: number;
  /** Channels (one subscription each) per workspace. */
  channels: number;
  /** Where the report goes (nowhere for a smoke run). */
  print?: (text: string) => void;
}

export interface DigestBenchResult {
  subscriptions: number;
  /** Digests posted (chat.postMessage answered ok, with Vigil's digest metadata). */
  posted: number;
  channels: number;
  /** Event searches the digests made at the simulated API. */
  searches: number;
  received429: number;
  tickMs: number;
  cpuMs: number;
}

/** The most events in any window of `spanMs` (times sorted ascending). */
function peak(times: number[], spanMs = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= spanMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

function groupPeak(items: { key: string; at: number }[]): number {
  const by = new Map<string, number[]>();
  for (const { key, at } of items) by.set(key, [...(by.get(key) ?? []), at]);
  return Math.max(0, ...[...by.values()].map((t) => peak(t)));
}

/**
 * Seeds `workspaces` × `channels` digest subscriptions due now, runs one tick in a Vigil process, and checks
 * that every subscription posted its digest, each after a search, before returning any figure.
 */
export async function runDigestBench(opts: DigestBenchOptions): Promise<DigestBenchResult> {
  const { workspaces: WORKSPACES, channels: CHANNELS } = opts;
  const print = opts.print ?? (() => {});
  const sim = await startSimApi({ emptyPageEvery: 0, enforceRateLimits: true });
  const slack = await startFakeSlack();
  const dir = await mkdtemp(join(tmpdir(), 'vigil-bench-digest-'));
  const storeUrl = `sqlite://${join(dir, 'vigil.sqlite')}`;
  const encryptionKey = randomBytes(32);
  try {
    const now = Date.now();
    const store = await openStore(storeUrl, { logger: silentLogger });
    const repos = createRepositories(store, {
      clock: new ManualClock(now - 3600_000),
      sealer: new Sealer(encryptionKey),
    });
    const minute = new Date(now).toISOString().slice(11, 16);
    // One key per organization, as a connected organization has: the per-organization limits then apply.
    const keys = [...new Map(sim.keys.map((k) => [k.organizationId, k])).values()];
    const orgOfIdentifier = new Map<number, number>();
    for (let w = 0; w < WORKSPACES; w++) {
      const teamId = `TBENCH${String(w).padStart(3, '0')}`;
      const botToken = `xoxb-bench-${w}-${randomBytes(6).toString('hex')}`;
      slack.addTeam({ teamId, botToken, botUserId: `UBOT${w}`, name: `Bench ${w}` });
      await repos.installations.storeInstallation({
        team: { id: teamId },
        enterprise: undefined,
        isEnterpriseInstall: false,
        user: { id: `UADMIN${w}`, token: undefined, scopes: undefined },
        bot: { token: botToken, scopes: ['chat:write'], id: `B${w}`, userId: `UBOT${w}` },
      } as never);
      const key = keys[w % keys.length];
      if (!key) throw new Error('no simulated keys');
      await repos.workspaces.put(teamId, {
        teamId,
        apiHost: new URL(sim.url).host,
        apiKey: key.apiKey,
        apiKeyId: key.apiKeyId,
        organizationId: key.organizationId,
        tenantId: key.defaultTenantId,
        tenantName: 'bench',
        scopes: key.scopes,
        connectedBy: `UADMIN${w}`,
      });
      const identifiers = sim.state.identifiers.filter((i) => i.tenantId === key.defaultTenantId);
      for (let c = 0; c < CHANNELS; c++) {
        const channelId = `CB${String(w).padStart(3, '0')}X${c}`;
        slack.addChannel({ id: channelId, name: `bench-${w}-${c}`, team_id: teamId, is_member: true });
        const identifier = identifiers[c % identifiers.length];
        if (!identifier) throw new Error('no identifiers in the tenant');
        orgOfIdentifier.set(identifier.id, key.organizationId);
        await repos.digestSubscriptions.add({
          teamId,
          channelId,
          identifierIds: [identifier.id],
          severity: 'info',
          types: [],
          timeOfDay: minute,
          timeZone: 'UTC',
          weekdaysOnly: false,
          skipEmpty: false,
          createdBy: `UADMIN${w}`,
        });
      }
    }
    for (const [id] of orgOfIdentifier) {
      const tenantId = sim.state.identifiers.find((i) => i.id === id)?.tenantId ?? 0;
      for (let e = 0; e < 5; e++) {
        sim.state.addEvent({
          tenantId,
          identifierIds: [id],
          createdAt: now - 30 * 60_000 + e,
          severity: 'high',
        });
      }
    }
    await store.close();
    const total = WORKSPACES * CHANNELS;
    print(`digest benchmark: ${total} subscriptions in ${WORKSPACES} workspaces, due at ${minute} UTC`);

    const child = spawn(join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['bench/digest-worker.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SLACK_SIGNING_SECRET: 'bench-digest-signing-secret-0123456789',
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
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`the Vigil process exited with ${code}`);
    const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as {
      ms: number;
      cpuUserMs: number;
      cpuSystemMs: number;
      failedFirst: number;
      retryMs: number;
      cpuAllMs: number;
    };

    const posts = slack.calls.filter((c) => c.method === 'chat.postMessage' && c.response.ok === true);
    const digests = posts.filter((c) => JSON.stringify(c.body.metadata ?? '').includes('vigil_digest'));
    const channels = new Set(digests.map((c) => String(c.body.channel)));
    const searches = sim.log.entries.filter((e) => e.path.includes('/events/identifiers/'));
    const orgOf = (path: string) => orgOfIdentifier.get(Number(/identifiers\/(\d+)\//.exec(path)?.[1])) ?? 0;
    const apiCalls = sim.log.entries.map((e) => ({
      key: e.path.includes('/identifiers/') ? String(orgOf(e.path)) : 'tokens',
      at: e.at,
    }));
    const throttled = sim.log.entries.filter((e) => e.status === 429).length;
    const cpuMs = result.cpuAllMs;
    verifyWork('bench:digest', [
      exactly('digests posted', digests.length, total),
      exactly('channels with a digest', channels.size, total),
      atLeast('event searches at the API', searches.filter((e) => e.status === 200).length, total),
    ]);
    print(
      `posted: ${digests.length}/${total} digests in ${channels.size} channels (${digests.length === total ? 'all' : 'NOT all'})`,
    );
    print(
      `time taken: ${(result.ms / 1000).toFixed(1)} s for the tick; ${result.failedFirst} runs failed in it and were retried after their backoff (${(result.retryMs / 1000).toFixed(1)} s)`,
    );
    print(`organizations: ${keys.length} (${WORKSPACES} workspaces spread over them)`);
    print(
      `Vigil CPU: ${cpuMs.toFixed(0)} ms in all, ${(cpuMs / Math.max(1, digests.length)).toFixed(2)} ms per digest`,
    );
    print(
      `API: ${searches.length} searches, ${throttled} answered 429; highest per-organization rate ${groupPeak(apiCalls.filter((c) => c.key !== 'tokens'))} requests in one second (limit 4)`,
    );
    print(
      `Slack: highest per-channel rate ${groupPeak(digests.map((c) => ({ key: String(c.body.channel), at: c.at })))} messages in one second (about 1 allowed); highest overall ${peak(digests.map((c) => c.at))}/s`,
    );
    return {
      subscriptions: total,
      posted: digests.length,
      channels: channels.size,
      searches: searches.length,
      received429: throttled,
      tickMs: result.ms,
      cpuMs,
    };
  } finally {
    await Promise.allSettled([sim.close(), slack.close()]);
    await rm(dir, { recursive: true, force: true });
  }
}

if (isEntry(import.meta.url)) {
  const { values } = parseArgs({
    options: { workspaces: { type: 'string', default: '100' }, channels: { type: 'string', default: '10' } },
  });
  runDigestBench({
    workspaces: Number(values.workspaces),
    channels: Number(values.channels),
    print: (text) => process.stdout.write(`${text}\n`),
  }).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
