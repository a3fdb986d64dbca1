/**
 * Settling exports a crashed process left: each recorded export whose slot (a store lease) can be taken is
 * no longer running anywhere (a live process keeps renewing its lease; a dead holder's is taken over). Its
 * spool folder is removed, the record cleared and the interruption audited; the caller then tells the
 * requester where they watched it. Exports held by a live process, here or on another instance, are left alone.
 */
import { rm } from 'node:fs/promises';
import { basename, isAbsolute, normalize } from 'node:path';
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
): Promise<InterruptedExport[]> {
  const settled: InterruptedExport[] = [];
  for (const { workspaceId, key } of await deps.running.entries()) {
    const record = await deps.running.get(workspaceId, key);
    if (!record) continue;
    const lease = await deps.leases.lease(exportLeaseKey(workspaceId, record.userId), EXPORT_LEASE_MS);
    if (!lease) continue;
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
