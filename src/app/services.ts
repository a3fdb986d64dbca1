/**
 * Building Vigil's services over the store (startup/base.ts) and the API client pool (startup/api.ts): the
 * workflows the features are bound to (app/features.ts: each gets only what it declares, never the store or
 * the API client). Loaded once the web server listens: a start serves /healthz without them.
 */

import { AuditTrail } from '../domain/audit.js';
import { KnownTags } from '../domain/events/known-tags.js';
import { TriageService } from '../domain/events/triage.js';
import { FairGate, type FairGateOptions } from '../domain/fair-gate.js';
import { IdentifierDirectory } from '../domain/identifiers.js';
import { type ListContexts, listContexts } from '../domain/list-context.js';
import { PortalLinks } from '../domain/portal-links.js';
import { StoreSearchSeats } from '../domain/search-seats.js';
import { SnoozeService } from '../domain/snooze-service.js';
import { AlertService } from '../domain/subscriptions/alert-service.js';
import { eventSourceOf } from '../domain/subscriptions/source.js';
import { WatchService } from '../domain/watch-service.js';
import { buildAskPerson } from '../features/ask-person/build.js';
import type { AskPersonService } from '../features/ask-person/service.js';
import { ConnectionService } from '../features/connection/service.js';
import { TenantsService } from '../features/connection/tenants.js';
import { IdpHttp } from '../features/containment/http.js';
import { ContainmentService } from '../features/containment/service.js';
import { CredentialsService } from '../features/credentials/service.js';
import { DigestOnDemand } from '../features/digests/on-demand.js';
import { DigestService } from '../features/digests/subscriptions.js';
import { EventsService } from '../features/events/service.js';
import { HomeService } from '../features/home/service.js';
import { IdentifierSearch } from '../features/identifiers/search.js';
import { IntelService } from '../features/intel/service.js';
import { PoliciesService } from '../features/policies/service.js';
import { RecommendationsService } from '../features/recommendations/service.js';
import { ReportsService } from '../features/reports/service.js';
import { SandboxService } from '../features/sandbox/service.js';
import { SettingsService } from '../features/settings/service.js';
import { WorkObjectsService } from '../features/work-objects/service.js';
import { StepRuns } from '../features/workflow-steps/runs.js';
import type { Sleep } from '../kernel/clock.js';
import { BotClients } from '../slack/bot-clients.js';
import { GrantedScopes } from '../slack/granted-scopes.js';
import { Authz } from '../slack/permission-checks.js';
import type { ApiParts } from './api.js';
import type { VigilBase } from './base.js';

/** The services start-up builds; the feature list binds each feature to the few it declares. */
export interface Services {
  events: EventsService;
  credentials: CredentialsService;
  digests: DigestService;
  /** One subscription's digest posted now (the "Post a digest now" workflow step). */
  digestNow: DigestOnDemand;
  /** Runs of Vigil's workflow steps: each completes once however often Slack delivers it. */
  steps: StepRuns;
  identifiers: IdentifierDirectory;
  identifierSearch: IdentifierSearch;
  alerts: AlertService;
  connection: ConnectionService;
  tenants: TenantsService;
  settings: SettingsService;
  audit: AuditTrail;
  home: HomeService;
  policies: PoliciesService;
  recommendations: RecommendationsService;
  reports: ReportsService;
  watch: WatchService;
  intel: IntelService;
  sandbox: SandboxService;
  triage: TriageService;
  snoozes: SnoozeService;
  workObjects: WorkObjectsService;
  /** Portal links of the events Vigil showed (alerts and digests remember what they post). */
  portalLinks: PortalLinks;
  /** Containing leaked identities in the workspace's identity provider (Entra ID, Okta). */
  containment: ContainmentService;
  knownTags: KnownTags;
  lists: ListContexts;
  /** Server-side permission checks, from the verified payload's team and user. */
  authz: Authz;
  /** Asking the member a leaked company credential belongs to (alerts with `ask-person:on`). */
  askPerson: AskPersonService;
  /** The optional scopes each workspace's installer declined: their features are off there. */
  grantedScopes: GrantedScopes;
}

export interface ServiceOptions {
  /** Fair admission of searches (per-member bound, concurrency). */
  searchGate?: Partial<FairGateOptions> | undefined;
  sleep?: Sleep | undefined;
}

export type ServiceBase = VigilBase & ApiParts;

export function buildServices(base: ServiceBase, opts: ServiceOptions): Services {
  const { config, clock, repos } = base;
  const portalLinks = new PortalLinks({ repos, clock, hosts: config.portalHosts, api: base.api });
  const shared = sharedServices(base, portalLinks, opts);
  const { connection, digests, alerts, snoozes } = shared;
  const bots = new BotClients({ ...base, slackCalls: base.monitoring.metrics });
  const grantedScopes = new GrantedScopes(
    config.slack.mode.kind === 'oauth'
      ? { installations: repos.installations, now: () => clock.now() }
      : // One bot token: the client is the same whatever the workspace.
        { singleClient: () => bots.forWorkspace(''), now: () => clock.now() },
  );
  const workflow = workflowServices(base, shared, portalLinks, opts);
  const services: Services = {
    ...shared,
    ...workflow,
    portalLinks,
    digestNow: new DigestOnDemand({ repos }),
    steps: new StepRuns({ repos, store: base.store, clock, metrics: base.monitoring.metrics }),
    settings: new SettingsService({ repos }),
    home: new HomeService({
      repos,
      now: () => clock.now(),
      digests,
      alerts,
      connection,
      snoozes,
      scopes: grantedScopes,
      identityProvider: workflow.containment,
    }),
    knownTags: new KnownTags(repos),
    lists: listContexts(repos),
    authz: new Authz({ clock, settings: repos.settings, admins: config.admins, audit: repos.audit }),
    askPerson: buildAskPerson({
      repo: repos.askPerson,
      openAsks: repos.openAsks,
      bots,
      scopes: grantedScopes,
      identifiers: async (workspaceId) => (await shared.identifiers.list(workspaceId)).identifiers,
      audit: repos.audit,
      isAlive: (owner) => base.store.isHolderAlive(owner),
      clock,
      logger: base.logger.child({ component: 'ask-person' }),
      owner: base.store.holderId,
      settings: config.askPerson,
    }),
    grantedScopes,
  };
  return services;
}

type SharedServices = ReturnType<typeof sharedServices>;

/** The services others are built on. */
function sharedServices(base: ServiceBase, portalLinks: PortalLinks, opts: ServiceOptions) {
  const { config, logger, clock, store, repos, api } = base;
  const tenantOf = (workspaceId: string) => api.ownTenant(workspaceId);
  const identifiers = new IdentifierDirectory({ api, clock, repos });
  const events = new EventsService({
    api,
    repos,
    clock,
    // On Redis a member's bound on searches holds across every instance.
    gate: new FairGate(opts.searchGate, store.backend === 'redis' ? new StoreSearchSeats(store) : undefined),
    portalLinks,
  });
  return {
    connection: new ConnectionService({ api, repos, logger, publicUrl: () => config.publicUrl }),
    digests: new DigestService({ repos, events: eventSourceOf(api), clock, tenantOf }),
    alerts: new AlertService({ repos, clock, pollMs: config.alerts.pollMs, tenantOf }),
    identifiers,
    events,
    triage: new TriageService({ api, store, repos, clock }),
    audit: new AuditTrail({ repos }),
    snoozes: new SnoozeService({ repos, clock, changes: events.changes }),
  };
}

/** The workflows over the API: one per part of Slack that reaches it. */
function workflowServices(
  base: ServiceBase,
  shared: SharedServices,
  portalLinks: PortalLinks,
  opts: ServiceOptions,
) {
  const { config, logger, clock, store, repos, api } = base;
  const { identifiers, events, triage, audit } = shared;
  const sleep = opts.sleep ? { sleep: opts.sleep } : {};
  return {
    credentials: new CredentialsService({
      api,
      repos,
      identifiers,
      store,
      clock,
      logger: logger.child({ component: 'creds' }),
    }),
    identifierSearch: new IdentifierSearch({ identifiers, repos }),
    tenants: new TenantsService({ api, repos }),
    policies: new PoliciesService({ api, store, repos, clock, logger, ...sleep }),
    recommendations: new RecommendationsService({ api, store, repos, clock, identifiers }),
    reports: new ReportsService({ api }),
    watch: new WatchService({ api, repos, identifiers }),
    intel: new IntelService({
      api,
      repos,
      clock,
      logger: logger.child({ component: 'intel' }),
      leases: store,
    }),
    sandbox: new SandboxService({
      api,
      repos,
      logger: logger.child({ component: 'sandbox' }),
      maxBytes: config.sandbox.maxBytes,
      // The bot token goes only to Slack's file hosts and the configured Slack API host.
      slackFileHosts: ['files.slack.com', 'files.slack-gov.com', new URL(config.slack.apiUrl).host],
      dispatcher: base.outbound.dispatcher,
    }),
    workObjects: new WorkObjectsService({ links: portalLinks, api, repos, events, triage, audit }),
    containment: containmentService(base),
  };
}

/** Containment's provider calls go out like every other: Vigil's dispatcher (the proxy), the API metrics. */
function containmentService(base: ServiceBase): ContainmentService {
  const { config, clock, monitoring } = base;
  const observer = monitoring.apiObserver;
  const http = new IdpHttp({
    dispatcher: base.outbound.dispatcher,
    allowedHosts: config.idp.allowedHosts,
    now: () => clock.now(),
    observe: (exchange) => observer.exchange?.(exchange),
  });
  return new ContainmentService({
    repos: base.repos,
    store: base.store,
    clock,
    logger: base.logger.child({ component: 'contain' }),
    http,
    urls: { entraLoginUrl: config.idp.entraLoginUrl, graphUrl: config.idp.graphUrl },
    approvalTtlMs: config.idp.approvalTtlMs,
  });
}
