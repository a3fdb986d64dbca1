/**
 * The background CSV export of a credentials search. Pages stream from the API into a temporary file (0600,
 * in a private folder, deleted afterwards, encrypted with a key held only in memory: see spool.ts) while the
 * bytes are counted, because the upload must announce its exact length first; the delivery then streams the
 * file on. Memory holds one page at most. An export under way is recorded in the store (its folder, where its
 * progress shows), so a process restarted after a crash removes what was left and tells the requester.
 *
 * Large pages: each costs quota by size (about one search per 100 rows) whatever the page count, so fewer,
 * larger pages are as cheap and far quicker under the one-search-per-second limit. One export per user at a
 * time, held by a store lease renewed on every page (a crashed instance frees it when the lease runs out).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { ApiSession, Credential } from '../../api/index.js';
import type { ApiAccess } from '../../domain/workspace-api.js';
import type { Clock } from '../../kernel/clock.js';
import { VigilError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { NewAuditEntry, WorkspaceRecordRepo } from '../../store/index.js';
import { type StoredCredsSearch, StoredCredsSearchSchema, searchInputOf } from './context.js';
import { exportPageSize, validateExportLimit } from './export-size.js';
import { searchError } from './search.js';
import { EncryptedSpool } from './spool.js';

export const EXPORT_LEASE_MS = 5 * 60_000;
/** Progress is reported on the first page and then every few, never per row. */
const PROGRESS_EVERY_PAGES = 3;
/** Empty pages in a row (the API may return them before more rows) tolerated before giving up. */
const MAX_EMPTY_RUN = 20;

interface ExportLease {
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

/** Where the requester watches an export (its progress message), so a restart can tell them. */
const ExportNoticeSchema = z.object({ channel: z.string().min(1), ts: z.string().min(1) });
export type ExportNotice = z.infer<typeof ExportNoticeSchema>;

/** An export under way, as recorded in the store until it ends. */
export const RunningExportSchema = z.object({
  userId: z.string().min(1),
  dir: z.string().min(1),
  startedAt: z.number(),
  search: StoredCredsSearchSchema,
  limit: z.number().int(),
  notice: ExportNoticeSchema.optional(),
});
type RunningExports = Pick<
  WorkspaceRecordRepo<typeof RunningExportSchema>,
  'get' | 'set' | 'delete' | 'entries'
>;

/** Longer than any export: a record whose process died and was never settled goes eventually. */
const RUNNING_RECORD_TTL_MS = 24 * 60 * 60_000;

export interface ExportDeps {
  api: Pick<ApiAccess, 'call'>;
  audit: { append(entry: NewAuditEntry): Promise<unknown> };
  /** The store's leases (`Store.lease`). */
  leases: { lease(key: string, ttlMs: number): Promise<ExportLease | undefined> };
  /** Exports under way, in the store. */
  running: RunningExports;
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

interface ExportProgress {
  rows: number;
  pages: number;
  limit: number;
}

interface ExportFile {
  /** The CSV's plaintext, streamed (and decrypted) from the spool; `bytes` long. */
  open(): Readable;
  bytes: number;
  rows: number;
  filename: string;
}

/** Where the export goes: progress updates in place, then the file (streamed from `open`). */
interface ExportDelivery {
  progress(p: ExportProgress): Promise<void>;
  deliver(file: ExportFile): Promise<void>;
  /** Where the requester watches it, recorded so a restart after a crash can tell them. */
  notice?: ExportNotice;
}

interface ExportResult {
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

export function queryValue(search: StoredCredsSearch): string {
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

export const exportLeaseKey = (workspaceId: string, userId: string) =>
  `${workspaceId}:creds-export:${userId}`;

export interface StartedExport {
  run(delivery: ExportDelivery): Promise<ExportResult>;
  /** Frees the slot without running (the delivery could not even start). */
  cancel(): Promise<void>;
}

/** Takes the user's export slot (or refuses with ExportBusyError); `run` does the work and frees it. */
export async function startExport(deps: ExportDeps, req: ExportRequest): Promise<StartedExport> {
  validateExportLimit(req.limit);
  const lease = await deps.leases.lease(exportLeaseKey(req.workspaceId, req.userId), EXPORT_LEASE_MS);
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
  const spool = new EncryptedSpool(join(dir, 'export.csv'));
  const seen = { rows: 0, pages: 0 };
  let outcome = 'failed';
  try {
    // Recorded before any row is spooled: a crash from here on is settled by the next start.
    await deps.running.set(
      req.workspaceId,
      req.userId,
      {
        userId: req.userId,
        dir,
        startedAt: deps.clock.now(),
        search: req.search,
        limit: req.limit,
        ...(delivery.notice ? { notice: delivery.notice } : {}),
      },
      RUNNING_RECORD_TTL_MS,
    );
    // Loaded when an export runs: a start does not pay for the CSV writer.
    const { writeCredentialsCsv } = await import('../../domain/csv.js');
    const written = await deps.api
      .call(req.workspaceId, ({ session }) =>
        writeCredentialsCsv(
          pagesOf(session, req, { lease, delivery, logger: deps.logger }, seen),
          spool.path,
          spool.encrypter(),
        ),
      )
      .catch((err: unknown) => {
        throw searchError(err);
      });
    spool.seal();
    // The lease checked just before the upload (renewal is a compare-and-set on its holder): an export that
    // stalled past its heartbeat after its last page was settled as interrupted by another instance.
    if (!(await lease.renew())) throw lostSlot();
    await delivery.deliver({ open: () => spool.open(), bytes: written.bytes, rows: written.rows, filename });
    outcome = `${written.rows} rows delivered as ${filename}`;
    return { rows: written.rows, pages: seen.pages, bytes: written.bytes, filename };
  } finally {
    await rm(dir, { recursive: true, force: true });
    // Before the slot is released: a free slot with a record would read as an interrupted export.
    await deps.running
      .delete(req.workspaceId, req.userId)
      .catch((err: unknown) => deps.logger.warn('could not clear an export record', { err }));
    await deps.audit
      .append({
        teamId: req.workspaceId,
        userId: req.userId,
        action: 'credentials.export',
        target: `${req.search.query.type}:${queryValue(req.search)}`,
        detail: `limit ${req.limit}: ${outcome === 'failed' ? `failed after ${seen.rows} rows` : outcome}`,
        ...(outcome === 'failed' ? { outcome: 'failed' } : {}),
      })
      .catch((err: unknown) => deps.logger.warn('could not audit an export', { err }));
  }
}

const lostSlot = () =>
  new VigilError(
    'The export lost its slot (it stalled too long and was settled as interrupted).',
    'Start it again.',
  );

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
    if (!(await lease.renew())) throw lostSlot();
    if (seen.pages === 1 || seen.pages % PROGRESS_EVERY_PAGES === 0) {
      await delivery
        .progress({ rows: seen.rows, pages: seen.pages, limit: req.limit })
        // Best effort: a failed progress update must not stop the export.
        .catch((err: unknown) => logger.warn('could not update export progress', { err }));
    }
  }
}
