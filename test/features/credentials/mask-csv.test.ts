/** The pure parts of the credentials workflows: masking, formula neutralisation, export page sizes. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Credential } from '../../../src/api/index.js';
import { neutralise, writeCredentialsCsv } from '../../../src/domain/csv.js';
import { maskValue } from '../../../src/domain/mask.js';
import { exportPageSize, validateExportLimit } from '../../../src/features/credentials/export-size.js';

describe('maskValue', () => {
  it.each([
    ['hunter2', '••••••••'],
    ['Winter2026!x', 'Wi••••••••'],
    ['$2b$12$abcdefghijklmnopqrstuvwxyz', '$2b$••••••••'],
    ['5f4dcc3b5aa765d61d8327deb882cf99', '5f4d••••••••'],
  ])('%s → %s: a few leading characters at most, never the length', (value, masked) => {
    expect(maskValue(value)).toBe(masked);
  });

  it('shows nothing for a missing value', () => {
    expect(maskValue(null)).toBe('');
    expect(maskValue(undefined)).toBe('');
  });
});

describe('neutralise', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])('prefixes %j with a quote', (cell) => {
    expect(neutralise(cell)).toBe(`'${cell}`);
  });

  it.each(['alice@example.com', '1-2', 'a=b', ''])('leaves %j alone', (cell) => {
    expect(neutralise(cell)).toBe(cell);
  });

  it('applies to every cell of a record', async () => {
    const cells = await csvRecord({
      id: 1,
      identity_name: '=x',
      domain: '+y',
      hash: '-z',
      hash_type: '@w',
      imported_at: '2026-11-01T00:00:00+00:00',
      source_id: '\ts',
      source: { id: '\ts', name: '\rn', breached_at: null, leaked_at: null },
      known_password_id: null,
      auth_domains: ['=a', 'b'],
      urls: ['+u'],
    });
    expect(cells.filter((c) => c !== '' && !c.startsWith("'")).sort()).toEqual([
      '1',
      '2026-11-01T00:00:00+00:00',
    ]);
  });
});

/** The cells of `c`'s row in the file an export writes. */
async function csvRecord(c: Credential): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-csv-test-'));
  try {
    const path = join(dir, 'out.csv');
    async function* pages() {
      yield [c];
    }
    await writeCredentialsCsv(pages(), path);
    const [, row] = parse(await readFile(path, 'utf8')) as string[][];
    if (row === undefined) throw new Error('no row written');
    return row;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('export page size', () => {
  it.each([
    [1, 1],
    [1000, 1000],
    [1001, 501],
    [1500, 750],
    [10_000, 1000],
    [9_999, 1000],
  ])('limit %i → pages of %i (equal sizes, at most 1,000, little waste)', (limit, size) => {
    expect(exportPageSize(limit)).toBe(size);
    expect(Math.ceil(limit / size) * size - limit).toBeLessThan(Math.ceil(limit / 1000));
  });

  it.each([0, 10_001, 1.5])('refuses a limit of %d', (limit) => {
    expect(() => validateExportLimit(limit)).toThrow(/1 to 10,000 rows/);
  });
});
