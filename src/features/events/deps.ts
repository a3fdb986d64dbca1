/** What the events commands, rows, secret checks, stealer logs and snooze form use. */
import type { AuditTrail } from '../../domain/audit.js';
import type { TriageFormDeps } from '../../domain/events/triage-listeners.js';
import type { CredentialsService } from '../credentials/service.js';
import type { IdentifierDirectory } from '../identifiers/directory.js';
import type { SnoozeService } from '../snooze/service.js';
import type { EventsService } from './service.js';
export interface EventsDeps extends TriageFormDeps {
  events: EventsService;
  credentials: CredentialsService;
  identifiers: IdentifierDirectory;
  audit: AuditTrail;
  snoozes: SnoozeService;
}
