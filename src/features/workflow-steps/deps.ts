/** What each of Vigil's workflow steps uses, apart: the step runner's part, and each step's own services. */
import type { AuditTrail } from '../../domain/audit.js';
import type { IdentifierDirectory } from '../../domain/identifiers.js';
import type { SlackBase } from '../../slack/context.js';
import type { TenantsService } from '../connection/tenants.js';
import type { CredentialsService } from '../credentials/service.js';
import type { DigestOnDemand } from '../digests/on-demand.js';
import type { DigestService } from '../digests/subscriptions.js';
import type { EventsService } from '../events/service.js';
import type { SettingsService } from '../settings/service.js';
import type { StepRuns } from './runs.js';

/** What running any step uses: its runs (each completes once), and who may search (the settings). */
export interface StepDeps extends SlackBase {
  steps: StepRuns;
  settings: Pick<SettingsService, 'get'>;
  /** The tenants the workspace already uses (its own, its subscriptions'): a step may name them without an admin. */
  tenantScope: { inUse(workspaceId: string): Promise<ReadonlySet<number>> };
}

export interface CredentialSearchStepDeps extends StepDeps {
  credentials: CredentialsService;
  /** A summary shared in a channel is audited. */
  audit: AuditTrail;
}

export interface EventSearchStepDeps extends StepDeps {
  events: EventsService;
  identifiers: IdentifierDirectory;
}

export interface ActStepDeps extends StepDeps {
  events: EventsService;
}

export interface DigestStepDeps extends StepDeps {
  digests: DigestService;
  /** One subscription's digest posted now. */
  digestNow: DigestOnDemand;
}

/** Asking a person to decide, and their click on the decision buttons (audited). */
export interface DecisionStepDeps extends StepDeps {
  audit: AuditTrail;
}

/** The Tenant menu the steps share. */
export interface TenantStepDeps extends StepDeps {
  tenants: TenantsService;
}
