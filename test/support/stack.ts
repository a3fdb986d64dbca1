/**
 * The whole of Vigil running for real, for end-to-end tests: the simulated threat-intel API, the fake
 * Slack Web API, and Vigil itself (HTTP receiver on 127.0.0.1, SQLite in a temp folder), with a signed
 * request sender aimed at it. Nothing is mocked: requests go over HTTP like Slack's would.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimApi, startSimApi } from '../../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_BOT_TOKEN,
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_TEAM_ID,
  type FakeSlack,
  SEEDED_USERS,
  startFakeSlack,
} from '../../packages/playground/src/sim/slack/index.js';
import { type Config, loadConfig } from '../../src/app/config.js';
import { type RunningVigil, startVigil } from '../../src/app/start.js';
import { realTicker, type Ticker } from '../../src/domain/subscriptions/ticker.js';
import { type Clock, type Sleep, systemClock } from '../../src/kernel/clock.js';
import { createLogger } from '../../src/kernel/logger.js';
import type { Permission } from '../../src/kernel/permission-rules.js';
import { WorkTracker } from '../../src/kernel/work-tracker.js';
import type { AnswerBound } from '../../src/store/opening.js';
import { createSlackSender, type SlackSender } from '../harness/index.js';
import { manifestFunctions } from './manifest.js';
import { ManualTicker } from './manual-ticker.js';
import { guardSlackContract } from './slack-contract.js';
import { openStoreHandle, type StoreHandle } from './store-handle.js';

export const SIGNING_SECRET = 'e2e-signing-secret-0123456789abcdef';

/** The environment of a multi-workspace (OAuth) Vigil against the fake Slack's app: no bot token of its own. */
export const OAUTH_ENV: Readonly<Record<string, string>> = {
  SLACK_BOT_TOKEN: '',
  SLACK_CLIENT_ID: DEFAULT_CLIENT_ID,
  SLACK_CLIENT_SECRET: DEFAULT_CLIENT_SECRET,
  SLACK_STATE_SECRET: 'e2e-state-secret-0123456789',
};

export interface StackOptions {
  /** Extra or overriding environment for Vigil. */
  env?: Record<string, string>;
  /** Connect workspace T0001 to the first simulated key (default true). */
  connect?: boolean;
  sim?: Omit<NonNullable<Parameters<typeof startSimApi>[0]>, 'clock'>;
  clock?: Clock;
  /** Vigil's waiting (API retries and attempt bounds, "still working" notices); tests move it by hand. */
  sleep?: Sleep;
  /** The alert scheduler's timer (the real interval unless given); `stack.runAlerts()` ticks it by hand too. */
  alertTicker?: Ticker;
  /** The digest scheduler's timer (the real interval unless given); `stack.runDigests()` ticks it by hand too. */
  digestTicker?: Ticker;
  /**
   * Permissions an admin opens to every member before the test (`/vigil settings <p> everyone`), for tests
   * that act as a plain member on what the defaults keep for admins (creds, subscribe, act).
   */
  open?: Permission[];
  /** The report follower's timer (the real interval unless given); `stack.runIntel()` ticks it by hand too. */
  intelTicker?: Ticker;
  /** How long a store operation may go unanswered, on injected timers (tests that freeze the store). */
  storeAnswerBound?: AnswerBound;
}

export interface Stack {
  vigil: RunningVigil;
  /** The test's own handle on Vigil's store (same file and key): seed and read records through it. */
  repos: StoreHandle['repos'];
  /** The same handle's store beneath them (raw namespaces). */
  store: StoreHandle['store'];
  /** The configuration Vigil runs with (another instance on the same store starts with it). */
  config: Config;
  /** Vigil's clock: the one given, the system's otherwise. */
  clock: Clock;
  /** The work Vigil's requests leave running after their ack: `await stack.tracker.idle()` lets it settle. */
  tracker: WorkTracker;
  sim: SimApi;
  slack: FakeSlack;
  sender: SlackSender;
  workspaceId: string;
  /** Every JSON log line Vigil wrote. */
  logs: string[];
  /** The temp folder holding the SQLite file and the generated encryption key. */
  dataDir: string;
  /** One digest tick now: posts whatever is due, and resolves when it is done. */
  runDigests(): Promise<void>;
  /** One alert tick now: polls the feeds that are due, posts what waits, and resolves when it is done. */
  runAlerts(): Promise<void>;
  /** One look at the report requests being followed now: posts the finished ones. */
  runIntel(): Promise<void>;
  close(): Promise<void>;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const sim = await startSimApi({ ...(opts.clock ? { clock: opts.clock } : {}), ...opts.sim });
  // Slack checks a step's outputs against the manifest's declaration: so does the fake.
  const slack = guardSlackContract(await startFakeSlack({ functions: manifestFunctions() }));
  const dataDir = await mkdtemp(join(tmpdir(), 'vigil-e2e-'));
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });
  const config = loadConfig({
    SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    VIGIL_STORE: `sqlite://${join(dataDir, 'vigil.sqlite')}`,
    VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    VIGIL_API_URL: sim.url,
    LOG_LEVEL: 'debug',
    ...opts.env,
  });
  const tickers = {
    alert: new ManualTicker(opts.alertTicker ?? realTicker),
    digest: new ManualTicker(opts.digestTicker ?? realTicker),
    intel: new ManualTicker(opts.intelTicker ?? realTicker),
  };
  const tracker = new WorkTracker();
  let vigil: RunningVigil;
  try {
    vigil = await startVigil({
      config,
      logger,
      host: '127.0.0.1',
      ...(opts.clock ? { clock: opts.clock } : {}),
      ...(opts.sleep ? { sleep: opts.sleep } : {}),
      ...(opts.storeAnswerBound ? { storeAnswerBound: opts.storeAnswerBound } : {}),
      alertTicker: tickers.alert,
      digestTicker: tickers.digest,
      intelTicker: tickers.intel,
      tracker,
    });
  } catch (err) {
    await Promise.allSettled([sim.close(), slack.close(), rm(dataDir, { recursive: true, force: true })]);
    throw err;
  }
  const handle = await openStoreHandle(config, opts.clock ? { clock: opts.clock } : {});
  const { repos } = handle;
  const workspaceId = DEFAULT_TEAM_ID;
  if (opts.connect !== false) {
    const key = sim.keys[0];
    if (!key) throw new Error('the simulated API has no keys');
    await repos.workspaces.put(workspaceId, {
      teamId: workspaceId,
      apiHost: new URL(sim.url).host,
      apiKey: key.apiKey,
      apiKeyId: key.apiKeyId,
      organizationId: key.organizationId,
      tenantId: key.defaultTenantId,
      tenantName: sim.state.tenants.find((t) => t.id === key.defaultTenantId)?.name ?? 'Default tenant',
      scopes: key.scopes,
      connectedBy: SEEDED_USERS.admin,
    });
  }
  for (const p of opts.open ?? []) {
    await repos.settings.setPermission(workspaceId, p, 'everyone', SEEDED_USERS.admin);
  }
  const sender = createSlackSender({
    receiverUrl: `${vigil.url}/slack/events`,
    signingSecret: SIGNING_SECRET,
  });
  return {
    vigil,
    repos,
    store: handle.store,
    config,
    clock: opts.clock ?? systemClock,
    tracker,
    sim,
    slack,
    sender,
    workspaceId,
    logs,
    dataDir,
    runDigests: () => tickers.digest.tick(),
    runAlerts: () => tickers.alert.tick(),
    runIntel: () => tickers.intel.tick(),
    async close() {
      await vigil.stop();
      await Promise.allSettled([handle.close(), sim.close(), slack.close()]);
      await rm(dataDir, { recursive: true, force: true });
      // Every test through the stack is a contract test: Vigil sent nothing the published API refuses.
      if (sim.contractViolations.length > 0) {
        throw new Error(
          `Vigil sent requests that break the published API contract:\n${JSON.stringify(sim.contractViolations, null, 1).slice(0, 4000)}`,
        );
      }
    },
  };
}
