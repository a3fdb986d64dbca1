/**
 * The background CSV export of a credentials search. Pages stream from the API into a temporary file (0600,
 * in a private folder, deleted afterwards) while the bytes are counted, because the upload must announce its
 * exact length first; the delivery then streams the file on. Memory holds one page at most.
 *
 * Large pages: each costs quota by size (about one search per 100 rows) whatever the page count, so fewer,
 * larger pages are as cheap and far quicker under the one-search-per-second limit. One export per user at a
 * time, held by a store lease renewed on every page (a crashed instance frees it when the lease runs out).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiSession, Credential } from '../../api/index.js';
import type { Clock } from '../../clock.js';
import { VigilError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { NewAuditEntry } from '../../store/index.js';
import type { ApiAccess } from '../workspace-api.js';
import { type StoredCredsSearch, searchInputOf } from './context.js';
import { writeCredentialsCsv } from './csv.js';
import { searchError } from './search.js';

export const MAX_EXPORT_LIMIT = 10_000;
export const MAX_EXPORT_PAGE = 1000;
export const EXPORT_LEASE_MS = 5 * 60_000;
/** Progress is reported on the first page and then every few, never per row. */
export const PROGRESS_EVERY_PAGES = 3;
/** Empty pages in a row (the API may return them before more rows) tolerated before giving up. */
const MAX_EMPTY_RUN = 20;

export interface ExportLease {
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

export interface ExportDeps {
  api: Pick<ApiAccess, 'call'>;
  audit: { append(entry: NewAuditEntry): Promise<unknown> };
  /** The store's leases (`Store.lease`). */
  leases: { lease(key: string, ttlMs: number): Promise<ExportLease | undefined> };
  clock: Clock;
  logger: Logger;
  /** Where the private temporary folder goes; the OS default unless a test says otherwise. */
  tmpDir?: string;
}

export interface ExportRequest {
  workspaceId: string;
  userId: string;
  search: StoredCredsSearch;
  /** 1–10,000 rows. */
  limit: number;
}

export interface ExportProgress {
  rows: number;
  pages: number;
  limit: number;
}

export interface ExportFile {
  path: string;
  bytes: number;
  rows: number;
  filename: string;
}

/** Where the export goes: progress updates in place, then the file (streamed from `path`). */
export interface ExportDelivery {
  progress(p: ExportProgress): Promise<void>;
  deliver(file: ExportFile): Promise<void>;
}

export interface ExportResult {
  rows: number;
  pages: number;
  bytes: number;
  filename: string;
}

/** A second export by the same user while one runs. */
export class ExportBusyError extends VigilError {
  constructor() {
    super(
      'You already have a credentials export running.',
      'It arrives in your direct messages with Vigil when it is done; start another one after that.',
    );
  }
}

/** Pages of equal size (the API wants the same size on every page) that waste little of the last one. */
export function exportPageSize(limit: number): number {
  const pages = Math.ceil(limit / MAX_EXPORT_PAGE);
  return Math.ceil(limit / pages);
}

export function validateExportLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EXPORT_LIMIT) {
    throw new VigilError(
      `An export takes 1 to ${MAX_EXPORT_LIMIT.toLocaleString('en-US')} rows, not ${limit}.`,
      'Search again with `limit:N` (for example `limit:5000`), then export.',
    );
  }
  return limit;
}

function queryValue(search: StoredCredsSearch): string {
  const q = search.query;
  return q.type === 'email' ? q.email : q.type === 'keyword' ? q.keyword : q.fqdn;
}

function filenameOf(search: StoredCredsSearch, now: number): string {
  const q = search.query;
  const value = queryValue(search);
  const safe = value.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
  const stamp = new Date(now).toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return `vigil-credentials-${q.type}-${safe}-${stamp}.csv`;
}

const leaseKey = (workspaceId: string, userId: string) => `${workspaceId}:creds-export:${userId}`;

export interface StartedExport {
  run(delivery: ExportDelivery): Promise<ExportResult>;
  /** Frees the slot without running (the delivery could not even start). */
  cancel(): Promise<void>;
}

/** Takes the user's export slot (or refuses with ExportBusyError); `run` does the work and frees it. */
export async function startExport(deps: ExportDeps, req: ExportRequest): Promise<StartedExport> {
  validateExportLimit(req.limit);
  const lease = await deps.leases.lease(leaseKey(req.workspaceId, req.userId), EXPORT_LEASE_MS);
  if (lease === undefined) throw new ExportBusyError();
  const release = () =>
    lease.release().catch((err: unknown) => deps.logger.warn('could not release an export slot', { err }));
  return {
    run: async (delivery) => {
      try {
        return await runExport(deps, req, lease, delivery);
      } finally {
        await release();
      }
    },
    cancel: release,
  };
}

async function runExport(
  deps: ExportDeps,
  req: ExportRequest,
  lease: ExportLease,
  delivery: ExportDelivery,
): Promise<ExportResult> {
  const dir = await mkdtemp(join(deps.tmpDir ?? tmpdir(), 'vigil-export-'));
  const filename = filenameOf(req.search, deps.clock.now());
  const path = join(dir, 'export.csv');
  const seen = { rows: 0, pages: 0 };
  let outcome = 'failed';
  try {
    const written = await deps.api
      .call(req.workspaceId, ({ session }) =>
        writeCredentialsCsv(pagesOf(session, req, { lease, delivery, logger: deps.logger }, seen), path),
      )
      .catch((err: unknown) => {
        throw searchError(err);
      });
    await delivery.deliver({ path, bytes: written.bytes, rows: written.rows, filename });
    outcome = `${written.rows} rows delivered as ${filename}`;
    return { rows: written.rows, pages: seen.pages, bytes: written.bytes, filename };
  } finally {
    await rm(dir, { recursive: true, force: true });
    await deps.audit
      .append({
        teamId: req.workspaceId,
        userId: req.userId,
        action: 'credentials.export',
        target: `${req.search.query.type}:${queryValue(req.search)}`,
        detail: `limit ${req.limit}: ${outcome === 'failed' ? `failed after ${seen.rows} rows` : outcome}`,
      })
      .catch((err: unknown) => deps.logger.warn('could not audit an export', { err }));
  }
}

async function* pagesOf(
  session: ApiSession,
  req: ExportRequest,
  with_: { lease: ExportLease; delivery: ExportDelivery; logger: Logger },
  seen: { rows: number; pages: number },
): AsyncGenerator<Credential[]> {
  const { lease, delivery, logger } = with_;
  const input = searchInputOf(req.search, exportPageSize(req.limit));
  let emptyRun = 0;
  for await (const step of session.iterateCredentials(input)) {
    seen.pages++;
    const take = step.items.slice(0, req.limit - seen.rows);
    seen.rows += take.length;
    emptyRun = step.items.length === 0 ? emptyRun + 1 : 0;
    if (take.length > 0) yield take;
    const finished = step.done || seen.rows >= req.limit;
    if (finished) return;
    if (emptyRun > MAX_EMPTY_RUN) {
      throw new VigilError(
        `The API kept returning empty pages after ${seen.rows} rows, so the export stopped.`,
        'Try again later, or narrow the search with `since:`/`until:`.',
      );
    }
    if (!(await lease.renew())) {
      throw new VigilError('The export lost its slot (it ran too long between pages).', 'Start it again.');
    }
    if (seen.pages === 1 || seen.pages % PROGRESS_EVERY_PAGES === 0) {
      await delivery
        .progress({ rows: seen.rows, pages: seen.pages, limit: req.limit })
        // Best effort: a failed progress update must not stop the export.
        .catch((err: unknown) => logger.warn('could not update export progress', { err }));
    }
  }
}
