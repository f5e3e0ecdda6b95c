import sharp, { type Sharp } from 'sharp';
import type { Color, Length } from '../plan.ts';

/**
 * Decoded pixels between operations: always 8-bit sRGB with alpha (4 channels). sharp reorders
 * operations inside one pipeline, so each operation runs in a pipeline of its own on these
 * pixels, and only the final pass encodes.
 */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
}

export interface PassOptions {
  timeoutSeconds: number;
}

/** Starts a pipeline on the pixels. */
export function pipeline(image: RawImage, options: PassOptions): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } }).timeout({ seconds: options.timeoutSeconds });
}

/** Ends a pipeline back into RGBA pixels. */
export async function toRaw(pipe: Sharp): Promise<RawImage> {
  const { data, info } = await pipe.toColourspace('srgb').ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels === 4) return { data, width: info.width, height: info.height };
  // A grey pass stays grey (sharp's greyscale outlives toColourspace): spread it over RGB here.
  const channels = info.channels;
  if (channels !== 1 && channels !== 2) throw new Error(`expected 1, 2 or 4 channels, got ${channels}`);
  const rgba = Buffer.alloc(info.width * info.height * 4);
  for (let p = 0, q = 0; p < rgba.length; p += 4, q += channels) {
    rgba[p] = rgba[p + 1] = rgba[p + 2] = data[q]!;
    rgba[p + 3] = channels === 2 ? data[q + 1]! : 255;
  }
  return { data: rgba, width: info.width, height: info.height };
}

/** Applies a function to every pixel's RGB through per-channel lookup tables; alpha is kept. */
export function mapChannels(image: RawImage, tables: [Uint8Array, Uint8Array, Uint8Array]): RawImage {
  const data = Buffer.from(image.data);
  const [r, g, b] = tables;
  for (let i = 0; i < data.length; i += 4) {
    data[i] = r[data[i]!]!;
    data[i + 1] = g[data[i + 1]!]!;
    data[i + 2] = b[data[i + 2]!]!;
  }
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
  const pixels = image.width * image.height;
  const opaque = Buffer.alloc(pixels * 3);
  for (let p = 0, q = 0; q < opaque.length; p += 4, q += 3) {
    opaque[q] = image.data[p]!;
    opaque[q + 1] = image.data[p + 1]!;
    opaque[q + 2] = image.data[p + 2]!;
  }
  const input = sharp(opaque, { raw: { width: image.width, height: image.height, channels: 3 } }).timeout({ seconds: options.timeoutSeconds });
  const rgb = await build(input).raw().toBuffer({ resolveWithObject: true });
  const data = Buffer.alloc(image.width * image.height * 4);
  const channels = rgb.info.channels;
  for (let p = 0, q = 0; p < data.length; p += 4, q += channels) {
    data[p] = rgb.data[q]!;
    data[p + 1] = rgb.data[channels >= 3 ? q + 1 : q]!;
    data[p + 2] = rgb.data[channels >= 3 ? q + 2 : q]!;
    data[p + 3] = image.data[p + 3]!;
  }
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
