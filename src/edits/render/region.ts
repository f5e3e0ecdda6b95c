import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { RegionNotFoundError, type SoftMask } from '../masks/segmenter.ts';
import type { Region } from '../operations/operation.ts';
import { OPERATIONS, type OperationOf } from '../operations/registry.ts';
import type { Handlers, RenderContext } from './context.ts';
import { SLICE_PIXELS, inSlices, pipeline, toRaw, withAlpha, type PassOptions, type RawImage } from './raw-image.ts';

/**
 * Edits confined to a region: the edit runs on a copy of the whole image, and the result is laid
 * over the source through the region's soft mask, at full resolution. Where the mask is 0 the
 * output is the source's pixel, bit for bit; where it is 255, the edited one; in between a blend.
 */

/** A plain colour; alpha from 0 (none of it) to 1 (all of it). */
export interface FillColor {
  r: number;
  g: number;
  b: number;
  alpha: number;
}

/** Runs `edit` on a copy of the image and keeps its result inside the mask only. The edit must keep the image's size. */
export async function editInRegion(image: RawImage, mask: SoftMask, edit: (copy: RawImage) => Promise<RawImage>): Promise<RawImage> {
  assertSameSize(image, mask);
  const edited = await edit({ ...image, data: Buffer.from(image.data) });
  return blendThrough(image, edited, mask);
}

/**
 * out = source + (edited − source) × mask / 255, per channel, rounded: exact at 0 and 255. Alpha
 * follows the same rule when both have it; an edit that dropped alpha (a grey pass) keeps the
 * source's, and one that added alpha blends it with the source's opaque 255.
 */
export async function blendThrough(source: RawImage, edited: RawImage, mask: SoftMask): Promise<RawImage> {
  assertSameSize(source, mask);
  assertSameSize(edited, mask);
  const channels = source.channels === 4 || edited.channels === 4 ? 4 : 3;
  const keepSourceAlpha = source.channels === 4 && edited.channels === 3;
  const from = channels === 4 ? await withAlpha(source) : source;
  const to = channels === 4 && !keepSourceAlpha ? await withAlpha(edited) : edited;
  const toStep = to.channels;
  const out = Buffer.allocUnsafe(from.data.length);
  const alpha = mask.alpha;
  await inSlices(mask.width * mask.height, SLICE_PIXELS, (start, end) => {
    for (let p = start; p < end; p++) {
      const a = alpha[p]!;
      const i = p * channels;
      const j = p * toStep;
      for (let c = 0; c < channels; c++) {
        const s = from.data[i + c]!;
        const e = c < toStep ? to.data[j + c]! : s;
        out[i + c] = a === 0 ? s : a === 255 ? e : ((s * (255 - a) + e * a + 127) / 255) | 0;
      }
    }
  });
  return { ...from, data: out, channels };
}

/**
 * `remove_background`: the subject's mask becomes the image's alpha (multiplied into any alpha it
 * had). The result needs an output format with alpha: see formatWithAlpha.
 */
export async function removeBackground(image: RawImage, subject: SoftMask): Promise<RawImage> {
  assertSameSize(image, subject);
  const rgba = await withAlpha(image);
  const data = rgba.data; // handlers own their input (withAlpha returns it when it has alpha)
  const alpha = subject.alpha;
  await inSlices(subject.width * subject.height, SLICE_PIXELS, (start, end) => {
    for (let p = start; p < end; p++) data[p * 4 + 3] = ((data[p * 4 + 3]! * alpha[p]! + 127) / 255) | 0;
  });
  return { ...rgba, data };
}

/** `fill`: a plain colour over the region, as strong as the mask (times the colour's alpha); alpha is kept. */
export async function fillRegion(image: RawImage, mask: SoftMask, color: FillColor): Promise<RawImage> {
  assertSameSize(image, mask);
  const data = image.data; // handlers own their input
  const step = image.channels;
  const rgb = [color.r, color.g, color.b];
  const strength = Math.max(0, Math.min(1, color.alpha));
  await inSlices(mask.width * mask.height, SLICE_PIXELS, (start, end) => {
    for (let p = start; p < end; p++) {
      const a = Math.round(mask.alpha[p]! * strength);
      if (a === 0) continue;
      const i = p * step;
      for (let c = 0; c < 3; c++) data[i + c] = ((data[i + c]! * (255 - a) + rgb[c]! * a + 127) / 255) | 0;
    }
  });
  return image;
}

/** A rectangle in pixels. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * `crop` to a region: the box around the mask's confident part (128 and up), grown by `margin`
 * (a share of the box's own size on each side) and kept inside the image; undefined for an empty mask.
 */
export async function regionBox(mask: SoftMask, margin: number): Promise<Box | undefined> {
  let minX = mask.width;
  let minY = mask.height;
  let maxX = -1;
  let maxY = -1;
  await inSlices(mask.height, Math.max(1, Math.floor(SLICE_PIXELS / mask.width)), (startRow, endRow) => {
    for (let y = startRow; y < endRow; y++) {
      const row = y * mask.width;
      for (let x = 0; x < mask.width; x++) {
        if (mask.alpha[row + x]! < 128) continue;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  });
  if (maxX < 0) return undefined;
  const padX = Math.round((maxX - minX + 1) * margin);
  const padY = Math.round((maxY - minY + 1) * margin);
  const left = Math.max(0, minX - padX);
  const top = Math.max(0, minY - padY);
  return { left, top, width: Math.min(mask.width, maxX + 1 + padX) - left, height: Math.min(mask.height, maxY + 1 + padY) - top };
}

/** Output formats that keep alpha; any other asked for (JPEG) becomes PNG when the result is transparent. */
const ALPHA_FORMATS = new Set(['png', 'webp', 'avif', 'tiff']);

/** The format to encode a transparent result in, and whether it differs from the one asked for (say so to the user). */
export function formatWithAlpha<F extends string>(requested: F): { format: F | 'png'; changed: boolean } {
  return ALPHA_FORMATS.has(requested) ? { format: requested, changed: false } : { format: 'png', changed: true };
}

/**
 * The mask as an image-edits API wants it (OpenAI's `mask`): a PNG of the given size, transparent
 * where the provider may paint (inside the region) and opaque black elsewhere.
 */
export async function providerMaskPng(mask: SoftMask, width: number, height: number): Promise<Buffer> {
  const scaled = await sharp(mask.alpha, { raw: { width: mask.width, height: mask.height, channels: 1 } }).resize(width, height, { fit: 'fill' }).negate().extractChannel(0).raw().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .joinChannel(scaled, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

function assertSameSize(image: { width: number; height: number }, mask: SoftMask): void {
  if (image.width !== mask.width || image.height !== mask.height) {
    throw new Error(`the region's mask is ${mask.width}×${mask.height} but the image is ${image.width}×${image.height}`);
  }
}

/**
 * The region's mask at the image's size. Until a step moves pixels (a crop, a resize, a rotation,
 * a generative step) it is the source's mask (cached by the source); after one it is found in the
 * image as it is at this step, named by the steps before it (mask.ts's cache holds it under that
 * name), so "crop the left half and blur the background" blurs the background of that half.
 */
export async function maskFor(image: RawImage, region: Region, ctx: RenderContext): Promise<SoftMask> {
  return regionMask(region, ctx, image, async () => ({ bytes: await encodeForMask(image, ctx), pixels: image.data }));
}

/** The region's mask for a step that starts from `size`; `current` gives the image as it is then when the mask must be found in it. */
export async function regionMask(region: Region, ctx: Pick<RenderContext, 'mask' | 'stepsBefore'>, size: { width: number; height: number }, current: () => Promise<{ bytes: Buffer; pixels: Buffer }>): Promise<SoftMask> {
  if (!ctx.mask) throw new RegionNotFoundError(region, 'off', 'region edits are off on this server (TESSERA_SEGMENTER=off)');
  const before = ctx.stepsBefore ?? [];
  let mask: SoftMask;
  if (!before.some((op) => MOVES_PIXELS.has(op.op))) {
    mask = await ctx.mask(region);
  } else {
    // Steps of the registry give the same pixels each time: their list names the image. After a
    // generative step (an answer differs from call to call) only the pixels do.
    const deterministic = !before.some((op) => op.op === 'generate');
    let encoded: { bytes: Buffer; pixels: Buffer } | undefined;
    const image = async () => (encoded ??= await current());
    const key = deterministic ? digest(JSON.stringify(before)) : digest((await image()).pixels);
    mask = await ctx.mask(region, { key, image: async () => (await image()).bytes });
  }
  if (mask.width !== size.width || mask.height !== size.height) {
    throw new Error(`the mask of the ${region} is ${mask.width}×${mask.height} but the image is ${size.width}×${size.height} at that step`);
  }
  return mask;
}

/** Steps after which pixels are not where they were in the source (or not the same): a mask of the source no longer fits. */
const MOVES_PIXELS: ReadonlySet<string> = new Set([...OPERATIONS.filter((entry) => entry.group === 'geometry' || entry.group === 'generative').map((entry) => entry.name), 'crop_to_region']);

const digest = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex').slice(0, 32);

/** The image as the segmenter reads it: a PNG, lossless, quick to write. */
function encodeForMask(image: RawImage, ctx: PassOptions): Promise<Buffer> {
  return pipeline(image, ctx).png({ compressionLevel: 1 }).toBuffer();
}


/** How far a smoothing blurs (sigma, as a share of the longer side), and the step in value past which it keeps an edge. */
const SMOOTH_SIGMA = 0.006;
const SMOOTH_EDGE = 28;

/** The operations that exist only for a region (group `region` of the registry). */
export const regionHandlers: Handlers<OperationOf<'region'>> = {
  async remove_background(image, _op, ctx) {
    return removeBackground(image, await maskFor(image, 'subject', ctx));
  },
  async fill(image, op, ctx) {
    return fillRegion(image, await maskFor(image, op.region, ctx), op.color);
  },
  async smooth(image, op, ctx) {
    const mask = await maskFor(image, op.region, ctx);
    const sigma = Math.max(0.6, SMOOTH_SIGMA * Math.max(image.width, image.height));
    const blurred = await toRaw(pipeline({ ...image, data: Buffer.from(image.data) }, ctx).blur(sigma));
    // Edge-preserving: a pixel takes the blur only as far as the blur stays near it (skin), not
    // where it differs much (the eyes, the mouth, the outline): a cheap surface blur.
    const { data, channels: step } = image;
    const { data: soft, channels: softStep } = blurred;
    const out = Buffer.from(data);
    await inSlices(image.width * image.height, SLICE_PIXELS, (start, end) => {
      for (let p = start; p < end; p++) {
        const i = p * step;
        const j = p * softStep;
        const difference = (Math.abs(soft[j]! - data[i]!) + Math.abs(soft[j + 1]! - data[i + 1]!) + Math.abs(soft[j + 2]! - data[i + 2]!)) / 3;
        const weight = op.strength * Math.max(0, 1 - difference / SMOOTH_EDGE);
        for (let c = 0; c < 3; c++) out[i + c] = Math.round(data[i + c]! + (soft[j + c]! - data[i + c]!) * weight);
      }
    });
    return blendThrough(image, { ...image, data: out }, mask);
  },
  async crop_to_region(image, op, ctx) {
    const mask = await maskFor(image, op.region, ctx);
    const box = await regionBox(mask, op.margin);
    if (!box) throw new RegionNotFoundError(op.region, 'not_found', op.region === 'face' ? 'no face was found in this image' : 'no subject was found in this image');
    return toRaw(pipeline(image, ctx).extract(box));
  },
};
