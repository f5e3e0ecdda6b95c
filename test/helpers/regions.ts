import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../../src/config.ts';
import { createSegmenter, type Region } from '../../src/edits/masks/segmenter.ts';

/**
 * Composites with a known subject: a cut-out with real alpha (test/fixtures/regions) pasted over a
 * backdrop. The composite's true subject mask is the cut-out's alpha, exactly.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/regions');

export interface Composite {
  /** The composite, encoded (JPEG unless asked otherwise). */
  image: Buffer;
  width: number;
  height: number;
  /** The true subject: width × height bytes. */
  truth: Buffer;
}

export type CutOut = 'person' | 'product';
const CUTOUTS: Record<CutOut, { file: string; backdrop: string }> = {
  person: { file: 'person-cutout.png', backdrop: 'brick-backdrop.jpg' },
  product: { file: 'product-cutout.png', backdrop: 'grass-backdrop.jpg' },
};

/** The cut-out over its backdrop, scaled so that its width is `width` (the fixtures are 256 wide). */
export async function composite(cutOut: CutOut, width = 256, format: 'jpeg' | 'png' = 'jpeg'): Promise<Composite> {
  const { file, backdrop } = CUTOUTS[cutOut];
  const meta = await sharp(path.join(FIXTURES, file)).metadata();
  const height = Math.round((width * meta.height!) / meta.width!);
  const cut = await sharp(path.join(FIXTURES, file)).resize(width, height, { fit: 'fill' }).png().toBuffer();
  const truth = await sharp(cut).extractChannel(3).raw().toBuffer();
  const image = sharp(path.join(FIXTURES, backdrop)).resize(width, height, { fit: 'cover' }).composite([{ input: cut }]);
  return { image: await (format === 'jpeg' ? image.jpeg({ quality: 92 }) : image.png()).toBuffer(), width, height, truth };
}

/** Intersection over union of two masks, each taken as "inside" from 128 up. */
export function iou(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error(`masks of ${a.length} and ${b.length} pixels`);
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    const inA = a[i]! >= 128;
    const inB = b[i]! >= 128;
    if (inA && inB) both++;
    if (inA || inB) either++;
  }
  return either === 0 ? 0 : both / either;
}

/**
 * Where an edit of one region changed a picture, by the mask the people model makes of that
 * region in the source: pixels outside it (alpha 0) that changed, and pixels inside it (alpha 255)
 * and how many of them changed. Source and result must be of one size; alpha is ignored.
 */
export async function changesByRegion(source: Buffer, result: Buffer, region: Region): Promise<{ outsideChanged: number[]; inside: number; insideChanged: number }> {
  const src = await sharp(source).removeAlpha().raw().toBuffer();
  const out = await sharp(result).removeAlpha().raw().toBuffer();
  if (src.length !== out.length) throw new Error(`a source of ${src.length} bytes and a result of ${out.length}`);
  const segmenter = createSegmenter({ ...loadConfig({}).segmenter, kind: 'people' });
  try {
    const { alpha } = await segmenter.mask({ source, blobId: 'test', region, maxPixels: 50_000_000 });
    const changes = { outsideChanged: [] as number[], inside: 0, insideChanged: 0 };
    for (let p = 0; p < alpha.length; p++) {
      const same = src[p * 3] === out[p * 3] && src[p * 3 + 1] === out[p * 3 + 1] && src[p * 3 + 2] === out[p * 3 + 2];
      if (alpha[p] === 0 && !same) changes.outsideChanged.push(p);
      if (alpha[p] === 255) {
        changes.inside++;
        if (!same) changes.insideChanged++;
      }
    }
    return changes;
  } finally {
    await segmenter.close();
  }
}
