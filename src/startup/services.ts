/**
 * Building Vigil's services over the store (startup/base.ts) and the API client pool (startup/api.ts): the workflows, and what
 * Slack listeners get (`SlackDeps`: services, permission checks, clock, logger, never the store or the API
 * client). Loaded once the web server listens: a start serves /healthz without them.
 */
import type { Sleep } from '../clock.js';
import { AlertService } from '../services/alerts/subscriptions.js';
import { AuditTrail } from '../services/audit.js';
import { ConnectionService } from '../services/connection.js';
import { CredentialsService } from '../services/credentials/index.js';
import { DigestOnDemand } from '../services/digest/on-demand.js';
import { DigestService } from '../services/digest/subscriptions.js';
import { EventsService } from '../services/events/service.js';
import { TriageService } from '../services/events/triage.js';
import { FairGate, type FairGateOptions } from '../services/fair-gate.js';
import { HomeService } from '../services/home.js';
import { IdentifierDirectory } from '../services/identifiers.js';
import { IdentifierSearch } from '../services/identifiers-page.js';
import { IntelService } from '../services/intel.js';
import { KnownTags } from '../services/known-tags.js';
import { listContexts } from '../services/list-context.js';
import { PoliciesService } from '../services/policies.js';
import { RecommendationsService } from '../services/recommendation-decisions.js';
import { ReportsService } from '../services/reports.js';
import { SandboxService } from '../services/sandbox.js';
import { StoreSearchSeats } from '../services/search-seats.js';
import { SettingsService } from '../services/settings.js';
import { SnoozeService } from '../services/snoozes/service.js';
import { eventSourceOf } from '../services/subscriptions/source.js';
import { TenantsService } from '../services/tenants.js';
import { WatchService } from '../services/watch.js';
import { PortalLinks } from '../services/work-objects/portal-links.js';
import { WorkObjectsService } from '../services/work-objects/service.js';
import { StepRuns } from '../services/workflow-steps.js';
import type { SlackDeps } from '../slack/context.js';
import { Authz } from '../slack/permission-checks.js';
import type { ApiParts } from './api.js';
import type { VigilBase } from './base.js';

/**
 * Everything start-up built: the services, and the store and API client beneath them that background work,
 * the connect page and the playground use. Slack listeners get only `slack`.
 */
export interface VigilCore extends VigilBase, ApiParts, SlackDeps {
  slack: SlackDeps;
}

export interface ServiceOptions {
  /** Fair admission of searches (per-member bound, concurrency). */
  searchGate?: Partial<FairGateOptions> | undefined;
  sleep?: Sleep | undefined;
}

type ServiceBase = VigilBase & ApiParts;

export function buildServices(base: ServiceBase, opts: ServiceOptions): VigilCore {
  const { config, logger, clock, repos, tracker } = base;
  const sleep = opts.sleep ? { sleep: opts.sleep } : {};
  const portalLinks = new PortalLinks({ repos, clock, hosts: config.portalHosts });
  const shared = sharedServices(base, portalLinks, opts);
  const { connection, digests, alerts, snoozes } = shared;
  const slack: SlackDeps = {
    logger,
    clock,
    ...shared,
    ...workflowServices(base, shared, portalLinks, opts),
    digestNow: new DigestOnDemand({ repos }),
    steps: new StepRuns({ repos, clock }),
    settings: new SettingsService({ repos }),
    home: new HomeService({ repos, digests, alerts, connection, snoozes }),
    knownTags: new KnownTags(repos),
    lists: listContexts(repos),
    authz: new Authz({ clock, settings: repos.settings, extraAdmins: config.admins }),
    tracker,
    outbound: base.outbound,
    metrics: base.monitoring.metrics,
    ...sleep,
  };
  return { ...base, ...slack, slack };
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
  };
}
