/**
 * The "+N more" button of a digest: the rest of its events, ten at a time, privately, with the events'
 * buttons (handled by the events listeners). App Home's Pause / Resume / Remove live with App Home.
 */
import type { App } from '@slack/bolt';
import { DIGEST_MORE } from '../../blocks/digest.js';
import type { SlackDeps } from '../../context.js';
import { onAction } from '../../listen.js';
import { showRestPage } from '../../rest-pages.js';

export function registerDigestActions(app: App, deps: SlackDeps): void {
  onAction(app, deps, DIGEST_MORE, (click) =>
    showRestPage(click, {
      actionId: DIGEST_MORE,
      rest: deps.digests.rest,
      commandText: (id) => `/vigil digest preview ${id}`,
      expired: {
        message: 'The rest of this digest is no longer kept (Vigil keeps it for a week).',
        hint: 'Search the events with `/vigil events <identifier-id> since:7d`.',
      },
    }),
  );
}
