import sharp, { type Metadata, type Sharp } from 'sharp';
import type { EditOperation, EditPlan, OutputFormat } from '../plan.ts';
import type { Handler, MaskAt, RenderContext, Size, Stage } from './context.ts';
import type { SoftMask } from '../masks/segmenter.ts';
import type { Region } from '../operations/operation.ts';
import { ENCODING_OPERATIONS, confinedRegionOf, isConfinable } from '../operations/registry.ts';
import { filterStages, filters } from './filters.ts';
import { format as formatHandlers } from './format.ts';
import { PixelLimitError, geometry, geometryStages } from './geometry.ts';
import { overlay } from './overlay.ts';
import { pipeline, toRaw } from './raw-image.ts';
import { editInRegion, formatWithAlpha, maskFor, regionHandlers } from './region.ts';
import { tone, toneStages } from './tone.ts';

export class ImageError extends Error {
  readonly kind: 'not_an_image' | 'too_many_pixels' | 'unsupported_edit' | 'timeout';
  constructor(
    kind: 'not_an_image' | 'too_many_pixels' | 'unsupported_edit' | 'timeout',
    message: string,
  ) {
    super(message);
    this.kind = kind;
  }
}

export interface RenderOptions {
  maxPixels: number;
  timeoutSeconds: number;
  /** Bytes of another image of the same account (for watermarks). */
  loadImage(fileId: string): Promise<Buffer>;
  /** A region's mask in the source, or in the image as it is at the step (see RenderContext.mask); absent: region edits are refused. */
  mask?(region: Region, at?: MaskAt): Promise<SoftMask>;
  /** Steps already done to the image this render starts from (see RenderContext.stepsBefore). */
  stepsBefore?: readonly EditOperation[];
  /** The caller's mask, confining the steps without a region (see RenderContext.confineTo). */
  confineTo?: SoftMask;
}

export interface EditResult {
  data: Buffer;
  format: OutputFormat;
  mimeType: string;
  width: number;
  height: number;
}

export const OUTPUT_MIME: Record<OutputFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', avif: 'image/avif', gif: 'image/gif', tiff: 'image/tiff' };
/**
 * The renderer of each operation, by group. Each group's tables are typed from the registry, so
 * they cover its operations; the encoding ones are read by encode, the generative one by the
 * provider (src/edits/generative/).
 */
const STAGES = { ...geometryStages, ...toneStages, ...filterStages } as Record<string, Stage<EditOperation['op']> | undefined>;
const HANDLERS = { ...geometry, ...tone, ...filters, ...overlay, ...formatHandlers, ...regionHandlers } as Record<string, Handler<EditOperation['op']> | undefined>;

/** How the executor renders an operation: one sharp call, a pass on the pixels, or the encoding; undefined: not here. */
export function renderingOf(op: string): 'stage' | 'pixels' | 'encoding' | undefined {
  if (STAGES[op]) return 'stage';
  if (HANDLERS[op]) return 'pixels';
  return ENCODING_OPERATIONS.has(op) ? 'encoding' : undefined;
}

/**
 * Runs one operation on decoded pixels: its handler, or its stage in a pass of its own. One said
 * of a region runs on a copy, laid back over the image through the region's soft mask
 * (render/region.ts): outside the region every pixel stays as it was.
 */
function handlerOf(op: EditOperation, ctx: RenderContext): Handler<EditOperation['op']> {
  const region = confinedRegionOf(op);
  if (region) {
    const whole = wholeImageHandlerOf(op);
    return async (image, o, ctx) => editInRegion(image, await maskFor(image, region, ctx), (copy) => whole(copy, o, ctx));
  }
  const callerMask = isConfinable(op) ? ctx.confineTo : undefined;
  if (callerMask) {
    const whole = wholeImageHandlerOf(op);
    return (image, o, ctx) => editInRegion(image, callerMask, (copy) => whole(copy, o, ctx));
  }
  return wholeImageHandlerOf(op);
}

/** A step done through a mask (its region's or the caller's) needs the decoded pixels: it shares no pass. */
const isMasked = (op: EditOperation, ctx: RenderContext): boolean => confinedRegionOf(op) !== undefined || (ctx.confineTo !== undefined && isConfinable(op));

function wholeImageHandlerOf(op: EditOperation): Handler<EditOperation['op']> {
  const handler = HANDLERS[op.op];
  if (handler) return handler;
  const stage = STAGES[op.op];
  if (stage) return (image, o, ctx) => toRaw(stage(pipeline(image, ctx), o, image, ctx));
  throw new ImageError('unsupported_edit', `the operation "${op.op}" is not available on this server`);
}

/**
 * Reads only the header: a decompression bomb (few bytes, billions of pixels) is refused before
 * any pixel is decoded.
 */
export async function inspectImage(source: Buffer, maxPixels: number): Promise<{ format: string; width: number; height: number; upright: Size; plainRgb: boolean; hasAlpha: boolean }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(source, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new ImageError('not_an_image', `not a readable image (${(error as Error).message})`);
  }
  const { format, width, height } = metadata;
  if (!format || !width || !height) throw new ImageError('not_an_image', 'not a readable image');
  const pixels = width * height * (metadata.pages ?? 1);
  if (pixels > maxPixels) throw new ImageError('too_many_pixels', `the image has ${pixels} pixels (${width}×${height}), over the limit of ${maxPixels}`);
  if (format === 'svg') assertSafeSvg(source);
  // Only then can the first operation run straight on the decoded source (see renderEdits).
  const plainRgb = metadata.space === 'srgb' && (metadata.channels === 3 || metadata.channels === 4) && (metadata.pages ?? 1) === 1;
  return { format, width, height, upright: metadata.autoOrient ?? { width, height }, plainRgb, hasAlpha: metadata.hasAlpha === true };
}

/**
 * Applies the plan's operations in order, then encodes. sharp reorders the operations of one
 * pipeline, so every operation gets a pass of its own on decoded pixels, except that the first
 * one shares the decoding pass and the last one the encoding pass when each is a single sharp
 * call (a stage): nothing else is in those passes for sharp to reorder it against.
 */
export async function renderEdits(source: Buffer, plan: EditPlan, options: RenderOptions): Promise<EditResult> {
  const { format: sourceFormat, upright, plainRgb, hasAlpha: sourceHasAlpha } = await inspectImage(source, options.maxPixels);
  const ctx: RenderContext = { ...options };
  const deadline = Date.now() + options.timeoutSeconds * 1000;
  const format = outputFormatOf(plan.operations, sourceFormat);
  const operations = plan.operations.filter((op) => !ENCODING_OPERATIONS.has(op.op));
  try {
    let pipe = sharp(source, { limitInputPixels: options.maxPixels, failOn: 'error' }).timeout({ seconds: options.timeoutSeconds }).autoOrient();
    let size: Size = upright;
    let hasAlpha = sourceHasAlpha;
    let next = 0;
    const first = operations[0];
    const firstStage = first && !isMasked(first, ctx) && STAGES[first.op];
    if (first && firstStage && plainRgb && fitsEncodePass(first, format, operations.length === 1)) {
      pipe = firstStage(pipe, first, size, ctx);
      next = 1;
    }
    if (next < operations.length) {
      let image = await toRaw(pipe);
      const last = operations[operations.length - 1]!;
      const lastStage = isMasked(last, ctx) ? undefined : STAGES[last.op];
      const fuseLast = lastStage !== undefined && fitsEncodePass(last, format, true);
      const end = fuseLast ? operations.length - 1 : operations.length;
      for (; next < end; next++) {
        const op = operations[next]!;
        ctx.stepsBefore = [...(options.stepsBefore ?? []), ...operations.slice(0, next)];
        image = await handlerOf(op, ctx)(image, op, ctx);
        if (Date.now() > deadline) throw new ImageError('timeout', `the edit ran past ${options.timeoutSeconds} s`);
      }
      pipe = pipeline(image, ctx);
      size = image;
      hasAlpha = image.channels === 4;
      if (fuseLast) pipe = lastStage(pipe, last, size, ctx);
    }
    return await encode(pipe, hasAlpha, plan.operations, format);
  } catch (error) {
    throw asImageError(error);
  }
}

/**
 * JPEG has no alpha, so its encoding pass flattens transparency, and sharp flattens before its
 * other operations: an operation that can make pixels transparent must not share that pass.
 */
function fitsEncodePass(op: EditOperation, format: OutputFormat, isLast: boolean): boolean {
  if (!isLast || format !== 'jpeg') return true;
  switch (op.op) {
    case 'rotate':
      return op.background.alpha === 1 || op.degrees % 90 === 0;
    case 'resize':
      return op.fit !== 'contain' || (op.background?.alpha ?? 0) === 1;
    case 'pad':
    case 'pad_to':
    case 'pad_aspect':
      return op.background.alpha === 1;
    case 'border':
      return op.color.alpha === 1;
    default:
      return true;
  }
}

/**
 * The format a plan writes: the last one asked for, else the source's (if it is one we write).
 * A removed background needs alpha: a format without it (JPEG, GIF's one bit) becomes PNG,
 * unless a flatten after it made the picture opaque again.
 */
export function outputFormatOf(operations: readonly EditOperation[], sourceFormat: string): OutputFormat {
  const format = askedFormatOf(operations, sourceFormat);
  const removed = operations.findLastIndex((op) => op.op === 'remove_background');
  if (removed < 0 || operations.slice(removed).some((op) => op.op === 'flatten')) return format;
  return formatWithAlpha(format === 'gif' ? 'jpeg' : format).format;
}

function askedFormatOf(operations: readonly EditOperation[], sourceFormat: string): OutputFormat {
  const asked = operations.filter((op) => op.op === 'format').pop();
  if (asked) return asked.format;
  if (sourceFormat === 'jpeg' || sourceFormat === 'png' || sourceFormat === 'webp' || sourceFormat === 'gif' || sourceFormat === 'tiff') return sourceFormat;
  if (sourceFormat === 'heif') return 'avif';
  return 'png'; // svg, bmp and the like are not worth writing back in kind
}

async function encode(pipe: Sharp, hasAlpha: boolean, operations: readonly EditOperation[], format: OutputFormat): Promise<EditResult> {
  const quality = operations.filter((op) => op.op === 'quality').pop()?.quality;
  const compress = operations.some((op) => op.op === 'compress');
  // Results are sRGB whatever the last operation left (a grey pass would otherwise write one band).
  pipe = pipe.toColourspace('srgb');
  // Formats without alpha get transparency flattened onto white, as a viewer would show it.
  if (format === 'jpeg' && hasAlpha) pipe = pipe.flatten({ background: { r: 255, g: 255, b: 255 } });
  switch (format) {
    case 'jpeg':
      pipe = pipe.jpeg({ quality: quality ?? (compress ? 70 : 85), mozjpeg: compress });
      break;
    case 'png':
      pipe = pipe.png(compress ? { palette: true, quality: quality ?? 80, compressionLevel: 9, effort: 8 } : { compressionLevel: 6 });
      break;
    case 'webp':
      pipe = pipe.webp({ quality: quality ?? (compress ? 70 : 85) });
      break;
    case 'avif':
      pipe = pipe.avif({ quality: quality ?? (compress ? 45 : 55), effort: 2 });
      break;
    case 'gif':
      pipe = pipe.gif();
      break;
    case 'tiff':
      pipe = pipe.tiff({ quality: quality ?? 85, compression: compress ? 'jpeg' : 'lzw' });
      break;
  }
  // Results carry no EXIF, GPS or XMP of the source: the pixels were re-encoded from scratch.
  // Asked to keep metadata, the ICC profile (sRGB) is embedded; see the catalogue.
  if (operations.some((op) => op.op === 'keep_metadata')) pipe = pipe.withIccProfile('srgb');
  const { data, info } = await pipe.toBuffer({ resolveWithObject: true });
  return { data, format, mimeType: OUTPUT_MIME[format], width: info.width, height: info.height };
}

function asImageError(error: unknown): unknown {
  if (error instanceof ImageError) return error;
  const message = (error as Error).message ?? String(error);
  if (error instanceof PixelLimitError) return new ImageError('too_many_pixels', message);
  if (error instanceof RangeError) return new ImageError('unsupported_edit', message);
  if (/timeout/i.test(message)) return new ImageError('timeout', message);
  if (/pixel limit/i.test(message)) return new ImageError('too_many_pixels', message);
  if (/unsupported image format|corrupt|premature end|invalid|bad seek|not a known file format|VipsJpeg|VipsPng|read error/i.test(message)) {
    return new ImageError('not_an_image', `the image could not be decoded (${message.split('\n')[0]})`);
  }
  return error;
}

/**
 * SVG can point at other files and at the network. librsvg is not trusted to refuse: any
 * reference other than an internal #fragment or an inline data: URI, and any entity or include,
 * is refused outright.
 */
function assertSafeSvg(source: Buffer): void {
  const text = source.toString('utf8');
  const refused =
    /<!ENTITY|<!DOCTYPE[^>]*\[|xi:include|<\s*(script|foreignObject)\b/i.test(text) ||
    [...text.matchAll(/(?:href|src)\s*=\s*["']\s*([^"']*)["']/gi)].some((m) => !/^(#|data:)/i.test(m[1]!)) ||
    [...text.matchAll(/url\(\s*["']?\s*([^)"']*)/gi)].some((m) => !/^(#|data:)/i.test(m[1]!)) ||
    /@import/i.test(text);
  if (refused) throw new ImageError('not_an_image', 'SVG images that reference other files or addresses are not rendered');
}
