/** The audit log as CSV: its own module, so a start (which logs audit entries) loads no CSV writer. */
import { stringify } from 'csv-stringify/sync';
import type { AuditEntry } from '../store/index.js';
import { neutralise } from './csv.js';

const CSV_COLUMNS = [
  'time',
  'workspace',
  'user',
  'action',
  'targets',
  'count',
  'outcome',
  'surface',
  'detail',
  'title',
] as const;

/**
 * The entries as CSV (newest first), one row each, every cell neutralised against formula injection (a
 * spreadsheet runs a cell starting with `=`, `+`, `-`, `@`): titles and details carry upstream text.
 */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const rows = entries.map((e) =>
    [
      new Date(e.at).toISOString(),
      e.teamId,
      e.userId,
      e.action,
      (e.targets ?? [e.target]).join(' '),
      e.count === undefined ? '' : String(e.count),
      e.outcome ?? 'done',
      e.surface ?? 'vigil',
      e.detail ?? '',
      e.title ?? '',
    ].map(neutralise),
  );
  return stringify(rows, { header: true, columns: [...CSV_COLUMNS] });
}
