/**
 * What every Slack listener receives: Vigil's collaborators (`SlackDeps`) and, for `/vigil` subcommands, the
 * verified request (`CommandContext`). Feature modules export command handlers and register their own
 * action/view listeners; the `/vigil` dispatcher acks first and then runs the handler in the background.
 */
import type { App, RespondArguments, RespondFn } from '@slack/bolt';
import type { Block, KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Clock, Sleep } from '../clock.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { AlertService } from '../services/alerts/subscriptions.js';
import type { CredentialsService } from '../services/credentials/index.js';
import type { DigestService } from '../services/digest/subscriptions.js';
import type { EventsService } from '../services/events.js';
import type { IdentifierDirectory } from '../services/identifiers.js';
import type { ApiAccess } from '../services/workspace-api.js';
import type { Repositories, Store } from '../store/index.js';
import type { WorkTracker } from '../work-tracker.js';
import type { Authz } from './authz.js';
import type { Command, CommandKind } from './parser/index.js';

export interface SlackDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  store: Store;
  repos: Repositories;
  api: ApiAccess;
  /** The workflows features call (services never see Slack). */
  events: EventsService;
  credentials: CredentialsService;
  /** Digest subscriptions (add, list, pause, preview…). */
  digests: DigestService;
  /** The workspace's identifiers by name (a short-lived cache of the API's list). */
  identifiers: IdentifierDirectory;
  /** Real-time alert subscriptions (add, list, pause…). */
  alerts: AlertService;
  authz: Authz;
  tracker: WorkTracker;
  /** Waiting ("still working" notices); real time when absent. */
  sleep?: Sleep;
  /** Requests by kind and outcome, ack latency (the receivers); none when metrics are off. */
  metrics?: Metrics;
}

/** Who asked and where, from the verified request; never from button values. */
export interface Requester {
  /** Enterprise id for org-wide installs, else team id: the key of the workspace's data. */
  workspaceId: string;
  teamId: string;
  enterpriseId: string | undefined;
  userId: string;
  channelId: string;
}

export interface CommandContext<K extends CommandKind = CommandKind> extends Requester {
  command: Extract<Command, { kind: K }>;
  triggerId: string;
  responseUrl: string;
  respond: RespondFn;
  client: WebClient;
  deps: SlackDeps;
}

export interface CommandHandler<K extends CommandKind = CommandKind> {
  /**
   * Ephemeral text sent with the ack, replaced by the result (`replace_original`), for commands whose
   * answer takes a while. Commands that open a modal have none: they must use the trigger id at once.
   */
  progress?: (command: Extract<Command, { kind: K }>) => string;
  run(ctx: CommandContext<K>): Promise<void>;
}

export type CommandHandlers = { [K in CommandKind]?: CommandHandler<K> };

/** A feature: its subcommands and the listeners (actions, views) it registers itself. */
export interface Feature {
  commands: CommandHandlers;
  register?(app: App, deps: SlackDeps): void;
}

/** A message meant only for the requester. Always says explicitly whether it replaces the original. */
export function ephemeral(
  message: { text: string; blocks?: (KnownBlock | Block)[] },
  replaceOriginal: boolean,
): RespondArguments {
  const base = { response_type: 'ephemeral', replace_original: replaceOriginal, text: message.text } as const;
  return message.blocks ? { ...base, blocks: message.blocks } : base;
}
