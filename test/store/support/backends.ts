/**
 * Runs a suite against both backends: a real SQLite file in a fresh temp folder, and a real redis-server
 * started for the file and flushed before each test.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { silentLogger } from '../../../src/kernel/logger.js';
import { openStore } from '../../../src/store/backend/open.js';
import type { Store } from '../../../src/store/backend/store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

export type BackendKind = 'sqlite' | 'redis';
export const BACKENDS: BackendKind[] = ['sqlite', 'redis'];

export interface StoreFixture {
  /** Opens a store on this test's database; several calls give several connections to the same data. */
  open(): Promise<Store>;
  readonly url: string;
  /** This test's temp folder (the SQLite file lives in it). */
  readonly dir: string;
  readonly redis: RedisServer | undefined;
  /** The clock of every store this test opens: move it to expire records, claims, leases and locks. */
  readonly clock: ManualClock;
}

export function useStoreFixture(kind: BackendKind): StoreFixture {
  let redis: RedisServer | undefined;
  let dir = '';
  let opened: Store[] = [];
  let clock = new ManualClock();

  beforeAll(async () => {
    if (kind === 'redis') redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vigil-store-'));
    clock = new ManualClock();
    if (redis) await flush(redis.url);
  });
  afterEach(async () => {
    for (const store of opened) await store.close().catch(() => {});
    opened = [];
    await rm(dir, { recursive: true, force: true });
  });

  const fixture: StoreFixture = {
    get url() {
      if (kind === 'sqlite') return 'sqlite://vigil.sqlite';
      if (!redis) throw new Error('redis-server not started');
      return redis.url;
    },
    get dir() {
      return dir;
    },
    get redis() {
      return redis;
    },
    get clock() {
      return clock;
    },
    async open() {
      const store = await openStore(fixture.url, { logger: silentLogger, cwd: dir, clock });
      opened.push(store);
      return store;
    },
  };
  return fixture;
}

async function flush(url: string): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  try {
    await client.flushAll();
  } finally {
    await client.close();
  }
}

/** Writes a raw value under a record's key, bypassing keyv, to simulate corruption. */
export async function writeRaw(
  fixture: StoreFixture,
  kind: BackendKind,
  key: string,
  raw: string,
): Promise<void> {
  if (kind === 'redis') {
    const client = createClient({ url: fixture.url });
    await client.connect();
    try {
      await client.set(key, raw);
    } finally {
      await client.close();
    }
    return;
  }
  await sqlite(join(fixture.dir, 'vigil.sqlite'), 'INSERT OR REPLACE INTO keyv (key, value) VALUES (?, ?)', [
    key,
    raw,
  ]);
}

/** Runs one statement on a SQLite file through a separate connection (a raw @keyv/sqlite adapter). */
export async function sqlite(file: string, sql: string, params: unknown[] = []): Promise<void> {
  const adapter = new KeyvSqlite({ uri: `sqlite://${file}`, busyTimeout: 5_000 });
  try {
    await adapter.query(sql, ...params);
  } finally {
    await adapter.disconnect();
  }
}

/** Every value stored in the test's Redis, or every byte of the test's SQLite files (WAL included). */
export async function storedBytes(fixture: StoreFixture, kind: BackendKind): Promise<string> {
  if (kind === 'redis') {
    const client = createClient({ url: fixture.url });
    await client.connect();
    try {
      const keys = await client.keys('*');
      const values = await Promise.all(keys.map((key) => client.get(key)));
      return [...keys, ...values].join('\n');
    } finally {
      await client.close();
    }
  }
  const names = await readdir(fixture.dir);
  const files = await Promise.all(
    names.filter((name) => name.startsWith('vigil.sqlite')).map((name) => readFile(join(fixture.dir, name))),
  );
  return Buffer.concat(files).toString('latin1');
}

/** Every key and value as the backend holds them: SQLite records and claims, or every Redis key. */
export async function rawEntries(
  fixture: StoreFixture,
  kind: BackendKind,
): Promise<Array<{ key: string; value: string }>> {
  if (kind === 'redis') {
    const client = createClient({ url: fixture.url });
    await client.connect();
    try {
      const keys = await client.keys('*');
      return await Promise.all(
        keys.map(async (key) => ({
          key,
          value: (await client.type(key)) === 'string' ? ((await client.get(key)) ?? '') : `<${key}>`,
        })),
      );
    } finally {
      await client.close();
    }
  }
  const adapter = new KeyvSqlite({
    uri: `sqlite://${join(fixture.dir, 'vigil.sqlite')}`,
    busyTimeout: 5_000,
  });
  try {
    const rows = (await adapter.query(
      'SELECT key, value FROM keyv UNION ALL SELECT key, owner AS value FROM vigil_claims',
    )) as Array<{ key: string; value: string }>;
    return rows.map((row) => ({ key: String(row.key), value: String(row.value) }));
  } finally {
    await adapter.disconnect();
  }
}
