import type { EncodingOperation, OperationOf } from '../operations/registry.ts';
import type { Handlers } from './context.ts';
import { inSlices, pipeline, SLICE_PIXELS, toRaw, withAlpha } from './raw-image.ts';

/**
 * The format operations that change pixels (transparency). The others (format, quality,
 * compress, metadata) are read when the result is encoded (encode in index.ts).
 */
export const format: Handlers<Exclude<OperationOf<'format'>, EncodingOperation>> = {
  async flatten(image, op, ctx) {
    return toRaw(pipeline(image, ctx).flatten({ background: { r: op.background.r, g: op.background.g, b: op.background.b } }));
  },
  async transparent_color(image, op) {
    const { data } = await withAlpha(image); // handlers own their input (see Handler)
    const target = op.color ?? { r: data[0]!, g: data[1]!, b: data[2]! };
    await inSlices(image.width * image.height, SLICE_PIXELS, (from, to) => {
      for (let i = from * 4, end = to * 4; i < end; i += 4) {
        const distance = Math.max(Math.abs(data[i]! - target.r), Math.abs(data[i + 1]! - target.g), Math.abs(data[i + 2]! - target.b));
        if (distance <= op.tolerance) data[i + 3] = 0;
      }
    });
    return { ...image, data, channels: 4 };
  },
};
