/**
 * How much work is waiting, read from the store (on each metrics scrape): digest runs under way, alert events
 * queued in channel outboxes, alert follow-ups, credentials exports. Listings are by key; records are read
 * only where the depth lies in them (digest outboxes, the outboxes of channels a feed marks as waiting).
 */
import { z } from 'zod';
import { type Repositories, StoreCorruptionError } from '../store/index.js';
import type { QueueDepths } from './metrics.js';

/** Records read at once. */
const BATCH = 32;

/** Sums `count` over `items`; a record that cannot be read counts nothing (the store counts it as an error). */
async function countIn<T>(items: readonly T[], count: (item: T) => Promise<number>): Promise<number> {
  const tolerant = (item: T) =>
    count(item).catch((err: unknown) => {
      if (err instanceof StoreCorruptionError) return 0;
      throw err;
    });
  let total = 0;
  for (let i = 0; i < items.length; i += BATCH) {
    const counts = await Promise.all(items.slice(i, i + BATCH).map(tolerant));
    total += counts.reduce((a, b) => a + b, 0);
  }
  return total;
}

export async function readQueueDepths(repos: Repositories): Promise<QueueDepths> {
  const [digestRuns, alertEvents, alertFollowUps, exports] = await Promise.all([
    repos.digestOutbox.runsUnderWay(),
    (async () => {
      const teams = await repos.alertSubscriptions.teams();
      return countIn(teams, async (ws) => {
        const feed = await repos.alertState.feed(ws);
        const channels = feed?.pendingChannels ?? [];
        return countIn(channels, async (ch) => (await repos.alertState.outbox(ws, ch))?.pending.length ?? 0);
      });
    })(),
    repos.alertFollowUps.pending().then((refs) => refs.length),
    repos
      .runningExports(z.unknown())
      .entries()
      .then((entries) => entries.length),
  ]);
  return { digestRuns, alertEvents, alertFollowUps, exports };
}
