/** What the snooze commands and the End button use: the snoozes, and the identifiers a snooze may name. */

import type { IdentifierDirectory } from '../../domain/identifiers.js';
import type { SnoozeService } from '../../domain/snooze-service.js';
import type { SlackBase } from '../../slack/context.js';
export interface SnoozeDeps extends SlackBase {
  snoozes: SnoozeService;
  /** Whether an identifier to snooze exists in the tenant. */
  identifiers: Pick<IdentifierDirectory, 'missing'>;
}
