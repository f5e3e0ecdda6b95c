import sharp, { type Sharp } from 'sharp';
import type { OperationOf } from '../operations/registry.ts';
import type { Handlers, Stages } from './context.ts';
import { dehaze } from './haze.ts';
import { thickenLines } from './line-weight.ts';
import { inSlices, pipeline, rgbOnly, SLICE_PIXELS, table, toRaw, type PassOptions, type RawImage } from './raw-image.ts';

type FilterStage = 'blur' | 'sharpen' | 'denoise';
/** Every other filter of the registry: one without a renderer here does not compile. */
type FilterHandled = Exclude<OperationOf<'filter'>, FilterStage>;

/** Filters that are one sharp call. */
export const filterStages: Stages<FilterStage> = {
  blur(pipe, op) {
    return pipe.blur(op.sigma);
  },
  sharpen(pipe, op) {
    return pipe.sharpen({ sigma: op.sigma });
  },
  denoise(pipe, op) {
    return pipe.median(op.size);
  },
};

/** Filters that need the pixels, or several passes. */
export const filters: Handlers<FilterHandled> = {
  async pixelate(image, op, ctx) {
    // Down to one pixel per block, then back up without smoothing: two passes.
    const width = Math.max(1, Math.round(image.width / op.size));
    const height = Math.max(1, Math.round(image.height / op.size));
    const small = await toRaw(pipeline(image, ctx).resize({ width, height, fit: 'fill', kernel: 'nearest' }));
    return toRaw(pipeline(small, ctx).resize({ width: image.width, height: image.height, fit: 'fill', kernel: 'nearest' }));
  },
  async vignette(image, op, ctx) {
    const { width, height } = image;
    const overlay = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><radialGradient id="v" cx="50%" cy="50%" r="71%">` +
        `<stop offset="45%" stop-color="#000" stop-opacity="0"/><stop offset="100%" stop-color="#000" stop-opacity="${op.strength}"/>` +
        `</radialGradient></defs><rect width="${width}" height="${height}" fill="url(#v)"/></svg>`,
    );
    return toRaw(pipeline(image, ctx).composite([{ input: overlay, blend: 'atop' }]));
  },
  async emboss(image, _op, ctx) {
    return rgbOnly(image, ctx, (pipe) => pipe.convolve({ width: 3, height: 3, kernel: [-2, -1, 0, -1, 1, 1, 0, 1, 2], scale: 1 }));
  },
  async edges(image, _op, ctx) {
    return rgbOnly(image, ctx, (pipe) => pipe.grayscale().convolve({ width: 3, height: 3, kernel: [-1, -1, -1, -1, 8, -1, -1, -1, -1], scale: 1 }));
  },
  async sketch(image, _op, ctx) {
    return sketch(image, ctx);
  },
  async noise(image, op) {
    return filmGrain(image, op.amount);
  },
  async glow(image, op, ctx) {
    return glow(image, op.strength, ctx);
  },
  async distort(image, op) {
    return waves(image, op.amount);
  },
  async radial_blur(image, op) {
    return zoomBlur(image, op.amount);
  },
  async thicken_lines(image, op) {
    return thickenLines(image, op.width, op.lines);
  },
  async darken_lines(image, op, ctx) {
    // Levels with the black point at `amount` of the range: out = (in - black) / (1 - black), white kept.
    const black = 255 * op.amount;
    const gain = 255 / (255 - black);
    return rgbOnly(image, ctx, (pipe) => pipe.linear(gain, -black * gain));
  },
  async dehaze(image, op, ctx) {
    return dehaze(image, op.amount, ctx);
  },
};

/** Where a bilinear sample of raw pixels reads: its four neighbours' offsets and the weights between them. */
interface Sample {
  a: number;
  b: number;
  c: number;
  d: number;
  fx: number;
  fy: number;
}
const newSample = (): Sample => ({ a: 0, b: 0, c: 0, d: 0, fx: 0, fy: 0 });

/** Fills `at` for the point (sx, sy), inside the picture (0 ≤ sx ≤ width − 1, 0 ≤ sy ≤ height − 1); reused per pixel, so no allocation. */
function locate(at: Sample, width: number, height: number, channels: number, sx: number, sy: number): void {
  const x0 = Math.floor(sx);
  const y0 = Math.floor(sy);
  const x1 = Math.min(x0 + 1, width - 1);
  const y1 = Math.min(y0 + 1, height - 1);
  at.fx = sx - x0;
  at.fy = sy - y0;
  at.a = (y0 * width + x0) * channels;
  at.b = (y0 * width + x1) * channels;
  at.c = (y1 * width + x0) * channels;
  at.d = (y1 * width + x1) * channels;
}

/** Channel k of the sample located in `at`. */
function sampled(data: Buffer, at: Sample, k: number): number {
  const top = data[at.a + k]! + (data[at.b + k]! - data[at.a + k]!) * at.fx;
  const bottom = data[at.c + k]! + (data[at.d + k]! - data[at.c + k]!) * at.fx;
  return top + (bottom - top) * at.fy;
}

/** Passes of the radial blur: each doubles the samples averaged (4 passes: 16 along each line). */
const ZOOM_PASSES = 4;
/** How far toward the centre the last sample of a radial blur at amount 1 lies (a share of the way). */
const ZOOM_REACH = 0.2;

/**
 * Radial (zoom) blur about the centre: the mean of 16 copies of the picture scaled about the
 * centre by 1, r, r², … r¹⁵ (r¹⁵ = 1 − reach), got in four passes that each average the
 * picture with itself scaled by r, r², r⁴ and r⁸ (bilinear, edges clamped): a pixel costs four
 * pair-reads, not sixteen. The centre does not move, so it stays sharp; the edges streak most.
 */
async function zoomBlur(image: RawImage, amount: number): Promise<RawImage> {
  const { width, height, channels } = image;
  const reach = Math.max(0, Math.min(1, amount)) * ZOOM_REACH;
  const ratio = Math.pow(1 - reach, 1 / (2 ** ZOOM_PASSES - 1));
  const [cx, cy] = [(width - 1) / 2, (height - 1) / 2];
  let source: Buffer = image.data;
  let target: Buffer = Buffer.allocUnsafe(source.length);
  const at = newSample();
  for (let pass = 0; pass < ZOOM_PASSES; pass++) {
    const scale = Math.pow(ratio, 2 ** pass);
    const from = source;
    const to = target;
    await inSlices(height, SLICE_PIXELS / width, (start, end) => {
      for (let y = start; y < end; y++) {
        for (let x = 0; x < width; x++) {
          locate(at, width, height, channels, cx + (x - cx) * scale, cy + (y - cy) * scale);
          const o = (y * width + x) * channels;
          for (let k = 0; k < channels; k++) to[o + k] = Math.round((from[o + k]! + sampled(from, at, k)) / 2);
        }
      }
    });
    [source, target] = [to, from];
  }
  return { ...image, data: source };
}

/**
 * Every pixel is taken from a point shifted along two sine waves (across and down), about six
 * wavelengths to the short side; bilinear sampling, edges clamped. The shifts are tabled per row
 * and column, so a pixel costs four reads and no trigonometry.
 */
async function waves(image: RawImage, amount: number): Promise<RawImage> {
  const { width, height, channels, data } = image;
  const short = Math.min(width, height);
  const reach = Math.max(0, Math.min(1, amount)) * short * 0.04;
  const wavelength = Math.max(8, short / 6);
  const shiftX = Float64Array.from({ length: height }, (_, y) => reach * Math.sin((2 * Math.PI * y) / wavelength));
  const shiftY = Float64Array.from({ length: width }, (_, x) => reach * Math.sin((2 * Math.PI * x) / wavelength));
  const out = Buffer.allocUnsafe(data.length);
  const clamp = (v: number, max: number) => (v < 0 ? 0 : v > max ? max : v);
  const at = newSample();
  await inSlices(height, SLICE_PIXELS / width, (from, to) => {
    for (let y = from; y < to; y++) {
      for (let x = 0; x < width; x++) {
        locate(at, width, height, channels, clamp(x + shiftX[y]!, width - 1), clamp(y + shiftY[x]!, height - 1));
        const o = (y * width + x) * channels;
        for (let k = 0; k < channels; k++) out[o + k] = Math.round(sampled(data, at, k));
      }
    }
  });
  return { ...image, data: out };
}

/** Blur radius for the looks that work at the scale of the picture (sketch strokes, glow halo). */
function sigmaFor(image: RawImage, fraction: number, least: number): number {
  return Math.max(least, Math.min(image.width, image.height) * fraction);
}

/** Above this sigma, blurring at full size costs far more than it shows. */
const FULL_SIZE_SIGMA = 6;

/**
 * A Gaussian blur of raw pixels without alpha (1 or 3 bands). A wide one is done on a copy
 * shrunk so that the remaining blur is FULL_SIZE_SIGMA, then enlarged back: the same soft result
 * at a fraction of the work (a σ 120 blur of 12 megapixels takes seconds at full size).
 */
async function wideBlur(data: Buffer, width: number, height: number, channels: 1 | 3, sigma: number, ctx: PassOptions): Promise<Buffer> {
  const raw = { width, height, channels };
  const out = (pipe: Sharp) => (channels === 1 ? pipe.toColourspace('b-w') : pipe); // sharp would make one band sRGB
  const start = () => sharp(data, { raw }).timeout({ seconds: ctx.timeoutSeconds });
  if (sigma <= FULL_SIZE_SIGMA) return out(start().blur(sigma)).raw().toBuffer();
  const factor = sigma / FULL_SIZE_SIGMA;
  const small = { width: Math.max(1, Math.round(width / factor)), height: Math.max(1, Math.round(height / factor)) };
  // resize runs before blur inside one sharp pipeline, which is the order wanted here
  const shrunk = await out(start().resize({ ...small, fit: 'fill' }).blur(FULL_SIZE_SIGMA)).raw().toBuffer();
  return enlarge(shrunk, small.width, small.height, channels, width, height);
}

/**
 * Bilinear enlargement of a smooth image, in fixed point. Here it is several times faster than
 * sharp's, whose enlargement of a tiny blurred copy to 12 megapixels takes most of a second.
 */
async function enlarge(small: Buffer, smallWidth: number, smallHeight: number, channels: 1 | 3, width: number, height: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height * channels);
  // Per output column: the left source column (times channels) and the right one's weight, 0–256.
  const columns = new Int32Array(width);
  const columnWeights = new Int32Array(width);
  for (let x = 0; x < width; x++) {
    const sx = Math.min(smallWidth - 1, Math.max(0, ((x + 0.5) * smallWidth) / width - 0.5));
    const x0 = Math.min(smallWidth - 2, Math.floor(sx));
    columns[x] = Math.max(0, x0) * channels;
    columnWeights[x] = smallWidth === 1 ? 0 : Math.round((sx - Math.max(0, x0)) * 256);
  }
  const step = smallWidth === 1 ? 0 : channels;
  await inSlices(height, SLICE_PIXELS / width, (from, to) => {
    for (let y = from, o = from * width * channels; y < to; y++) {
      const sy = Math.min(smallHeight - 1, Math.max(0, ((y + 0.5) * smallHeight) / height - 0.5));
      const y0 = Math.max(0, Math.min(smallHeight - 2, Math.floor(sy)));
      const wy = smallHeight === 1 ? 0 : Math.round((sy - y0) * 256);
      const top = y0 * smallWidth * channels;
      const bottom = smallHeight === 1 ? top : top + smallWidth * channels;
      for (let x = 0; x < width; x++) {
        const wx = columnWeights[x]!;
        for (let c = columns[x]!, end = c + channels; c < end; c++, o++) {
          const upper = small[top + c]! * (256 - wx) + small[top + c + step]! * wx;
          const lower = small[bottom + c]! * (256 - wx) + small[bottom + c + step]! * wx;
          data[o] = (upper * (256 - wy) + lower * wy + 32768) >> 16;
        }
      }
    }
  });
  return data;
}

/** The curve that deepens the pencil strokes: value^1.6. */
const STROKE_DEPTH = 1.6;

/**
 * A pencil drawing: the grey image colour-dodged with its own inverted, blurred copy, which
 * comes to grey / blur(grey). Flat areas go white and only the dark side of an edge stays
 * dark; a curve then deepens the strokes, which a plain dodge leaves faint.
 */
async function sketch(image: RawImage, ctx: PassOptions): Promise<RawImage> {
  const { data, channels } = image;
  const pixels = image.width * image.height;
  const grey = Buffer.alloc(pixels);
  await inSlices(pixels, SLICE_PIXELS, (from, to) => {
    for (let p = from, i = from * channels; p < to; p++, i += channels) grey[p] = (54 * data[i]! + 183 * data[i + 1]! + 19 * data[i + 2]! + 128) >> 8;
  });
  const blurred = await wideBlur(grey, image.width, image.height, 1, sigmaFor(image, 1 / 80, 2), ctx);
  const strokes = table((v) => 255 * Math.pow(v / 255, STROKE_DEPTH));
  await inSlices(pixels, SLICE_PIXELS, (from, to) => {
    for (let p = from, i = from * channels; p < to; p++, i += channels) {
      const base = grey[p]!;
      const under = blurred[p]!;
      const dodged = under === 0 || base >= under ? 255 : ((base * 255) / under) | 0;
      data[i] = data[i + 1] = data[i + 2] = strokes[dodged]!;
    }
  });
  return { ...image, data };
}

/** Room either side of 0–255 in the grain's clamping table. */
const CLAMP_MARGIN = 512;

/**
 * Monochrome film grain: one random value per pixel, added to all three channels, strongest in
 * the mid-tones as on film. The random sequence is seeded from the pixels themselves, so the same
 * image always gets the same grain. amount 1 is a standard deviation of 80 levels in mid-grey.
 */
async function filmGrain(image: RawImage, amount: number): Promise<RawImage> {
  const { data, channels } = image;
  // Sum of four random bytes: near-normal, mean 510, standard deviation about 147.8. The scale
  // per luma is in 1/65536ths, so the grain is integer arithmetic throughout.
  const spread = (80 * Math.max(0, Math.min(1, amount))) / 147.8;
  const scale = new Int32Array(256);
  for (let y = 0; y < 256; y++) scale[y] = Math.round(65536 * spread * (0.35 + 0.65 * 4 * (y / 255) * (1 - y / 255)));
  // Clamping by table: the grain moves a value by at most ±(510 × 0.55) < 512.
  const clamp = new Uint8Array(256 + 2 * CLAMP_MARGIN);
  for (let v = 0; v < clamp.length; v++) clamp[v] = Math.max(0, Math.min(255, v - CLAMP_MARGIN));
  let state = seedOf(image);
  await inSlices(image.width * image.height, SLICE_PIXELS, (from, to) => {
    for (let i = from * channels, end = to * channels; i < end; i += channels) {
      // xorshift32
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      const n = (state & 0xff) + ((state >>> 8) & 0xff) + ((state >>> 16) & 0xff) + (state >>> 24) - 510;
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      const delta = CLAMP_MARGIN + ((n * scale[(54 * r + 183 * g + 19 * b + 128) >> 8]! + 32768) >> 16);
      data[i] = clamp[r + delta]!;
      data[i + 1] = clamp[g + delta]!;
      data[i + 2] = clamp[b + delta]!;
    }
  });
  return { ...image, data };
}

/** FNV-1a over the size and up to about 64k bytes spread across the pixels; never 0 (xorshift). */
function seedOf(image: RawImage): number {
  let hash = 0x811c9dc5 ^ image.width ^ (image.height << 16);
  const stride = Math.max(1, Math.floor(image.data.length / 65536));
  for (let i = 0; i < image.data.length; i += stride) hash = Math.imul(hash ^ image.data[i]!, 0x01000193);
  return hash | 1;
}

/** The glow's light: black up to GLOW_FROM, rising to white at GLOW_FULL. */
const GLOW_FROM = 128;
const GLOW_FULL = 230;

/**
 * Soft glow: a copy keeping only the light parts (mid-grey and below go black, 230 and above
 * white), blurred wide (σ = 1/25 of the short side), brightened half again and screened over the
 * image at the given strength. Highlights bleed a halo into the tones around them; areas far
 * from any light keep their tones.
 */
async function glow(image: RawImage, strength: number, ctx: PassOptions): Promise<RawImage> {
  const { data, channels } = image;
  const light = table((v) => (255 * (v - GLOW_FROM)) / (GLOW_FULL - GLOW_FROM));
  const copy = Buffer.alloc(image.width * image.height * 3); // without alpha: sharp would blur it premultiplied
  await inSlices(image.width * image.height, SLICE_PIXELS, (from, to) => {
    for (let i = from * channels, q = from * 3, end = to * 3; q < end; i += channels, q += 3) {
      copy[q] = light[data[i]!]!;
      copy[q + 1] = light[data[i + 1]!]!;
      copy[q + 2] = light[data[i + 2]!]!;
    }
  });
  const halo = await wideBlur(copy, image.width, image.height, 3, sigmaFor(image, 1 / 25, 3), ctx);
  // screen(a, b) = a + (255 − a) · b / 255, with b the halo brightened half again and scaled by
  // the strength, as one table over (a, halo)
  const gain = 1.5 * Math.max(0, Math.min(1, strength));
  const screen = new Uint8Array(256 * 256);
  for (let a = 0; a < 256; a++) for (let h = 0; h < 256; h++) screen[(a << 8) | h] = Math.round(a + ((255 - a) * Math.min(255, h * gain)) / 255);
  await inSlices(image.width * image.height, SLICE_PIXELS, (from, to) => {
    for (let i = from * channels, q = from * 3, end = to * 3; q < end; i += channels, q += 3) {
      data[i] = screen[(data[i]! << 8) | halo[q]!]!;
      data[i + 1] = screen[(data[i + 1]! << 8) | halo[q + 1]!]!;
      data[i + 2] = screen[(data[i + 2]! << 8) | halo[q + 2]!]!;
    }
  });
  return { ...image, data };
}
