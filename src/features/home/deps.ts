/** What App Home and its buttons use. */
import type { SlackBase } from '../../slack/context.js';
import type { AlertService } from '../alerts/subscriptions.js';
import type { ConnectionService } from '../connection/service.js';
import type { DigestService } from '../digests/subscriptions.js';
import type { SnoozeService } from '../snooze/service.js';
import type { HomeService } from './service.js';
export interface HomeDeps extends SlackBase {
  home: HomeService;
  connection: ConnectionService;
  digests: DigestService;
  alerts: AlertService;
  snoozes: SnoozeService;
}
