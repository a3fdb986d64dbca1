/**
 * Builds the Bolt app: transport (HTTP receiver or Socket Mode), workspace authorization (one bot token,
 * or OAuth installations from the store) and the features' listeners (loaded once the web server listens).
 * No I/O happens here (OAuth mode loads @slack/oauth).
 */
// The Web API client through Bolt's re-export (webApi), and @slack/oauth only in OAuth mode: Bolt has loaded
// both already, and importing them by name from an ES module has Node parse their CommonJS exports again.
import {
  App,
  type Authorize,
  type AuthorizeSourceData,
  ErrorCode,
  type InstallationStore,
  LogLevel,
  SocketModeReceiver,
  webApi,
} from '@slack/bolt';
import type { InstallProvider } from '@slack/oauth';
import type { WebClient } from '@slack/web-api';
import type { Clock } from '../kernel/clock.js';
import type { Logger } from '../kernel/logger.js';
import type { Outbound } from '../kernel/outbound.js';
import type { Metrics } from '../observability/metrics.js';
import { toBoltLogger } from '../slack/bolt-logger.js';
import { observedFetch } from '../slack/call-metrics.js';
import { interactiveClientOptions } from '../slack/client-options.js';
import type { BoundFeature, SlackBase } from '../slack/context.js';
import { reportError } from '../slack/error-reply.js';
import { OPTIONAL_SCOPES } from '../slack/granted-scopes.js';
import { VigilHttpReceiver } from '../slack/receiver.js';
import { RefusedSteps, type RefusedStepsDeps, refusedStepError } from '../slack/refused-steps.js';
import {
  answerGateRefusal,
  authorizationAnswer,
  installationAuthorize,
  SingleWorkspaceGate,
} from '../slack/served-workspaces.js';
import { AnsweringSocketModeReceiver } from '../slack/socket-receiver.js';
import { rotationSafeAuthorization } from '../slack/token-rotation.js';
import type { Store } from '../store/index.js';
import type { Config } from './config.js';

/**
 * The required bot scopes of manifest.yml (`bot`). The one history scope, `im:history`, is the agent DM's (its
 * `message.im` events); Vigil reads no channel for its own bookkeeping (test/slack/no-rationed-history.test.ts).
 */
const REQUIRED_BOT_SCOPES = [
  'commands',
  'chat:write',
  'users:read',
  'usergroups:read',
  'files:write',
  'im:write',
  'channels:read',
  'groups:read',
  'files:read',
  'links:write',
  'im:history',
  'assistant:write',
];

/**
 * The OAuth install asks for the required scopes and the optional ones of manifest.yml (`bot_optional`, which
 * OPTIONAL_SCOPES lists): Slack shows the optional ones apart, for the installer to choose.
 */
export const BOT_SCOPES = [...REQUIRED_BOT_SCOPES, ...Object.keys(OPTIONAL_SCOPES)];

export interface SlackApp {
  app: App;
  /** HTTP mode only: the web server routes `/slack/events` here. */
  httpReceiver: VigilHttpReceiver | undefined;
  /** OAuth mode only: `/slack/install` and `/slack/oauth_redirect`. */
  installer: InstallProvider | undefined;
  /** Bolt's init, and in single-workspace mode the bot token's check (auth.test) before traffic. */
  init(): Promise<void>;
  /** Loads the features and registers every listener, once; a request that comes first waits for it. */
  registerListeners(): Promise<void>;
  /**
   * The workspace gate for a request that does not come through Bolt (the MCP door, `/mcp`): the bot client
   * of the team when this installation serves it, else the gate's own refusal (another workspace, none).
   */
  clientFor(ids: { teamId: string; userId: string }): Promise<WebClient>;
  /**
   * OAuth mode: a workspace's bot token for Vigil's own posts, authorized as a request's is (a rotated token
   * is refreshed under the same store lock). Vigil's workspace id is its installation's key.
   */
  botToken: ((workspaceId: string) => Promise<string | undefined>) | undefined;
}

const BOLT_LOG_LEVELS: Record<Config['logLevel'], LogLevel> = {
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
};

export interface SlackAppOptions {
  /** What the transport and the last-resort error reply use from the start. */
  base: { logger: Logger; outbound: Outbound; metrics?: Metrics | undefined };
  /**
   * Loaded when the listeners are registered: what the dispatcher needs, every feature bound to its deps,
   * and what completing a refused workflow step needs.
   */
  load: () => Promise<{ listeners: SlackBase; features: readonly BoundFeature[]; refused: RefusedStepsDeps }>;
  config: Config;
  /** OAuth installations, and the store lock their token rotation refreshes under. */
  installations: InstallationStore;
  locks: Pick<Store, 'withLock'>;
  clock: Clock;
  /** Seconds clock of the request-signature check (tests freeze it). */
  now?: () => number;
}

type BoltClientOptions = ReturnType<typeof boltClientOptions>;

function boltClientOptions(deps: SlackAppOptions['base'], config: Config) {
  // The Slack host on every line: the web client's own retry warnings ("http request failed fetch failed")
  // name nothing else.
  const slackApi = URL.canParse(config.slack.apiUrl)
    ? new URL(config.slack.apiUrl).host
    : config.slack.apiUrl;
  const logger = toBoltLogger(
    deps.logger.child({ component: 'bolt', slackApi }),
    BOLT_LOG_LEVELS[config.logLevel],
  );
  return {
    slackApiUrl: config.slack.apiUrl,
    logger,
    logLevel: BOLT_LOG_LEVELS[config.logLevel],
    // Bounded: no Slack call (nor a respond post) hangs a click, and none that may have landed is sent twice.
    ...interactiveClientOptions(config.slack.timeoutMs, observedFetch(deps.outbound.fetch, deps.metrics)),
  };
}

async function createInstaller(
  config: Config,
  clientOptions: BoltClientOptions,
  installationStore: InstallProvider['installationStore'],
): Promise<InstallProvider | undefined> {
  if (config.slack.mode.kind !== 'oauth') return undefined;
  const { InstallProvider } = await import('@slack/oauth');
  return new InstallProvider({
    clientId: config.slack.mode.clientId,
    clientSecret: config.slack.mode.clientSecret,
    stateSecret: config.slack.mode.stateSecret,
    installationStore,
    clientOptions,
    logger: clientOptions.logger,
    directInstall: true,
    // Beside the Web API: https://slack.com/api/ → https://slack.com/oauth/v2/authorize, and a fake
    // Slack (SLACK_API_URL) gets the browser step too.
    authorizationUrl: new URL('../oauth/v2/authorize', config.slack.apiUrl).toString(),
  });
}

/** Both answer a request refused by the workspace gate in its ack (AckAnswers). */
function createReceiver(
  opts: SlackAppOptions,
  clientOptions: BoltClientOptions,
): VigilHttpReceiver | AnsweringSocketModeReceiver {
  const { config } = opts;
  if (config.slack.appToken) {
    return new AnsweringSocketModeReceiver(
      new SocketModeReceiver({
        appToken: config.slack.appToken,
        dispatcher: opts.base.outbound.dispatcher,
        logger: clientOptions.logger,
        installerOptions: { clientOptions },
      }),
      opts.base.metrics,
    );
  }
  return new VigilHttpReceiver({
    signingSecret: config.slack.signingSecret ?? '',
    logger: opts.base.logger.child({ component: 'receiver' }),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.base.metrics ? { metrics: opts.base.metrics } : {}),
  });
}

/** Last resort for errors thrown inside listeners (the features report their own to the user). */
function handleErrors(
  app: App,
  deps: SlackAppOptions['base'],
  receiver: VigilHttpReceiver | AnsweringSocketModeReceiver,
  // The services are loaded after start-up listens (see createSlackApp); a refusal may come first.
  refusedSteps: () => Promise<RefusedSteps>,
): void {
  const steps = {
    complete: (...args: Parameters<RefusedSteps['complete']>) =>
      void refusedSteps().then(
        (refused) => refused.complete(...args),
        (err: unknown) => deps.logger.error('could not complete a refused workflow step', { err }),
      ),
  };
  app.error(async (args) => {
    const { error, body } = args as unknown as { error: unknown; body?: { type?: string } };
    const answer = authorizationAnswer(error);
    if (answer) {
      await answerGateRefusal(deps, answer, body, receiver);
      // A workflow step the gate refused completes with the refusal instead of waiting for Slack's timeout.
      steps.complete(body, refusedStepError(answer));
      return;
    }
    if ((error as { code?: unknown }).code === ErrorCode.AuthorizationError) {
      // A request from a workspace without an installation: expected after an uninstall, not a bug.
      deps.logger.warn('request from a workspace Vigil has no installation for', { type: body?.type });
      steps.complete(body, NO_INSTALLATION);
      return;
    }
    const reference = await reportError(deps, error, undefined, { type: body?.type });
    steps.complete(body, `Vigil could not run this step (reference ${reference}). ${RETRY}`);
  });
}

const RETRY = 'Run the workflow again; if it keeps failing, give the reference to whoever runs Vigil.';
const NO_INSTALLATION =
  'Vigil did not run this step: it has no installation for this workspace. An admin of the workspace can install Vigil, then run the workflow again.';

/** A workspace id is its installation's key: queried as a team's, it reads an org's installation too. */
function backgroundBotToken(authorize: InstallProvider['authorize']) {
  return async (workspaceId: string) =>
    (await authorize({ teamId: workspaceId, enterpriseId: undefined, isEnterpriseInstall: false })).botToken;
}

export async function createSlackApp(opts: SlackAppOptions): Promise<SlackApp> {
  const { base, config } = opts;
  const clientOptions = boltClientOptions(base, config);
  // Token rotation refreshes under a store lock, so two instances never refresh one installation at once.
  const rotation = rotationSafeAuthorization({
    installations: opts.installations,
    store: opts.locks,
    clock: opts.clock,
  });
  const installer = await createInstaller(config, clientOptions, rotation.installationStore);
  const receiver = createReceiver(opts, clientOptions);
  // The workspace gate: every request is authorized for the workspace this installation serves, or refused.
  const gate =
    config.slack.mode.kind === 'single'
      ? new SingleWorkspaceGate(new webApi.WebClient(undefined, clientOptions), config.slack.mode.botToken)
      : undefined;
  const authorize = gate
    ? gate.authorize
    : installationAuthorize(rotation.authorizeWith(installer as InstallProvider));
  const app = new App({
    authorize,
    receiver,
    logger: clientOptions.logger,
    clientOptions,
    developerMode: false,
    deferInitialization: true,
    extendedErrorHandler: true,
    // Neither is used (no message listeners, no conversation state); each is a middleware on every request.
    ignoreSelf: false,
    convoStore: false,
  });
  // Why lazy: the services, the features' handlers and their Block Kit builders are most of Vigil's modules,
  // and loading them doubled the time to a first /healthz. Start-up loads them right after the web server
  // listens; a request that comes before waits here (Bolt reads its listeners only after the global
  // middleware). A failed load fails the start, and a request that waited on it gets the house's error reply
  // (app.error below).
  let loading: ReturnType<SlackAppOptions['load']> | undefined;
  const load = () => {
    loading ??= opts.load();
    return loading;
  };
  let registered: Promise<void> | undefined;
  const registerListeners = () => {
    registered ??= Promise.all([import('./listeners.js'), load()]).then(([listeners, loaded]) =>
      listeners.registerListeners(app, loaded.listeners, loaded.features),
    );
    return registered;
  };
  let refused: Promise<RefusedSteps> | undefined;
  const refusedSteps = () => {
    refused ??= load().then(
      ({ refused: deps }) => new RefusedSteps(deps, new webApi.WebClient(undefined, clientOptions)),
    );
    return refused;
  };
  app.use(async ({ next }) => {
    await registerListeners();
    await next();
  });
  handleErrors(app, base, receiver, refusedSteps);
  return {
    app,
    httpReceiver: receiver instanceof VigilHttpReceiver ? receiver : undefined,
    installer,
    async init() {
      await app.init();
      await gate?.init();
    },
    registerListeners,
    clientFor: botClients(authorize, clientOptions),
    botToken: installer ? backgroundBotToken(rotation.authorizeWith(installer)) : undefined,
  };
}

/** A bot client per token, kept: a tool call must not build a new client (and agent) each time. */
function botClients(authorize: Authorize<boolean>, clientOptions: BoltClientOptions): SlackApp['clientFor'] {
  const clients = new Map<string, WebClient>();
  return async ({ teamId, userId }) => {
    const source = { teamId, enterpriseId: undefined, userId, isEnterpriseInstall: false } as const;
    const { botToken } = await authorize(source as AuthorizeSourceData<boolean>, undefined);
    if (!botToken) throw new Error('the installation has no bot token');
    let client = clients.get(botToken);
    if (!client) {
      // Rotated tokens leave old entries behind: a small bound keeps the map from growing.
      if (clients.size >= 256) clients.clear();
      client = new webApi.WebClient(botToken, clientOptions);
      clients.set(botToken, client);
    }
    return client;
  };
}
