import sharp from 'sharp';
import type { Position } from '../plan.ts';
import type { OperationOf } from '../operations/registry.ts';
import type { Handlers } from './context.ts';
import { cssColor, inSlices, pipeline, px, SLICE_PIXELS, toRaw } from './raw-image.ts';

/** Text or another image drawn on top. */
export const overlay: Handlers<OperationOf<'overlay'>> = {
  async text(image, op, ctx) {
    const { width, height } = image;
    const size = Math.max(4, Math.min(px(op.size, height), height));
    const margin = Math.round(Math.min(width, height) * 0.03);
    const x = op.position.endsWith('left') ? margin : op.position.endsWith('right') ? width - margin : width / 2;
    const anchor = op.position.endsWith('left') ? 'start' : op.position.endsWith('right') ? 'end' : 'middle';
    const y = op.position.startsWith('top') ? margin + size * 0.8 : op.position.startsWith('bottom') ? height - margin - size * 0.2 : height / 2 + size * 0.3;
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<text x="${x}" y="${y}" text-anchor="${anchor}" font-family="DejaVu Sans, sans-serif" font-size="${size}" fill="${cssColor(op.color)}" fill-opacity="${op.opacity}">${escapeXml(op.text)}</text></svg>`;
    return toRaw(pipeline(image, ctx).composite([{ input: Buffer.from(svg), top: 0, left: 0 }]));
  },
  async watermark(image, op, ctx) {
    const source = await ctx.loadImage(op.fileId);
    const width = Math.max(1, Math.round(image.width * op.scale));
    const mark = await sharp(source, { limitInputPixels: ctx.maxPixels })
      .rotate()
      .resize({ width, height: image.height, fit: 'inside' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    await inSlices(mark.info.width * mark.info.height, SLICE_PIXELS, (from, to) => {
      for (let i = from * 4 + 3, end = to * 4; i < end; i += 4) mark.data[i] = Math.round(mark.data[i]! * op.opacity);
    });
    const margin = Math.round(Math.min(image.width, image.height) * 0.03);
    const { left, top } = place(op.position, image, mark.info, margin);
    return toRaw(
      pipeline(image, ctx).composite([{ input: mark.data, raw: { width: mark.info.width, height: mark.info.height, channels: 4 }, left, top }]),
    );
  },
};

function place(position: Position, image: { width: number; height: number }, mark: { width: number; height: number }, margin: number) {
  const left = position.endsWith('left') ? margin : position.endsWith('right') ? image.width - mark.width - margin : (image.width - mark.width) / 2;
  const top = position.startsWith('top') ? margin : position.startsWith('bottom') ? image.height - mark.height - margin : (image.height - mark.height) / 2;
  return { left: Math.max(0, Math.round(left)), top: Math.max(0, Math.round(top)) };
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}
