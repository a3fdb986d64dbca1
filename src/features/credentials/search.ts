/**
 * Leaked-credential search for Slack, with no Slack in it: one page at a time (ten rows unless `limit:` asks
 * for fewer), masked, with the global-search quota of the response; and Reveal, which fetches the row's
 * page again (the full value only ever lives in an API response) and audits who saw which credential.
 */
import type { Credential, CredentialSearchInput, SearchPage, SearchQuota } from '../../api/index.js';
import { ForbiddenError, RateLimitedError } from '../../api/index.js';
import type { ApiAccess } from '../../domain/workspace-api.js';
import type { Clock } from '../../kernel/clock.js';
import { ExpiredError, VigilError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { NewAuditEntry } from '../../store/index.js';
import type { CredsContextStore } from './context.js';
import {
  type CredsContext,
  type MaskedRow,
  maskedRowOf,
  type Quota,
  searchInputOf,
  storedSearchOf,
} from './context.js';

const DEFAULT_CREDS_LIMIT = 1000;
/** Rows per page in Slack: large pages are slow upstream and long to read. */
const CREDS_PAGE_SIZE = 10;
/** Below this many searches left, results carry a warning. */
export const LOW_QUOTA = 5;

export interface CredsDeps {
  api: Pick<ApiAccess, 'call'>;
  contexts: CredsContextStore;
  audit: { append(entry: NewAuditEntry): Promise<unknown> };
  clock: Clock;
  logger: Logger;
}

export interface CredsSearchRequest {
  workspaceId: string;
  userId: string;
  channelId: string;
  commandText: string;
  /** The first page's input: its `size` is the page size. */
  input: CredentialSearchInput;
  /** Total rows wanted (`limit:`), default 1,000. */
  limit?: number;
}

export interface SavedPage {
  ctx: CredsContext;
  ctxId: string;
}

function quotaOf(q: SearchQuota | undefined): Quota | undefined {
  if (q === undefined) return undefined;
  const out: Quota = {};
  if (q.remaining !== undefined) out.remaining = q.remaining;
  if (q.batchReached !== undefined) out.batchReached = q.batchReached;
  return out;
}

export type QuotaState = 'ok' | 'low' | 'batch-reached' | 'unknown';

export function quotaState(q: Quota | undefined): QuotaState {
  if (q === undefined || (q.remaining === undefined && q.batchReached === undefined)) return 'unknown';
  if (q.batchReached === true) return 'batch-reached';
  if (q.remaining !== undefined && q.remaining < LOW_QUOTA) return 'low';
  return 'ok';
}

/** Errors of a credentials search, said in terms a person can act on. */
export function searchError(err: unknown): unknown {
  if (err instanceof ForbiddenError && err.code === 'GLOBAL_SEARCH_QUOTA_EXCEEDED') {
    return new VigilError(
      'The global search quota of your threat-intel account is spent, so the credentials search did not run.',
      'It renews with your plan; a search repeated within 10 minutes costs nothing. Ask your threat-intel account owner to raise the quota.',
      { cause: err },
    );
  }
  if (err instanceof ForbiddenError) {
    return new VigilError(
      'The API key may not search leaked credentials (403).',
      'Ask a workspace admin to check the key’s scopes, or reconnect with a key that has them.',
      { cause: err },
    );
  }
  if (err instanceof RateLimitedError) {
    return new VigilError(
      'The threat-intel API is limiting searches right now (429), and Vigil’s retries ran out.',
      'Credential searches are limited to about one per second per organization: try again in a minute.',
      { cause: err },
    );
  }
  return err;
}

/** Empty pages (not the last) skipped before showing one, each costing a search. */
const MAX_SKIPPED_EMPTY_PAGES = 2;

interface Fetched {
  page: SearchPage<Credential>;
  /** The `from` that produced `page` (undefined for the very first page). */
  from: string | undefined;
}

/**
 * The page at `input.from`, skipping a few empty pages that have a `next` (the API returns some before
 * more rows); the quota is recorded on the connection.
 */
async function fetchPage(
  deps: CredsDeps,
  workspaceId: string,
  input: CredentialSearchInput,
): Promise<Fetched> {
  try {
    return await deps.api.call(
      workspaceId,
      async ({ session }) => {
        let from = input.from;
        let page = await session.searchCredentials(input);
        for (
          let skipped = 0;
          page.items.length === 0 && page.next !== null && skipped < MAX_SKIPPED_EMPTY_PAGES;
          skipped++
        ) {
          from = page.next;
          page = await session.searchCredentials({ ...input, from });
        }
        return { page, from };
      },
      (r) => r.page.quota,
    );
  } catch (err) {
    throw searchError(err);
  }
}

async function fetchExact(
  deps: CredsDeps,
  workspaceId: string,
  input: CredentialSearchInput,
): Promise<SearchPage<Credential>> {
  try {
    return await deps.api.call(
      workspaceId,
      ({ session }) => session.searchCredentials(input),
      (p) => p.quota,
    );
  } catch (err) {
    throw searchError(err);
  }
}

interface PageState {
  from?: string | undefined;
  offset: number;
  pageNumber: number;
}

function contextOf(
  base: Omit<CredsContext, 'rows' | 'cursor' | 'from' | 'offset' | 'pageNumber' | 'quota'>,
  page: SearchPage<Credential>,
  at: PageState,
): CredsContext {
  const room = Math.max(0, base.limit - at.offset);
  const rows: MaskedRow[] = page.items.slice(0, Math.min(room, base.pageSize)).map(maskedRowOf);
  const ctx: CredsContext = { ...base, offset: at.offset, pageNumber: at.pageNumber, rows };
  if (at.from !== undefined) ctx.from = at.from;
  // The limit ends paging even when the API has more.
  if (page.next !== null && at.offset + rows.length < base.limit) ctx.cursor = page.next;
  const quota = quotaOf(page.quota);
  if (quota !== undefined) ctx.quota = quota;
  return ctx;
}

export async function searchCredentials(deps: CredsDeps, req: CredsSearchRequest): Promise<SavedPage> {
  const { from: _from, ...input } = req.input;
  const pageSize = Math.min(input.size ?? CREDS_PAGE_SIZE, CREDS_PAGE_SIZE, req.limit ?? CREDS_PAGE_SIZE);
  const { page, from } = await fetchPage(deps, req.workspaceId, { ...input, size: pageSize });
  const search = storedSearchOf(input);
  const ctx = contextOf(
    {
      v: 1,
      workspaceId: req.workspaceId,
      userId: req.userId,
      channelId: req.channelId,
      commandText: req.commandText,
      ...(search ? { search } : {}),
      limit: req.limit ?? DEFAULT_CREDS_LIMIT,
      pageSize,
    },
    page,
    { from, offset: 0, pageNumber: 1 },
  );
  return { ctx, ctxId: await deps.contexts.save(ctx) };
}

function searchOf(ctx: CredsContext, doing: string) {
  if (ctx.search === undefined) {
    throw new VigilError(
      `Vigil does not keep the password a search was made with, so it cannot ${doing}.`,
      'Run the search again with `/vigil creds password`.',
    );
  }
  return ctx.search;
}

export async function nextCredentialsPage(deps: CredsDeps, ctx: CredsContext): Promise<SavedPage> {
  if (ctx.cursor === undefined)
    throw new VigilError('This is the last page of these results.', 'Run the search again for newer rows.');
  const search = searchOf(ctx, 'fetch the next page');
  const { page, from } = await fetchPage(
    deps,
    ctx.workspaceId,
    searchInputOf(search, ctx.pageSize, ctx.cursor),
  );
  const { rows: _r, cursor: _c, from: _f, quota: _q, message: _m, ...base } = ctx;
  const next = contextOf(base, page, {
    from,
    offset: ctx.offset + ctx.rows.length,
    pageNumber: ctx.pageNumber + 1,
  });
  if (ctx.message !== undefined) next.message = ctx.message;
  return { ctx: next, ctxId: await deps.contexts.save(next) };
}

export interface Revealed {
  row: MaskedRow;
  /** The full value: show it to the clicker only, never store it. */
  value: string;
}

/**
 * The full value of row `index`, fetched again from the API (the same page, found by id), audited. The
 * caller checks the `reveal` permission first.
 */
export async function revealCredential(
  deps: CredsDeps,
  ctx: CredsContext,
  index: number,
  who: { userId: string },
): Promise<Revealed> {
  const row = ctx.rows[index];
  if (row === undefined)
    throw new ExpiredError('This row is not part of these results.', 'Run the search again.');
  const search = searchOf(ctx, 'reveal a value');
  // Exactly the request that produced the page (no skipping): an identical search within 10 minutes is free.
  const page = await fetchExact(deps, ctx.workspaceId, searchInputOf(search, ctx.pageSize, ctx.from));
  const found = page.items.find((c) => c.id === row.id);
  if (found === undefined) {
    throw new ExpiredError(
      'This credential is no longer on that page of the results, so Vigil cannot reveal it.',
      `Run \`${ctx.commandText.replaceAll('`', "'")}\` again and reveal it from the fresh results.`,
    );
  }
  if (found.hash === null || found.hash === undefined || found.hash === '') {
    throw new VigilError('The API holds no value for this credential.', 'Nothing to reveal.');
  }
  await deps.audit.append({
    teamId: ctx.workspaceId,
    userId: who.userId,
    action: 'credential.reveal',
    target: String(row.id),
    detail: `${row.identity} (${row.sourceName ?? row.sourceId}), from Slack`,
  });
  return { row, value: found.hash };
}
