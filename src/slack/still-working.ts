/**
 * "Still working": when a command's or a click's work has not answered within a few seconds (a slow or retried
 * API call), the person is told once, so they do not click or type again. The one mechanism for both.
 */
import type { RespondArguments, RespondFn } from '@slack/bolt';
import { realSleep, type Sleep } from '../clock.js';

/** After this long without an answer, the person is told Vigil is still working. */
export const STILL_WORKING_MS = 5_000;

export interface StillWorking {
  /**
   * `respond` for the work's own replies: the first one stops the wait (the person has an answer), and each
   * waits for a notice already on its way, so the notice never lands after (or over) a reply.
   */
  respond: RespondFn;
  /** The work finished, or told the person elsewhere (a modal): no notice from now on. */
  cancel(): void;
}

/** Posts `notice` through `respond` once, after STILL_WORKING_MS on `sleep`, unless cancelled or answered. */
export function stillWorking(
  sleep: Sleep | undefined,
  respond: RespondFn,
  notice: RespondArguments,
): StillWorking {
  const stop = new AbortController();
  let posted: Promise<unknown> = Promise.resolve();
  (sleep ?? realSleep)(STILL_WORKING_MS, stop.signal).then(
    () => {
      if (stop.signal.aborted) return;
      posted = respond(notice).catch(() => undefined);
    },
    () => {},
  );
  const wrapped = (async (message: Parameters<RespondFn>[0]) => {
    stop.abort();
    await posted;
    return respond(message);
  }) as RespondFn;
  return { respond: wrapped, cancel: () => stop.abort() };
}
