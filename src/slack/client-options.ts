/**
 * Bounds for the Slack client that answers people (Bolt's, the OAuth installer's and the workspace gate's).
 * @slack/web-api's defaults are no timeout and ten retries over about 30 minutes, of everything that fails
 * (p-retry over each request): a network error, a time-out, any HTTP status but 200 and 429, and a 429 after
 * sleeping its Retry-After. A hung views.open, chat.update or users.info then hangs the click with it, and a
 * chat.postMessage whose answer was lost is sent again.
 */
import type { FetchFunction, WebClientOptions } from '@slack/web-api';
import { webApiMethodOf } from './call-metrics.js';

/** Each attempt's default bound (VIGIL_SLACK_TIMEOUT_MS). */
const SLACK_TIMEOUT_MS = 10_000;

/**
 * Methods a lost answer makes safe to send again: reads, and writes that land the same way twice (an
 * update, a publish, opening an existing DM). Anything else (chat.postMessage, postEphemeral, views.open,
 * uploads, oauth.v2.access) may have landed, so a failed attempt is final; 429 is the exception, since Slack
 * refused it before acting.
 */
const REPEATABLE =
  /(?:^auth\.test|\.info|\.list|\.history|\.replies|\.lookupByEmail|^chat\.update|^views\.update|^views\.publish|^conversations\.open)$/;

/** A failed attempt of a method that must not be sent again. */
class NotRepeatable extends Error {
  constructor(method: string, cause: unknown) {
    super(`${method} failed and may have landed: not sent again`, { cause });
    this.name = 'NotRepeatable';
  }
}

/**
 * The options: each attempt bounded at `timeoutMs` (views.open must land within the 3 s trigger anyway, and a
 * Web API call answers in well under a second: 10 s says Slack is in trouble, and the person is better told
 * than kept waiting); at most 2 repeats, 0.5 s then 1 s apart, and none started after 20 s, so a click ends
 * within about 3 attempts' bound. A 429 still waits out Retry-After first (the SDK pauses the client's queue
 * for it, as Slack asks) and is repeated within the same two. Bolt's `respond` posts with the same fetch and
 * gets the same bound, never repeated.
 */
export function interactiveClientOptions(
  timeoutMs = SLACK_TIMEOUT_MS,
  /** How requests leave the process (through the outbound proxy when one is set). */
  send: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init),
): Pick<WebClientOptions, 'timeout' | 'retryConfig' | 'fetch'> {
  const fetch: FetchFunction = async (url, init) => {
    // The WebClient passes its own time-out signal; Bolt's respond passes none.
    const bounded = { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) };
    const method = webApiMethodOf(url);
    if (method === '' || REPEATABLE.test(method)) return send(url, bounded);
    let res: Response;
    try {
      res = await send(url, bounded);
    } catch (err) {
      throw new NotRepeatable(method, err);
    }
    if (res.status >= 500) throw new NotRepeatable(method, `HTTP ${res.status}`);
    return res;
  };
  const retryConfig = {
    retries: 2,
    factor: 2,
    minTimeout: 500,
    maxTimeout: 1_000,
    maxRetryTime: 20_000,
    // p-retry (which the WebClient passes these options to) stops at an error thrown here.
    onFailedAttempt(error: Error & { original?: unknown }) {
      if (error.original instanceof NotRepeatable) throw error;
    },
  };
  return { timeout: timeoutMs, retryConfig, fetch };
}
