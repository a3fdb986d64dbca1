/**
 * What every Slack listener receives: the plumbing every one needs (`SlackBase`), extended by each feature
 * with the services it declares (never the store or the API client), and, for `/vigil` subcommands, the
 * verified request (`CommandRequest`). Feature modules export command handlers and register their own
 * action/view listeners; the composition root binds each to its deps; the `/vigil` dispatcher acks first and
 * then runs the handler in the background.
 */
import type { App, RespondArguments, RespondFn } from '@slack/bolt';
import type { Block, KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Clock, Sleep } from '../kernel/clock.js';
import type { Logger } from '../kernel/logger.js';
import type { Outbound } from '../kernel/outbound.js';
import type { WorkTracker } from '../kernel/work-tracker.js';
import type { Command, CommandKind, SubcommandSpec } from './grammar/index.js';
import type { Authz } from './permission-checks.js';

/**
 * How a listener's work runs after the ack: tracked, so shutdown drains it; "still working" notices wait on
 * `sleep`; replies to a response_url leave through `outbound` (the proxy, when one is set).
 */
interface ListenerWork {
  tracker: WorkTracker;
  outbound: Outbound;
  /** Waiting ("still working" notices); real time when absent. */
  sleep?: Sleep;
}

/** What every listener needs from the plumbing; each feature's deps extend it with the services it uses. */
export interface SlackBase {
  logger: Logger;
  clock: Clock;
  /** Server-side permission checks, from the verified payload's team and user. */
  authz: Authz;
  work: ListenerWork;
}

/** Who asked and where, from the verified request; never from button values. */
export interface Requester {
  /** The workspace's team id (under an org-wide install too), the key of its data; the enterprise id only when no team is named. */
  workspaceId: string;
  teamId: string;
  enterpriseId: string | undefined;
  userId: string;
  channelId: string;
}

/** A verified `/vigil` request, as the dispatcher hands it to a subcommand's handler. */
export interface CommandRequest<K extends CommandKind = CommandKind> extends Requester {
  command: Extract<Command, { kind: K }>;
  triggerId: string;
  responseUrl: string;
  respond: RespondFn;
  client: WebClient;
}

/** What a feature's subcommand handler receives: the request and the feature's own deps. */
interface CommandContext<K extends CommandKind, D> extends CommandRequest<K> {
  deps: D;
}

export interface CommandHandler<K extends CommandKind, D> {
  /**
   * Ephemeral text sent with the ack, replaced by the result (`replace_original`), for commands whose
   * answer takes a while. Commands that open a modal have none: they must use the trigger id at once.
   */
  progress?: (command: Extract<Command, { kind: K }>) => string;
  run(ctx: CommandContext<K, D>): Promise<void>;
}

export type CommandHandlers<D> = { [K in CommandKind]?: CommandHandler<K, D> };

/**
 * A feature: the `/vigil` subcommands it owns (their grammar, in its `grammar.ts`), the handlers of the kinds
 * they parse to, and the listeners (actions, views) it registers itself, over the deps it declares.
 */
export interface Feature<D extends SlackBase> {
  /** In the order help lists them; the composition root builds the grammar from every feature's. */
  subcommands?: readonly SubcommandSpec[];
  commands: CommandHandlers<D>;
  register?(app: App, deps: D): void;
}

/** A subcommand's handler with its feature's deps closed over: what the `/vigil` dispatcher runs. */
export interface BoundHandler {
  progress?: (command: Command) => string;
  run(request: CommandRequest): Promise<void>;
}

/** A feature bound to its deps by the composition root: the dispatcher and the router stay generic. */
export interface BoundFeature {
  commands: Partial<Record<CommandKind, BoundHandler>>;
  register(app: App): void;
}

export function bindFeature<D extends SlackBase>(feature: Feature<D>, deps: D): BoundFeature {
  const commands: Partial<Record<CommandKind, BoundHandler>> = {};
  // Each handler is stored under its own kind: the dispatcher hands it only requests of that kind.
  const entries = Object.entries(feature.commands) as unknown as [
    CommandKind,
    CommandHandler<CommandKind, D>,
  ][];
  for (const [kind, handler] of entries) {
    const { progress } = handler;
    commands[kind] = {
      ...(progress ? { progress } : {}),
      run: (request) => handler.run({ ...request, deps }),
    };
  }
  return { commands, register: (app) => feature.register?.(app, deps) };
}

/** A message meant only for the requester. Always says explicitly whether it replaces the original. */
export function ephemeral(
  message: { text: string; blocks?: (KnownBlock | Block)[] },
  replaceOriginal: boolean,
): RespondArguments {
  const base = { response_type: 'ephemeral', replace_original: replaceOriginal, text: message.text } as const;
  return message.blocks ? { ...base, blocks: message.blocks } : base;
}
