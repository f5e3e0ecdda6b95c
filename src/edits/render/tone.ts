import type { Handlers } from './context.ts';
import { luminance, mapChannels, pipeline, rgbOnly, table, toRaw } from './raw-image.ts';

type ToneOp =
  | 'grayscale'
  | 'sepia'
  | 'invert'
  | 'brightness'
  | 'contrast'
  | 'saturation'
  | 'hue'
  | 'temperature'
  | 'gamma'
  | 'normalize'
  | 'tint'
  | 'duotone'
  | 'threshold'
  | 'posterize';

const LUMA: [number, number, number] = [0.2126, 0.7152, 0.0722];

export const tone: Handlers<ToneOp> = {
  async grayscale(image, _op, ctx) {
    return toRaw(pipeline(image, ctx).recomb([LUMA, LUMA, LUMA]));
  },
  async sepia(image, _op, ctx) {
    return toRaw(
      pipeline(image, ctx).recomb([
        [0.393, 0.769, 0.189],
        [0.349, 0.686, 0.168],
        [0.272, 0.534, 0.131],
      ]),
    );
  },
  async invert(image, _op, ctx) {
    return toRaw(pipeline(image, ctx).negate({ alpha: false }));
  },
  async brightness(image, op, ctx) {
    return toRaw(pipeline(image, ctx).modulate({ brightness: op.factor }));
  },
  async contrast(image, op) {
    // Around mid-grey, so the picture's average stays put.
    return mapChannels(image, tables((v) => (v - 128) * op.factor + 128));
  },
  async saturation(image, op, ctx) {
    return toRaw(pipeline(image, ctx).modulate({ saturation: op.factor }));
  },
  async hue(image, op, ctx) {
    return toRaw(pipeline(image, ctx).modulate({ hue: Math.round(op.degrees) }));
  },
  async temperature(image, op) {
    const shift = 0.15 * op.amount;
    return mapChannels(image, [table((v) => v * (1 + shift)), table((v) => v * (1 + shift / 3)), table((v) => v * (1 - shift))]);
  },
  async gamma(image, op) {
    return mapChannels(image, tables((v) => 255 * Math.pow(v / 255, 1 / op.value)));
  },
  async normalize(image, _op, ctx) {
    return toRaw(pipeline(image, ctx).normalise());
  },
  async tint(image, op, ctx) {
    return toRaw(pipeline(image, ctx).tint({ r: op.color.r, g: op.color.g, b: op.color.b }));
  },
  async duotone(image, op) {
    const { shadow, highlight } = op;
    const data = Buffer.from(image.data);
    for (let i = 0; i < data.length; i += 4) {
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
