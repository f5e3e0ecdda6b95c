import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** 200×100: red left half, blue right half. Rotations, mirrors and crops show in its pixels. */
export async function redBlue(format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const blue = await sharp({ create: { width: 100, height: 100, channels: 3, background: { r: 0, g: 0, b: 255 } } }).png().toBuffer();
  const image = sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 255, g: 0, b: 0 } } }).composite([{ input: blue, left: 100, top: 0 }]);
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
}

/** A PNG whose header claims width×height with almost no data behind it: a decompression bomb. */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const frame = Buffer.alloc(8 + data.length + 4);
    frame.writeUInt32BE(data.length, 0);
    body.copy(frame, 4);
    frame.writeUInt32BE(crc32(body), 4 + body.length);
    return frame;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(4096))), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A mask as OpenAI's Images API takes it: a PNG with alpha of width×height, fully transparent in
 * the columns left of `editUpTo` (where the edit may change pixels) and opaque elsewhere, with a
 * ramp of `soft` columns between (the edit blends there).
 */
export async function leftEditMask(width: number, height: number, editUpTo: number, soft = 0): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const alpha = x < editUpTo ? 0 : x >= editUpTo + soft ? 255 : Math.round(((x - editUpTo + 1) * 255) / (soft + 1));
      data[(y * width + x) * 4 + 3] = alpha;
    }
  }
  return sharp(data, { raw: { width, height, channels: 4 } }).png().toBuffer();
}
