import { createCipheriv, createDecipheriv, createHash, randomBytes, type DecipherGCM } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Encryption of the bytes the Walrus engine publishes: every blob on Walrus is public, so a
 * private file leaves as AES-256-GCM under a data key of its own. The data key is kept only in
 * our database, wrapped (AES-256-GCM again) by the master key, so deleting the row makes the
 * published bytes unreadable for good, and a stolen database alone reads nothing.
 *
 *   sealed patch   IV (12 B) ‖ ciphertext (as long as the file) ‖ tag (16 B)
 *   wrapped key    "<key id>.<base64url(IV ‖ wrapped data key ‖ tag)>"
 *
 * Both bind the file's content id (its blobId) as additional data: a sealed patch or a wrapped
 * key moved onto another file's record fails to open. The key id (8 bytes of a hash of the master
 * key) says which master key wrapped it, so keys can be rotated: the old key stays in
 * TESSERA_WALRUS_PREVIOUS_MASTER_KEYS until `tessera walrus rewrap` has moved every row.
 */
export const SEAL_OVERHEAD_BYTES = 12 + 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class WalrusKeyError extends Error {}

export function keyIdOf(masterKey: Buffer): string {
  return createHash('sha256').update('tessera walrus master key').update(masterKey).digest().subarray(0, 8).toString('base64url');
}

export class MasterKeys {
  private readonly current: Buffer;
  private readonly byId: Map<string, Buffer>;
  readonly currentId: string;

  constructor(
    current: Buffer,
    previous: readonly Buffer[] = [],
  ) {
    this.current = current;
    this.currentId = keyIdOf(current);
    this.byId = new Map([...previous, current].map((k) => [keyIdOf(k), k]));
  }

  /** A fresh data key for one file, and its wrapped form for the database. */
  newDataKey(blobId: string): { dataKey: Buffer; wrapped: string } {
    const dataKey = randomBytes(32);
    return { dataKey, wrapped: this.wrap(dataKey, blobId) };
  }

  wrap(dataKey: Buffer, blobId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv).setAAD(Buffer.from(blobId));
    const body = Buffer.concat([iv, cipher.update(dataKey), cipher.final(), cipher.getAuthTag()]);
    return `${this.currentId}.${body.toString('base64url')}`;
  }

  unwrap(wrapped: string, blobId: string): Buffer {
    const [id, body] = wrapped.split('.');
    const master = id === undefined ? undefined : this.byId.get(id);
    if (!master || !body) throw new WalrusKeyError(`the data key of blob ${blobId} was wrapped by a master key that is not configured (key id ${id}); set it in TESSERA_WALRUS_PREVIOUS_MASTER_KEYS`);
    const raw = Buffer.from(body, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', master, raw.subarray(0, IV_BYTES)).setAAD(Buffer.from(blobId));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
    } catch (error) {
      throw new WalrusKeyError(`the wrapped data key of blob ${blobId} does not open`, { cause: error });
    }
  }

  /** The key wrapped by the current master key, or undefined if it already is. */
  rewrap(wrapped: string, blobId: string): string | undefined {
    if (wrapped.startsWith(`${this.currentId}.`)) return undefined;
    return this.wrap(this.unwrap(wrapped, blobId), blobId);
  }
}

/** Encrypts a stream: the IV first, then the ciphertext, then the tag. */
export function sealing(dataKey: Buffer, blobId: string): Transform {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', dataKey, iv).setAAD(Buffer.from(blobId));
  let started = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      if (!started) {
        started = true;
        this.push(iv);
      }
      callback(null, cipher.update(chunk));
    },
    flush(callback: TransformCallback) {
      if (!started) this.push(iv);
      this.push(cipher.final());
      callback(null, cipher.getAuthTag());
    },
  });
}

/**
 * Decrypts a sealed stream. The tag is the last 16 bytes, so they are held back as the bytes
 * pass; the stream fails at its end if the tag does not match (the caller must not have served
 * anything yet: the engine writes to a temp file and serves only what passed).
 */
export function opening(dataKey: Buffer, blobId: string): Transform {
  let head = Buffer.alloc(0);
  let decipher: DecipherGCM | undefined;
  let held = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      if (!decipher) {
        head = Buffer.concat([head, chunk]);
        if (head.length < IV_BYTES) return callback();
        decipher = createDecipheriv('aes-256-gcm', dataKey, head.subarray(0, IV_BYTES)).setAAD(Buffer.from(blobId));
        chunk = head.subarray(IV_BYTES);
      }
      held = Buffer.concat([held, chunk]);
      if (held.length <= TAG_BYTES) return callback();
      const pass = held.subarray(0, held.length - TAG_BYTES);
      held = Buffer.from(held.subarray(held.length - TAG_BYTES));
      callback(null, decipher.update(pass));
    },
    flush(callback: TransformCallback) {
      if (!decipher || held.length !== TAG_BYTES) return callback(new WalrusKeyError(`the sealed bytes of blob ${blobId} are truncated`));
      try {
        decipher.setAuthTag(held);
        callback(null, decipher.final());
      } catch (error) {
        callback(new WalrusKeyError(`the sealed bytes of blob ${blobId} fail their authentication tag`, { cause: error }));
      }
    },
  });
}
