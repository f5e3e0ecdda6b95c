import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { loadConfig } from '../../src/config.ts';
import { createSegmenter, type Segmenter, type SoftMask } from '../../src/edits/masks/segmenter.ts';
import { pipeline, toRaw, type RawImage } from '../../src/edits/render/raw-image.ts';
import { blendThrough, editInRegion, fillRegion, formatWithAlpha, providerMaskPng, regionBox, removeBackground } from '../../src/edits/render/region.ts';
import { composite } from '../helpers/regions.ts';

const PASS = { timeoutSeconds: 20 };

/** A noisy RGB image (every pixel differs from its neighbours, so a blur changes nearly all of them). */
function noise(width: number, height: number, channels: 3 | 4 = 3): RawImage {
  const data = Buffer.alloc(width * height * channels);
  let seed = 12345;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = channels === 4 && i % 4 === 3 ? 200 : seed >> 23;
  }
  return { data, width, height, channels };
}

/** A soft disc: 255 at the centre, 0 outside radius `outer`, a ramp between `inner` and `outer`. */
function disc(width: number, height: number, inner: number, outer: number): SoftMask {
  const alpha = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = Math.hypot(x - width / 2, y - height / 2);
      alpha[y * width + x] = d <= inner ? 255 : d >= outer ? 0 : Math.round((255 * (outer - d)) / (outer - inner));
    }
  }
  return { width, height, alpha };
}

const blur = (image: RawImage) => toRaw(pipeline(image, PASS).blur(4));
const greyscale = (image: RawImage) => toRaw(pipeline(image, PASS).greyscale());

/** Checks every pixel: the source's where the mask is 0, the edit's where 255, a blend between. */
function assertBlend(source: RawImage, edited: RawImage, mask: SoftMask, out: RawImage): { inside: number; changed: number } {
  let inside = 0;
  let changed = 0;
  for (let p = 0; p < mask.alpha.length; p++) {
    const a = mask.alpha[p]!;
    for (let c = 0; c < 3; c++) {
      const s = source.data[p * source.channels + c]!;
      const e = edited.data[p * edited.channels + c]!;
      const o = out.data[p * out.channels + c]!;
      if (a === 0) assert.equal(o, s, `pixel ${p} outside the region changed`);
      else if (a === 255) assert.equal(o, e, `pixel ${p} inside the region is not the edit's`);
      else assert.ok(o >= Math.min(s, e) && o <= Math.max(s, e), `pixel ${p} is no blend`);
    }
    if (a === 255) {
      inside++;
      if (source.data[p * source.channels] !== out.data[p * out.channels]) changed++;
    }
  }
  return { inside, changed };
}

describe('an edit inside a mask', () => {
  test('outside the mask every pixel is the source\'s, bit for bit; inside, the edit\'s; a blend on the edge', async () => {
    const source = noise(120, 90);
    const mask = disc(120, 90, 20, 30);
    const edited = await blur({ ...source, data: Buffer.from(source.data) });
    const out = await editInRegion({ ...source, data: Buffer.from(source.data) }, mask, blur);
    const { inside, changed } = assertBlend(source, edited, mask, out);
    assert.ok(changed / inside > 0.9, `only ${changed} of ${inside} pixels inside changed`);
  });

  test('keeps the source\'s alpha when the edit drops it (a grey pass)', async () => {
    const source = noise(64, 48, 4);
    const mask = disc(64, 48, 10, 16);
    const edited = await greyscale({ ...source, data: Buffer.from(source.data) });
    const out = await blendThrough(source, edited, mask);
    assert.equal(out.channels, 4);
    assertBlend(source, edited, mask, out);
    for (let p = 0; p < mask.alpha.length; p++) assert.equal(out.data[p * 4 + 3], source.data[p * 4 + 3]);
  });

  test('a mask of another size is refused, with the reason', async () => {
    await assert.rejects(editInRegion(noise(10, 10), disc(12, 10, 2, 4), blur), /the region's mask is 12×10 but the image is 10×10/);
  });
});

test('fill: the colour inside, the source outside', async () => {
  const source = noise(80, 60);
  const mask = disc(80, 60, 12, 20);
  const out = await fillRegion({ ...source, data: Buffer.from(source.data) }, mask, { r: 255, g: 255, b: 255, alpha: 1 });
  const white = { ...source, data: Buffer.alloc(source.data.length, 255) };
  assertBlend(source, white, mask, out);
});

test('remove_background: the subject mask becomes alpha; the format moves to one with alpha', async () => {
  const source = noise(40, 30);
  const mask = disc(40, 30, 6, 10);
  const out = await removeBackground({ ...source, data: Buffer.from(source.data) }, mask);
  assert.equal(out.channels, 4);
  for (let p = 0; p < mask.alpha.length; p++) {
    assert.equal(out.data[p * 4 + 3], mask.alpha[p]);
    for (let c = 0; c < 3; c++) assert.equal(out.data[p * 4 + c], source.data[p * 3 + c]);
  }
  assert.deepEqual(formatWithAlpha('jpeg'), { format: 'png', changed: true });
  assert.deepEqual(formatWithAlpha('webp'), { format: 'webp', changed: false });
});

test('crop to a region: the box round its confident part, with a margin, inside the image', async () => {
  const mask = disc(200, 100, 10, 20); // confident (≥ 128) within radius 15 of (100, 50)
  const tight = await regionBox(mask, 0);
  assert.deepEqual(tight, { left: 85, top: 35, width: 31, height: 31 });
  assert.deepEqual(await regionBox(mask, 0.5), { left: 69, top: 19, width: 63, height: 63 });
  assert.deepEqual(await regionBox(mask, 10), { left: 0, top: 0, width: 200, height: 100 });
  assert.equal(await regionBox({ width: 4, height: 4, alpha: Buffer.alloc(16) }, 0.1), undefined);
});

test('the provider\'s mask is transparent inside the region, opaque outside, at the size sent', async () => {
  const png = await providerMaskPng(disc(100, 100, 20, 30), 50, 50);
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  assert.deepEqual([info.width, info.height, info.channels], [50, 50, 4]);
  assert.equal(data[(25 * 50 + 25) * 4 + 3], 0);
  assert.equal(data[3], 255);
});

describe('on a photo, through the people model\'s masks', () => {
  let segmenter: Segmenter;
  before(() => {
    segmenter = createSegmenter({ ...loadConfig({}).segmenter, kind: 'people' });
  });
  after(() => segmenter.close());

  for (const region of ['background', 'face'] as const) {
    test(`blurring the ${region} changes it and leaves every other pixel as it was`, async () => {
      const person = await composite('person', 400, 'png');
      const source = await toRaw(sharp(person.image));
      const mask = await segmenter.mask({ source: person.image, blobId: 'photo', region, maxPixels: 50_000_000 });
      const edited = await blur({ ...source, data: Buffer.from(source.data) });
      const out = await editInRegion({ ...source, data: Buffer.from(source.data) }, mask, blur);
      const { inside, changed } = assertBlend(source, edited, mask, out);
      assert.ok(inside > 1000 && changed / inside > 0.5, `${changed} of ${inside} pixels inside changed`);
    });
  }
});
