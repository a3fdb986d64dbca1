/** What Vigil's workflow steps use. */

import type { AuditTrail } from '../../domain/audit.js';
import type { SlackBase } from '../../slack/context.js';
import type { TenantsService } from '../connection/tenants.js';
import type { CredentialsService } from '../credentials/service.js';
import type { DigestOnDemand } from '../digests/on-demand.js';
import type { DigestService } from '../digests/subscriptions.js';
import type { EventsService } from '../events/service.js';
import type { IdentifierDirectory } from '../identifiers/directory.js';
import type { SettingsService } from '../settings/service.js';
import type { StepRuns } from './runs.js';
export interface WorkflowStepsDeps extends SlackBase {
  steps: StepRuns;
  events: EventsService;
  credentials: CredentialsService;
  digests: DigestService;
  digestNow: DigestOnDemand;
  identifiers: IdentifierDirectory;
  tenants: TenantsService;
  settings: SettingsService;
  audit: AuditTrail;
}
