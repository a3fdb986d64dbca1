/** Every repository over one store, with the dependencies they share. */
import type { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { Actors, Permission } from '../../kernel/permission-rules.js';
import type { Store } from '../backend/store.js';
import { AlertFollowUpRepo } from './alert-follow-repo.js';
import { AlertStateRepo } from './alert-state-repo.js';
import { AlertSubscriptionRepo } from './alert-subscription-repo.js';
import { ApiProbeRepo } from './api-probe-repo.js';
import { ApiOrganizationRepo, ApiTokenRepo } from './api-token-repo.js';
import { OpenAskIndex } from './ask-person-index.js';
import { type AuditEntry, AuditRepo } from './audit-repo.js';
import { CommandNoteRepo } from './command-note-repo.js';
import { ConnectLinkRepo } from './connect-link-repo.js';
import { DigestOutboxRepo } from './digest-outbox.js';
import { DigestSubscriptionRepo } from './digest-subscription-repo.js';
import { DigestTrendRepo } from './digest-trend-repo.js';
import { EventStateRepo } from './event-state-repo.js';
import { InstallationRepo } from './installation-repo.js';
import type { NamespaceName } from './namespaces.js';
import { OrgTeams } from './org-teams.js';
import { IDP_SECRET_PURPOSE, STEP_TOKEN_PURPOSE } from './sealed-fields.js';
import type { Sealer } from './sealing.js';
import { SearchContextRepo } from './search-context-repo.js';
import { SettingsRepo } from './settings-repo.js';
import { SnoozeRepo } from './snooze-repo.js';
import { UnreadableRecords } from './unreadable.js';
import { makeDeleteWorkspaceData } from './workspace-data.js';
import { type WorkspaceRecordOptions, WorkspaceRecordRepo } from './workspace-record-repo.js';
import { QuotaSchema, WorkspaceRepo } from './workspace-repo.js';

export interface RepositoryDeps {
  clock: Clock;
  sealer: Sealer;
  /** Audit entries kept per workspace; 10,000 unless configured otherwise. */
  auditRetention?: number;
  /** Where unreadable records are logged (once each) when set aside. */
  logger?: Logger;
  /** The surface of the request under way, for audit entries. */
  auditSurface?: () => string | undefined;
  /** Told of every audit entry stored (the structured audit log line). */
  onAudit?: (entry: AuditEntry) => void;
  /** Told once per record newly set aside as unreadable, with its namespace (metrics). */
  onSetAside?: (kind: string) => void;
  /** VIGIL_DEFAULT_PERMISSIONS: the defaults of the permissions a workspace never set. */
  defaultPermissions?: Partial<Record<Permission, Actors>>;
}

export function createRepositories(store: Store, deps: RepositoryDeps) {
  const { clock, sealer } = deps;
  const workspaces = new WorkspaceRepo(store, clock, sealer);
  const orgTeams = new OrgTeams(store, clock);
  const installations = new InstallationRepo(store, clock, sealer, orgTeams);
  const settings = new SettingsRepo(store, clock, deps.defaultPermissions);
  const unreadable = unreadableRegistry(store, deps);
  const subscriptions = subscriptionRepos(store, clock, unreadable);
  const openAsks = new OpenAskIndex(store);
  return {
    /** Records set aside because they cannot be read (logged once each, counted). */
    unreadable,
    workspaces,
    installations,
    orgTeams,
    settings,
    audit: new AuditRepo(store, clock, {
      ...(deps.auditRetention === undefined ? {} : { retention: deps.auditRetention }),
      ...(deps.auditSurface === undefined ? {} : { surface: deps.auditSurface }),
      ...(deps.onAudit === undefined ? {} : { onAppend: deps.onAudit }),
    }),
    connectLinks: new ConnectLinkRepo(store, clock, sealer),
    ...subscriptions,
    eventStates: new EventStateRepo(store),
    /** The command behind each search context, kept after the context expires. */
    commandNotes: new CommandNoteRepo(store),
    /** Search contexts of the shape the Slack layer defines; each names its workspace. */
    searchContexts: <S extends z.ZodType<{ workspaceId: string }>>(schema: S) =>
      new SearchContextRepo(store, clock, schema),
    /** The digest outbox and cursors, one record each per subscription (digest-outbox.ts). */
    digestOutbox: new DigestOutboxRepo(store, clock),
    /** What each digest run reported, for its trend (digest-trend-repo.ts). */
    digestTrends: new DigestTrendRepo(store),
    /** The alerts' feed, outboxes and posted messages (alert-state-repo.ts). */
    alertState: new AlertStateRepo(store),
    /** Changes alert messages must still follow, recorded before each commit (alert-follow-repo.ts). */
    alertFollowUps: new AlertFollowUpRepo(store),
    /** The API client's tokens and organization ids, shared by every instance on this store. */
    apiTokens: new ApiTokenRepo(store, clock, sealer, unreadable),
    apiOrganizations: new ApiOrganizationRepo(store),
    /** `/readyz`'s probe of the API: its last outcome and whose turn it is (api-probe-repo.ts). */
    apiProbes: new ApiProbeRepo(store),
    /**
     * The search quota last seen by a workspace connected from the environment (a stored connection keeps
     * its own): `status` still tells it after a restart. A cache: unreadable reads as absent.
     */
    environmentQuota: new WorkspaceRecordRepo(store, 'environment-quota', QuotaSchema, {
      unreadable: 'absent',
    }),
    /** What the workspace snoozed in its alerts and digests (snooze-repo.ts). */
    snoozes: new SnoozeRepo(store),
    ...serviceRecordRepos(store),
    /** The index of open asks and of the workspaces that have any (ask-person-index.ts). */
    openAsks,
    /** A workflow step execution's token, sealed while its run is recorded running (completed after a crash). */
    /** The identity provider's secret (Entra client secret, Okta API token), sealed for its workspace. */
    idpSecrets: {
      seal: (workspaceId: string, secret: string) => sealer.seal(secret, workspaceId, IDP_SECRET_PURPOSE),
      open: (workspaceId: string, sealed: string) => sealer.open(sealed, workspaceId, IDP_SECRET_PURPOSE),
    },
    stepTokens: {
      seal: (workspaceId: string, token: string) => sealer.seal(token, workspaceId, STEP_TOKEN_PURPOSE),
      open: (workspaceId: string, sealed: string) => sealer.open(sealed, workspaceId, STEP_TOKEN_PURPOSE),
    },
    deleteWorkspaceData: makeDeleteWorkspaceData(store, {
      workspaces,
      settings,
      installations,
      orgTeams,
      openAsks,
      ...subscriptions,
    }),
  };
}

/**
 * The registry of unreadable records, told by the store of every one, whoever meets it: logged once,
 * counted, noted for the workspace's admins.
 */
function unreadableRegistry(store: Store, deps: RepositoryDeps): UnreadableRecords {
  const unreadable = new UnreadableRecords({
    store,
    now: () => deps.clock.now(),
    ...(deps.logger === undefined ? {} : { logger: deps.logger }),
    ...(deps.onSetAside === undefined ? {} : { onSetAside: deps.onSetAside }),
  });
  store.onUnreadable((error) => unreadable.note(error));
  return unreadable;
}

/** Digest and alert subscriptions; an unreadable one is removed through its repository (indexes in step). */
function subscriptionRepos(store: Store, clock: Clock, unreadable: UnreadableRecords) {
  const digestSubscriptions = new DigestSubscriptionRepo(store, clock, unreadable);
  const alertSubscriptions = new AlertSubscriptionRepo(store, clock, unreadable);
  unreadable.removeWith('subscription', (ws, id) => digestSubscriptions.remove(ws, id));
  unreadable.removeWith('alert', (ws, id) => alertSubscriptions.remove(ws, id));
  return {
    /** Daily digest subscriptions (digest-subscription-repo.ts). */
    digestSubscriptions,
    /** Real-time alert subscriptions (alert-subscription-repo.ts). */
    alertSubscriptions,
  };
}

/** Caches and marks learned again when unreadable: read as absent and replaced by the next write. */
const ABSENT = { unreadable: 'absent' } as const;
/** Runs and intents, whose loss must be seen: an unreadable one fails what reads it. */
const FAILS: WorkspaceRecordOptions = {};

/**
 * Records of a workspace whose shape the service that keeps them defines (by schema). An unreadable one fails
 * only what reads it (a workflow run, an unassign being settled, a report request skipped by its follower),
 * unless it is a cache or a mark (ABSENT).
 */
function serviceRecordRepos(store: Store) {
  /** A repository over `name` whose records' schema the service gives; read as absent when unreadable by default. */
  const records =
    (name: NamespaceName, options: WorkspaceRecordOptions = ABSENT) =>
    <S extends z.ZodType>(schema: S) =>
      new WorkspaceRecordRepo(store, name, schema, options);
  return {
    /** Policy unassigns done through Vigil, by `<policy>:<identifier>`; the service defines the shape. */
    policyUnassigns: records('policy-unassign'),
    /** Unassigns called but not yet recorded, by `<policy>:<identifier>`; the service defines the shape. */
    unassignIntents: records('unassign-intent', FAILS),
    /** Credentials exports under way, by `<userId>`; the export service defines the shape. */
    runningExports: records('export-running'),
    /** Runs of workflow steps, by function execution id; the steps service defines the shape. */
    workflowSteps: records('workflow-step', FAILS),
    /** Triage changes (tags, note, severity) per event and field; the service defines the shape. */
    eventTriage: records('event-triage'),
    /** The tenant's known tags, by tenant id; the service defines the shape. */
    tenantTags: records('tenant-tags'),
    /** The identifier list read from the API and its stamp; the identifiers service defines the shapes. */
    identifierLists: records('identifier-list'),
    /** Recommendation decisions made through Vigil, by recommendation id. */
    recommendationDecisions: records('recommendation-decision'),
    /** Portal links of the events Vigil has seen and those events; the Work Objects service defines the shape. */
    portalEvents: records('portal-event'),
    /** Report requests followed until their report is posted; the intel service defines the shape. */
    intelRequests: records('intel-request', FAILS),
    /** What was done to leaked credentials through Vigil, by pair or identity; the service defines the shape. */
    credentialStates: records('credential-state'),
    /** Members asked about a leaked credential, by credential digest; the ask-person service defines the shape. */
    askPerson: records('ask-person'),
    /** The identity provider connection (secret sealed); the containment service defines the shape. */
    idpConnections: records('idp-connection'),
    /** Containment requests by id; the containment service defines the shape. */
    containRequests: records('contain-request'),
    /** The index of containment requests awaiting approval (by request id, with their expiry) for the sweep. */
    containPending: records('contain-pending'),
    /** Whether containment waits for a second approver. */
    containSettings: records('contain-setting'),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
