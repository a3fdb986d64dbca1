/** The export spool: ciphertext of the plaintext's length on disk, read back whole, refused when changed. */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EncryptedSpool } from '../../../src/features/credentials/spool.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-spool-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const PLAIN = Buffer.from('id,identity,value\n1,alice@corp.example,Hunter2-secret\n'.repeat(2000));

async function written(): Promise<EncryptedSpool> {
  const spool = new EncryptedSpool(join(dir, 'export.csv'));
  await pipeline(Readable.from([PLAIN]), spool.encrypter(), createWriteStream(spool.path, { mode: 0o600 }));
  spool.seal();
  return spool;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('EncryptedSpool', () => {
  it('keeps no plaintext at rest, keeps the length, and reads back exactly', async () => {
    const spool = await written();
    const onDisk = await readFile(spool.path);
    expect(onDisk.length).toBe(PLAIN.length);
    expect(onDisk.includes('alice@corp.example')).toBe(false);
    expect(onDisk.includes('Hunter2-secret')).toBe(false);
    expect((await stat(spool.path)).size).toBe(PLAIN.length);
    expect((await readAll(spool.open())).equals(PLAIN)).toBe(true);
  });

  it('fails the read when the file was changed', async () => {
    const spool = await written();
    const bytes = await readFile(spool.path);
    bytes[100] = (bytes[100] ?? 0) ^ 1;
    await writeFile(spool.path, bytes);
    await expect(readAll(spool.open())).rejects.toThrow(/authenticate/);
  });
});
