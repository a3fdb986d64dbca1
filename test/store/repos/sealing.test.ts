import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type LogFields } from '../../../src/logger.js';
import {
  ENCRYPTION_KEY_FILE,
  encryptionKeyId,
  loadOrCreateEncryptionKey,
  loadSealer,
  SealError,
  Sealer,
} from '../../../src/store/repos/sealing.js';

const API_KEY = 'fw_live_5up3r-s3cr3t-api-key';

describe('Sealer', () => {
  const key = randomBytes(32);
  const sealer = new Sealer(key);

  it('round-trips and never shows the plaintext in the sealed form', () => {
    const sealed = sealer.seal(API_KEY, 'T0001');
    expect(sealed).not.toContain(API_KEY);
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(sealed.split('.')[1]).toBe(encryptionKeyId(key));
    expect(sealer.open(sealed, 'T0001')).toBe(API_KEY);
  });

  it('uses a fresh IV each time', () => {
    expect(sealer.seal(API_KEY, 'T0001')).not.toBe(sealer.seal(API_KEY, 'T0001'));
  });

  it('fails to open a value sealed for another workspace or purpose', () => {
    const sealed = sealer.seal(API_KEY, 'T0001');
    expect(() => sealer.open(sealed, 'T0002')).toThrow(SealError);
    const forInstallation = sealer.seal('{}', 'T0001', 'installation');
    expect(() => sealer.open(forInstallation, 'T0001')).toThrow(SealError);
    expect(sealer.open(forInstallation, 'T0001', 'installation')).toBe('{}');
  });

  it('fails on any tampering: ciphertext, tag, iv, key id or format', () => {
    const sealed = sealer.seal(API_KEY, 'T0001');
    const parts = sealed.split('.');
    const flip = (text: string) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 0x01;
      return bytes.toString('base64url');
    };
    for (const index of [2, 3, 4]) {
      const tampered = parts.map((part, i) => (i === index ? flip(part) : part)).join('.');
      expect(() => sealer.open(tampered, 'T0001')).toThrow(SealError);
    }
    expect(() => sealer.open(parts.map((p, i) => (i === 1 ? 'deadbeef' : p)).join('.'), 'T0001')).toThrow(
      /unknown encryption key deadbeef/,
    );
    expect(() => sealer.open(`v2${sealed.slice(2)}`, 'T0001')).toThrow(SealError);
    expect(() => sealer.open(API_KEY, 'T0001')).toThrow(SealError);
  });

  it('opens values sealed with a previous key after rotation, and says they are stale', () => {
    const oldKey = randomBytes(32);
    const sealedBefore = new Sealer(oldKey).seal(API_KEY, 'T0001');
    const rotated = new Sealer(randomBytes(32), [oldKey]);
    expect(rotated.open(sealedBefore, 'T0001')).toBe(API_KEY);
    expect(rotated.isStale(sealedBefore)).toBe(true);
    const resealed = rotated.seal(API_KEY, 'T0001');
    expect(rotated.isStale(resealed)).toBe(false);
    expect(() => new Sealer(randomBytes(32)).open(sealedBefore, 'T0001')).toThrow(SealError);
  });

  it('refuses keys that are not 32 bytes and empty workspace ids', () => {
    expect(() => new Sealer(randomBytes(16))).toThrow(SealError);
    expect(() => sealer.seal(API_KEY, '')).toThrow(SealError);
  });
});

describe('loadOrCreateEncryptionKey', () => {
  let dir = '';
  let warnings: LogFields[] = [];
  const logger = createLogger({
    level: 'warn',
    write: (line) => warnings.push(JSON.parse(line) as LogFields),
  });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vigil-key-'));
    warnings = [];
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('uses the configured key without touching the disk', async () => {
    const configured = randomBytes(32);
    const key = await loadOrCreateEncryptionKey({ configured, dataDir: join(dir, 'data'), logger });
    expect(key.equals(configured)).toBe(true);
    await expect(stat(join(dir, 'data'))).rejects.toThrow();
    expect(warnings).toEqual([]);
  });

  it('creates a 0600 key file once, warns to back it up, then reuses it', async () => {
    const dataDir = join(dir, 'data');
    const first = await loadOrCreateEncryptionKey({ dataDir, logger });
    expect(first).toHaveLength(32);
    const path = join(dataDir, ENCRYPTION_KEY_FILE);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(path, 'utf8')).trim(), 'base64').equals(first)).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]?.msg)).toMatch(/back it up.*VIGIL_ENCRYPTION_KEY/);
    expect(JSON.stringify(warnings)).not.toContain(first.toString('base64'));

    const second = await loadOrCreateEncryptionKey({ dataDir, logger });
    expect(second.equals(first)).toBe(true);
    expect(warnings).toHaveLength(1);
  });

  it('warns about a key file others can read, and rejects a damaged one', async () => {
    const path = join(dir, ENCRYPTION_KEY_FILE);
    await writeFile(path, randomBytes(32).toString('base64'));
    await chmod(path, 0o644);
    await loadOrCreateEncryptionKey({ dataDir: dir, logger });
    expect(String(warnings[0]?.msg)).toMatch(/readable by other users/);

    await writeFile(path, 'too-short');
    await expect(loadOrCreateEncryptionKey({ dataDir: dir, logger })).rejects.toThrow(SealError);
  });

  it('gives every concurrent caller the same key', async () => {
    const keys = await Promise.all(
      Array.from({ length: 5 }, () => loadOrCreateEncryptionKey({ dataDir: dir, logger })),
    );
    for (const key of keys) expect(key.equals(keys[0] as Buffer)).toBe(true);
  });

  it('loadSealer: a configured key that replaces a generated one still opens what the old key sealed', async () => {
    const generated = await loadOrCreateEncryptionKey({ dataDir: dir, logger });
    const sealedBefore = new Sealer(generated).seal(API_KEY, 'T0001');
    const configured = randomBytes(32);
    const sealer = await loadSealer({ configured, dataDir: dir, logger });
    expect(sealer.keyId).toBe(encryptionKeyId(configured));
    expect(sealer.open(sealedBefore, 'T0001')).toBe(API_KEY);
    expect(sealer.isStale(sealedBefore)).toBe(true);

    const fresh = join(dir, 'fresh');
    const generatedSealer = await loadSealer({ dataDir: fresh, logger });
    expect(generatedSealer.keyId).toBe(
      encryptionKeyId(await loadOrCreateEncryptionKey({ dataDir: fresh, logger })),
    );
  });
});
