/**
 * An export's spool on disk, never plaintext at rest: the CSV is written through AES-256-GCM with a key and
 * nonce made for this export and held only in this process's memory, so a file left behind by a crash is
 * unreadable. GCM keeps the length (the upload must announce the exact plaintext length first), and the tag,
 * kept in memory too, is checked when the file is read back: a changed file fails the upload.
 */
import { type CipherGCM, createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline, type Readable, type Transform } from 'node:stream';

const ALGORITHM = 'aes-256-gcm';

export class EncryptedSpool {
  private readonly key = randomBytes(32);
  private readonly nonce = randomBytes(12);
  private cipher: CipherGCM | undefined;
  private tag: Buffer | undefined;

  constructor(readonly path: string) {}

  /** The stream to write the plaintext through, once: ciphertext of the same length comes out. */
  encrypter(): Transform {
    if (this.cipher) throw new Error('the spool is written once');
    this.cipher = createCipheriv(ALGORITHM, this.key, this.nonce);
    return this.cipher;
  }

  /** Called once everything is written: keeps the authentication tag for reading back. */
  seal(): void {
    if (!this.cipher) throw new Error('nothing was written to the spool');
    this.tag = this.cipher.getAuthTag();
  }

  /** The plaintext, streamed from the file; fails at the end if the file was changed. */
  open(): Readable {
    if (!this.tag) throw new Error('the spool is not sealed');
    const decipher = createDecipheriv(ALGORITHM, this.key, this.nonce);
    decipher.setAuthTag(this.tag);
    // The pipeline forwards a read error to the decipher, which the consumer reads.
    return pipeline(createReadStream(this.path), decipher, () => {});
  }
}
