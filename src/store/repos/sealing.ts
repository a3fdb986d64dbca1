/**
 * Sealing of secrets at rest (API keys, Slack installations): AES-256-GCM bound to the workspace id through the
 * additional authenticated data, so a sealed value copied into another workspace's record fails to open.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../logger.js';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** @internal */
export const ENCRYPTION_KEY_FILE = 'encryption.key';

/** @internal */
export class SealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealError';
  }
}

/** Identifies an encryption key without revealing it: the first 8 hex digits of its SHA-256. @internal */
export function encryptionKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) {
    throw new SealError(`an encryption key must be ${KEY_BYTES} bytes, got ${key.length}`);
  }
}

function additionalData(workspaceId: string, purpose: string | undefined): Buffer {
  if (workspaceId.length === 0) throw new SealError('a workspace id is required to seal or open');
  // NUL cannot occur in Slack ids, so `purpose` cannot be forged by a crafted workspace id.
  return Buffer.from(purpose === undefined ? workspaceId : `${workspaceId}\u0000${purpose}`, 'utf8');
}

/**
 * Seals with the current key and opens with the current or any previous key, which is how keys rotate:
 * configure the new key first, keep the old one in `previous` until every value has been resealed.
 */
export class Sealer {
  private readonly current: { id: string; key: Buffer };
  private readonly byId = new Map<string, Buffer>();

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) {
      assertKey(key);
      const id = encryptionKeyId(key);
      if (!this.byId.has(id)) this.byId.set(id, Buffer.from(key));
    }
    this.current = { id: encryptionKeyId(current), key: Buffer.from(current) };
  }

  /** The id of the key new values are sealed with. */
  get keyId(): string {
    return this.current.id;
  }

  /** `v1.<keyId>.<iv>.<ciphertext>.<tag>`, the last three base64url. `purpose` separates kinds of secret. */
  seal(plaintext: string, workspaceId: string, purpose?: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(workspaceId, purpose));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, this.current.id, iv, ciphertext, tag]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string, workspaceId: string, purpose?: string): string {
    const parts = sealed.split('.');
    const [version, keyId, ivText, ciphertextText, tagText] = parts;
    if (
      parts.length !== 5 ||
      version !== VERSION ||
      keyId === undefined ||
      ivText === undefined ||
      ciphertextText === undefined ||
      tagText === undefined
    ) {
      throw new SealError('not a sealed value of a known version');
    }
    const key = this.byId.get(keyId);
    if (!key) {
      throw new SealError(
        `sealed with unknown encryption key ${keyId}; configure that key as a previous key`,
      );
    }
    const iv = Buffer.from(ivText, 'base64url');
    const tag = Buffer.from(tagText, 'base64url');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SealError('malformed sealed value');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(workspaceId, purpose));
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertextText, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      // Deliberately vague: tampering, another workspace's value and a wrong key all look the same.
      throw new SealError('sealed value failed authentication (tampered, or sealed for another workspace)');
    }
  }

  /** True when `sealed` was made with a previous key and should be sealed again with the current one. */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.current.id;
  }
}

export interface EncryptionKeyOptions {
  /** VIGIL_ENCRYPTION_KEY, when set. */
  configured?: Buffer | undefined;
  dataDir: string;
  logger: Logger;
}

/**
 * The configured key, else the one in `<dataDir>/encryption.key`, else a new one written there with mode 0600.
 * Losing a generated key makes every sealed API key unreadable, hence the warning to back it up.
 * @internal
 */
export async function loadOrCreateEncryptionKey(options: EncryptionKeyOptions): Promise<Buffer> {
  const { configured, dataDir, logger } = options;
  if (configured) {
    assertKey(configured);
    return configured;
  }
  const path = join(dataDir, ENCRYPTION_KEY_FILE);
  const existing = await readKeyFile(path, logger);
  if (existing) return existing;

  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  // Written aside then hard-linked into place: the link appears complete or not at all, and never replaces
  // a key another process created meanwhile (EEXIST: use theirs).
  const staging = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(staging, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await ensurePrivate(staging);
    await link(staging, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const raced = await readKeyFile(path, logger);
      if (raced) return raced;
    }
    throw error;
  } finally {
    await unlink(staging).catch(() => {});
  }
  await ensurePrivate(path);
  logger.warn(
    'generated a new encryption key for sealing API keys; back it up, or set VIGIL_ENCRYPTION_KEY instead: without it the stored API keys cannot be read',
    { path, keyId: encryptionKeyId(key) },
  );
  return key;
}

/**
 * The Sealer for this deployment. When VIGIL_ENCRYPTION_KEY is set and differs from a key file generated
 * earlier, the file's key stays usable for opening, so moving to a configured key loses nothing: values are
 * resealed with the configured key as they are read.
 */
export async function loadSealer(options: EncryptionKeyOptions): Promise<Sealer> {
  const { configured, dataDir, logger } = options;
  if (!configured) return new Sealer(await loadOrCreateEncryptionKey(options));
  assertKey(configured);
  const fileKey = await readKeyFile(join(dataDir, ENCRYPTION_KEY_FILE), logger);
  if (!fileKey || fileKey.equals(configured)) return new Sealer(configured);
  logger.info(
    'opening values sealed with the generated key file too; they are resealed with the configured key on use',
    {
      configuredKeyId: encryptionKeyId(configured),
      fileKeyId: encryptionKeyId(fileKey),
    },
  );
  return new Sealer(configured, [fileKey]);
}

async function readKeyFile(path: string, logger: Logger): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== KEY_BYTES) {
    throw new SealError(`${path} does not hold a ${KEY_BYTES}-byte base64 key; restore it from a backup`);
  }
  const mode = (await stat(path)).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    logger.warn('the encryption key file is readable by other users; run chmod 600 on it', {
      path,
      mode: mode.toString(8),
    });
  }
  return key;
}

async function ensurePrivate(path: string): Promise<void> {
  let mode = (await stat(path)).mode & 0o777;
  if (mode !== 0o600) {
    await chmod(path, 0o600);
    mode = (await stat(path)).mode & 0o777;
  }
  if (mode !== 0o600) {
    throw new SealError(`could not restrict ${path} to mode 600 (it is ${mode.toString(8)})`);
  }
}
