/**
 * The "+N more" button of a grouped alert: the rest of its events, ten at a time, privately, with the events'
 * buttons (handled by the events listeners). App Home's Pause / Resume / Remove live with App Home.
 */
import type { App } from '@slack/bolt';
import { ALERT_MORE } from '../../domain/subscriptions/alert-blocks.js';
import { onMoreButton } from '../../domain/subscriptions/slack.js';
import type { AlertsDeps } from './deps.js';

export function registerAlertActions(app: App, deps: AlertsDeps): void {
  onMoreButton(app, deps, ALERT_MORE, {
    rest: deps.alerts.rest,
    commandText: () => '/vigil alerts list',
    what: 'alert',
  });
}
