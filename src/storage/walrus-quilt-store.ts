import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobMissingError, BlobTooLargeError, type BlobLocation, type BlobStore, type ByteRange, type PersistOptions, type StagedBlob } from './blob-store.ts';
import { GroupCommitWriter, type BatchEntry, type GroupCommitOptions } from './group-commit-writer.ts';
import { HEADER_BYTES } from './quilt-format.ts';
import { persistStaged, removeStaleTemps, stageBlob, type SpilledBlob } from './staging.ts';
import type { HashThreads } from './hash-threads.ts';
import type { PatchCache } from './walrus-cache.ts';
import type { QuiltUpload, WalrusClient } from './walrus-client.ts';
import { SEAL_OVERHEAD_BYTES, WalrusKeyError, opening, sealing, type MasterKeys } from './walrus-sealing.ts';

/** What a patch holds, as our database knows it: the blob's content id and its wrapped data key. */
export type BlobOfPatch = (quiltPatchId: string) => Promise<{ blobId: string; sealedKey: string | null } | undefined>;

export interface WalrusQuiltStoreOptions extends GroupCommitOptions {
  client: WalrusClient;
  /** The master keys; without them nothing is sealed (and sealed blobs cannot be read). */
  keys: MasterKeys | undefined;
  /** Seal new blobs (the default) unless a persist asks for plaintext; off, every blob is published as plaintext. */
  encrypt: boolean;
  cache: PatchCache;
  /** This process's staging directory for large uploads and verify's reads. */
  tmpDir: string;
  inlineMaxBytes: number;
  /** Hash large uploads off the event loop (TESSERA_HASH_THREADS); closed with the store. */
  hashThreads?: HashThreads;
  /** The publisher's body limit for quilts. */
  maxQuiltBytes: number;
  checkTimeoutMs: number;
  blobOfPatch: BlobOfPatch;
  /** Told of every quilt stored or renewed, before its files are acknowledged (its end epoch is kept). */
  onQuiltStored?: OnQuiltStored;
}

/** A quilt's storage as the publisher answered it. */
export type OnQuiltStored = (quilt: { quiltId: string; endEpoch: number; storedEpoch: number | undefined; costFrost: number }) => Promise<void>;

/** Room left in a quilt's body for the multipart framing of one patch. */
const MULTIPART_SLACK_BYTES = 1024;

/**
 * Files on the Walrus network. Small blobs that arrive together become one quilt, stored by one
 * `PUT /v1/quilts`; a large blob is a quilt of its own, streamed from its staging file. A file's
 * record then carries the Walrus quilt's blobId as `quiltId` and the Walrus QuiltPatchId as
 * `quiltPatchId`, which any aggregator reads; `blobId` stays Tessera's content id.
 *
 * Bytes are sealed (AES-256-GCM, a data key per blob) before they leave unless encryption is
 * off or the persist asks for plaintext (a public Space's files); the wrapped key goes back with the location, to be kept in the blob's row. Reads go
 * through an on-disk cache of verified bytes: a patch is fetched whole, opened, and hashed
 * against its content id before any byte is served. Walrus has no delete: a deleted blob's row
 * (and key) goes, its cached copy goes, and its quilt lapses at the end of its storage epochs.
 */
export class WalrusQuiltStore implements BlobStore {
  private readonly options: WalrusQuiltStoreOptions;
  readonly kind = 'walrus-quilt';
  private readonly writer: GroupCommitWriter;

  private constructor(options: WalrusQuiltStoreOptions) {
    this.options = options;
    if (options.encrypt && !options.keys) throw new Error('the Walrus engine encrypts by default: it needs a master key');
    this.writer = new GroupCommitWriter(options, (patches, entries) => this.storeQuilt(patches, entries));
  }

  static async open(options: WalrusQuiltStoreOptions): Promise<WalrusQuiltStore> {
    await fs.mkdir(options.tmpDir, { recursive: true });
    await removeStaleTemps(options.tmpDir);
    return new WalrusQuiltStore(options);
  }

  /** Blobs are sealed unless a persist asks for plaintext (a public Space). */
  get seals(): boolean {
    return this.options.encrypt;
  }

  /** The largest file one quilt body can carry through the publisher. */
  get maxFileBytes(): number {
    return this.options.maxQuiltBytes - MULTIPART_SLACK_BYTES - SEAL_OVERHEAD_BYTES;
  }

  async stage(source: AsyncIterable<Buffer> | Iterable<Buffer>, { maxBytes }: { maxBytes: number }): Promise<StagedBlob> {
    const limit = this.maxFileBytes;
    if (maxBytes <= limit) return stageBlob(source, { maxBytes, inlineMaxBytes: this.options.inlineMaxBytes, tmpDir: this.options.tmpDir, hashThreads: this.options.hashThreads });
    try {
      return await stageBlob(source, { maxBytes: limit, inlineMaxBytes: this.options.inlineMaxBytes, tmpDir: this.options.tmpDir, hashThreads: this.options.hashThreads });
    } catch (error) {
      if (error instanceof BlobTooLargeError) throw new BlobTooLargeError(limit, `file is larger than the limit of ${limit} bytes: a file stored on Walrus must fit in one quilt, under the publisher's body limit TESSERA_WALRUS_MAX_QUILT_BYTES=${this.options.maxQuiltBytes}`);
      throw error;
    }
  }

  persist(blobs: readonly StagedBlob[], { plaintext = false }: PersistOptions = {}): Promise<BlobLocation[]> {
    return persistStaged(blobs, (inline) => this.writer.enqueue(inline, { plaintext }), (spilled) => this.storeLarge(spilled, plaintext));
  }

  async read(quiltPatchId: string, range?: ByteRange): Promise<Readable> {
    const { handle, sizeBytes } = await this.options.cache.open(quiltPatchId, (temp) => this.fetchVerified(quiltPatchId, temp));
    const start = range?.start ?? 0;
    const end = range?.end ?? sizeBytes - 1;
    if (end < start || start >= sizeBytes) {
      await handle.close();
      return Readable.from([]);
    }
    return handle.createReadStream({ start, end: Math.min(end, sizeBytes - 1), autoClose: true });
  }

  /** Walrus keeps the quilt until its end epoch; what goes now is our cached copy. */
  async delete(quiltPatchId: string): Promise<void> {
    await this.options.cache.remove(quiltPatchId);
  }

  check(): Promise<void> {
    return this.options.client.check(this.options.checkTimeoutMs);
  }

  async close(): Promise<void> {
    await this.writer.drain();
    await this.options.hashThreads?.close();
  }

  /** Buys the quilt storage for another TESSERA_WALRUS_EPOCHS from now; its ids do not change. */
  async renew(quiltId: string): Promise<{ endEpoch: number; costFrost: number }> {
    const renewed = await this.options.client.renewQuilt(quiltId);
    if (renewed.quiltId !== quiltId) throw new Error(`quilt ${quiltId} was stored again as ${renewed.quiltId}: the aggregator answered other bytes`);
    await this.options.onQuiltStored?.(renewed);
    return renewed;
  }

  /** Reads the patch from the aggregator (not the cache) and checks it; answers what is wrong ("its patch …"), if anything. */
  async verifyPatch(quiltPatchId: string): Promise<string | undefined> {
    const temp = path.join(this.options.tmpDir, `verify-${randomBytes(8).toString('hex')}.part`);
    try {
      await this.fetchVerified(quiltPatchId, temp);
      return undefined;
    } catch (error) {
      if (error instanceof BlobMissingError) return 'its patch is not on Walrus (expired, or never certified)';
      if (error instanceof PatchMismatchError) return `its patch reads back as content ${error.got}`;
      if (error instanceof WalrusKeyError) return error.message;
      throw error;
    } finally {
      await fs.rm(temp, { force: true });
    }
  }

  /**
   * One quilt of small blobs: one `PUT /v1/quilts`, acknowledged before any location is answered.
   * Each entry is a patch of its own, even when another entry of the batch has the same bytes:
   * the entries may be two accounts' files, and each sealed file has its own data key.
   */
  private async storeQuilt(patches: readonly Buffer[][], entries: readonly BatchEntry[]): Promise<(entry: BatchEntry) => BlobLocation> {
    const named = new PatchNames();
    const prepared = entries.map((entry, i) => this.prepare(entry.hash, entry.length, () => Readable.from(patches[i]!), entry.plaintext === true, named));
    const located = await this.store(prepared);
    const indexOf = new Map(entries.map((entry, i) => [entry, i]));
    return (entry) => located[indexOf.get(entry)!]!;
  }

  /** A large blob: a quilt of its own, streamed from its staging file (past the local quilt header it starts with). */
  private async storeLarge(blob: SpilledBlob, plaintext: boolean): Promise<BlobLocation> {
    const started = process.hrtime.bigint();
    const file = await blob.spill.seal({ sync: false });
    try {
      const [location] = await this.store([this.prepare(blob.digest, blob.sizeBytes, () => createReadStream(file, { start: HEADER_BYTES, highWaterMark: 1024 * 1024 }), plaintext, new PatchNames())]);
      this.options.onSeal?.({ patches: 1, bytes: blob.sizeBytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
      return location!;
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  private async store(prepared: readonly PreparedPatch[]): Promise<BlobLocation[]> {
    const stored = await this.options.client.storeQuilt(prepared.map((p) => p.upload));
    await this.options.onQuiltStored?.(stored);
    return prepared.map((p) => {
      const quiltPatchId = stored.patchIds.get(p.upload.identifier);
      if (!quiltPatchId) throw new Error(`the publisher stored quilt ${stored.quiltId} without the patch ${p.upload.identifier}`);
      return { blobId: p.blobId, sizeBytes: p.sizeBytes, quiltId: stored.quiltId, quiltPatchId, ...(p.sealedKey ? { sealedKey: p.sealedKey } : {}) };
    });
  }

  /**
   * A patch as it leaves. Plaintext (encryption off, or a public Space's file): named by its
   * content hash (hex, as identifiers must start with a letter or digit), with `.2`, `.3` … after
   * it for the second and later patches of the same bytes in one quilt (identifiers are unique in
   * a quilt). Sealed: by a value derived from its own data key, so the name says nothing about
   * the content (a content hash would let anyone confirm a guess of the file).
   */
  private prepare(digest: Buffer, sizeBytes: number, source: () => Readable, plaintext: boolean, names: PatchNames): PreparedPatch {
    const blobId = digest.toString('base64url');
    if (!this.options.encrypt || plaintext) return { blobId, sizeBytes, upload: { identifier: names.next(digest.toString('hex')), sizeBytes, open: source } };
    const { dataKey, wrapped } = this.options.keys!.newDataKey(blobId);
    const identifier = createHmac('sha256', dataKey).update('tessera walrus patch identifier').digest('hex');
    return { blobId, sizeBytes, sealedKey: wrapped, upload: { identifier, sizeBytes: sizeBytes + SEAL_OVERHEAD_BYTES, open: () => source().pipe(sealing(dataKey, blobId)) } };
  }

  /** Fetches a patch into `target`, opening it if sealed; throws unless its bytes hash to the blob's content id. */
  private async fetchVerified(quiltPatchId: string, target: string): Promise<void> {
    const blob = await this.options.blobOfPatch(quiltPatchId);
    if (!blob) throw new BlobMissingError(quiltPatchId);
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    const source = await this.options.client.readPatch(quiltPatchId);
    if (blob.sealedKey) {
      if (!this.options.keys) throw new WalrusKeyError(`blob ${blob.blobId} is sealed, and no TESSERA_WALRUS_MASTER_KEY is set to open it`);
      const dataKey = this.options.keys.unwrap(blob.sealedKey, blob.blobId);
      await pipeline(source, opening(dataKey, blob.blobId), hashing, createWriteStream(target));
    } else {
      await pipeline(source, hashing, createWriteStream(target));
    }
    const got = hash.digest('base64url');
    if (got !== blob.blobId) throw new PatchMismatchError(`patch ${quiltPatchId} reads back as content ${got}, not blob ${blob.blobId}`, got);
  }
}

export class PatchMismatchError extends Error {
  /** The content id the bytes hash to. */
  readonly got: string;
  constructor(
    message: string,
    got: string,
  ) {
    super(message);
    this.got = got;
  }
}

/** The identifiers of one quilt: a name given twice gets a counter after it. */
class PatchNames {
  private readonly used = new Map<string, number>();

  next(name: string): string {
    const count = (this.used.get(name) ?? 0) + 1;
    this.used.set(name, count);
    return count === 1 ? name : `${name}.${count}`;
  }
}

interface PreparedPatch {
  blobId: string;
  sizeBytes: number;
  sealedKey?: string;
  upload: QuiltUpload;
}
