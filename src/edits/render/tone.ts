import type { Handlers, Stages } from './context.ts';
import { luminance, mapChannels, rgbOnly, table } from './raw-image.ts';

type ToneStage = 'sepia' | 'invert' | 'brightness' | 'saturation' | 'hue' | 'normalize' | 'tint';
type ToneHandled = 'grayscale' | 'contrast' | 'temperature' | 'gamma' | 'duotone' | 'threshold' | 'posterize';


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
    const { length } = data;
    const step = image.channels;
    for (let i = 0; i < length; i += step) {
      const y = (54 * data[i]! + 183 * data[i + 1]! + 19 * data[i + 2]! + 128) >> 8;
      data[i] = y;
      data[i + 1] = y;
      data[i + 2] = y;
    }
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
  async gamma(image, op) {
    return mapChannels(image, tables((v) => 255 * Math.pow(v / 255, 1 / op.value)));
  },
  async duotone(image, op) {
    const { shadow, highlight } = op;
    const data = image.data; // handlers own their input (see Handler)
    for (let i = 0; i < data.length; i += image.channels) {
      const t = luminance(data[i]!, data[i + 1]!, data[i + 2]!) / 255;
      data[i] = Math.round(shadow.r + (highlight.r - shadow.r) * t);
      data[i + 1] = Math.round(shadow.g + (highlight.g - shadow.g) * t);
      data[i + 2] = Math.round(shadow.b + (highlight.b - shadow.b) * t);
    }
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
