/**
 * A file shared in a conversation, as the Slack client shows it: a card with the file's name, type and
 * size, a download link, and for a CSV the first rows as a table (an export can be checked at a glance).
 */
import type { SharedFile } from '../conversations.js';
import { escapeHtml } from './escape.js';

const PREVIEW_ROWS = 6;
const PREVIEW_COLUMNS = 8;
const PREVIEW_CELL = 60;
/** Only the start of the file is read for the preview. */
const PREVIEW_BYTES = 16 * 1024;

/** The first `maxRows` records of CSV text (RFC 4180: quoted fields, doubled quotes, CRLF or LF). @internal */
export function csvRows(text: string, maxRows: number): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length && rows.length < maxRows; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (rows.length < maxRows && (field !== '' || row.length > 0)) rows.push([...row, field]);
  return rows;
}

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Where the page downloads a file's bytes (served by the playground from the fake Slack). */
function fileDownloadPath(file: Pick<SharedFile, 'id' | 'name'>): string {
  return `/playground/files/${encodeURIComponent(file.id)}/${encodeURIComponent(file.name)}`;
}

function isCsv(file: SharedFile): boolean {
  return file.mimetype === 'text/csv' || file.name.toLowerCase().endsWith('.csv');
}

function previewHtml(bytes: Buffer): string {
  const rows = csvRows(bytes.subarray(0, PREVIEW_BYTES).toString('utf8'), PREVIEW_ROWS);
  if (rows.length === 0) return '<div class="file-preview-empty">Empty file</div>';
  const cell = (tag: string, v: string) =>
    `<${tag}>${escapeHtml(v.length > PREVIEW_CELL ? `${v.slice(0, PREVIEW_CELL - 1)}…` : v)}</${tag}>`;
  const line = (r: string[], tag: string) =>
    `<tr>${r
      .slice(0, PREVIEW_COLUMNS)
      .map((v) => cell(tag, v))
      .join('')}</tr>`;
  const [head, ...body] = rows;
  return (
    '<div class="file-preview"><table>' +
    `<thead>${line(head ?? [], 'th')}</thead><tbody>${body.map((r) => line(r, 'td')).join('')}</tbody>` +
    '</table></div>'
  );
}

/** The card; `bytes` absent when the file is no longer kept. */
export function fileCardHtml(file: SharedFile, bytes: Buffer | undefined): string {
  const type = isCsv(file) ? 'CSV' : (file.name.split('.').pop() ?? 'file').toUpperCase().slice(0, 6);
  const download = bytes
    ? `<a class="bk-button file-download" href="${escapeHtml(fileDownloadPath(file))}" download="${escapeHtml(file.name)}">Download</a>`
    : '<span class="bk-note">No longer kept by the playground.</span>';
  return (
    `<div class="file-card" data-file-id="${escapeHtml(file.id)}">` +
    `<div class="file-head"><span class="file-icon" aria-hidden="true">${escapeHtml(type)}</span>` +
    `<div class="file-meta"><div class="file-name">${escapeHtml(file.title || file.name)}</div>` +
    `<div class="file-sub">${escapeHtml(file.name)} · ${escapeHtml(type)} · ${fileSize(file.size)}</div></div>` +
    `${download}</div>` +
    `${bytes && isCsv(file) ? previewHtml(bytes) : ''}</div>`
  );
}
