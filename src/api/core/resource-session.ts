/**
 * What a resource module gets from the client: a `call` bound to one session's credentials, the versioned
 * path prefixes, and the search-quota reader shared by the search endpoints.
 */
import type { z } from 'zod';
import type { CallResult, CallSpec } from './caller.js';
import { headerValue } from './error-response.js';
import type { Page } from './paging.js';

type SessionCall = <S extends z.ZodType | null>(
  spec: CallSpec<S>,
) => Promise<CallResult<S extends z.ZodType ? z.output<S> : unknown>>;

export interface ResourceSession {
  call: SessionCall;
  /** `/<family>/v4` */
  v4: string;
  /** `/<family>/v2` */
  v2: string;
}

/** Global-search quota, from `X-Flare-Global-Searches-Remaining` / `-Batch-Reached`. */
export interface SearchQuota {
  remaining: number | undefined;
  batchReached: boolean | undefined;
}

/** Search results carry the quota headers of their response (undefined when the API sent none). */
export type SearchPage<T> = Page<T> & { quota: SearchQuota | undefined };

export function quotaFrom(headers: Record<string, string | string[] | undefined>): SearchQuota | undefined {
  const remaining = headerValue(headers, 'x-flare-global-searches-remaining');
  const batch = headerValue(headers, 'x-flare-global-searches-batch-reached');
  if (remaining === undefined && batch === undefined) return undefined;
  const n = remaining === undefined || remaining.trim() === '' ? Number.NaN : Number(remaining);
  return {
    remaining: Number.isFinite(n) ? n : undefined,
    batchReached: batch === undefined ? undefined : /^(true|1|yes)$/i.test(batch.trim()),
  };
}
