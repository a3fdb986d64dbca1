/** What the creds commands, pages, exports and the password modal use. */

import type { AuditTrail } from '../../domain/audit.js';
import type { ContainEntry } from '../../domain/contain-entry.js';
import type { IdentifierDirectory } from '../../domain/identifiers.js';
import type { SlackBase } from '../../slack/context.js';
import type { CredentialsService } from './service.js';
export interface CredentialsDeps extends SlackBase {
  credentials: CredentialsService;
  identifiers: IdentifierDirectory;
  audit: AuditTrail;
  /** When an identity provider is connected, each row offers *Contain…* (features/containment). */
  containment?: ContainEntry;
}
