/**
 * Fires signed slash commands at a receiver through an undici Pool, `concurrency` in flight at a time, for a
 * fixed count, timing each one from send to fully-read response (what Slack waits for as the ack).
 */
import { performance } from 'node:perf_hooks';
import type { Pool } from 'undici';
import { slashCommandBody } from '../../test/harness/slack-payloads.js';
import { signSlackRequest } from '../../test/harness/slack-signature.js';
import type { LoadJob, LoadResult } from './protocol.js';

export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

/** Signed ahead of the timed section so HMAC cost is not counted as the server's; a run lasts seconds. */
export function signCommands(job: LoadJob, nowSec = Math.floor(Date.now() / 1000)): SignedRequest[] {
  return Array.from({ length: job.count }, () => {
    const body = slashCommandBody({ text: job.text, responseUrl: job.responseUrl });
    return {
      body,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(nowSec),
        'x-slack-signature': signSlackRequest(job.signingSecret, body, nowSec),
      },
    };
  });
}

export async function drive(
  pool: Pool,
  job: LoadJob,
  requests: readonly SignedRequest[],
): Promise<LoadResult> {
  const path = new URL(job.url).pathname;
  const latenciesMs = new Float64Array(requests.length);
  let next = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  let sampleBody: string | undefined;

  const lane = async () => {
    while (next < requests.length) {
      const i = next++;
      const req = requests[i] as SignedRequest;
      const started = performance.now();
      try {
        const res = await pool.request({ path, method: 'POST', headers: req.headers, body: req.body });
        const text = await res.body.text();
        latenciesMs[i] = performance.now() - started;
        if (res.statusCode === 200) sampleBody ??= text;
        else {
          failures++;
          firstFailure ??= `HTTP ${res.statusCode}: ${text.slice(0, 200)}`;
        }
      } catch (err) {
        latenciesMs[i] = performance.now() - started;
        failures++;
        firstFailure ??= err instanceof Error ? err.message : String(err);
      }
    }
  };

  const started = performance.now();
  await Promise.all(Array.from({ length: job.concurrency }, lane));
  const wallMs = performance.now() - started;
  return { id: job.id, latenciesMs, wallMs, failures, firstFailure, sampleBody };
}
