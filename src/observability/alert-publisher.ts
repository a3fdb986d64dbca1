/**
 * The alert publisher, measured: each posted alert tells how long after its events appeared it went out,
 * each thread reply how long after the change it records. Wraps the port the alert services already use,
 * so they stay unaware of metrics.
 */

import type { AlertPublisher } from '../features/alerts/ports.js';
import type { Clock } from '../kernel/clock.js';
import type { Metrics } from './metrics.js';

export function measuredAlertPublisher(
  publisher: AlertPublisher,
  metrics: Pick<Metrics, 'alertPosted' | 'alertFollowed'>,
  clock: Clock,
): AlertPublisher {
  return {
    async post(input) {
      const posted = await publisher.post(input);
      const now = clock.now();
      for (const { event } of input.ctx.events) {
        // The API's time of the match, when it says; else when Vigil's poll first found it.
        const matched = event.metadata.matched_at ? Date.parse(event.metadata.matched_at) : Number.NaN;
        const appeared = Number.isFinite(matched) && matched <= now ? matched : input.queuedAt;
        metrics.alertPosted(now - appeared);
      }
      return posted;
    },
    refresh: (...args) => publisher.refresh(...args),
    replyUpstream: (...args) => publisher.replyUpstream(...args),
    async reply(message, change) {
      await publisher.reply(message, change);
      metrics.alertFollowed(clock.now() - change.at);
    },
  };
}
