/**
 * "Still working": when a command's or a click's work has not answered within a few seconds (a slow or retried
 * API call), the person is told once, so they do not click or type again. The one mechanism for both.
 */
import type { ButtonAction, RespondArguments, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { realSleep, type Sleep } from '../kernel/clock.js';

/** After this long without an answer, the person is told Vigil is still working. */
const STILL_WORKING_MS = 5_000;

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

/** Said once to a clicker whose click has not been answered after a few seconds (see still-working.ts). */
export const CLICK_STILL_WORKING_TEXT =
  'Still working on it: the threat-intel API is slow to answer. The message will update when it answers.';

/** What a slow click's notice says, for the button clicked; undefined for the general words. */
export type ClickNotice = (action: ButtonAction) => string | undefined;

/**
 * A click's `respond` and `client` with the "still working" notice attached: a new ephemeral message to the
 * clicker (`replace_original: false`, so the message the button is on, maybe a channel message others see, is
 * never replaced). The click's own replies wait for a notice on its way, so a reply that replaces the original
 * is posted after it, never raced by it; a click that opens a modal tells its progress there and gets none.
 */
export function withClickNotice(
  sleep: Sleep | undefined,
  respond: RespondFn,
  client: WebClient,
  text: string,
) {
  const notice = stillWorking(sleep, respond, {
    response_type: 'ephemeral',
    replace_original: false,
    text,
  });
  const open = ((args: Parameters<WebClient['views']['open']>[0]) => {
    notice.cancel();
    return client.views.open(args);
  }) as WebClient['views']['open'];
  // The client's methods are bound to it: a view of it with views.open watched calls the same client.
  const watched = Object.create(client, { views: { value: { ...client.views, open } } }) as WebClient;
  return { respond: notice.respond, client: watched, cancel: notice.cancel };
}
