import type { Handlers, Stages } from './context.ts';
import { pipeline, rgbOnly, toRaw } from './raw-image.ts';

type FilterHandled = 'pixelate' | 'vignette' | 'emboss' | 'edges';

/** Filters that are one sharp call. */
export const filterStages: Stages<'blur' | 'sharpen' | 'denoise'> = {
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
};
