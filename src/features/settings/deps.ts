/** What the settings and audit commands use. */

import type { AuditTrail } from '../../domain/audit.js';
import type { SlackBase } from '../../slack/context.js';
import type { SettingsService } from './service.js';
export interface SettingsDeps extends SlackBase {
  settings: SettingsService;
  audit: AuditTrail;
}
