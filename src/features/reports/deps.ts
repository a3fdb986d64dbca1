/** What the report command uses: the reports, and the events it looks up. */
import type { SlackBase } from '../../slack/context.js';
import type { EventsService } from '../events/service.js';
import type { ReportsService } from './service.js';
export interface ReportsDeps extends SlackBase {
  reports: ReportsService;
  events: EventsService;
}
