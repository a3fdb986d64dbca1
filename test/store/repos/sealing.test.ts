import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type LogFields } from '../../../src/kernel/logger.js';
import { encryptionKeyId, loadSealer, SealError, Sealer } from '../../../src/store/repos/sealing.js';

/** The playground's generated key, beside its store. */
const ENCRYPTION_KEY_FILE = 'encryption.key';

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

describe('loadSealer', () => {
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

  it('seals with the configured key without touching the disk, and opens with the earlier ones', async () => {
    const key = randomBytes(32);
    const old = randomBytes(32);
    const sealedBefore = new Sealer(old).seal(API_KEY, 'T0001');
    const sealer = await loadSealer({ key, previous: [old], dataDir: join(dir, 'data'), logger });
    expect(sealer.keyId).toBe(encryptionKeyId(key));
    expect(sealer.open(sealedBefore, 'T0001')).toBe(API_KEY);
    expect(sealer.isStale(sealedBefore)).toBe(true);
    await expect(stat(join(dir, 'data'))).rejects.toThrow();
    expect(warnings).toEqual([]);
  });

  it('never generates a key: without one it refuses', async () => {
    await expect(loadSealer({ dataDir: dir, logger })).rejects.toThrow(SealError);
    await expect(stat(join(dir, ENCRYPTION_KEY_FILE))).rejects.toThrow();
  });

  it('reads the key from a file, refuses it when others can read it, warns when it lies beside the store, refuses a bad one', async () => {
    const keyDir = await mkdtemp(join(tmpdir(), 'vigil-keyfile-'));
    try {
      const key = randomBytes(32);
      const keyFile = join(keyDir, 'vigil.key');
      await writeFile(keyFile, `${key.toString('base64')}\n`, { mode: 0o600 });
      expect((await loadSealer({ keyFile, dataDir: dir, logger })).keyId).toBe(encryptionKeyId(key));
      expect(warnings).toEqual([]);

      await chmod(keyFile, 0o644);
      await expect(loadSealer({ keyFile, dataDir: dir, logger })).rejects.toThrow(
        /vigil\.key is readable by other users \(mode 644\): run chmod 600 on it/,
      );
      await chmod(keyFile, 0o640);
      await expect(loadSealer({ keyFile, dataDir: dir, logger })).rejects.toThrow(/readable by other users/);
      await chmod(keyFile, 0o600);

      const beside = join(dir, 'my.key');
      await writeFile(beside, key.toString('base64'), { mode: 0o600 });
      await loadSealer({ keyFile: beside, dataDir: dir, logger });
      expect(String(warnings.at(-1)?.msg)).toMatch(/in the store's folder/);

      await writeFile(keyFile, 'too-short');
      await expect(loadSealer({ keyFile, dataDir: dir, logger })).rejects.toThrow(/does not hold a 32-byte/);
      await expect(loadSealer({ keyFile: join(keyDir, 'missing'), dataDir: dir, logger })).rejects.toThrow(
        /cannot read the encryption key file .*ENOENT/,
      );
      expect(JSON.stringify(warnings)).not.toContain(key.toString('base64'));
    } finally {
      await rm(keyDir, { recursive: true, force: true });
    }
  });

  it('a key an earlier release generated beside the store still opens what it sealed, with a warning to rotate', async () => {
    const generated = randomBytes(32);
    await writeFile(join(dir, ENCRYPTION_KEY_FILE), `${generated.toString('base64')}\n`, { mode: 0o600 });
    const sealedBefore = new Sealer(generated).seal(API_KEY, 'T0001');
    const key = randomBytes(32);
    const sealer = await loadSealer({ key, dataDir: dir, logger });
    expect(sealer.keyId).toBe(encryptionKeyId(key));
    expect(sealer.open(sealedBefore, 'T0001')).toBe(API_KEY);
    expect(String(warnings[0]?.msg)).toMatch(/generated by an earlier release.*rotate-key/);
  });
});
