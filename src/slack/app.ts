/**
 * Builds the Bolt app: transport (HTTP receiver or Socket Mode), workspace authorization (one bot token,
 * or OAuth installations from the store) and the features' listeners. No I/O happens here.
 */
import { App, ErrorCode, LogLevel, SocketModeReceiver } from '@slack/bolt';
import { InstallProvider } from '@slack/oauth';
import { WebClient } from '@slack/web-api';
import type { Config } from '../config.js';
import { rotationSafeAuthorization } from './authorize.js';
import { toBoltLogger } from './bolt-logger.js';
import { interactiveClientOptions } from './client-options.js';
import { registerVigilCommand } from './command.js';
import type { CommandHandlers, Feature, SlackDeps } from './context.js';
import { reportError } from './error-reply.js';
import { VigilHttpReceiver } from './receiver.js';
import { AnsweringSocketModeReceiver } from './socket-receiver.js';
import {
  answerGateRefusal,
  authorizationAnswer,
  installationAuthorize,
  SingleWorkspaceGate,
} from './workspace-gate.js';

/** The bot scopes of manifest.yml; the OAuth install asks for exactly these. */
export const BOT_SCOPES = [
  'commands',
  'chat:write',
  'users:read',
  'usergroups:read',
  'files:write',
  'im:write',
  'channels:read',
  'groups:read',
  'channels:history',
  'groups:history',
  'files:read',
];

export interface SlackApp {
  app: App;
  /** HTTP mode only: the web server routes `/slack/events` here. */
  httpReceiver: VigilHttpReceiver | undefined;
  /** OAuth mode only: `/slack/install` and `/slack/oauth_redirect`. */
  installer: InstallProvider | undefined;
  /** Bolt's init, and in single-workspace mode the bot token's check (auth.test) before traffic. */
  init(): Promise<void>;
}

const BOLT_LOG_LEVELS: Record<Config['logLevel'], LogLevel> = {
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
};

export function createSlackApp(deps: SlackDeps, features: readonly Feature[], now?: () => number): SlackApp {
  const { config } = deps;
  const logger = toBoltLogger(deps.logger.child({ component: 'bolt' }), BOLT_LOG_LEVELS[config.logLevel]);
  const clientOptions = {
    slackApiUrl: config.slack.apiUrl,
    logger,
    logLevel: BOLT_LOG_LEVELS[config.logLevel],
    // Bounded: no Slack call (nor a respond post) hangs a click, and none that may have landed is sent twice.
    ...interactiveClientOptions(config.slack.timeoutMs),
  };

  // Token rotation refreshes under a store lock, so two instances never refresh one installation at once.
  const rotation = rotationSafeAuthorization({
    installations: deps.repos.installations,
    store: deps.store,
    clock: deps.clock,
  });
  const installer =
    config.slack.mode.kind === 'oauth'
      ? new InstallProvider({
          clientId: config.slack.mode.clientId,
          clientSecret: config.slack.mode.clientSecret,
          stateSecret: config.slack.mode.stateSecret,
          installationStore: rotation.installationStore,
          clientOptions,
          logger,
          directInstall: true,
          // Beside the Web API: https://slack.com/api/ → https://slack.com/oauth/v2/authorize, and a fake
          // Slack (SLACK_API_URL) gets the browser step too.
          authorizationUrl: new URL('../oauth/v2/authorize', config.slack.apiUrl).toString(),
        })
      : undefined;

  // Both answer a request refused by the workspace gate in its ack (AckAnswers).
  const receiver: VigilHttpReceiver | AnsweringSocketModeReceiver = config.slack.appToken
    ? new AnsweringSocketModeReceiver(
        new SocketModeReceiver({
          appToken: config.slack.appToken,
          logger,
          installerOptions: { clientOptions },
        }),
        deps.metrics,
      )
    : new VigilHttpReceiver({
        signingSecret: config.slack.signingSecret ?? '',
        logger: deps.logger.child({ component: 'receiver' }),
        ...(now ? { now } : {}),
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
      });
  const httpReceiver = receiver instanceof VigilHttpReceiver ? receiver : undefined;

  // The workspace gate: every request is authorized for the workspace this installation serves, or refused.
  const gate =
    config.slack.mode.kind === 'single'
      ? new SingleWorkspaceGate(new WebClient(undefined, clientOptions), config.slack.mode.botToken)
      : undefined;
  const auth = {
    authorize: gate
      ? gate.authorize
      : installationAuthorize(rotation.authorizeWith(installer as InstallProvider)),
  };

  const app = new App({
    ...auth,
    receiver,
    logger,
    clientOptions,
    developerMode: false,
    deferInitialization: true,
    extendedErrorHandler: true,
    // Neither is used (no message listeners, no conversation state); each is a middleware on every request.
    ignoreSelf: false,
    convoStore: false,
  });

  const commands: CommandHandlers = Object.assign({}, ...features.map((f) => f.commands));
  registerVigilCommand(app, deps, commands);
  for (const feature of features) feature.register?.(app, deps);

  // Last resort for errors thrown inside listeners (the features report their own to the user).
  app.error(async (args) => {
    const { error, body } = args as unknown as { error: unknown; body?: { type?: string } };
    const answer = authorizationAnswer(error);
    if (answer) {
      await answerGateRefusal(deps, answer, body, receiver);
      return;
    }
    if ((error as { code?: unknown }).code === ErrorCode.AuthorizationError) {
      // A request from a workspace without an installation: expected after an uninstall, not a bug.
      deps.logger.warn('request from a workspace Vigil has no installation for', { type: body?.type });
      return;
    }
    await reportError(deps, error, undefined, { type: body?.type });
  });

  return {
    app,
    httpReceiver,
    installer,
    async init() {
      await app.init();
      await gate?.init();
    },
  };
}
