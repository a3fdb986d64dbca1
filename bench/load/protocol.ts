/** Messages between the benchmark (main thread) and the load-generator worker. */

export interface LoadJob {
  id: number;
  /** Where the slash commands are POSTed, e.g. `http://127.0.0.1:1234/slack/events`. */
  url: string;
  signingSecret: string;
  /** The slash command's text, e.g. `help`. */
  text: string;
  responseUrl: string;
  concurrency: number;
  count: number;
}

export interface LoadResult {
  id: number;
  /** Client-side milliseconds from sending each request to having read its whole response. */
  latenciesMs: Float64Array;
  /** Wall time of the whole job (all requests in flight at `concurrency`). */
  wallMs: number;
  /** Responses other than 200 and transport failures. */
  failures: number;
  firstFailure: string | undefined;
  /** The first 200 response body, so the caller can check what was actually answered. */
  sampleBody: string | undefined;
}

export type ToWorker = { kind: 'run'; job: LoadJob } | { kind: 'close' };
export type FromWorker =
  | { kind: 'result'; result: LoadResult }
  | { kind: 'error'; id: number; message: string }
  | { kind: 'closed' };
