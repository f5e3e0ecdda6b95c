import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../src/config.ts';
import { createSegmenter, type Region } from '../src/edits/masks/segmenter.ts';
import { pipeline, toRaw, type RawImage } from '../src/edits/render/raw-image.ts';
import { editInRegion, removeBackground } from '../src/edits/render/region.ts';
import { composite } from '../test/helpers/regions.ts';

/**
 * Makes docs/regions/*: region edits on a test composite (the person cut-out over bricks), with
 * the people and face models. `node --import tsx scripts/region-pictures.ts`.
 */
const OUT = path.resolve(import.meta.dirname, '../docs/regions');
const SIDE = 240;
const PASS = { timeoutSeconds: 30 };

const person = await composite('person', SIDE, 'png');
const source = await toRaw(sharp(person.image));
const segmenter = createSegmenter({ ...loadConfig({}).segmenter, kind: 'people' });
const copy = (image: RawImage): RawImage => ({ ...image, data: Buffer.from(image.data) });
const maskOf = (region: Region) => segmenter.mask({ source: person.image, blobId: 'pictures', region, maxPixels: 50_000_000 });

try {
  const background = await maskOf('background');
  const face = await maskOf('face');
  const panels: RawImage[] = [
    source,
    await editInRegion(copy(source), background, (image) => toRaw(pipeline(image, PASS).blur(6))),
    await editInRegion(copy(source), background, (image) => toRaw(pipeline(image, PASS).linear(0.45, 0))),
    // Pixelate: down, then up in a pass of its own (one sharp pipeline keeps only its last resize).
    await editInRegion(copy(source), face, async (image) => {
      const small = await toRaw(pipeline(image, PASS).resize(SIDE / 20, SIDE / 20));
      return toRaw(pipeline(small, PASS).resize(SIDE, SIDE, { kernel: 'nearest' }));
    }),
  ];
  const strip = sharp({ create: { width: SIDE * panels.length, height: SIDE, channels: 3, background: '#fff' } }).composite(
    await Promise.all(panels.map(async (panel, i) => ({ input: await sharp(panel.data, { raw: panel }).png().toBuffer(), left: i * SIDE, top: 0 }))),
  );
  await strip.jpeg({ quality: 82 }).toFile(path.join(OUT, 'before-after.jpg'));
  const cutOut = await removeBackground(copy(source), await maskOf('subject'));
  await sharp(cutOut.data, { raw: cutOut }).png({ compressionLevel: 9, palette: true }).toFile(path.join(OUT, 'remove-background.png'));
} finally {
  await segmenter.close();
}
