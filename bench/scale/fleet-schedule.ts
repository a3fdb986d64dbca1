/**
 * When things happen in a fleet run (fleet.ts): each tenant's events spread over the window, and the digests
 * falling due inside it, after events appeared. A digest's time of day is a whole minute (HH:MM) and a
 * skip-empty digest due before its tenant had any event posts nothing (and is not due again that day), so the
 * run picks the minute first and starts its events half a window before it.
 */
import { systemClock } from '../../src/kernel/clock.js';
import { silentLogger } from '../../src/kernel/logger.js';
import { createRepositories, openStore, Sealer } from '../../src/store/index.js';

/**
 * When a tenant's `count` events appear, from the window's start: the k-th at a random moment of the k-th of
 * `count` equal slices, so each tenant's events spread over the run rather than bunch.
 */
export function eventOffsets(count: number, windowMs: number, random: () => number = Math.random): number[] {
  const slice = windowMs / count;
  return Array.from({ length: count }, (_, k) => (k + random()) * slice);
}

/** The first whole minute at or after `earliest` (ms), and its time of day in UTC. */
export function digestMinute(earliest: number): { at: number; timeOfDay: string } {
  const at = Math.ceil(earliest / 60_000) * 60_000;
  return { at, timeOfDay: new Date(at).toISOString().slice(11, 16) };
}

/** One skip-empty daily digest of every event per workspace, at `timeOfDay` (UTC), through the repositories. */
export async function seedDigests(
  redisUrl: string,
  key: Buffer,
  workspaces: readonly { teamId: string; channelId: string; adminId: string }[],
  timeOfDay: string,
): Promise<void> {
  const store = await openStore(redisUrl, { logger: silentLogger });
  try {
    const repos = createRepositories(store, { clock: systemClock, sealer: new Sealer(key) });
    for (let w = 0; w < workspaces.length; w += 50) {
      await Promise.all(
        workspaces.slice(w, w + 50).map((ws) =>
          repos.digestSubscriptions.add({
            teamId: ws.teamId,
            channelId: ws.channelId,
            identifierIds: 'all',
            severity: 'info',
            types: [],
            timeOfDay,
            timeZone: 'UTC',
            weekdaysOnly: false,
            skipEmpty: true,
            createdBy: ws.adminId,
          }),
        ),
      );
    }
  } finally {
    await store.close();
  }
}
