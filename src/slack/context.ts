/**
 * What every Slack listener receives: the services and Slack-side helpers (`SlackDeps`, never the store or
 * the API client) and, for `/vigil` subcommands, the
 * verified request (`CommandContext`). Feature modules export command handlers and register their own
 * action/view listeners; the `/vigil` dispatcher acks first and then runs the handler in the background.
 */
import type { App, RespondArguments, RespondFn } from '@slack/bolt';
import type { Block, KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { AuditTrail } from '../domain/audit.js';
import type { KnownTags } from '../domain/events/known-tags.js';
import type { TriageService } from '../domain/events/triage.js';
import type { ListContexts } from '../domain/list-context.js';
import type { WatchService } from '../domain/watch-service.js';
import type { AlertService } from '../features/alerts/subscriptions.js';
import type { ConnectionService } from '../features/connection/service.js';
import type { TenantsService } from '../features/connection/tenants.js';
import type { CredentialsService } from '../features/credentials/service.js';
import type { DigestOnDemand } from '../features/digests/on-demand.js';
import type { DigestService } from '../features/digests/subscriptions.js';
import type { EventsService } from '../features/events/service.js';
import type { HomeService } from '../features/home/service.js';
import type { IdentifierDirectory } from '../features/identifiers/directory.js';
import type { IdentifierSearch } from '../features/identifiers/search.js';
import type { IntelService } from '../features/intel/service.js';
import type { PoliciesService } from '../features/policies/service.js';
import type { RecommendationsService } from '../features/recommendations/service.js';
import type { ReportsService } from '../features/reports/service.js';
import type { SandboxService } from '../features/sandbox/service.js';
import type { SettingsService } from '../features/settings/service.js';
import type { SnoozeService } from '../features/snooze/service.js';
import type { WorkObjectsService } from '../features/work-objects/service.js';
import type { StepRuns } from '../features/workflow-steps/runs.js';
import type { Clock, Sleep } from '../kernel/clock.js';
import type { Logger } from '../kernel/logger.js';
import type { Outbound } from '../kernel/outbound.js';
import type { WorkTracker } from '../kernel/work-tracker.js';
import type { Metrics } from '../observability/metrics.js';
import type { Command, CommandKind } from './grammar/index.js';
import type { Authz } from './permission-checks.js';

export interface SlackDeps {
  logger: Logger;
  clock: Clock;
  /** The workflows features call (services never see Slack). */
  events: EventsService;
  credentials: CredentialsService;
  /** Digest subscriptions (add, list, pause, preview…). */
  digests: DigestService;
  /** One subscription's digest posted now (the "Post a digest now" workflow step). */
  digestNow: DigestOnDemand;
  /** Runs of Vigil's workflow steps: each completes once however often Slack delivers it. */
  steps: StepRuns;
  /** The workspace's identifiers by name (a short-lived cache of the API's list). */
  identifiers: IdentifierDirectory;
  identifierSearch: IdentifierSearch;
  /** Real-time alert subscriptions (add, list, pause…). */
  alerts: AlertService;
  /** The workspace's link to the API: connect links, status, disconnect, forgetting a workspace. */
  connection: ConnectionService;
  tenants: TenantsService;
  /** Who may do what (settings) and what was done (audit). */
  settings: SettingsService;
  audit: AuditTrail;
  /** What App Home shows. */
  home: HomeService;
  policies: PoliciesService;
  recommendations: RecommendationsService;
  reports: ReportsService;
  /** Adding, removing, disabling and enabling identifiers. */
  watch: WatchService;
  /** Questions asked of Threat Flow, followed until their report is posted. */
  intel: IntelService;
  sandbox: SandboxService;
  triage: TriageService;
  /** What the workspace quiets in alerts and digests until a given time. */
  snoozes: SnoozeService;
  /** Portal links unfurled as Work Objects, and their side panel. */
  workObjects: WorkObjectsService;
  /** Tags used before in the tenant, offered in the triage and digest forms. */
  knownTags: KnownTags;
  /** Short-lived contexts behind list buttons and pending forms. */
  lists: ListContexts;
  /** Server-side permission checks, from the verified payload's team and user. */
  authz: Authz;
  tracker: WorkTracker;
  /** How Slack-side calls leave the process (the outbound proxy, when one is set). */
  outbound: Outbound;
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
