import sharp from 'sharp';
import type { OperationOf } from '../operations/registry.ts';
import type { Color, Gravity, Position } from '../plan.ts';
import type { Sharp } from 'sharp';
import type { Handlers, RenderContext, Size, Stages } from './context.ts';
import { inSlices, pipeline, px, SLICE_PIXELS, sharpColor, toRaw, type RawImage } from './raw-image.ts';
import { measureTilt } from './tilt.ts';

type GeometryStage = 'resize' | 'stretch' | 'thumbnail' | 'crop_margin' | 'rotate' | 'flip' | 'mirror' | 'pad' | 'pad_to' | 'pad_aspect' | 'border';
/** Every other geometry operation of the registry: one without a renderer here does not compile. */
type GeometryHandled = Exclude<OperationOf<'geometry'>, GeometryStage>;

const MAX_SIDE = 100_000;

/** Geometry that is one sharp call. */
export const geometryStages: Stages<GeometryStage> = {
  resize(pipe, op, size, ctx) {
    const width = op.width ? clampSide(px(op.width, size.width)) : undefined;
    const height = op.height ? clampSide(px(op.height, size.height)) : undefined;
    checkPixels((width ?? size.width) * (height ?? size.height), ctx.maxPixels);
    return pipe.resize({ width, height, fit: op.fit, background: op.background ? sharpColor(op.background) : { r: 0, g: 0, b: 0, alpha: 0 } });
  },
  stretch(pipe, op, size, ctx) {
    const width = op.axis === 'horizontal' ? clampSide(Math.round(size.width * op.factor)) : size.width;
    const height = op.axis === 'vertical' ? clampSide(Math.round(size.height * op.factor)) : size.height;
    checkPixels(width * height, ctx.maxPixels);
    return pipe.resize({ width, height, fit: 'fill' });
  },
  thumbnail(pipe, op) {
    return pipe.resize({ width: op.size, height: op.size, fit: 'inside' });
  },
  crop_margin(pipe, op, size) {
    const left = px(op.left, size.width);
    const top = px(op.top, size.height);
    const width = size.width - left - px(op.right, size.width);
    const height = size.height - top - px(op.bottom, size.height);
    if (width < 1 || height < 1) throw new RangeError(`cropping that much would leave nothing of a ${size.width}×${size.height} image`);
    return pipe.extract({ left, top, width, height });
  },
  rotate(pipe, op) {
    return pipe.rotate(op.degrees, { background: sharpColor(op.background) });
  },
  flip(pipe) {
    return pipe.flip();
  },
  mirror(pipe) {
    return pipe.flop();
  },
  pad(pipe, op, size, ctx) {
    const edges = { top: px(op.top, size.height), bottom: px(op.bottom, size.height), left: px(op.left, size.width), right: px(op.right, size.width) };
    checkPixels((size.width + edges.left + edges.right) * (size.height + edges.top + edges.bottom), ctx.maxPixels);
    return pipe.extend({ ...edges, background: sharpColor(op.background) });
  },
  pad_to(pipe, op, size, ctx) {
    return centreOnCanvas(pipe, size, Math.max(size.width, clampSide(op.width)), Math.max(size.height, clampSide(op.height)), op.background, ctx);
  },
  pad_aspect(pipe, op, size, ctx) {
    const [rw, rh] = op.ratio;
    let width = size.width;
    let height = Math.round((width * rh) / rw);
    if (height < size.height) {
      height = size.height;
      width = Math.round((height * rw) / rh);
    }
    return centreOnCanvas(pipe, size, width, height, op.background, ctx);
  },
  border(pipe, op) {
    const w = op.width;
    return pipe.extend({ top: w, bottom: w, left: w, right: w, background: sharpColor(op.color) });
  },
};

/** Geometry that needs the pixels, or several passes. */
export const geometry: Handlers<GeometryHandled> = {
  async crop(image, op, ctx) {
    const width = Math.min(image.width, clampSide(px(op.width, image.width)));
    const height = Math.min(image.height, clampSide(px(op.height, image.height)));
    return cropTo(image, width, height, op.gravity, ctx);
  },
  async crop_aspect(image, op, ctx) {
    const [rw, rh] = op.ratio;
    let width = image.width;
    let height = Math.round((width * rh) / rw);
    if (height > image.height) {
      height = image.height;
      width = Math.round((height * rw) / rh);
    }
    return cropTo(image, Math.max(1, width), Math.max(1, height), op.gravity, ctx);
  },
  async straighten(image, op, ctx) {
    const degrees = op.degrees ?? -(await measureTilt(image, ctx));
    return rotateAndCrop(image, degrees, ctx);
  },
  async trim(image, op, ctx) {
    try {
      return await toRaw(pipeline(image, ctx).trim({ threshold: op.threshold }));
    } catch (error) {
      // An image that is all border has nothing left to trim down to: leave it whole.
      if (/bad extract area|no.*trim/i.test((error as Error).message)) return image;
      throw error;
    }
  },
  async round_corners(image, op, ctx) {
    const radius = Math.min(px(op.radius, Math.min(image.width, image.height)), Math.floor(Math.min(image.width, image.height) / 2));
    const mask = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}"><rect width="${image.width}" height="${image.height}" rx="${radius}" ry="${radius}" fill="#fff"/></svg>`,
    );
    return toRaw(pipeline(image, ctx).composite([{ input: mask, blend: 'dest-in' }]));
  },
  async circle(image, op, ctx) {
    if (op.shape === 'oval') {
      const [rx, ry] = [image.width / 2, image.height / 2];
      const oval = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}"><ellipse cx="${rx}" cy="${ry}" rx="${rx}" ry="${ry}" fill="#fff"/></svg>`);
      return toRaw(pipeline(image, ctx).composite([{ input: oval, blend: 'dest-in' }]));
    }
    const side = Math.min(image.width, image.height);
    const square = await toRaw(
      pipeline(image, ctx).extract({ left: Math.floor((image.width - side) / 2), top: Math.floor((image.height - side) / 2), width: side, height: side }),
    );
    const mask = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><circle cx="${side / 2}" cy="${side / 2}" r="${side / 2}" fill="#fff"/></svg>`);
    return toRaw(pipeline(square, ctx).composite([{ input: mask, blend: 'dest-in' }]));
  },
};

const GRAVITY: Record<Position, string> = {
  'top-left': 'northwest',
  top: 'north',
  'top-right': 'northeast',
  left: 'west',
  center: 'centre',
  right: 'east',
  'bottom-left': 'southwest',
  bottom: 'south',
  'bottom-right': 'southeast',
};

export function sharpGravity(position: Position): string {
  return GRAVITY[position];
}

/** A crop without scaling: a fixed position, or sharp's attention/entropy strategy. */
async function cropTo(image: RawImage, width: number, height: number, gravity: Gravity, ctx: { timeoutSeconds: number }): Promise<RawImage> {
  if (gravity === 'attention' || gravity === 'entropy') {
    // Cover-resizing to a size that already fits at scale 1 is a pure crop around the subject.
    return toRaw(pipeline(image, ctx).resize({ width, height, fit: 'cover', position: sharp.strategy[gravity] }));
  }
  const [left, top] = offsets(image, width, height, gravity);
  return toRaw(pipeline(image, ctx).extract({ left, top, width, height }));
}

function centreOnCanvas(pipe: Sharp, size: Size, width: number, height: number, background: Color, ctx: RenderContext): Sharp {
  checkPixels(width * height, ctx.maxPixels);
  const left = Math.floor((width - size.width) / 2);
  const top = Math.floor((height - size.height) / 2);
  return pipe.extend({ left, right: width - size.width - left, top, bottom: height - size.height - top, background: sharpColor(background) });
}

function offsets(image: RawImage, width: number, height: number, position: Position): [number, number] {
  const x = position.endsWith('left') ? 0 : position.endsWith('right') ? image.width - width : Math.floor((image.width - width) / 2);
  const y = position.startsWith('top') ? 0 : position.startsWith('bottom') ? image.height - height : Math.floor((image.height - height) / 2);
  return [x, y];
}

function clampSide(value: number): number {
  if (value < 1 || value > MAX_SIDE) throw new RangeError(`a side of ${value} px is outside 1–${MAX_SIDE}`);
  return value;
}

export class PixelLimitError extends Error {}

function checkPixels(pixels: number, max: number): void {
  if (pixels > max) throw new PixelLimitError(`the result would have ${pixels} pixels, over the limit of ${max}`);
}

/**
 * Rotates clockwise by a small angle and keeps the largest upright rectangle that lies wholly
 * inside the rotated picture, so no corner is empty. Below a hundredth of a degree nothing moves.
 */
async function rotateAndCrop(image: RawImage, degrees: number, ctx: RenderContext): Promise<RawImage> {
  if (Math.abs(degrees) < 0.01) return image;
  if (Math.abs(degrees) > 45) throw new RangeError(`straightening turns by at most 45°, not ${degrees}°`);
  const angle = (Math.abs(degrees) * Math.PI) / 180;
  const sin = Math.sin(angle);
  const cos = Math.cos(angle);
  checkPixels(Math.ceil(image.width * cos + image.height * sin) * Math.ceil(image.width * sin + image.height * cos), ctx.maxPixels);
  const rotated = await toRaw(pipeline(image, ctx).rotate(degrees, { background: { r: 0, g: 0, b: 0, alpha: 0 } }));
  const [width, height] = largestInscribed(image.width, image.height, sin, cos);
  // One pixel less on each side: the rotated edge is antialiased, part background.
  const keepWidth = Math.max(1, Math.floor(width) - 2);
  const keepHeight = Math.max(1, Math.floor(height) - 2);
  const left = Math.floor((rotated.width - keepWidth) / 2);
  const top = Math.floor((rotated.height - keepHeight) / 2);
  return copyRegion(rotated, left, top, keepWidth, keepHeight, image.channels);
}

/**
 * The largest axis-aligned rectangle inside a width×height rectangle turned by an angle (given
 * by its sine and cosine, 0–45°), centred on it. When the short side is short enough, the
 * rectangle touches only the two long edges and is bounded by the short side alone; otherwise
 * all four corners touch the turned edges, and solving the two edge equations gives its sides.
 */
export function largestInscribed(width: number, height: number, sin: number, cos: number): [number, number] {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  if (short <= 2 * sin * cos * long || Math.abs(cos - sin) < 1e-9) {
    const half = short / 2;
    return width >= height ? [half / sin, half / cos] : [half / cos, half / sin];
  }
  const cos2 = cos * cos - sin * sin;
  return [(width * cos - height * sin) / cos2, (height * cos - width * sin) / cos2];
}

/** A region of the pixels, with the given number of channels (alpha dropped when 3). */
async function copyRegion(image: RawImage, left: number, top: number, width: number, height: number, channels: 3 | 4): Promise<RawImage> {
  const data = Buffer.alloc(width * height * channels);
  const from = image.channels;
  await inSlices(height, SLICE_PIXELS / width, (first, last) => {
    for (let y = first; y < last; y++) {
      let p = ((top + y) * image.width + left) * from;
      let q = y * width * channels;
      if (from === channels) {
        image.data.copy(data, q, p, p + width * from);
        continue;
      }
      for (let x = 0; x < width; x++, p += from, q += channels) {
        data[q] = image.data[p]!;
        data[q + 1] = image.data[p + 1]!;
        data[q + 2] = image.data[p + 2]!;
        if (channels === 4) data[q + 3] = from === 4 ? image.data[p + 3]! : 255;
      }
    }
  });
  return { data, width, height, channels };
}
