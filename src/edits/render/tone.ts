import type { Handlers, Stages } from './context.ts';
import type { OperationOf } from '../operations/registry.ts';
import type { Color } from '../plan.ts';
import { autoWhiteBalance } from './white-balance.ts';
import { inSlices, luminance, mapChannels, rgbOnly, SLICE_PIXELS, table, type RawImage } from './raw-image.ts';

type ToneStage = 'sepia' | 'invert' | 'brightness' | 'saturation' | 'hue' | 'normalize' | 'tint';
/** Every other tone operation of the registry: one without a renderer here does not compile. */
type ToneHandled = Exclude<OperationOf<'tone'>, ToneStage>;

/** Tone that is one sharp call. */
export const toneStages: Stages<ToneStage> = {
  sepia(pipe) {
    return pipe.recomb([
      [0.393, 0.769, 0.189],
      [0.349, 0.686, 0.168],
      [0.272, 0.534, 0.131],
    ]);
  },
  invert(pipe) {
    return pipe.negate({ alpha: false });
  },
  brightness(pipe, op) {
    return pipe.modulate({ brightness: op.factor });
  },
  saturation(pipe, op) {
    return pipe.modulate({ saturation: op.factor });
  },
  hue(pipe, op) {
    return pipe.modulate({ hue: Math.round(op.degrees) });
  },
  normalize(pipe) {
    return pipe.normalise();
  },
  tint(pipe, op) {
    return pipe.tint({ r: op.color.r, g: op.color.g, b: op.color.b });
  },
};

/** Tone computed on the pixels. */
export const tone: Handlers<ToneHandled> = {
  async grayscale(image) {
    // Integer luma (Rec. 709 weights) in one loop: far cheaper than libvips' float paths here.
    const data = image.data; // handlers own their input (see Handler)
    const step = image.channels;
    await inSlices(image.width * image.height, SLICE_PIXELS, (from, to) => {
      for (let i = from * step, end = to * step; i < end; i += step) {
        const y = (54 * data[i]! + 183 * data[i + 1]! + 19 * data[i + 2]! + 128) >> 8;
        data[i] = y;
        data[i + 1] = y;
        data[i + 2] = y;
      }
    });
    return { ...image, data };
  },
  async contrast(image, op) {
    // Around mid-grey, so the picture's average stays put.
    return mapChannels(image, tables((v) => (v - 128) * op.factor + 128));
  },
  async temperature(image, op) {
    const shift = 0.15 * op.amount;
    return mapChannels(image, [table((v) => v * (1 + shift)), table((v) => v * (1 + shift / 3)), table((v) => v * (1 - shift))]);
  },
  async auto_white_balance(image) {
    return autoWhiteBalance(image);
  },
  async color_balance(image, op) {
    return mapChannels(image, [table((v) => v * op.red), table((v) => v * op.green), table((v) => v * op.blue)]);
  },
  async replace_color(image, op) {
    return replaceColors(image, [op, ...(op.also ?? [])], op.tolerance);
  },
  async gamma(image, op) {
    return mapChannels(image, tables((v) => 255 * Math.pow(v / 255, 1 / op.value)));
  },
  async duotone(image, op) {
    const { shadow, highlight } = op;
    const data = image.data; // handlers own their input (see Handler)
    const step = image.channels;
    await inSlices(image.width * image.height, SLICE_PIXELS, (from, to) => {
      for (let i = from * step, end = to * step; i < end; i += step) {
        const t = luminance(data[i]!, data[i + 1]!, data[i + 2]!) / 255;
        data[i] = Math.round(shadow.r + (highlight.r - shadow.r) * t);
        data[i + 1] = Math.round(shadow.g + (highlight.g - shadow.g) * t);
        data[i + 2] = Math.round(shadow.b + (highlight.b - shadow.b) * t);
      }
    });
    return { ...image, data };
  },
  async threshold(image, op, ctx) {
    return rgbOnly(image, ctx, (pipe) => pipe.threshold(op.level, { grayscale: true }));
  },
  async posterize(image, op) {
    const steps = op.levels - 1;
    return mapChannels(image, tables((v) => (Math.round((v / 255) * steps) * 255) / steps));
  },
};

function tables(fn: (value: number) => number): [Uint8Array, Uint8Array, Uint8Array] {
  const lut = table(fn);
  return [lut, lut, lut];
}

/** Chroma (max − min of r, g, b) below which a pixel counts as grey, and above which as fully coloured. */
const GREY_CHROMA = 12;
const COLOURED_CHROMA = 40;
/** A `from` colour with less chroma than this is a grey (white, black, silver): matched by lightness. */
const CHROMATIC_FROM = 32;

/**
 * Gives pixels near one colour another. A coloured `from` selects by hue: pixels within
 * `tolerance` hue degrees of it, fading out over a quarter of the tolerance either side of that
 * edge, and only as far as they are coloured at all (greys and near-greys are left alone). A
 * grey `from` (white, black, grey) selects near-grey pixels by lightness instead, within
 * tolerance/180 of its lightness. Selected pixels take `to`'s hue; their lightness is mapped so
 * that `from`'s becomes `to`'s while black stays black and white stays white (shading survives),
 * and their saturation scales by to/from (a grey `from`: `to`'s saturation).
 *
 * Several pairs are one pass: each pixel is judged by its own colour, not by what an earlier pair
 * made of it, so "swap red and blue" swaps; a pixel two pairs select takes the closer one.
 */
async function replaceColors(image: RawImage, pairs: ReadonlyArray<{ from: Color; to: Color }>, tolerance: number): Promise<RawImage> {
  const replacements = pairs.map((pair) => replacement(pair.from, pair.to, tolerance));
  await inSlices(image.width * image.height, SLICE_PIXELS, (from, to) => replacePixels(image, replacements, from, to));
  return image;
}

/** replaceColors on pixels [from, to). */
function replacePixels(image: RawImage, replacements: Replacement[], from: number, to: number): void {
  const data = image.data; // handlers own their input (see Handler)
  const out = new Uint8ClampedArray(data.buffer, data.byteOffset, data.length); // clamps and rounds on write
  for (let i = from * image.channels, end = to * image.channels; i < end; i += image.channels) {
    const r = data[i]!;
    const g = data[i + 1]!;
    const b = data[i + 2]!;
    const max = r > g ? (r > b ? r : b) : g > b ? g : b;
    const min = r < g ? (r < b ? r : b) : g < b ? g : b;
    const chroma = max - min;
    let chosen: Replacement | undefined;
    let weight = 0;
    for (let k = 0; k < replacements.length; k++) {
      const w = selection(replacements[k]!, r, g, b, max, chroma);
      if (w > weight) {
        chosen = replacements[k];
        weight = w;
      }
    }
    if (!chosen) continue;
    const s = chroma === 0 ? 0 : chroma / (255 - Math.abs(max + min - 255));
    const nl = chosen.newLightness[max + min]!;
    const ns = chosen.chromatic ? Math.min(1, s * chosen.saturationScale) : chosen.targetSaturation;
    // HSL to RGB, blended by the weight and written straight into the pixel.
    const c = (1 - Math.abs(2 * nl - 1)) * ns;
    const m = 255 * nl - (255 * c) / 2;
    out[i] = r + (m + c * chosen.red - r) * weight;
    out[i + 1] = g + (m + c * chosen.green - g) * weight;
    out[i + 2] = b + (m + c * chosen.blue - b) * weight;
  }
}

interface Replacement {
  chromatic: boolean;
  /** The from colour's hue, and how far from it a pixel is selected (fading over `feather`). */
  hue: number;
  window: number;
  feather: number;
  /** Over chroma (max − min, 0–255): how much a pixel is selected for its chroma. */
  chromaWeight: Float32Array;
  /** Over max + min (0–510, twice the lightness): how much a grey pixel is selected for its lightness. */
  lightnessWeight: Float32Array;
  /** Over max + min (0–510, twice the lightness). */
  newLightness: Float32Array;
  saturationScale: number;
  targetSaturation: number;
  /** The target hue is fixed, so each channel's share of the chroma is too. */
  red: number;
  green: number;
  blue: number;
}

/** One pair's selection and tables (see replaceColors). */
function replacement(from: Color, to: Color, tolerance: number): Replacement {
  const source = hsl(from.r, from.g, from.b);
  const target = hsl(to.r, to.g, to.b);
  const chromatic = Math.max(from.r, from.g, from.b) - Math.min(from.r, from.g, from.b) >= CHROMATIC_FROM;
  const window = chromatic ? Math.max(0, tolerance) : Math.max(0, tolerance) / 180;
  const feather = chromatic ? Math.max(2, window / 4) : Math.max(0.02, window / 4);
  // Tables over chroma (max − min, 0–255) and over max + min (0–510, twice the lightness).
  const chromaWeight = new Float32Array(256);
  for (let c = 0; c < 256; c++) chromaWeight[c] = chromatic ? smoothstep(GREY_CHROMA, COLOURED_CHROMA, c) : 1 - smoothstep(GREY_CHROMA, COLOURED_CHROMA, c);
  const lightnessOf = lightnessMap(source.l, target.l);
  const newLightness = new Float32Array(511);
  const lightnessWeight = new Float32Array(511);
  for (let sum = 0; sum <= 510; sum++) {
    newLightness[sum] = lightnessOf(sum / 510);
    lightnessWeight[sum] = 1 - smoothstep(window - feather, window + feather, Math.abs(sum / 510 - source.l));
  }
  return {
    chromatic,
    hue: source.h,
    window,
    feather,
    chromaWeight,
    lightnessWeight,
    newLightness,
    saturationScale: chromatic ? target.s / source.s : 0,
    targetSaturation: target.s,
    red: 255 * hueChannel(target.h, 0),
    green: 255 * hueChannel(target.h, 120),
    blue: 255 * hueChannel(target.h, 240),
  };
}

/** How much a pair selects a pixel, 0–1: by hue for a coloured from colour, by lightness for a grey one. */
function selection(pair: Replacement, r: number, g: number, b: number, max: number, chroma: number): number {
  const w = pair.chromaWeight[chroma]!;
  if (w === 0) return 0;
  if (!pair.chromatic) return w * pair.lightnessWeight[2 * max - chroma]!;
  let distance = hueOf(r, g, b, max, chroma) - pair.hue;
  if (distance < 0) distance = -distance;
  if (distance > 180) distance = 360 - distance;
  const edge = pair.window + pair.feather;
  return distance >= edge ? 0 : w * (1 - smoothstep(pair.window - pair.feather, edge, distance));
}

function hsl(r: number, g: number, b: number): { h: number; s: number; l: number } {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const chroma = max - min;
  return { h: chroma === 0 ? 0 : hueOf(r, g, b, max, chroma), s: chroma === 0 ? 0 : chroma / (255 - Math.abs(max + min - 255)), l: (max + min) / 510 };
}

/** Hue in degrees, 0–360. */
function hueOf(r: number, g: number, b: number, max: number, chroma: number): number {
  const h = max === r ? (g - b) / chroma : max === g ? (b - r) / chroma + 2 : (r - g) / chroma + 4;
  return (h * 60 + 360) % 360;
}

/** How much of the chroma a channel gets at a hue: the channel's triangle on the colour wheel, 0–1. */
function hueChannel(hue: number, channelHue: number): number {
  const d = Math.abs(((hue - channelHue + 540) % 360) - 180); // distance from the channel's own hue
  return d <= 60 ? 1 : d >= 120 ? 0 : (120 - d) / 60;
}

/** Piecewise linear: 0 → 0, from → to, 1 → 1. */
function lightnessMap(from: number, to: number): (l: number) => number {
  return (l) => (l <= from ? (from > 0 ? (l * to) / from : to) : from < 1 ? to + ((l - from) * (1 - to)) / (1 - from) : to);
}

function smoothstep(edge0: number, edge1: number, x: number): number {
  if (x <= edge0) return 0;
  if (x >= edge1) return 1;
  const t = (x - edge0) / (edge1 - edge0);
  return t * t * (3 - 2 * t);
}
