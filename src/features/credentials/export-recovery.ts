/**
 * Settling exports a crashed process left: each recorded export whose slot (a store lease) can be taken is
 * no longer running anywhere (a live process keeps renewing its lease; a dead holder's is taken over). Its
 * spool folder is removed, the record cleared and the interruption audited; the caller then tells the
 * requester where they watched it. Exports held by a live process, here or on another instance, are left alone.
 */
import { rm } from 'node:fs/promises';
import { basename, isAbsolute, normalize } from 'node:path';
import type { Clock, Sleep } from '../../kernel/clock.js';
import type { StoredCredsSearch } from './context.js';
import { EXPORT_LEASE_MS, type ExportDeps, type ExportNotice, exportLeaseKey, queryValue } from './export.js';

export interface InterruptedExport {
  workspaceId: string;
  userId: string;
  search: StoredCredsSearch;
  notice: ExportNotice | undefined;
}

/** Only a folder an export made (`<tmp>/vigil-export-…`) is ever removed, whatever the record says. */
function isSpoolFolder(dir: string): boolean {
  return isAbsolute(dir) && normalize(dir) === dir && basename(dir).startsWith('vigil-export-');
}

export async function settleInterruptedExports(
  deps: Pick<ExportDeps, 'running' | 'leases' | 'audit' | 'logger'>,
  scope: { only?: ReadonlySet<string>; held?: Set<string> } = {},
): Promise<InterruptedExport[]> {
  const settled: InterruptedExport[] = [];
  for (const { workspaceId, key } of await deps.running.entries()) {
    const id = `${workspaceId}:${key}`;
    if (scope.only !== undefined && !scope.only.has(id)) continue;
    const record = await deps.running.get(workspaceId, key);
    if (!record) continue;
    const lease = await deps.leases.lease(exportLeaseKey(workspaceId, record.userId), EXPORT_LEASE_MS);
    if (!lease) {
      // Held: a live export, or a dead process whose heartbeat or lease has not lapsed yet (a quick restart).
      scope.held?.add(id);
      continue;
    }
    try {
      if (isSpoolFolder(record.dir)) await rm(record.dir, { recursive: true, force: true });
      else deps.logger.warn('an export record names an unexpected folder; left alone', { workspaceId });
      await deps.running.delete(workspaceId, key);
      await deps.audit
        .append({
          teamId: workspaceId,
          userId: record.userId,
          action: 'credentials.export',
          target: `${record.search.query.type}:${queryValue(record.search)}`,
          detail: `limit ${record.limit}: interrupted (Vigil stopped), nothing delivered; its spool was removed`,
          outcome: 'interrupted',
        })
        .catch((err: unknown) => deps.logger.warn('could not audit an interrupted export', { err }));
      settled.push({ workspaceId, userId: record.userId, search: record.search, notice: record.notice });
    } finally {
      await lease.release().catch(() => undefined);
    }
  }
  if (settled.length > 0) deps.logger.info('interrupted exports settled', { count: settled.length });
  return settled;
}

export interface WatchOptions {
  sleep: Sleep;
  clock: Clock;
  /** How long to wait between looks: about a heartbeat's ttl, after which a dead holder is known dead. */
  everyMs: number;
  /** True once shutdown began: stop looking. */
  stopping: () => boolean;
}

/**
 * Settles what a crashed process left, at start-up and then again for the exports found held, until each is
 * settled or gone: a restart quicker than the dead process's heartbeat (or lease) still tells its requester.
 * Exports started after start-up are never looked at; after a lease's term nothing dead can still hold one.
 */
export async function watchInterruptedExports(
  deps: Pick<ExportDeps, 'running' | 'leases' | 'audit' | 'logger'>,
  announce: (settled: InterruptedExport[]) => Promise<void>,
  opts: WatchOptions,
): Promise<void> {
  const until = opts.clock.now() + EXPORT_LEASE_MS + opts.everyMs;
  let held = new Set<string>();
  await announce(await settleInterruptedExports(deps, { held }));
  while (held.size > 0 && !opts.stopping() && opts.clock.now() <= until) {
    await opts.sleep(opts.everyMs);
    if (opts.stopping()) return;
    const only = held;
    held = new Set<string>();
    const settled = await settleInterruptedExports(deps, { only, held });
    if (settled.length > 0) await announce(settled);
  }
}
