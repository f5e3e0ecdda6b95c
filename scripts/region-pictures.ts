import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../src/config.ts';
import { createSegmenter } from '../src/edits/masks/segmenter.ts';
import { RulePlanner } from '../src/edits/planner/rule-planner.ts';
import { renderEdits } from '../src/edits/render/index.ts';
import { composite } from '../test/helpers/regions.ts';

/**
 * Makes the pictures of docs/image-edits.md#regions (in docs/regions/): prompts planned by the rule
 * planner and rendered by the executor with the people and face models, as the server does, on a
 * test composite (the person cut-out over bricks). `node scripts/region-pictures.ts`.
 */
const OUT = path.resolve(import.meta.dirname, '../docs/regions');
const SIDE = 240;
/** The prompts of the strip, left to right after the source (docs/image-edits.md names them). */
const STRIP = ['blur the background', 'make the background white', 'make the woman black and white', 'pixelate her face', 'smooth her skin'];

const person = await composite('person', SIDE, 'png');
const segmenter = createSegmenter({ ...loadConfig({}).segmenter, kind: 'people' });
const planner = new RulePlanner({ regions: true });
const options = { maxPixels: 50_000_000, timeoutSeconds: 30, loadImage: async () => person.image, mask: (region: 'background' | 'subject' | 'face') => segmenter.mask({ source: person.image, blobId: 'pictures', region, maxPixels: 50_000_000 }) };
const edit = async (prompt: string) => (await renderEdits(person.image, planner.planSync(prompt), options)).data;

try {
  const panels = [person.image, ...(await Promise.all(STRIP.map((prompt) => edit(`${prompt}, convert to png`))))];
  const strip = sharp({ create: { width: SIDE * panels.length, height: SIDE, channels: 3, background: '#fff' } }).composite(panels.map((input, i) => ({ input, left: i * SIDE, top: 0 })));
  await strip.jpeg({ quality: 82 }).toFile(path.join(OUT, 'before-after.jpg'));
  await sharp(await edit('remove the background')).png({ compressionLevel: 9, palette: true }).toFile(path.join(OUT, 'remove-background.png'));
  await sharp(await edit('crop to the woman')).jpeg({ quality: 82 }).toFile(path.join(OUT, 'crop-to-subject.jpg'));
} finally {
  await segmenter.close();
}
