import sharp, { type Sharp } from 'sharp';
import type { Color, Length } from '../plan.ts';

/**
 * Decoded pixels between operations: 8-bit sRGB, with alpha (4 channels) only when the image has
 * any. sharp reorders operations inside one pipeline, so operations run in pipelines of their
 * own on these pixels (see renderEdits for the two that may share one).
 */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

export interface PassOptions {
  timeoutSeconds: number;
}

/** Starts a pipeline on the pixels. */
export function pipeline(image: RawImage, options: PassOptions): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } }).timeout({ seconds: options.timeoutSeconds });
}

/** Ends a pipeline back into pixels. */
export async function toRaw(pipe: Sharp): Promise<RawImage> {
  const { data, info } = await pipe.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  if (channels === 3 || channels === 4) return { data, width, height, channels };
  // A grey pass stays grey (sharp's greyscale outlives toColourspace): spread it over RGB here.
  if (channels !== 1 && channels !== 2) throw new Error(`unexpected ${channels} channels`);
  const out = channels === 2 ? 4 : 3;
  const rgb = Buffer.alloc(width * height * out);
  await inSlices(width * height, SLICE_PIXELS, (from, to) => {
    for (let p = from * out, q = from * channels, end = to * out; p < end; p += out, q += channels) {
      rgb[p] = rgb[p + 1] = rgb[p + 2] = data[q]!;
      if (out === 4) rgb[p + 3] = data[q + 1]!;
    }
  });
  return { data: rgb, width, height, channels: out };
}

/** The same pixels with an alpha channel (opaque where there was none). */
export async function withAlpha(image: RawImage): Promise<RawImage> {
  if (image.channels === 4) return image;
  const data = Buffer.alloc(image.width * image.height * 4);
  await inSlices(image.width * image.height, SLICE_PIXELS, (from, to) => {
    for (let p = from * 4, q = from * 3, end = to * 4; p < end; p += 4, q += 3) {
      data[p] = image.data[q]!;
      data[p + 1] = image.data[q + 1]!;
      data[p + 2] = image.data[q + 2]!;
      data[p + 3] = 255;
    }
  });
  return { ...image, data, channels: 4 };
}

/** Applies a function to every pixel's RGB through per-channel lookup tables; alpha is kept. */
export async function mapChannels(image: RawImage, tables: [Uint8Array, Uint8Array, Uint8Array]): Promise<RawImage> {
  const data = image.data; // handlers own their input (see Handler)
  const [r, g, b] = tables;
  const step = image.channels;
  await inSlices(image.width * image.height, SLICE_PIXELS, (from, to) => {
    for (let i = from * step, end = to * step; i < end; i += step) {
      data[i] = r[data[i]!]!;
      data[i + 1] = g[data[i + 1]!]!;
      data[i + 2] = b[data[i + 2]!]!;
    }
  });
  return { ...image, data };
}

export function table(fn: (value: number) => number): Uint8Array {
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.max(0, Math.min(255, Math.round(fn(v))));
  return lut;
}

/**
 * Runs an RGB-only pipeline (convolutions, thresholds) and puts the original alpha back. The
 * alpha is dropped beforehand in JS: sharp would otherwise convolve premultiplied pixels and
 * the alpha channel itself (its own removeAlpha runs last).
 */
export async function rgbOnly(image: RawImage, options: PassOptions, build: (pipe: Sharp) => Sharp): Promise<RawImage> {
  const step = image.channels;
  const opaque = step === 3 ? image.data : Buffer.alloc(image.width * image.height * 3);
  if (step === 4) {
    await inSlices(image.width * image.height, SLICE_PIXELS, (from, to) => {
      for (let p = from * 4, q = from * 3, end = to * 3; q < end; p += 4, q += 3) {
        opaque[q] = image.data[p]!;
        opaque[q + 1] = image.data[p + 1]!;
        opaque[q + 2] = image.data[p + 2]!;
      }
    });
  }
  const input = sharp(opaque, { raw: { width: image.width, height: image.height, channels: 3 } }).timeout({ seconds: options.timeoutSeconds });
  const rgb = await build(input).raw().toBuffer({ resolveWithObject: true });
  const data = Buffer.alloc(image.width * image.height * step);
  const channels = rgb.info.channels;
  await inSlices(image.width * image.height, SLICE_PIXELS, (from, to) => {
    for (let p = from * step, q = from * channels, end = to * step; p < end; p += step, q += channels) {
      data[p] = rgb.data[q]!;
      data[p + 1] = rgb.data[channels >= 3 ? q + 1 : q]!;
      data[p + 2] = rgb.data[channels >= 3 ? q + 2 : q]!;
      if (step === 4) data[p + 3] = image.data[p + 3]!;
    }
  });
  return { ...image, data };
}

export const luminance = (r: number, g: number, b: number) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

export function px(length: Length, of: number): number {
  return Math.max(0, Math.round(length.unit === '%' ? (length.value / 100) * of : length.value));
}

export function sharpColor(color: Color): { r: number; g: number; b: number; alpha: number } {
  return { r: color.r, g: color.g, b: color.b, alpha: color.alpha };
}

export function cssColor(color: Color): string {
  return `rgba(${color.r},${color.g},${color.b},${color.alpha})`;
}

/** Pixels a loop in JS works through before it lets the event loop run: a few milliseconds of work. */
export const SLICE_PIXELS = 1 << 18;

/** Lets the event loop run (timers, I/O, other requests) before the work goes on. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs work over [0, count) in slices of about `perSlice`, letting the event loop run between
 * them: a loop over the pixels of a large image in JS would otherwise hold up every other request
 * for as long as it takes (sharp's own work runs on its threads, not here).
 */
export async function inSlices(count: number, perSlice: number, work: (start: number, end: number) => void): Promise<void> {
  const size = Math.max(1, Math.floor(perSlice));
  for (let start = 0; start < count; start += size) {
    if (start > 0) await nextTurn();
    work(start, Math.min(count, start + size));
  }
}
