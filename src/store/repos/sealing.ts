/**
 * Sealing of secrets at rest (API keys, Slack installations): AES-256-GCM bound to the workspace id through the
 * additional authenticated data, so a sealed value copied into another workspace's record fails to open.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from '../../kernel/logger.js';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ENCRYPTION_KEY_FILE = 'encryption.key';

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

  /** True when values sealed with the key of this id open (the current key or a previous one). */
  opensWith(keyId: string): boolean {
    return this.byId.has(keyId);
  }

  /** True when `sealed` was made with a previous key and should be sealed again with the current one. */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.current.id;
  }
}

export interface EncryptionKeyOptions {
  /** VIGIL_ENCRYPTION_KEY, when set. */
  key?: Buffer | undefined;
  /** VIGIL_ENCRYPTION_KEY_FILE, when set: a file holding the key in base64. */
  keyFile?: string | undefined;
  /** VIGIL_ENCRYPTION_KEY_OLD: earlier keys, which still open what is not yet re-sealed. */
  previous?: readonly Buffer[];
  /** The store's folder, where releases before 0.2.0 generated a key. */
  dataDir: string;
  logger: Logger;
}

/**
 * The Sealer for this deployment: the configured key (in the environment or a file) seals, it and the earlier
 * keys open. A key an earlier release generated beside the store still opens what it sealed, with a warning
 * to rotate away from it: a backup of the data folder holds that key with the values it protects.
 */
export async function loadSealer(options: EncryptionKeyOptions): Promise<Sealer> {
  const { dataDir, logger } = options;
  const current = options.key ?? (options.keyFile ? await readKeyFile(options.keyFile, logger) : undefined);
  if (!current) {
    throw new SealError('no encryption key: set VIGIL_ENCRYPTION_KEY or VIGIL_ENCRYPTION_KEY_FILE');
  }
  assertKey(current);
  const besideStore = join(dataDir, ENCRYPTION_KEY_FILE);
  if (options.keyFile && resolve(dirname(options.keyFile)) === resolve(dataDir)) {
    logger.warn(
      "the encryption key file is in the store's folder: a backup of the folder holds both; keep it elsewhere",
      {
        path: options.keyFile,
      },
    );
  }
  const previous = [...(options.previous ?? [])];
  const generated =
    options.keyFile && resolve(options.keyFile) === resolve(besideStore)
      ? undefined
      : await readKeyFile(besideStore, logger, true);
  if (generated && !generated.equals(current)) {
    previous.push(generated);
    logger.warn(
      'a key generated by an earlier release lies beside the store and still opens what it sealed: run rotate-key, then move that file away from the data folder (docs/operator-guide.md, "Rotating the encryption key")',
      { path: besideStore, keyId: encryptionKeyId(generated) },
    );
  }
  return new Sealer(current, previous);
}

/** The key in a file (base64); undefined when `optional` and the file does not exist. */
async function readKeyFile(path: string, logger: Logger, optional = false): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && optional) return undefined;
    throw new SealError(`cannot read the encryption key file ${path} (${code ?? (error as Error).message})`);
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== KEY_BYTES) {
    throw new SealError(`${path} does not hold a ${KEY_BYTES}-byte base64 key`);
  }
  const mode = (await stat(path)).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    // A key others can read protects nothing: the configured file is refused. The one an earlier release
    // generated beside the store only warns, so that an upgrade starts and can rotate away from it.
    if (!optional) {
      throw new SealError(
        `the encryption key file ${path} is readable by other users (mode ${mode.toString(8)}): run chmod 600 on it`,
      );
    }
    logger.warn('the encryption key file is readable by other users; run chmod 600 on it', {
      path,
      mode: mode.toString(8),
    });
  }
  return key;
}
