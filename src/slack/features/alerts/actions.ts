/**
 * The "+N more" button of a grouped alert: the rest of its events, ten at a time, privately, with the events'
 * buttons (handled by the events listeners). App Home's Pause / Resume / Remove live with App Home.
 */
import type { App } from '@slack/bolt';
import { ALERT_MORE } from '../../blocks/alerts.js';
import type { SlackDeps } from '../../context.js';
import { onAction } from '../../listen.js';
import { showRestPage } from '../../rest-pages.js';

export function registerAlertActions(app: App, deps: SlackDeps): void {
  onAction(app, deps, ALERT_MORE, (click) =>
    showRestPage(click, {
      actionId: ALERT_MORE,
      rest: deps.alerts.rest,
      commandText: () => '/vigil alerts list',
      expired: {
        message: 'The rest of this alert is no longer kept (Vigil keeps it for a week).',
        hint: 'Search the events with `/vigil events <identifier-id> since:7d`.',
      },
    }),
  );
}
