import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { BlobMissingError, BlobStoreUnavailableError, BucketMissingError, type BlobLocation, type BlobStore, type ByteRange, type StagedBlob } from './blob-store.ts';
import { HotPatches } from './hot-patches.ts';
import { GroupCommitWriter, inOwnFormat, locationOf, type GroupCommitOptions } from './group-commit-writer.ts';
import { HEADER_BYTES, decodePatchId, encodeFooter, patchSpan, encodeHeader, encodeIndex, quiltIdOf, singlePatchQuiltBytes, type PatchEntry } from './quilt-format.ts';
import { asUnavailable, isNotFound, quiltKey } from './s3-client.ts';
import { persistStaged, removeStaleTemps, stageBlob, type SpilledBlob } from './staging.ts';
import type { HashThreads } from './hash-threads.ts';

export interface S3QuiltStoreOptions extends GroupCommitOptions {
  client: S3Client;
  bucket: string;
  /** Ends in `/` unless empty; quilts are `<prefix>quilts/<quiltId>.quilt`. */
  prefix: string;
  /** This process's own staging directory for large uploads (never shared between replicas). */
  tmpDir: string;
  inlineMaxBytes: number;
  /** Hash large uploads off the event loop (TESSERA_HASH_THREADS); closed with the store. */
  hashThreads?: HashThreads;
  /** Multipart: bytes per part, and parts uploaded at once (each read from the file as it is sent). */
  partBytes: number;
  partsInFlight: number;
  /** Readiness: how long a HeadBucket may take. */
  checkTimeoutMs: number;
  /** Memory for small patches read lately (TESSERA_READ_CACHE_BYTES; 0 or absent: none). */
  readCacheBytes?: number;
  /** Told of every read the read cache could answer, and whether it did (metrics). */
  onReadCacheLookup?: (hit: boolean) => void;
}


/**
 * Quilts as objects in an S3-compatible bucket. Small blobs are packed by group commit into one
 * quilt object (one PutObject for many files); a large blob is staged to a local temp file, then
 * sent as a quilt of its own by multipart upload, a part at a time. Same format, same ids as the
 * local store, so a patch is one ranged GET and no database. A location is answered only after
 * S3 acknowledged the object, and nothing is ever overwritten: quilt names are derived from
 * content that carries a random nonce.
 */
export class S3QuiltStore implements BlobStore {
  private readonly options: S3QuiltStoreOptions;
  readonly kind = 's3-quilt';
  private readonly writer: GroupCommitWriter;
  private readonly hot: HotPatches | undefined;

  private constructor(options: S3QuiltStoreOptions) {
    this.options = options;
    this.hot = options.readCacheBytes ? new HotPatches(options.readCacheBytes, options.onReadCacheLookup) : undefined;
    this.writer = new GroupCommitWriter(options, inOwnFormat((patches, entries) => this.putQuilt(patches, entries)));
  }

  /** Opens the store; throws BucketMissingError when the bucket does not exist. */
  static async open(options: S3QuiltStoreOptions): Promise<S3QuiltStore> {
    const store = new S3QuiltStore(options);
    try {
      await options.client.send(new HeadBucketCommand({ Bucket: options.bucket }));
    } catch (error) {
      if (isNotFound(error)) {
        options.client.destroy();
        throw new BucketMissingError(
          `the bucket "${options.bucket}" does not exist at ${await endpointOf(options.client)}; create it (npx tessera s3 create-bucket) or set TESSERA_S3_BUCKET to one that exists`,
        );
      }
      options.client.destroy();
      throw asUnavailable(error, `HeadBucket ${options.bucket}`);
    }
    await fs.mkdir(options.tmpDir, { recursive: true });
    await removeStaleTemps(options.tmpDir);
    return store;
  }

  stage(source: AsyncIterable<Buffer> | Iterable<Buffer>, { maxBytes }: { maxBytes: number }): Promise<StagedBlob> {
    return stageBlob(source, { maxBytes, inlineMaxBytes: this.options.inlineMaxBytes, tmpDir: this.options.tmpDir, hashThreads: this.options.hashThreads });
  }

  persist(blobs: readonly StagedBlob[]): Promise<BlobLocation[]> {
    return persistStaged(blobs, (inline) => this.writer.enqueue(inline), (spilled) => this.uploadSpill(spilled));
  }

  async read(quiltPatchId: string, range?: ByteRange): Promise<Readable> {
    const { quiltId, start, end } = patchSpan(quiltPatchId, range);
    if (end < start) return Readable.from([]);
    return (await this.getRange(quiltId, quiltPatchId, start, end)) as Readable;
  }

  /**
   * A small patch kept in memory, or read whole in one ranged GET and kept (a hit spares the
   * round trip to the bucket). Without a cache, or for a larger patch, undefined: `read` streams.
   */
  async readBuffer(quiltPatchId: string, range?: ByteRange): Promise<Buffer | undefined> {
    if (!this.hot) return undefined;
    const { quiltId } = patchSpan(quiltPatchId);
    return this.hot.readThrough(quiltPatchId, range, async (position, length) => {
      const body = (await this.getRange(quiltId, quiltPatchId, position, position + length - 1)) as { transformToByteArray(): Promise<Uint8Array> };
      const bytes = await body.transformToByteArray();
      if (bytes.length !== length) throw new BlobMissingError(quiltPatchId);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    });
  }

  /** What the read cache holds now (tests, metrics). */
  readCacheUse(): { entries: number; bytes: number } {
    return { entries: this.hot?.size ?? 0, bytes: this.hot?.bytes ?? 0 };
  }

  private async getRange(quiltId: string, quiltPatchId: string, start: number, end: number): Promise<unknown> {
    try {
      const object = await this.options.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(quiltId), Range: `bytes=${start}-${end}` }));
      return object.Body;
    } catch (error) {
      // 416: the object is shorter than the patch says, so those bytes are not there either.
      if (isNotFound(error) || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 416) throw new BlobMissingError(quiltPatchId);
      throw asUnavailable(error, 'GetObject');
    }
  }

  async delete(quiltPatchId: string): Promise<void> {
    this.hot?.delete(quiltPatchId);
    const locator = decodePatchId(quiltPatchId);
    if (!locator || locator.offset !== HEADER_BYTES) return;
    const Key = this.key(locator.quiltId);
    try {
      // A quilt of this one patch goes at once. Shared quilts are immutable: their dead patches
      // are reclaimed by gc, which rewrites them.
      const head = await this.options.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key }));
      if (head.ContentLength === singlePatchQuiltBytes(locator.length)) await this.options.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key }));
    } catch (error) {
      if (isNotFound(error)) return;
      throw asUnavailable(error, 'DeleteObject');
    }
  }

  async check(): Promise<void> {
    try {
      await this.options.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }), { abortSignal: AbortSignal.timeout(this.options.checkTimeoutMs) });
    } catch (error) {
      if (isNotFound(error)) throw new BucketMissingError(`the bucket "${this.options.bucket}" does not exist`);
      const unavailable = asUnavailable(error, 'HeadBucket');
      throw unavailable instanceof BlobStoreUnavailableError ? unavailable : error;
    }
  }

  async close(): Promise<void> {
    try {
      await this.writer.drain();
    } finally {
      this.options.client.destroy();
      await this.options.hashThreads?.close();
    }
  }

  key(quiltId: string): string {
    return quiltKey(this.options.prefix, quiltId);
  }

  /** One quilt of small blobs: one PutObject, acknowledged before any location is answered. */
  private async putQuilt(patches: readonly Buffer[][], entries: readonly PatchEntry[]): Promise<Buffer> {
    const header = encodeHeader(randomBytes(8));
    const index = encodeIndex(entries);
    const last = entries[entries.length - 1];
    const end = last ? last.offset + last.length : HEADER_BYTES;
    const body = Buffer.concat([header, ...patches.flat(), index, encodeFooter(end, entries.length)]);
    const quiltHash = quiltIdOf(header, index);
    try {
      await this.options.client.send(
        new PutObjectCommand({ Bucket: this.options.bucket, Key: this.key(quiltHash.toString('base64url')), Body: body, ContentLength: body.length, ContentType: 'application/octet-stream' }),
      );
    } catch (error) {
      throw asUnavailable(error, 'PutObject');
    }
    return quiltHash;
  }

  /**
   * A large blob: its temp file (header and bytes) gets the index and footer, then goes up by
   * multipart upload, `partBytes` at a time. A failed upload is aborted, so no parts linger.
   */
  private async uploadSpill(blob: SpilledBlob): Promise<BlobLocation> {
    const started = process.hrtime.bigint();
    const entries = [{ hash: blob.digest, offset: HEADER_BYTES, length: blob.sizeBytes }];
    const index = encodeIndex(entries);
    await blob.spill.append([index, encodeFooter(HEADER_BYTES + blob.sizeBytes, 1)]);
    const quiltHash = quiltIdOf(blob.spill.header, index);
    const file = await blob.spill.seal({ sync: false });
    try {
      await this.uploadFile(file, this.key(quiltHash.toString('base64url')), singlePatchQuiltBytes(blob.sizeBytes));
    } finally {
      await fs.rm(file, { force: true });
    }
    this.options.onSeal?.({ patches: 1, bytes: blob.sizeBytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    return locationOf(quiltHash, entries[0]!);
  }

  /**
   * A file of known size as the object `Key`: one PutObject up to `partBytes`, else a multipart
   * upload of `partsInFlight` parts at a time. Each part is read from the file as it is sent (a
   * stream of its byte range), never gathered into memory: lib-storage's Upload, used before,
   * cut the stream into part-sized buffers, copying the whole file once more through memory, and
   * a 256 MiB upload's peak RSS grew by up to 415 MiB, against 218-284 MiB now (docs/benchmarks.md).
   * A part that fails is sent again from the file, with a new stream, up to the client's
   * `maxAttempts` (the SDK cannot replay a stream it has read); a failed upload is aborted.
   */
  private async uploadFile(file: string, Key: string, size: number): Promise<void> {
    const { client, bucket: Bucket, partBytes, partsInFlight } = this.options;
    const range = (start: number, end: number) => createReadStream(file, { start, end: end - 1, highWaterMark: 1024 * 1024 });
    const ContentType = 'application/octet-stream';
    if (size <= partBytes) {
      await this.sendPart('PutObject', () => new PutObjectCommand({ Bucket, Key, Body: range(0, size), ContentLength: size, ContentType }));
      return;
    }
    let UploadId: string | undefined;
    try {
      UploadId = (await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType }))).UploadId;
      const parts = Math.ceil(size / partBytes);
      const etags: string[] = [];
      let next = 0;
      let failed = false;
      const sender = async () => {
        while (next < parts && !failed) {
          const index = next++;
          const start = index * partBytes;
          const end = Math.min(size, start + partBytes);
          try {
            const { ETag } = await this.sendPart('UploadPart', () => new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: index + 1, Body: range(start, end), ContentLength: end - start }));
            etags[index] = ETag!;
          } catch (error) {
            failed = true;
            throw error;
          }
        }
      };
      const outcomes = await Promise.allSettled(Array.from({ length: Math.min(partsInFlight, parts) }, sender));
      const failure = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failure) throw failure.reason;
      await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) } }));
    } catch (error) {
      if (UploadId) await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => {});
      throw asUnavailable(error, 'multipart upload');
    }
  }

  /** Sends a command whose body is a stream of the file, built anew for each attempt. */
  private async sendPart(what: string, command: () => PutObjectCommand | UploadPartCommand): Promise<{ ETag?: string }> {
    const attempts = await this.options.client.config.maxAttempts();
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.options.client.send(command() as PutObjectCommand)) as { ETag?: string };
      } catch (error) {
        // A refusal that names the request (4xx: a missing bucket, bad credentials) will not change.
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (attempt >= attempts || (status !== undefined && status >= 400 && status < 500)) throw asUnavailable(error, what);
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 100 * 2 ** (attempt - 1))));
      }
    }
  }
}

async function endpointOf(client: S3Client): Promise<string> {
  const endpoint = await client.config.endpoint?.().catch(() => undefined);
  return endpoint ? `${endpoint.protocol}//${endpoint.hostname}${endpoint.port ? `:${endpoint.port}` : ''}` : `AWS S3 (${await client.config.region()})`;
}
