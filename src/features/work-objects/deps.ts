/** What the unfurls and the side panel use. */

import type { AuditTrail } from '../../domain/audit.js';
import type { KnownTags } from '../../domain/events/known-tags.js';
import type { TriageService } from '../../domain/events/triage.js';
import type { SlackBase } from '../../slack/context.js';
import type { EventsService } from '../events/service.js';
import type { SnoozeService } from '../snooze/service.js';
import type { WorkObjectsService } from './service.js';
export interface WorkObjectsDeps extends SlackBase {
  workObjects: WorkObjectsService;
  events: EventsService;
  audit: AuditTrail;
  triage: TriageService;
  snoozes: SnoozeService;
  knownTags: KnownTags;
}
