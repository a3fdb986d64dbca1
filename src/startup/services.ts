/**
 * Building Vigil's services over the store and the API client pool (startup/base.ts): the workflows, and what
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
import type { VigilBase } from './base.js';

/**
 * Everything start-up built: the services, and the store and API client beneath them that background work,
 * the connect page and the playground use. Slack listeners get only `slack`.
 */
export interface VigilCore extends VigilBase, SlackDeps {
  slack: SlackDeps;
}

export interface ServiceOptions {
  /** Fair admission of searches (per-member bound, concurrency). */
  searchGate?: Partial<FairGateOptions> | undefined;
  sleep?: Sleep | undefined;
}

export function buildServices(base: VigilBase, opts: ServiceOptions): VigilCore {
  const { config, logger, clock, store, repos, api, tracker } = base;
  const sleep = opts.sleep ? { sleep: opts.sleep } : {};
  const connection = new ConnectionService({
    api,
    repos,
    logger,
    publicUrl: () => config.publicUrl,
  });
  const tenantOf = (workspaceId: string) => api.ownTenant(workspaceId);
  const digests = new DigestService({ repos, events: eventSourceOf(api), clock, tenantOf });
  const alerts = new AlertService({ repos, clock, pollMs: config.alerts.pollMs, tenantOf });
  const identifiers = new IdentifierDirectory({ api, clock, repos });
  const portalLinks = new PortalLinks({ repos, clock, hosts: config.portalHosts });
  const events = new EventsService({
    api,
    repos,
    clock,
    // On Redis a member's bound on searches holds across every instance.
    gate: new FairGate(opts.searchGate, store.backend === 'redis' ? new StoreSearchSeats(store) : undefined),
    portalLinks,
  });
  const triage = new TriageService({ api, store, repos, clock });
  const audit = new AuditTrail({ repos });
  const snoozes = new SnoozeService({ repos, clock, changes: events.changes });
  const slack: SlackDeps = {
    logger,
    clock,
    events,
    credentials: new CredentialsService({
      api,
      repos,
      identifiers,
      store,
      clock,
      logger: logger.child({ component: 'creds' }),
    }),
    digests,
    digestNow: new DigestOnDemand({ repos }),
    steps: new StepRuns({ repos, clock }),
    identifiers,
    identifierSearch: new IdentifierSearch({ identifiers, repos }),
    alerts,
    connection,
    tenants: new TenantsService({ api, repos }),
    settings: new SettingsService({ repos }),
    audit,
    home: new HomeService({ repos, digests, alerts, connection, snoozes }),
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
    triage,
    snoozes,
    workObjects: new WorkObjectsService({ links: portalLinks, api, repos, events, triage, audit }),
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
