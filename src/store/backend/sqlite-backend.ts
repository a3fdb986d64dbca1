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
import type { StoreBackend } from './backend-api.js';
import { recordKeyv } from './record-keyv.js';

const KEYV_TABLE = 'keyv';
const CLAIMS_TABLE = 'vigil_claims';
/** One row: the last fencing token handed out (a claim's token is this plus one, in the claim's statement). */
const FENCE_TABLE = 'vigil_fence';
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
    await addFencing(query);
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

/**
 * Fencing tokens (added after release 0.1.0, whose claims table has no token: its rows read as token 0). The
 * counter is bumped by triggers inside the very statement that gives a claim its token, so handing a token
 * out and counting it are one atomic step; it never goes back, purges and releases included.
 */
async function addFencing(query: Query): Promise<void> {
  const columns = await query(`PRAGMA table_info(${CLAIMS_TABLE})`);
  if (!columns.some((column) => column.name === 'token'))
    await query(`ALTER TABLE ${CLAIMS_TABLE} ADD COLUMN token INTEGER NOT NULL DEFAULT 0`);
  await query(
    `CREATE TABLE IF NOT EXISTS ${FENCE_TABLE} (id INTEGER PRIMARY KEY CHECK (id = 1), last INTEGER NOT NULL)`,
  );
  await query(`INSERT OR IGNORE INTO ${FENCE_TABLE} (id, last) VALUES (1, 0)`);
  for (const [name, event] of [
    ['vigil_fence_on_insert', 'INSERT'],
    ['vigil_fence_on_update', 'UPDATE OF token'],
  ])
    await query(
      `CREATE TRIGGER IF NOT EXISTS ${name} AFTER ${event} ON ${CLAIMS_TABLE}
       BEGIN UPDATE ${FENCE_TABLE} SET last = max(last, NEW.token) WHERE id = 1; END`,
    );
}

/** The next token, read inside a claim's statement (the triggers above count it before the statement ends). */
const NEXT_TOKEN = `(SELECT last + 1 FROM ${FENCE_TABLE} WHERE id = 1)`;
/** The claim is exactly this holding (owner and token), expired or not. */
const IS_HOLDING = `SELECT 1 FROM ${CLAIMS_TABLE} WHERE key = ? AND owner = ? AND token = ?`;

type ClaimMethods = Pick<
  StoreBackend,
  | 'tryClaim'
  | 'takeOverClaim'
  | 'renewClaim'
  | 'claimHolder'
  | 'releaseClaim'
  | 'deleteClaims'
  | 'fencedWrite'
>;

const tokenOf = (rows: Array<Record<string, unknown>>): number | undefined => {
  const token = rows[0]?.token;
  return typeof token === 'number' ? token : undefined;
};

/** Claims as single statements on the claims table; expired rows purged every PURGE_EVERY claims. */
function claimsTable(query: Query, purgeExpired: () => Promise<void>): ClaimMethods {
  let claimsSincePurge = 0;
  return {
    async tryClaim(key, owner, ttlMs, now) {
      // Inserts, or takes over an expired claim; a live claim makes the WHERE false and returns no row.
      const rows = await query(
        `INSERT INTO ${CLAIMS_TABLE} (key, owner, expires_at, token) VALUES (?, ?, ?, ${NEXT_TOKEN})
         ON CONFLICT(key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at,
           token = excluded.token
         WHERE ${CLAIMS_TABLE}.expires_at <= ?
         RETURNING token`,
        key,
        owner,
        now + ttlMs,
        now,
      );
      if (++claimsSincePurge >= PURGE_EVERY) {
        claimsSincePurge = 0;
        await purgeExpired();
      }
      return tokenOf(rows);
    },
    async takeOverClaim(key, from, owner, ttlMs, now) {
      // The compare-and-set: one statement, whose WHERE is the holding the taker observed.
      const rows = await query(
        `UPDATE ${CLAIMS_TABLE} SET owner = ?, expires_at = ?, token = ${NEXT_TOKEN}
         WHERE key = ? AND owner = ? AND token = ? RETURNING token`,
        owner,
        now + ttlMs,
        key,
        from.owner,
        from.token,
      );
      return tokenOf(rows);
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
    async claimHolder(key, now) {
      const rows = await query(
        `SELECT owner, token FROM ${CLAIMS_TABLE} WHERE key = ? AND expires_at > ?`,
        key,
        now,
      );
      const owner = rows[0]?.owner;
      const token = tokenOf(rows);
      return typeof owner === 'string' && token !== undefined ? { owner, token } : undefined;
    },
    async fencedWrite(fence, key, value) {
      const holding = [fence.claim, fence.owner, fence.token];
      // SQLite drops expired records itself (purgeExpired): no physical ttl to set.
      if (value === undefined) {
        const rows = await query(
          `DELETE FROM ${KEYV_TABLE} WHERE key = ? AND EXISTS (${IS_HOLDING}) RETURNING key`,
          key,
          ...holding,
        );
        // Nothing deleted: either the fence no longer holds or there was no record (then it held).
        return rows.length === 1 || (await query(IS_HOLDING, ...holding)).length === 1;
      }
      const rows = await query(
        `INSERT INTO ${KEYV_TABLE} (key, value) SELECT ?, ? WHERE EXISTS (${IS_HOLDING})
         ON CONFLICT(key) DO UPDATE SET value = excluded.value RETURNING key`,
        key,
        value,
        ...holding,
      );
      return rows.length === 1;
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
