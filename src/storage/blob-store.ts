import type { Readable } from 'node:stream';

/** Where a blob's bytes live. All three ids are strings the API returns as file metadata. */
export interface BlobLocation {
  /** Content-derived: base64url SHA-256 of the bytes. Same bytes, same id. */
  blobId: string;
  sizeBytes: number;
  /** The quilt (immutable pack) holding the bytes. */
  quiltId: string;
  /** Locator of the bytes inside the quilt, readable without the database. */
  quiltPatchId: string;
  /** The engine sealed the bytes (Walrus): their wrapped data key, kept with the blob's row. */
  sealedKey?: string;
}

/** Bytes received and hashed, held (in memory or a temp file) until persisted or discarded. */
export interface StagedBlob {
  readonly blobId: string;
  readonly sizeBytes: number;
  discard(): Promise<void>;
}

export interface PersistOptions {
  /** Publish these blobs unencrypted (a public Space); only an engine that `seals` heeds it. */
  plaintext?: boolean;
}

export interface ByteRange {
  start: number;
  /** Inclusive, as in HTTP. */
  end: number;
}

/**
 * The storage engine behind files. Routes and services see only this, so engines other than
 * the local quilt store (S3, Walrus) can be added without touching them.
 */
export interface BlobStore {
  /** Which engine this is, for readiness and logs: `local-quilt` or `s3-quilt`. */
  readonly kind: string;
  /** Consumes the stream while hashing it. Throws BlobTooLargeError past maxBytes. */
  stage(source: AsyncIterable<Buffer> | Iterable<Buffer>, options: { maxBytes: number }): Promise<StagedBlob>;
  /**
   * Makes staged blobs durable and answers their locations in the same order. Blobs of one call
   * share a quilt where they fit. Every blob is a patch of its own, even when its bytes are those
   * of another blob of the call or of the batch: the store never merges two blobs, since they may
   * be two accounts' (deduplication is the caller's, per account). Resolves only once the bytes
   * are on stable storage.
   */
  persist(blobs: readonly StagedBlob[], options?: PersistOptions): Promise<BlobLocation[]>;
  /**
   * The engine encrypts the bytes it stores unless `persist` is asked for plaintext (Walrus, whose
   * blobs are public). Absent or false: the bytes are stored as they are whatever is asked.
   */
  readonly seals?: boolean;
  /** Opens the bytes of a patch, or a range of them. Throws BlobMissingError if they are gone. */
  read(quiltPatchId: string, range?: ByteRange): Promise<Readable>;
  /**
   * The bytes of a patch (or range) in one buffer when the engine reads them in one go (a small
   * patch: one positioned read); undefined when they should be streamed with `read`.
   */
  readBuffer?(quiltPatchId: string, range?: ByteRange): Promise<Buffer | undefined>;
  /** Called when no file refers to the blob any longer. Reclamation may be deferred. */
  delete(quiltPatchId: string): Promise<void>;
  /** Throws when the store cannot serve reads and writes (readiness). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export class BlobTooLargeError extends Error {
  readonly maxBytes: number;
  /** Why, when an engine's own limit says more than the number (it names its setting): said to the client. */
  readonly detail: string | undefined;

  constructor(
    maxBytes: number,
    detail?: string,
  ) {
    super(detail ?? `blob exceeds ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
    this.detail = detail;
  }
}

export class BlobMissingError extends Error {
  readonly quiltPatchId: string;
  constructor(quiltPatchId: string) {
    super(`bytes of patch ${quiltPatchId} are missing`);
    this.quiltPatchId = quiltPatchId;
  }
}

/** The engine's backing service does not answer (an S3 outage, a timeout): retrying later may work. */
export class BlobStoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The bucket named by TESSERA_S3_BUCKET does not exist: creating it is the operator's choice. */
export class BucketMissingError extends Error {}
