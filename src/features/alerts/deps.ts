/** What the alert commands, forms and buttons use: the alert subscriptions, and who is connected and which identifiers exist (the subscription checks). */
import type { RestPageDeps } from '../../domain/events/rest-pages.js';
import type { AlertService } from '../../domain/subscriptions/alert-service.js';
import type { SubscriptionDeps } from '../../domain/subscriptions/slack.js';
export interface AlertsDeps extends SubscriptionDeps {
  alerts: AlertService;
  /** The events of the "+N more" pages, as shown. */
  events: RestPageDeps['events'];
}
