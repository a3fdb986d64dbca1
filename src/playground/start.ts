/**
 * The playground: Vigil for real, wired to the simulated threat-intel API (seeded, its first key connected
 * from the start) and to the fake Slack, with a page at `/` that plays the Slack client. Everything lives in
 * memory or in a temporary folder removed on stop.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import { type Config, loadConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { type SimApi, startSimApi } from '../sim/api/index.js';
import {
  DEFAULT_APP_ID,
  DEFAULT_BOT_TOKEN,
  DEFAULT_BOT_USER_ID,
  DEFAULT_TEAM_ID,
  type FakeSlack,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  startFakeSlack,
} from '../sim/slack/index.js';
import { type RunningVigil, startVigil } from '../start.js';
import type { RenderContext } from './render/blocks.js';
import { createPlaygroundRoutes } from './routes.js';
import { PlaygroundSession } from './session.js';
import { createSlackSide } from './slack-side.js';
import { welcomeFacts, welcomeMessage } from './welcome.js';

/** What the playground takes from the environment; the Slack, API and store settings are its own. */
const PASSED_THROUGH = ['PORT', 'LOG_LEVEL', 'VIGIL_PLAYGROUND_HOST', 'VIGIL_PUBLIC_URL'] as const;

export interface PlaygroundOptions {
  env: Record<string, string | undefined>;
  /** Made once the configuration is known (its log level). */
  createLogger(config: Config): Logger;
  clock?: Clock;
  /** Runs the digests that are due now ("Run digests now" on the page); Vigil's own scheduler tick by default. */
  runDigestsNow?: () => Promise<void>;
}

export interface RunningPlayground {
  /** The page: `http://<host>:<port>/`. */
  url: string;
  vigil: RunningVigil;
  sim: SimApi;
  slack: FakeSlack;
  logger: Logger;
  stop(): Promise<void>;
}

async function loadAssets(): Promise<{ script: string; style: string }> {
  const [script, style] = await Promise.all([
    readFile(new URL('./assets/app.js', import.meta.url), 'utf8'),
    readFile(new URL('./assets/app.css', import.meta.url), 'utf8'),
  ]);
  return { script, style };
}

export async function startPlayground(opts: PlaygroundOptions): Promise<RunningPlayground> {
  const clock = opts.clock ?? systemClock;
  const assets = await loadAssets();
  const sim = await startSimApi({ clock });
  const slack = await startFakeSlack({ clock });
  const dataDir = await mkdtemp(join(tmpdir(), 'vigil-playground-'));
  const cleanup = () =>
    Promise.allSettled([sim.close(), slack.close(), rm(dataDir, { recursive: true, force: true })]);
  try {
    const key = sim.keys[0];
    if (!key) throw new Error('the simulated API has no key');
    const signingSecret = randomBytes(24).toString('hex');
    const passed = Object.fromEntries(PASSED_THROUGH.map((name) => [name, opts.env[name]]));
    const config = loadConfig({
      ...passed,
      SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: slack.apiUrl,
      VIGIL_STORE: `sqlite://${join(dataDir, 'playground.sqlite')}`,
      VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      VIGIL_API_URL: sim.url,
      VIGIL_API_KEY: key.apiKey,
      VIGIL_TENANT_ID: String(key.defaultTenantId),
    });
    const logger = opts.createLogger(config);
    const host = config.playgroundHost;
    const actor = {
      teamId: DEFAULT_TEAM_ID,
      teamDomain: 'vigil-test',
      userId: SEEDED_USERS.admin,
      userName: slack.users.get(SEEDED_USERS.admin)?.name ?? 'adam',
      appId: DEFAULT_APP_ID,
    };
    const channel = { id: SEEDED_CHANNELS.general, name: 'general' };
    // The receiver URL is known once Vigil listens; the page cannot send anything before that.
    let receiverUrl = '';
    const side = createSlackSide({ receiverUrl: () => receiverUrl, signingSecret, nowMs: () => clock.now() });
    const session = new PlaygroundSession({
      slack,
      side,
      actor,
      channel,
      botUserId: DEFAULT_BOT_USER_ID,
      nowMs: () => clock.now(),
      welcome: welcomeMessage(welcomeFacts(sim)),
    });
    const context = (timeZone: string): RenderContext => ({
      timeZone,
      nowMs: clock.now(),
      userName: (id) => slack.users.get(id)?.name,
      channelName: (id) => slack.channels.get(id)?.name,
      directory: {
        users: [...slack.users.values()].filter((u) => !u.deleted).map((u) => ({ id: u.id, name: u.name })),
        channels: [...slack.channels.values()]
          .filter((c) => !c.is_im)
          .map((c) => ({ id: c.id, name: c.name })),
      },
    });
    // "Run digests now" runs Vigil's own scheduler tick, once Vigil is up (the routes are made before it).
    let running: RunningVigil | undefined;
    const runDigestsNow =
      opts.runDigestsNow ??
      (async () => {
        await running?.runDigestsNow();
      });
    const routes = createPlaygroundRoutes({
      session,
      slack,
      logger: logger.child({ component: 'playground' }),
      page: {
        workspace: slack.teams.get(DEFAULT_TEAM_ID)?.name ?? 'Vigil',
        channel: channel.name,
        userName: actor.userName,
        digests: true,
      },
      assets,
      context,
      allowedHostnames: ['0.0.0.0', '::'].includes(host)
        ? undefined
        : new Set(['localhost', '127.0.0.1', '[::1]', host.includes(':') ? `[${host}]` : host]),
      runDigestsNow,
    });
    const vigil = await startVigil({ config, logger, clock, host, extraRoutes: routes });
    running = vigil;
    const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    const base = `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${vigil.port}`;
    receiverUrl = `${base}/slack/events`;
    const url = `${base}/`;
    logger.info('playground ready: open the page in a browser', {
      url,
      note: 'simulated Slack and threat-intel API; set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN) to connect a real Slack app',
    });
    let stopping: Promise<void> | undefined;
    return {
      url,
      vigil,
      sim,
      slack,
      logger,
      stop() {
        stopping ??= (async () => {
          await vigil.stop();
          await cleanup();
        })();
        return stopping;
      },
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
