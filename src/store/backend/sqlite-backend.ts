/**
 * SQLite through @keyv/sqlite. Claims, leases and locks live in their own table on the same connection and
 * file, so taking, renewing and releasing one is a single atomic statement, correct across processes sharing
 * the file. Their expiry is the store clock's `now`, passed into every statement.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import { recordKeyv, type StoreBackend } from './store.js';

const KEYV_TABLE = 'keyv';
const CLAIMS_TABLE = 'vigil_claims';
/** Expired rows are deleted every this many claims (and at open): SQLite has no expiry of its own. */
const PURGE_EVERY = 500;

/**
 * Keys starting with `prefix`, as an index range plus an exact check (LIKE would ignore ASCII case and scan
 * the whole table). The range's upper end is the prefix with its last character moved up by one, when that
 * is ASCII (our prefixes end with `:`); otherwise it ends past any key Vigil writes.
 */
const STARTS_WITH = 'key >= ? AND key < ? AND substr(key, 1, length(?)) = ?';
function startsWith(prefix: string): [string, string, string, string] {
  const last = prefix.charCodeAt(prefix.length - 1);
  const end = last < 0x7f ? `${prefix.slice(0, -1)}${String.fromCharCode(last + 1)}` : '\u{10FFFF}'.repeat(4);
  return [prefix, end, prefix, prefix];
}

type Query = (sql: string, ...params: unknown[]) => Promise<Array<Record<string, unknown>>>;

export async function openSqliteBackend(file: string, clock: Clock, logger: Logger): Promise<StoreBackend> {
  if (file !== ':memory:') await createPrivateFile(file);
  const adapter = new KeyvSqlite({ uri: `sqlite://${file}`, table: KEYV_TABLE, busyTimeout: 5_000 });
  const keyv = recordKeyv(adapter);
  // Errors reach the caller through throwOnErrors; the event only adds a debug trace.
  keyv.on('error', (error: unknown) => logger.debug('sqlite store error', { error }));
  const query = adapter.query as Query;

  // Records are dropped once logically expired on the store's clock; keyv drops its own `expires` on read.
  const purgeExpired = async () => {
    const now = clock.now();
    await query(`DELETE FROM ${CLAIMS_TABLE} WHERE expires_at <= ?`, now);
    await query(
      `DELETE FROM ${KEYV_TABLE} WHERE json_valid(value) AND json_extract(value, '$.expiresAt') <= ?`,
      now,
    );
  };

  try {
    // WAL lets readers and the writer of several processes proceed together.
    await query('PRAGMA journal_mode = WAL');
    await query(
      `CREATE TABLE IF NOT EXISTS ${CLAIMS_TABLE} (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
    );
    await purgeExpired();
  } catch (error) {
    await adapter.disconnect().catch(() => {});
    throw error;
  }

  return {
    kind: 'sqlite',
    keyv,
    ...claimsTable(query, purgeExpired),
    async recordKeys(prefix) {
      const rows = await query(
        `SELECT key FROM ${KEYV_TABLE} WHERE ${STARTS_WITH} ORDER BY key`,
        ...startsWith(prefix),
      );
      return rows.map((row) => String(row.key));
    },
    async deleteRecords(prefix) {
      const rows = await query(
        `DELETE FROM ${KEYV_TABLE} WHERE ${STARTS_WITH} RETURNING key`,
        ...startsWith(prefix),
      );
      return rows.length;
    },
    async ping() {
      await query('SELECT 1');
    },
    async close() {
      await adapter.disconnect();
    },
  };
}

/**
 * Sealed secrets live here: a database we create is for the service's user only (SQLite gives its -wal and
 * -shm files the same mode). An existing file keeps the mode its operator chose.
 */
async function createPrivateFile(file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, '', { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
}

type ClaimMethods = Pick<
  StoreBackend,
  'tryClaim' | 'renewClaim' | 'claimOwner' | 'releaseClaim' | 'deleteClaims'
>;

/** Claims as single statements on the claims table; expired rows purged every PURGE_EVERY claims. */
function claimsTable(query: Query, purgeExpired: () => Promise<void>): ClaimMethods {
  let claimsSincePurge = 0;
  return {
    async tryClaim(key, owner, ttlMs, now) {
      // Inserts, or takes over an expired claim; a live claim makes the WHERE false and returns no row.
      const rows = await query(
        `INSERT INTO ${CLAIMS_TABLE} (key, owner, expires_at) VALUES (?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE ${CLAIMS_TABLE}.expires_at <= ?
         RETURNING owner`,
        key,
        owner,
        now + ttlMs,
        now,
      );
      if (++claimsSincePurge >= PURGE_EVERY) {
        claimsSincePurge = 0;
        await purgeExpired();
      }
      return rows.length === 1;
    },
    async renewClaim(key, owner, ttlMs, now) {
      const rows = await query(
        `UPDATE ${CLAIMS_TABLE} SET expires_at = ? WHERE key = ? AND owner = ? RETURNING key`,
        now + ttlMs,
        key,
        owner,
      );
      return rows.length === 1;
    },
    async claimOwner(key, now) {
      const rows = await query(
        `SELECT owner FROM ${CLAIMS_TABLE} WHERE key = ? AND expires_at > ?`,
        key,
        now,
      );
      const owner = (rows[0] as { owner?: unknown } | undefined)?.owner;
      return typeof owner === 'string' ? owner : undefined;
    },
    async releaseClaim(key, owner) {
      if (owner === undefined) await query(`DELETE FROM ${CLAIMS_TABLE} WHERE key = ?`, key);
      else await query(`DELETE FROM ${CLAIMS_TABLE} WHERE key = ? AND owner = ?`, key, owner);
    },
    async deleteClaims(prefix) {
      const rows = await query(
        `DELETE FROM ${CLAIMS_TABLE} WHERE ${STARTS_WITH} RETURNING key`,
        ...startsWith(prefix),
      );
      return rows.length;
    },
  };
}
