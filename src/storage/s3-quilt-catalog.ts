import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import { quiltMissing, type QuiltCatalog, type QuiltFile, type TempFile } from './quilt-catalog.ts';
import { FOOTER_BYTES, HEADER_BYTES, INDEX_ENTRY_BYTES, parseFooter, parseIndex, quiltIdOf, type PatchEntry } from './quilt-format.ts';
import { asUnavailable, isNotFound, quiltIdOfKey, quiltKey } from './s3-client.ts';

const MULTIPART_PREFIX = 'multipart:';

/**
 * The S3 engine's quilts for `tessera verify` and `tessera gc`: listed by prefix, read by ranged
 * GETs (header, footer, index; the patches in one streamed GET), removed by DeleteObject. Temp
 * files are this process's staging files plus the bucket's unfinished multipart uploads under
 * the prefix (a crash in the middle of a large upload leaves one), which removeTemp aborts.
 */
export class S3QuiltCatalog implements QuiltCatalog {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly tmpDir: string;
  constructor(
    client: S3Client,
    bucket: string,
    prefix: string,
    tmpDir: string,
  ) {
    this.client = client;
    this.bucket = bucket;
    this.prefix = prefix;
    this.tmpDir = tmpDir;
  }

  async *quilts(): AsyncGenerator<QuiltFile> {
    let ContinuationToken: string | undefined;
    do {
      const page = await this.call('ListObjectsV2', () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${this.prefix}quilts/`, ContinuationToken })),
      );
      for (const object of page.Contents ?? []) {
        const quiltId = object.Key ? quiltIdOfKey(this.prefix, object.Key) : undefined;
        if (quiltId) yield { quiltId, path: object.Key!, sizeBytes: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? 0 };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async stat(quiltId: string): Promise<{ sizeBytes: number; modifiedAt: number } | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: quiltKey(this.prefix, quiltId) }));
      return { sizeBytes: head.ContentLength ?? 0, modifiedAt: head.LastModified?.getTime() ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw asUnavailable(error, 'HeadObject');
    }
  }

  async index(quiltId: string): Promise<PatchEntry[]> {
    const stat = await this.stat(quiltId);
    if (!stat) throw quiltMissing(quiltId);
    if (stat.sizeBytes < HEADER_BYTES + FOOTER_BYTES) throw new Error('quilt too short');
    const header = await this.range(quiltId, 0, HEADER_BYTES - 1);
    const footer = await this.range(quiltId, stat.sizeBytes - FOOTER_BYTES, stat.sizeBytes - 1);
    const { indexOffset, count } = parseFooter(footer, stat.sizeBytes);
    const index = count > 0 ? await this.range(quiltId, indexOffset, indexOffset + count * INDEX_ENTRY_BYTES - 1) : Buffer.alloc(0);
    const computed = quiltIdOf(header, index).toString('base64url');
    if (computed !== quiltId) throw new Error(`its header and index hash to ${computed}`);
    return parseIndex(index, count);
  }

  async hashPatches(quiltId: string, entries: readonly PatchEntry[]): Promise<Buffer[]> {
    const order = entries.map((entry, i) => ({ entry, i })).sort((a, b) => a.entry.offset - b.entry.offset);
    const hashes = entries.map(() => createHash('sha256'));
    const nonEmpty = order.filter((o) => o.entry.length > 0);
    if (nonEmpty.length > 0) {
      const first = nonEmpty[0]!.entry.offset;
      const last = Math.max(...nonEmpty.map((o) => o.entry.offset + o.entry.length)) - 1;
      // One GET for every patch: each chunk feeds the patches it overlaps.
      let position = first;
      let next = 0;
      for await (const chunk of await this.stream(quiltId, first, last)) {
        const bytes = chunk as Buffer;
        const chunkStart = position;
        position += bytes.length;
        for (let k = next; k < nonEmpty.length; k++) {
          const { entry, i } = nonEmpty[k]!;
          if (entry.offset >= position) break;
          const from = Math.max(entry.offset, chunkStart);
          const to = Math.min(entry.offset + entry.length, position);
          if (to > from) hashes[i]!.update(bytes.subarray(from - chunkStart, to - chunkStart));
          if (entry.offset + entry.length <= position && k === next) next++;
        }
      }
    }
    return hashes.map((h) => h.digest());
  }

  async remove(quiltId: string): Promise<void> {
    await this.call('DeleteObject', () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: quiltKey(this.prefix, quiltId) })));
  }

  async tempFiles(): Promise<TempFile[]> {
    const temps: TempFile[] = [];
    for (const name of await fs.readdir(this.tmpDir).catch(() => [] as string[])) {
      const stat = await fs.stat(path.join(this.tmpDir, name)).catch(() => undefined);
      if (stat) temps.push({ name, sizeBytes: stat.size, modifiedAt: stat.mtimeMs });
    }
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    do {
      const page = await this.call('ListMultipartUploads', () =>
        this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: `${this.prefix}quilts/`, KeyMarker, UploadIdMarker })),
      );
      for (const upload of page.Uploads ?? []) {
        temps.push({ name: `${MULTIPART_PREFIX}${JSON.stringify([upload.Key, upload.UploadId])}`, sizeBytes: 0, modifiedAt: upload.Initiated?.getTime() ?? 0 });
      }
      [KeyMarker, UploadIdMarker] = page.IsTruncated ? [page.NextKeyMarker, page.NextUploadIdMarker] : [undefined, undefined];
    } while (KeyMarker);
    return temps;
  }

  async removeTemp(name: string): Promise<void> {
    if (!name.startsWith(MULTIPART_PREFIX)) return fs.rm(path.join(this.tmpDir, path.basename(name)), { force: true });
    const [Key, UploadId] = JSON.parse(name.slice(MULTIPART_PREFIX.length)) as [string, string];
    await this.call('AbortMultipartUpload', () => this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId }))).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    });
  }

  private async range(quiltId: string, start: number, end: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.stream(quiltId, start, end)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private async stream(quiltId: string, start: number, end: number): Promise<Readable> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: quiltKey(this.prefix, quiltId), Range: `bytes=${start}-${end}` }));
      return object.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw quiltMissing(quiltId);
      throw asUnavailable(error, 'GetObject');
    }
  }

  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw asUnavailable(error, what);
    }
  }
}
