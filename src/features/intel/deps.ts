/** What the intel commands use: the questions asked of Threat Flow. */
import type { SlackBase } from '../../slack/context.js';
import type { IntelService } from './service.js';
export interface IntelDeps extends SlackBase {
  intel: IntelService;
}
