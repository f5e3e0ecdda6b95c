import sharp from 'sharp';
import { ByteLru } from '../../byte-lru.ts';
import type { SegmenterConfig } from '../../config.ts';
import type { DetectedFace } from './inference-worker.ts';
import { GENERAL_MODEL_HINT, modelFiles } from './models.ts';
import { WorkerPool } from './worker-pool.ts';

/**
 * Where the subject, the background and the faces of an image are, as soft masks at the source's
 * full (upright) resolution: one byte per pixel, 255 inside, 0 outside, feathered in between.
 * Models run on a worker thread (worker-pool.ts); scaling and feathering run in sharp's threads.
 */
export type Region = 'subject' | 'background' | 'face';
export const REGIONS: readonly Region[] = ['subject', 'background', 'face'];

/** Which model finds the subject: `people` (selfie segmentation) or `general` (ISNet). */
export type SubjectModel = 'people' | 'general';

export interface SoftMask {
  /** The source's size after EXIF orientation (as the renderer decodes it). */
  width: number;
  height: number;
  /** width × height bytes, row by row: the weight of the edit at each pixel. */
  alpha: Buffer;
}

export interface MaskRequest {
  /** The image, or what encodes it (called only when the mask is not cached). */
  source: Buffer | (() => Promise<Buffer>);
  /** Identifies the image's bytes (the source's blobId, with the steps that made it from the source): masks are cached by it. */
  blobId: string;
  region: Region;
  /** Refused before any pixel is decoded when the source has more pixels. */
  maxPixels: number;
}

export interface Segmenter {
  /** The model that finds the subject (faces always come from the face detector); `off`: none. */
  readonly model: SubjectModel | 'off';
  /** The region's mask; RegionNotFoundError when the model finds none. */
  mask(request: MaskRequest): Promise<SoftMask>;
  /** Bytes of masks cached now (bounded by TESSERA_SEGMENTER_CACHE_BYTES). */
  readonly cachedBytes: number;
  close(): Promise<void>;
}

/** A region the models do not find in this image (or region edits are off): a 422, nothing stored. */
export class RegionNotFoundError extends Error {
  readonly region: Region;
  readonly reason: 'not_found' | 'off';
  constructor(
    region: Region,
    reason: 'not_found' | 'off',
    message: string,
  ) {
    super(message);
    this.region = region;
    this.reason = reason;
  }
}

/** TESSERA_SEGMENTER=general without the model: the server refuses to start, saying what to install. */
export class SegmenterUnavailableError extends Error {}

/** Sides of the images the models see: their input sizes, and the face detector's working size. */
const PEOPLE_SIDE = 256;
const GENERAL_SIDE = 1024;
const FACE_MAX_SIDE = 1024;
/** Feather: the blur's sigma as a share of the longer side (subject) or of the face's width. */
const SUBJECT_FEATHER = 0.004;
const FACE_FEATHER = 0.04;
/** Model confidence below this (of 255) counts as none, above 255 − this as full: no faint haze over the whole image. */
const CONFIDENCE_FLOOR = 10;
/** The general model "finds a subject" when its confident part covers between these shares of the image. */
const GENERAL_MIN_SHARE = 0.005;
const GENERAL_MAX_SHARE = 0.995;

const NOT_FOUND: Record<Region | 'person_general', string> = {
  subject: 'no person was found in this image (the people model finds people by their faces; the general model, TESSERA_SEGMENTER=general, finds any subject)',
  background: 'no person was found in this image, so it has no background to edit (the people model finds people by their faces; the general model, TESSERA_SEGMENTER=general, finds any subject)',
  face: 'no face was found in this image',
  person_general: 'no distinct subject was found in this image',
};

/**
 * The segmenter the settings ask for. `auto` is the general model when it is installed (or named
 * by TESSERA_SEGMENTER_MODEL), else people and faces; `general` without the model is an error.
 */
export function createSegmenter(config: SegmenterConfig): Segmenter {
  if (config.kind === 'off') return new OffSegmenter();
  const files = modelFiles(config.modelPath);
  if (config.kind === 'general' && !files.general) throw new SegmenterUnavailableError(`TESSERA_SEGMENTER=general: ${GENERAL_MODEL_HINT}`);
  const model: SubjectModel = config.kind === 'people' || !files.general ? 'people' : 'general';
  return new ModelSegmenter(model, new WorkerPool(files, config.concurrency, config.queueTimeoutMs, config.timeoutMs), config.cacheBytes);
}

class OffSegmenter implements Segmenter {
  readonly model = 'off';
  readonly cachedBytes = 0;
  mask(request: MaskRequest): Promise<SoftMask> {
    return Promise.reject(new RegionNotFoundError(request.region, 'off', 'region edits are off on this server (TESSERA_SEGMENTER=off)'));
  }
  async close(): Promise<void> {}
}

/** What the cache holds per key: a mask, or the finding that there is none (so it is not sought twice). */
type Finding = SoftMask | { missing: string };

class ModelSegmenter implements Segmenter {
  readonly model: SubjectModel;
  private readonly pool: WorkerPool;
  private readonly cacheBytes: number;
  private readonly cache = new ByteLru<Finding>();
  /** Masks being computed, so that concurrent requests for one wait for the same work. */
  private readonly pending = new Map<string, Promise<Finding>>();

  constructor(
    model: SubjectModel,
    pool: WorkerPool,
    cacheBytes: number,
  ) {
    this.model = model;
    this.pool = pool;
    this.cacheBytes = cacheBytes;
  }

  get cachedBytes(): number {
    return this.cache.bytes;
  }

  async mask(request: MaskRequest): Promise<SoftMask> {
    const finding = await this.find(request.blobId, request.region, () => this.compute(request));
    if ('missing' in finding) throw new RegionNotFoundError(request.region, 'not_found', finding.missing);
    return finding;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async find(blobId: string, region: Region, compute: () => Promise<Finding>): Promise<Finding> {
    const key = `${blobId}:${this.model}:${region}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    let work = this.pending.get(key);
    if (!work) {
      work = compute().finally(() => this.pending.delete(key));
      this.pending.set(key, work);
    }
    const finding = await work;
    this.cache.set(key, finding, 'missing' in finding ? 64 : finding.alpha.length, this.cacheBytes);
    return finding;
  }

  private async compute(asked: MaskRequest): Promise<Finding> {
    const request = { ...asked, source: typeof asked.source === 'function' ? await asked.source() : asked.source };
    const { width, height } = await uprightSize(request.source, request.maxPixels);
    switch (request.region) {
      case 'face':
        return this.faces(request, width, height);
      case 'subject':
        return this.subject(request, width, height);
      case 'background': {
        const subject = await this.find(request.blobId, 'subject', () => this.subject(request, width, height));
        if ('missing' in subject) return { missing: NOT_FOUND.background };
        const alpha = await sharp(subject.alpha, { raw: { width, height, channels: 1 } }).negate().extractChannel(0).raw().toBuffer();
        return { width, height, alpha };
      }
    }
  }

  private async subject(request: MaskRequest & { source: Buffer }, width: number, height: number): Promise<Finding> {
    if (this.model === 'people') {
      // The selfie model answers with a blob on any picture; a face is what says a person is there.
      const faces = await this.find(request.blobId, 'face', () => this.faces(request, width, height));
      if ('missing' in faces) return { missing: NOT_FOUND.subject };
    }
    const side = this.model === 'people' ? PEOPLE_SIDE : GENERAL_SIDE;
    const rgb = await sharp(request.source, { limitInputPixels: request.maxPixels }).autoOrient().removeAlpha().resize(side, side, { fit: 'fill' }).raw().toBuffer();
    const { mask, maskWidth, maskHeight } = await this.pool.run(this.model, rgb, side, side);
    if (!mask || !maskWidth || !maskHeight) throw new Error('the segmentation worker returned no mask');
    if (this.model === 'general') {
      const share = confidentShare(mask);
      if (share < GENERAL_MIN_SHARE || share > GENERAL_MAX_SHARE) return { missing: NOT_FOUND.person_general };
    }
    const feather = Math.max(0.5, SUBJECT_FEATHER * Math.max(width, height));
    const scaled = await sharp(mask, { raw: { width: maskWidth, height: maskHeight, channels: 1 } }).resize(width, height, { fit: 'fill', kernel: 'cubic' }).blur(feather).extractChannel(0).raw().toBuffer();
    return { width, height, alpha: await clampConfidence(scaled, width, height) };
  }

  private async faces(request: MaskRequest & { source: Buffer }, width: number, height: number): Promise<Finding> {
    const scale = Math.min(1, FACE_MAX_SIDE / Math.max(width, height));
    const w = Math.max(1, Math.round(width * scale));
    const h = Math.max(1, Math.round(height * scale));
    const rgb = await sharp(request.source, { limitInputPixels: request.maxPixels }).autoOrient().removeAlpha().resize(w, h, { fit: 'fill' }).raw().toBuffer();
    const { faces } = await this.pool.run('faces', rgb, w, h);
    if (!faces || faces.length === 0) return { missing: NOT_FOUND.face };
    return { width, height, alpha: await drawFaces(faces, width, height, width / w, height / h) };
  }
}

async function uprightSize(source: Buffer, maxPixels: number): Promise<{ width: number; height: number }> {
  const metadata = await sharp(source, { limitInputPixels: false }).metadata();
  const { width, height } = metadata.autoOrient ?? metadata;
  if (!width || !height) throw new Error('not a readable image');
  if (width * height > maxPixels) throw new Error(`the image has ${width * height} pixels, over the limit of ${maxPixels}`);
  return { width, height };
}

/**
 * Face ovals (the mesh's silhouette; an ellipse in the detector's box when the mesh gave none),
 * drawn as SVG at full size and feathered by a share of the median face's width.
 */
async function drawFaces(faces: DetectedFace[], width: number, height: number, sx: number, sy: number): Promise<Buffer> {
  const shapes = faces.map((face) => {
    if (face.outline.length >= 3) return `<polygon points="${face.outline.map(([x, y]) => `${(x * sx).toFixed(1)},${(y * sy).toFixed(1)}`).join(' ')}"/>`;
    const [x, y, w, h] = face.box;
    return `<ellipse cx="${((x + w / 2) * sx).toFixed(1)}" cy="${((y + h / 2) * sy).toFixed(1)}" rx="${((w / 2) * sx).toFixed(1)}" ry="${((h / 2) * sy * 1.15).toFixed(1)}"/>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="black"/><g fill="white">${shapes.join('')}</g></svg>`;
  const widths = faces.map((face) => face.box[2] * sx).sort((a, b) => a - b);
  const feather = Math.max(0.5, FACE_FEATHER * widths[Math.floor(widths.length / 2)]!);
  const drawn = await sharp(Buffer.from(svg), { limitInputPixels: false }).extractChannel(0).raw().toBuffer();
  const blurred = await sharp(drawn, { raw: { width, height, channels: 1 } }).blur(feather).extractChannel(0).raw().toBuffer();
  return clampConfidence(blurred, width, height);
}

/** Maps [floor, 255 − floor] onto [0, 255]: faint model noise becomes exactly 0 (untouched pixels). */
function clampConfidence(alpha: Buffer, width: number, height: number): Promise<Buffer> {
  const gain = 255 / (255 - 2 * CONFIDENCE_FLOOR);
  return sharp(alpha, { raw: { width, height, channels: 1 } }).linear(gain, -CONFIDENCE_FLOOR * gain).extractChannel(0).raw().toBuffer();
}

function confidentShare(mask: Uint8Array): number {
  let confident = 0;
  for (const value of mask) if (value >= 128) confident++;
  return confident / mask.length;
}
