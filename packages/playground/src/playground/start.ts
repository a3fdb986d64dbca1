/**
 * The playground: Vigil for real, wired to the simulated threat-intel API (seeded with recent events and
 * a trickle of new ones; the workspace connected through the store at start, as an admin would) and to the
 * fake Slack, with a page at `/` that plays the Slack client: channels, the DM with Vigil, modals and the App
 * Home. Everything lives in memory or in a temporary folder removed on stop.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../../../../src/app/config.js';
import { type RunningVigil, startVigil } from '../../../../src/app/start.js';
import { realTicker, type Ticker } from '../../../../src/domain/subscriptions/ticker.js';
import type { RunNowReport } from '../../../../src/features/digests/scheduler.js';
import type { Clock } from '../../../../src/kernel/clock.js';
import { systemClock } from '../../../../src/kernel/clock.js';
import type { Logger } from '../../../../src/kernel/logger.js';
import { type SimApi, startSimApi } from '../sim/api/index.js';
import type { SimEntra } from '../sim/identity/index.js';
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
import { startTrickle } from './activity.js';
import { createAgentDmRoutes } from './agent-dm.js';
import { connectAsAdmin } from './connect.js';
import { connectEntraAsAdmin, startPlaygroundEntra } from './identity.js';
import { createPersonDmRoutes, seedEmployee } from './person-dm.js';
import type { RenderContext } from './render/blocks.js';
import { emojiCss } from './render/emoji.js';
import { createPlaygroundRoutes } from './routes.js';
import { PlaygroundSession, type SessionOptions } from './session.js';
import { createSlackSide } from './slack-side.js';
import { createSlackbotRoutes } from './slackbot.js';
import { suggestedQuestions } from './slackbot-questions.js';
import { welcomeFacts, welcomeMessage } from './welcome.js';
import { PlaygroundWorkObjects } from './work-objects.js';

/** What the playground takes from the environment; the Slack, API and store settings are its own. */
const PASSED_THROUGH = ['PORT', 'LOG_LEVEL', 'LOG_FORMAT', 'VIGIL_PUBLIC_URL'] as const;

/**
 * What the fake Slack keeps in a long session: enough for every page of the session to work, bounded so an
 * afternoon of commands costs no more memory than ten.
 */
const SLACK_RETAIN = { records: 25, files: 20, messagesPerChannel: 100, views: 25 };
/** The simulated API's request log: nobody reads it in the playground. */
const SIM_LOG_LIMIT = 100;

export interface PlaygroundOptions {
  env: Record<string, string | undefined>;
  /** Made once the configuration is known (its log level). */
  createLogger(config: Config): Logger;
  clock?: Clock;
  /** Drives the trickle of new events (tests tick by hand); a real interval otherwise. */
  ticker?: Ticker;
  /**
   * Posts a channel's digests now ("Run digests now" on the page) and says what happened; Vigil's own
   * scheduler by default.
   */
  runDigestsNow?: (workspaceId: string, channelId: string) => Promise<RunNowReport[]>;
}

export interface RunningPlayground {
  /** The page: `http://<host>:<port>/`. */
  url: string;
  vigil: RunningVigil;
  sim: SimApi;
  /** The simulated Entra ID containment acts on. */
  entra: SimEntra;
  slack: FakeSlack;
  session: PlaygroundSession;
  logger: Logger;
  stop(): Promise<void>;
}

async function loadAssets(): Promise<{ script: string; style: string }> {
  const [script, style] = await Promise.all([
    readFile(new URL('./assets/app.js', import.meta.url), 'utf8'),
    readFile(new URL('./assets/app.css', import.meta.url), 'utf8'),
  ]);
  // The emoji are drawings in the stylesheet: the page needs no emoji font and fetches nothing else.
  return { script, style: `${style}\n/* Emoji (render/emoji.ts) */\n${emojiCss()}\n` };
}

function conversationsOf(slack: FakeSlack, userId: string): SessionOptions['conversations'] {
  const channel = (id: string) => {
    const c = slack.channels.get(id);
    return {
      id,
      name: c?.name ?? id,
      kind: 'channel' as const,
      isPrivate: c?.is_private === true,
      member: c?.is_member !== false,
    };
  };
  const dm = slack.openDm(userId);
  return [
    channel(SEEDED_CHANNELS.general),
    channel(SEEDED_CHANNELS.security),
    channel(SEEDED_CHANNELS.notJoined),
    { id: dm.id, name: 'Vigil', kind: 'im', isPrivate: true, member: true },
  ];
}

/** Vigil's configuration in the playground: the simulated Slack and API, a store in the session's folder. */
function playgroundConfig(
  env: PlaygroundOptions['env'],
  sim: SimApi,
  slack: FakeSlack,
  dataDir: string,
  signingSecret: string,
  entraUrl: string,
) {
  const passed = Object.fromEntries(PASSED_THROUGH.map((name) => [name, env[name]]));
  // No VIGIL_API_KEY: the workspace is connected through the store, as an admin would connect it.
  return loadConfig({
    ...passed,
    SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: slack.apiUrl,
    VIGIL_STORE: `sqlite://${join(dataDir, 'playground.sqlite')}`,
    VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    VIGIL_API_URL: sim.url,
    VIGIL_ENTRA_LOGIN_URL: entraUrl,
    VIGIL_GRAPH_URL: entraUrl,
    // The Slackbot panel calls Vigil's MCP tools at /mcp.
    VIGIL_MCP: '1',
    // A leak the visitor causes (the employee's page) is alerted within seconds, not the minute of production.
    VIGIL_ALERT_POLL_MS: '10000',
  });
}

/** The person at the page: the seeded admin. */
function actorOf(slack: FakeSlack) {
  return {
    teamId: DEFAULT_TEAM_ID,
    teamDomain: 'vigil-test',
    userId: SEEDED_USERS.admin,
    userName: slack.users.get(SEEDED_USERS.admin)?.name ?? 'adam',
    appId: DEFAULT_APP_ID,
  };
}

/** What the page's renderer asks of the fake Slack: names, and the people and channels pickers offer. */
function renderContextOf(slack: FakeSlack, clock: Clock) {
  return (timeZone: string): RenderContext => ({
    timeZone,
    nowMs: clock.now(),
    userName: (id) => slack.users.get(id)?.name,
    channelName: (id) => slack.channels.get(id)?.name,
    directory: {
      users: [...slack.users.values()].filter((u) => !u.deleted).map((u) => ({ id: u.id, name: u.name })),
      channels: [...slack.channels.values()]
        .filter((c) => !c.is_im && !c.is_mpim)
        .map((c) => ({ id: c.id, name: c.name })),
    },
  });
}

/** The interface the playground listens on: its own setting, which Vigil itself does not read. */
function playgroundHostOf(env: PlaygroundOptions['env']): string {
  return env.VIGIL_PLAYGROUND_HOST?.trim() || '127.0.0.1';
}

/** Host names the page answers to: any when bound to every interface, else the loopback names and its own. */
function allowedHostnamesOf(host: string): Set<string> | undefined {
  if (['0.0.0.0', '::'].includes(host)) return undefined;
  return new Set(['localhost', '127.0.0.1', '[::1]', host.includes(':') ? `[${host}]` : host]);
}

/** The address a browser on this machine reaches Vigil at. */
function baseUrlOf(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** The keys the connect form offers, with the organization and tenants each opens. */
function simKeysOf(sim: SimApi) {
  return sim.keys.map((k) => ({
    apiKey: k.apiKey,
    organization: sim.state.organizations.find((o) => o.id === k.organizationId)?.name ?? '',
    tenantIds: k.tenantIds,
  }));
}

/** The page's side: the session that plays the Slack client, and the Work Objects it shows. */
function openPage(
  slack: FakeSlack,
  sim: SimApi,
  clock: Clock,
  side: ReturnType<typeof createSlackSide>,
  mcp: { url: () => string; signingSecret: string; logger: Logger },
) {
  const actor = actorOf(slack);
  const conversations = conversationsOf(slack, actor.userId);
  const session = new PlaygroundSession({
    slack,
    side,
    actor,
    conversations,
    botUserId: DEFAULT_BOT_USER_ID,
    nowMs: () => clock.now(),
    welcome: welcomeMessage(welcomeFacts(sim)),
  });
  const workObjects = new PlaygroundWorkObjects({
    slack,
    side,
    actor,
    timeline: session.timeline,
    botUserId: DEFAULT_BOT_USER_ID,
  });
  const agentDm = createAgentDmRoutes({
    slack,
    side,
    actor,
    botUserId: DEFAULT_BOT_USER_ID,
    context: renderContextOf(slack, clock),
  });
  const slackbot = createSlackbotRoutes({
    mcpUrl: mcp.url,
    signingSecret: mcp.signingSecret,
    actor,
    nowMs: () => clock.now(),
    suggestions: suggestedQuestions(welcomeFacts(sim).identifier.name),
    logger: mcp.logger.child({ component: 'playground-slackbot' }),
    context: renderContextOf(slack, clock),
  });
  // The employee a leaked credential belongs to, for "ask the affected person": her DM is a page of its own.
  const tenantId = sim.keys[0]?.defaultTenantId;
  const employee = tenantId === undefined ? undefined : seedEmployee(slack, sim, tenantId, actor);
  const personDm =
    employee &&
    createPersonDmRoutes({
      slack,
      sim,
      side,
      employee,
      botUserId: DEFAULT_BOT_USER_ID,
      nowMs: () => clock.now(),
      context: renderContextOf(slack, clock),
    });
  const dms = async (req: IncomingMessage, res: ServerResponse, url: URL) =>
    (await agentDm(req, res, url)) || (personDm !== undefined && (await personDm(req, res, url)));
  return { actor, conversations, session, workObjects, agentDm: dms, slackbot };
}

/**
 * New events arrive in the connected tenant, whichever tenant the admin switches to: the tenant of Vigil's
 * latest request to the simulated API (the playground reads nothing inside Vigil).
 */
function trickleInto(sim: SimApi, clock: Clock, ticker: Ticker) {
  return startTrickle({
    ticker,
    sim,
    clock,
    tenantId: async () => {
      const latest = sim.log.entries.findLast((e) => e.tenantId !== undefined)?.tenantId;
      if (latest === undefined) throw new Error('not connected');
      return latest;
    },
  });
}

/** The page's routes, served by Vigil beside its own. */
function routesOf(
  parts: {
    page: ReturnType<typeof openPage>;
    slack: FakeSlack;
    sim: SimApi;
    clock: Clock;
    host: string;
    assets: { script: string; style: string };
    runDigestsNow: (workspaceId: string, channelId: string) => Promise<RunNowReport[]>;
  },
  logger: Logger,
) {
  const { page, slack, sim } = parts;
  return createPlaygroundRoutes({
    session: page.session,
    slack,
    actor: page.actor,
    logger: logger.child({ component: 'playground' }),
    page: {
      workspace: slack.teams.get(DEFAULT_TEAM_ID)?.name ?? 'Vigil',
      userName: page.actor.userName,
      conversations: page.conversations,
      digests: true,
    },
    assets: parts.assets,
    context: renderContextOf(slack, parts.clock),
    allowedHostnames: allowedHostnamesOf(parts.host),
    runDigestsNow: parts.runDigestsNow,
    workObjects: page.workObjects,
    agentDm: page.agentDm,
    slackbot: page.slackbot,
    simKeys: simKeysOf(sim),
  });
}

export async function startPlayground(opts: PlaygroundOptions): Promise<RunningPlayground> {
  const clock = opts.clock ?? systemClock;
  const assets = await loadAssets();
  const sim = await startSimApi({ clock, recentEvents: true, logLimit: SIM_LOG_LIMIT });
  const slack = await startFakeSlack({ clock, retain: SLACK_RETAIN });
  const entra = await startPlaygroundEntra(sim, () => clock.now());
  const dataDir = await mkdtemp(join(tmpdir(), 'vigil-playground-'));
  let page: ReturnType<typeof openPage> | undefined;
  const cleanup = () => {
    page?.session.stop();
    page?.workObjects.stop();
    return Promise.allSettled([
      sim.close(),
      slack.close(),
      entra.close(),
      rm(dataDir, { recursive: true, force: true }),
    ]);
  };
  try {
    const key = sim.keys[0];
    if (!key) throw new Error('the simulated API has no key');
    const signingSecret = randomBytes(24).toString('hex');
    const config = playgroundConfig(opts.env, sim, slack, dataDir, signingSecret, entra.url);
    const logger = opts.createLogger(config);
    const host = playgroundHostOf(opts.env);
    // The receiver URL is known once Vigil listens; the page cannot send anything before that.
    let receiverUrl = '';
    const side = createSlackSide({ receiverUrl: () => receiverUrl, signingSecret, nowMs: () => clock.now() });
    page = openPage(slack, sim, clock, side, {
      url: () => receiverUrl.replace(/\/slack\/events$/, '/mcp'),
      signingSecret,
      logger,
    });
    // "Run digests now" runs Vigil's own scheduler, once Vigil is up (the routes are made before it).
    let running: RunningVigil | undefined;
    const runDigestsNow =
      opts.runDigestsNow ??
      (async (workspaceId: string, channelId: string) =>
        running ? running.runChannelDigestsNow(workspaceId, channelId) : []);
    const routes = routesOf({ page, slack, sim, clock, host, assets, runDigestsNow }, logger);
    const vigil = await startVigil({ config, logger, clock, host, extraRoutes: routes });
    running = vigil;
    const base = baseUrlOf(host, vigil.port);
    receiverUrl = `${base}/slack/events`;
    await connectAsAdmin(
      { side, slack, vigilUrl: vigil.url },
      { actor: page.actor, apiKey: key.apiKey, tenantId: key.defaultTenantId, region: new URL(sim.url).host },
    );
    await connectEntraAsAdmin({ side, slack, session: page.session }, entra, page.actor);
    const trickle = trickleInto(sim, clock, opts.ticker ?? realTicker);
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
      entra,
      slack,
      session: page.session,
      logger,
      stop() {
        stopping ??= (async () => {
          trickle.cancel();
          await page?.slackbot.close();
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
