/**
 * Slack Web API calls counted by method, from the one place every call leaves through: the client's `fetch`
 * (Bolt's clients, the installer's, the posting clients). Each attempt is told with its HTTP status and, when
 * Slack refused it (`ok: false`), its error code.
 */
import { waitingOn } from '../kernel/waiting-on.js';

export interface SlackCall {
  /** The Web API method (`chat.postMessage`). */
  method: string;
  /** Undefined when no answer came (refused, reset, timed out). */
  status: number | undefined;
  /** Slack's error code (`channel_not_found`), `http_<status>`, or `no_answer`; undefined when it succeeded. */
  error: string | undefined;
}

/** Metrics off: no `slackCall`, and no call pays for reading its answer twice. */
export interface SlackCallObserver {
  slackCall?(call: SlackCall): void;
}

/** The Web API method of a request URL (`…/api/chat.postMessage`); '' for anything else (a response_url). */
export function webApiMethodOf(url: string | URL): string {
  const path = new URL(String(url)).pathname;
  const i = path.lastIndexOf('/api/');
  return i < 0 ? '' : path.slice(i + '/api/'.length);
}

/** Slack answers `{"ok":false,"error":"…"}` with 200: the code is read from a copy of the body. */
async function errorOf(res: Response): Promise<string | undefined> {
  if (res.status === 429) return 'ratelimited';
  if (res.status >= 400) return `http_${res.status}`;
  const text = await res
    .clone()
    .text()
    .catch(() => '');
  if (!/"ok"\s*:\s*false/.test(text)) return undefined;
  return /"error"\s*:\s*"([^"]{1,60})"/.exec(text)?.[1] ?? 'unknown';
}

/**
 * `send`, telling `observer` of every Web API call it makes, each marked as a wait on Slack for the request
 * under way (its "still working" notice says what it waits on).
 */
export function observedFetch(
  send: typeof globalThis.fetch,
  observer: SlackCallObserver | undefined,
): typeof globalThis.fetch {
  const told = toldFetch(send, observer);
  return (url, init) => waitingOn('slack', () => told(url, init));
}

function toldFetch(
  send: typeof globalThis.fetch,
  observer: SlackCallObserver | undefined,
): typeof globalThis.fetch {
  const tell = observer?.slackCall?.bind(observer);
  if (!tell) return send;
  return async (url, init) => {
    const method = webApiMethodOf(url instanceof Request ? url.url : url);
    if (method === '') return send(url, init);
    let res: Response;
    try {
      res = await send(url, init);
    } catch (err) {
      tell({ method, status: undefined, error: 'no_answer' });
      throw err;
    }
    tell({ method, status: res.status, error: await errorOf(res) });
    return res;
  };
}
