import sharp from 'sharp';
import type { StoredFile } from '../db/repositories/files.repository.ts';
import { contentIdOf } from '../db/repositories/blobs.repository.ts';
import { ByteLru } from '../byte-lru.ts';
import type { WorkLimiter } from '../edits/limiter.ts';
import { inspectImage, ImageError } from '../edits/render/index.ts';
import { AppError } from '../errors.ts';
import type { FilesService } from './files.service.ts';
import type { Owner } from './owner.ts';

export interface ThumbnailLimits {
  maxPixels: number;
  maxSourceBytes: number;
  timeoutMs: number;
  cacheBytes: number;
}

export interface Thumbnail {
  data: Buffer;
  mimeType: 'image/webp';
  /** Derived from the source's blobId and the width: the same bytes give the same thumbnail. */
  etag: string;
}

/**
 * Small WebP renditions of image files for browsing. They are derived data: kept in a bounded
 * in-memory cache keyed by blobId and width (files with the same bytes share them), never stored
 * as files and never listed. Rendering shares the edits' concurrency cap.
 */
export class ThumbnailsService {
  private readonly files: FilesService;
  private readonly limiter: WorkLimiter;
  private readonly limits: ThumbnailLimits;
  private readonly onLookup: (hit: boolean) => void;
  private readonly cache = new ByteLru<Buffer>();
  private readonly rendering = new Map<string, Promise<Buffer>>();

  constructor(
    files: FilesService,
    limiter: WorkLimiter,
    limits: ThumbnailLimits,
    onLookup: (hit: boolean) => void = () => {},
  ) {
    this.files = files;
    this.limiter = limiter;
    this.limits = limits;
    this.onLookup = onLookup;
  }

  async thumbnail(owner: Owner, fileId: string, width: number): Promise<Thumbnail> {
    return this.thumbnailOf(await this.files.get(owner, fileId), width);
  }

  /** The thumbnail of a file already looked up (and checked) by the caller, e.g. a signed link. */
  async thumbnailOf(file: StoredFile, width: number): Promise<Thumbnail> {
    if (!file.mime_type.startsWith('image/')) throw new AppError('not_an_image', `${file.id} is ${file.mime_type}, not an image: it has no thumbnail`);
    const key = `${file.blob_id}:${width}`;
    const etag = `"${contentIdOf(file.blob_id)}.w${width}"`;
    const cached = this.cache.get(key);
    this.onLookup(cached !== undefined);
    if (cached) return { data: cached, mimeType: 'image/webp', etag };
    // Many cards asking for the same picture at once render it once.
    let pending = this.rendering.get(key);
    if (!pending) {
      pending = this.render(file, width).finally(() => this.rendering.delete(key));
      this.rendering.set(key, pending);
    }
    const data = await pending;
    this.cache.set(key, data, data.length, this.limits.cacheBytes);
    return { data, mimeType: 'image/webp', etag };
  }

  private async render(file: StoredFile, width: number): Promise<Buffer> {
    if (file.size_bytes > this.limits.maxSourceBytes) {
      throw new AppError('payload_too_large', `${file.id} has ${file.size_bytes} bytes; images over ${this.limits.maxSourceBytes} bytes get no thumbnail`);
    }
    // The source is read inside the cap too: waiting requests hold no image bytes.
    return this.limiter.run(async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of await this.files.open(file)) chunks.push(chunk as Buffer);
      const source = Buffer.concat(chunks);
      try {
        await inspectImage(source, this.limits.maxPixels);
        return await sharp(source, { limitInputPixels: this.limits.maxPixels, failOn: 'error' })
          .timeout({ seconds: Math.ceil(this.limits.timeoutMs / 1000) })
          .autoOrient()
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: 78, effort: 2 })
          .toBuffer();
      } catch (error) {
        throw toAppError(error, file);
      }
    });
  }
}

function toAppError(error: unknown, file: StoredFile): unknown {
  if (error instanceof ImageError) {
    if (error.kind === 'too_many_pixels') return new AppError('payload_too_large', error.message);
    return new AppError('not_an_image', `${file.id}: ${error.message}`);
  }
  const message = (error as Error).message ?? '';
  if (/timeout/i.test(message)) return new AppError('provider_unavailable', `the thumbnail of ${file.id} took too long; retry shortly`, { headers: { 'retry-after': '5' } });
  if (/pixel limit/i.test(message)) return new AppError('payload_too_large', `${file.id} has more pixels than this server decodes`);
  return new AppError('not_an_image', `${file.id} could not be decoded as an image (${message.split('\n')[0]})`);
}

