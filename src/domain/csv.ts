/**
 * Credentials as CSV, streamed: pages go through csv-stringify (quoting of commas, quotes and newlines) into
 * a file as they arrive, so memory holds one page at most. Every cell is neutralised against formula
 * injection first: a spreadsheet runs a cell starting with `=`, `+`, `-`, `@`, tab or carriage return.
 */
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { Credential } from '../api/index.js';

const CSV_COLUMNS = [
  'id',
  'identity',
  'domain',
  'value',
  'hash_type',
  'source_id',
  'source_name',
  'breached_at',
  'leaked_at',
  'imported_at',
  'known_password_id',
  'auth_domains',
  'urls',
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;

/** A leading `'` makes a spreadsheet read the cell as text. */
export function neutralise(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

const text = (v: string | number | null | undefined): string =>
  v === null || v === undefined ? '' : String(v);

function csvRecord(c: Credential): string[] {
  return [
    text(c.id),
    text(c.identity_name),
    text(c.domain),
    text(c.hash),
    text(c.hash_type),
    text(c.source_id),
    text(c.source?.name),
    text(c.source?.breached_at),
    text(c.source?.leaked_at),
    text(c.imported_at),
    text(c.known_password_id),
    (c.auth_domains ?? []).join(' '),
    (c.urls ?? []).join(' '),
  ].map(neutralise);
}

export interface CsvWritten {
  bytes: number;
  rows: number;
}

/**
 * Writes the header and every credential of `pages` to a new file at `path` (mode 0600, never an existing
 * file), through `through` when given (an encrypter: the bytes counted are those before it). Pages are pulled
 * only as fast as the file takes them.
 */
export async function writeCredentialsCsv(
  pages: AsyncIterable<readonly Credential[]>,
  path: string,
  through?: Transform,
): Promise<CsvWritten> {
  let rows = 0;
  let bytes = 0;
  async function* records(): AsyncGenerator<string[]> {
    for await (const page of pages) {
      for (const c of page) {
        rows++;
        yield csvRecord(c);
      }
    }
  }
  const counter = new Transform({
    transform(chunk: Buffer | string, _enc, done) {
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      done(null, chunk);
    },
  });
  const file = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  const csv = stringify({ header: true, columns: [...CSV_COLUMNS] });
  if (through) await pipeline(Readable.from(records()), csv, counter, through, file);
  else await pipeline(Readable.from(records()), csv, counter, file);
  return { bytes, rows };
}
