/**
 * "Still working": when a command's or a click's work has not answered within a few seconds (a slow or retried
 * API call, a store or Slack not answering), the person is told once, so they do not click or type again. The
 * one mechanism for both. The words are chosen when the notice fires, from what the work is waiting on then
 * (kernel/waiting-on.ts): a frozen store is told as the store, not as a slow API.
 */
import type { ButtonAction, RespondArguments, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { realSleep, type Sleep } from '../kernel/clock.js';
import { type WaitKind, Waits } from '../kernel/waiting-on.js';

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
  /** Runs the work so that its waits (store, API, Slack) are what the notice reads. */
  watch<T>(work: () => Promise<T>): Promise<T>;
}

/** Why a person is still waiting, as the end of a sentence, for what the work waits on when the notice fires. */
export function waitingWords(kind: WaitKind | undefined): string {
  switch (kind) {
    case 'store':
      return "Vigil's storage is not answering";
    case 'api':
      return 'the threat-intel API is slow to answer';
    case 'slack':
      return 'Slack is slow to answer';
    default:
      return 'this is taking longer than usual';
  }
}

/**
 * Posts the notice `noticeFor` words (given what the work waits on then) through `respond` once, after
 * STILL_WORKING_MS on `sleep`, unless cancelled or answered.
 */
export function stillWorking(
  sleep: Sleep | undefined,
  respond: RespondFn,
  noticeFor: (waiting: WaitKind | undefined) => RespondArguments,
): StillWorking {
  const stop = new AbortController();
  const waits = new Waits();
  let posted: Promise<unknown> = Promise.resolve();
  (sleep ?? realSleep)(STILL_WORKING_MS, stop.signal).then(
    () => {
      if (stop.signal.aborted) return;
      posted = respond(noticeFor(waits.current())).catch(() => undefined);
    },
    () => {},
  );
  const wrapped = (async (message: Parameters<RespondFn>[0]) => {
    stop.abort();
    await posted;
    return respond(message);
  }) as RespondFn;
  return { respond: wrapped, cancel: () => stop.abort(), watch: (work) => waits.watch(work) };
}

/** Said once to a clicker whose click has not been answered after a few seconds, for what it waits on. */
export function clickStillWorkingText(waiting: WaitKind | undefined): string {
  return `Still working on it: ${waitingWords(waiting)}. The message will update when it is done.`;
}

/** What a slow click's notice says, for the button clicked and what it waits on; undefined for the general words. */
export type ClickNotice = (action: ButtonAction, waiting: WaitKind | undefined) => string | undefined;

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
  text: (waiting: WaitKind | undefined) => string,
) {
  const notice = stillWorking(sleep, respond, (waiting) => ({
    response_type: 'ephemeral',
    replace_original: false,
    text: text(waiting),
  }));
  const open = ((args: Parameters<WebClient['views']['open']>[0]) => {
    notice.cancel();
    return client.views.open(args);
  }) as WebClient['views']['open'];
  // The client's methods are bound to it: a view of it with views.open watched calls the same client.
  const watched = Object.create(client, { views: { value: { ...client.views, open } } }) as WebClient;
  return { respond: notice.respond, client: watched, cancel: notice.cancel, watch: notice.watch };
}
