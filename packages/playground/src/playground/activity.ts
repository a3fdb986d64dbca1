/**
 * Life in the playground while it runs: new events trickle into the simulated API on the injected timer,
 * and "Run digests now" tells, in words, what it posted and when each digest is next due.
 */
import { DateTime } from 'luxon';
import type { Ticker } from '../../../../src/domain/subscriptions/ticker.js';
import type { RunNowReport } from '../../../../src/features/digests/scheduler.js';
import type { Clock } from '../../../../src/kernel/clock.js';
import { type SimApi, trickleEvent } from '../sim/api/index.js';

/** A new event every few minutes, about the workspace's current tenant. */
const TRICKLE_EVERY_MS = 3 * 60_000;
/** The trickle stops after this many (about two days), so the simulated API stays bounded. */
const MAX_TRICKLED = 1_000;

export function startTrickle(o: {
  ticker: Ticker;
  sim: SimApi;
  clock: Clock;
  /** The tenant the workspace uses now (it may switch). */
  tenantId: () => Promise<number>;
  intervalMs?: number;
}): { cancel(): void } {
  let n = 0;
  let busy = false;
  const handle = o.ticker.every(o.intervalMs ?? TRICKLE_EVERY_MS, async () => {
    if (busy || n >= MAX_TRICKLED) return;
    busy = true;
    await o
      .tenantId()
      .then((tenantId) => {
        n += 1;
        trickleEvent(o.sim.state, tenantId, o.clock.now(), n);
      })
      .catch(() => {
        // Not connected just now: nothing to trickle into.
      })
      .finally(() => {
        busy = false;
      });
  });
  return handle;
}

function when(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat("cccc d LLLL 'at' HH:mm");
}

/** One line per digest of the channel: what happened now, and when the next one is due. */
export function describeRunNow(reports: RunNowReport[], channelName: string): string {
  if (reports.length === 0) {
    return (
      `No digest posts in #${channelName} yet. Create one with \`/vigil digest add\` here (a form), or ` +
      '`/vigil digest add always` for every day at 09:00; then click Run digests now again.'
    );
  }
  const lines = reports.map((r) => {
    const id = `\`${r.subscription.id}\``;
    const next = `next due ${when(r.next, r.subscription.timeZone)} (${r.subscription.timeZone})`;
    switch (r.outcome) {
      case 'posted':
        return `Digest ${id}: today's digest posted now, ahead of ${r.subscription.timeOfDay}; ${next}.`;
      case 'skipped':
        return `Digest ${id}: nothing new since the last one, so nothing was posted (it skips empty days); ${next}.`;
      case 'already-posted':
        return `Digest ${id}: today's digest was already posted; ${next}.`;
      case 'paused':
        return `Digest ${id} is paused${r.reason ? `: ${r.reason}` : ''}. Resume it in the App Home.`;
      case 'busy':
      case 'done':
        return `Digest ${id} is being posted already; ${next}.`;
      default:
        return `Digest ${id} could not be posted${r.reason ? `: ${r.reason}` : ''}; Vigil tries again in a minute.`;
    }
  });
  return lines.join('\n');
}
