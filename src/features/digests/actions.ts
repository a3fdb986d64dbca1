/**
 * The "+N more" button of a digest: the rest of its events, ten at a time, privately, with the events'
 * buttons (handled by the events listeners). App Home's Pause / Resume / Remove live with App Home.
 */
import type { App } from '@slack/bolt';
import { DIGEST_MORE } from '../../domain/subscriptions/digest-blocks.js';
import { onMoreButton } from '../../domain/subscriptions/slack.js';
import type { DigestPagesDeps } from './deps.js';

export function registerDigestActions(app: App, deps: DigestPagesDeps): void {
  onMoreButton(app, deps, DIGEST_MORE, {
    rest: deps.digests.rest,
    commandText: (id) => `/vigil digest preview ${id}`,
    what: 'digest',
  });
}
