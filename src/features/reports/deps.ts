/** What the report command uses: the reports, and the events it looks up. */
import type { EventExplaining } from '../../domain/events/ports.js';
import type { SlackBase } from '../../slack/context.js';
import type { ReportsService } from './service.js';
export interface ReportsDeps extends SlackBase {
  reports: ReportsService;
  events: EventExplaining;
}
