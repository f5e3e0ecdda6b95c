import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { loadConfig } from '../../src/config.ts';
import { executePlan } from '../../src/edits/generative/executor.ts';
import { OpenAiImagesProvider } from '../../src/edits/generative/openai-provider.ts';
import { WorkLimiter } from '../../src/edits/limiter.ts';
import { createSegmenter, RegionNotFoundError, type Segmenter, type SoftMask } from '../../src/edits/masks/segmenter.ts';
import type { Region } from '../../src/edits/operations/operation.ts';
import type { EditPlan } from '../../src/edits/plan.ts';
import { RulePlanner } from '../../src/edits/planner/rule-planner.ts';
import { renderEdits, type RenderOptions } from '../../src/edits/render/index.ts';
import { regionBox } from '../../src/edits/render/region.ts';
import { OpenAiTestServer } from '../helpers/openai-server.ts';
import { composite, iou, type Composite } from '../helpers/regions.ts';

/**
 * Region edits end to end below the HTTP layer: a prompt planned with regions, rendered with the
 * people model's masks on a composite whose subject is known exactly (a cut-out with real alpha
 * over a photo). For every region operation: the mask is right (IoU with the cut-out's alpha),
 * pixels outside the region are the source's bit for bit, and inside they changed.
 */
const planner = new RulePlanner({ regions: true });
const MAX_PIXELS = 50_000_000;

let segmenter: Segmenter;
let person: Composite;
let pixels: Buffer;
let masks: Map<Region, SoftMask>;

const options = (source: Buffer, blobId: string): RenderOptions => ({
  maxPixels: MAX_PIXELS,
  timeoutSeconds: 30,
  loadImage: async () => source,
  // As the service asks: the source's mask, or after pixels moved the mask of the image then, named by the steps before.
  mask: (region, at) => segmenter.mask({ source: at ? at.image : source, blobId: at ? `${blobId}+${at.key}` : blobId, region, maxPixels: MAX_PIXELS }),
});

async function rgba(image: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Pixels outside the mask identical to the source's (RGB); the share of those fully inside that changed. */
function outsideKeptInsideChanged(source: Buffer, out: Buffer, mask: SoftMask): number {
  let inside = 0;
  let changed = 0;
  for (let p = 0; p < mask.alpha.length; p++) {
    const a = mask.alpha[p]!;
    const same = source[p * 4] === out[p * 4] && source[p * 4 + 1] === out[p * 4 + 1] && source[p * 4 + 2] === out[p * 4 + 2];
    if (a === 0) assert.ok(same, `pixel ${p} outside the region changed`);
    if (a === 255) {
      inside++;
      if (!same) changed++;
    }
  }
  assert.ok(inside > 500, `${inside} pixels fully inside`);
  return changed / inside;
}

before(async () => {
  segmenter = createSegmenter({ ...loadConfig({}).segmenter, kind: 'people' });
  person = await composite('person', 320, 'png');
  pixels = (await rgba(person.image)).data;
  masks = new Map();
  for (const region of ['background', 'subject', 'face'] as const) {
    masks.set(region, await segmenter.mask({ source: person.image, blobId: 'person', region, maxPixels: MAX_PIXELS }));
  }
});
after(() => segmenter.close());

describe('region edits, planned and rendered', () => {
  test('the masks are where the person is: subject and background against the cut-out, the face inside the subject', () => {
    const background = Buffer.from(person.truth.map((v) => 255 - v));
    assert.ok(iou(masks.get('subject')!.alpha, person.truth) > 0.9, 'subject IoU');
    assert.ok(iou(masks.get('background')!.alpha, background) > 0.9, 'background IoU');
    const face = masks.get('face')!.alpha;
    let inFace = 0;
    let inFaceAndSubject = 0;
    for (let p = 0; p < face.length; p++) {
      if (face[p]! < 128) continue;
      inFace++;
      if (person.truth[p]! >= 128) inFaceAndSubject++;
    }
    assert.ok(inFace > 500 && inFaceAndSubject / inFace > 0.95, `${inFaceAndSubject} of ${inFace} face pixels on the person`);
  });

  // Prompts in our own words, each with the region and operation it must plan to.
  const looks: Array<[prompt: string, region: Region, op: string]> = [
    ['blur the backdrop', 'background', 'blur'],
    ['make the background darker', 'background', 'brightness'],
    ['turn the woman black and white', 'subject', 'grayscale'],
    ['give the backdrop a sepia look', 'background', 'sepia'],
    ['pixelate everything behind the woman', 'background', 'pixelate'],
    ['make the background cooler', 'background', 'temperature'],
    ['make the woman warmer', 'subject', 'temperature'],
    ['boost the contrast of the person', 'subject', 'contrast'],
    ['desaturate the subject', 'subject', 'saturation'],
    ['tint the person blue', 'subject', 'tint'],
    ['sharpen the woman', 'subject', 'sharpen'],
    ['brighten her face', 'face', 'brightness'],
    ['blur the faces', 'face', 'blur'],
    ['pixelate the face', 'face', 'pixelate'],
  ];
  for (const [prompt, region, op] of looks) {
    test(`"${prompt}": ${op} in the ${region} only`, async () => {
      const plan = planner.planSync(prompt);
      assert.deepEqual(plan.operations.map((o) => [o.op, 'region' in o ? o.region : undefined]), [[op, region]], JSON.stringify(plan));
      const result = await renderEdits(person.image, { operations: [...plan.operations, { op: 'format', format: 'png' }] }, options(person.image, 'person'));
      const changed = outsideKeptInsideChanged(pixels, (await rgba(result.data)).data, masks.get(region)!);
      assert.ok(changed > 0.3, `${(changed * 100).toFixed(0)}% of the pixels inside changed`);
    });
  }

  test('"make the background white": the colour inside, the source outside', async () => {
    const plan = planner.planSync('make the background white');
    assert.deepEqual(plan.operations, [{ op: 'fill', region: 'background', color: { r: 255, g: 255, b: 255, alpha: 1 } }]);
    const out = (await rgba((await renderEdits(person.image, { operations: [...plan.operations, { op: 'format', format: 'png' }] }, options(person.image, 'person'))).data)).data;
    const mask = masks.get('background')!;
    assert.ok(outsideKeptInsideChanged(pixels, out, mask) > 0.9);
    for (let p = 0; p < mask.alpha.length; p++) if (mask.alpha[p] === 255) assert.deepEqual([...out.subarray(p * 4, p * 4 + 3)], [255, 255, 255]);
  });

  test('"smooth her skin": the face smoothed, edges and everything else kept', async () => {
    const plan = planner.planSync('smooth her skin');
    assert.deepEqual(plan.operations, [{ op: 'smooth', region: 'face', strength: 0.6 }]);
    const out = (await rgba((await renderEdits(person.image, { operations: [...plan.operations, { op: 'format', format: 'png' }] }, options(person.image, 'person'))).data)).data;
    assert.ok(outsideKeptInsideChanged(pixels, out, masks.get('face')!) > 0.2);
  });

  test('"remove the background" of a JPEG: a PNG whose alpha is the subject mask', async () => {
    const jpeg = await sharp(person.image).jpeg({ quality: 95 }).toBuffer();
    const plan = planner.planSync('remove the background');
    assert.deepEqual(plan.operations, [{ op: 'remove_background', region: 'background' }]);
    const result = await renderEdits(jpeg, plan, options(jpeg, 'person-jpeg'));
    assert.deepEqual([result.format, result.mimeType], ['png', 'image/png']);
    const out = await rgba(result.data);
    const alpha = Buffer.alloc(out.width * out.height);
    for (let p = 0; p < alpha.length; p++) alpha[p] = out.data[p * 4 + 3]!;
    assert.ok(iou(alpha, person.truth) > 0.9, 'the kept part is the person');
    const subject = await segmenter.mask({ source: jpeg, blobId: 'person-jpeg', region: 'subject', maxPixels: MAX_PIXELS });
    for (let p = 0; p < alpha.length; p++) if (subject.alpha[p] === 0) assert.equal(alpha[p], 0, `pixel ${p} behind the person is transparent`);
  });

  test('"crop to the woman": the subject\'s box with a margin', async () => {
    const plan = planner.planSync('crop to the woman');
    assert.deepEqual(plan.operations, [{ op: 'crop_to_region', region: 'subject', margin: 0.1 }]);
    const box = (await regionBox(masks.get('subject')!, 0.1))!;
    const result = await renderEdits(person.image, plan, options(person.image, 'person'));
    assert.deepEqual([result.width, result.height], [box.width, box.height]);
    const out = await rgba(result.data);
    const p = Math.floor(box.height / 2) * box.width + Math.floor(box.width / 2);
    const q = (box.top + Math.floor(box.height / 2)) * person.width + box.left + Math.floor(box.width / 2);
    assert.deepEqual([...out.data.subarray(p * 4, p * 4 + 3)], [...pixels.subarray(q * 4, q * 4 + 3)]);
  });

  test('a region edit of a picture without one is refused, saying what was not found', async () => {
    const product = await composite('product', 256, 'png');
    for (const prompt of ['blur the background', 'brighten her face']) {
      await assert.rejects(renderEdits(product.image, planner.planSync(prompt), options(product.image, 'product')), (error: unknown) => {
        assert.ok(error instanceof RegionNotFoundError, String(error));
        assert.match(error.message, /^no (person|face) was found in this image/);
        return true;
      });
    }
  });

  /**
   * A region step after pixels moved: its mask is found in the picture as it is at that step. The
   * expected result: the steps before it rendered alone, then the region's mask found in that.
   */
  async function afterMoved(before: EditPlan['operations'], region: Region, blobId: string): Promise<{ pixels: Buffer; mask: SoftMask }> {
    const moved = await renderEdits(person.image, { operations: [...before, { op: 'format', format: 'png' }] }, options(person.image, 'person'));
    const mask = await segmenter.mask({ source: moved.data, blobId, region, maxPixels: MAX_PIXELS });
    return { pixels: (await rgba(moved.data)).data, mask };
  }

  test('a region step after a resize the planner did not move finds its mask in the smaller picture: outside it untouched', async () => {
    const resize: EditPlan['operations'] = [{ op: 'resize', width: { value: 50, unit: '%' }, fit: 'inside' }];
    const plan: EditPlan = { operations: [...resize, ...planner.planSync('blur the background').operations, { op: 'format', format: 'png' }] };
    const result = await renderEdits(person.image, plan, options(person.image, 'person'));
    assert.deepEqual([result.width, result.height], [person.width / 2, Math.round(person.height / 2)]);
    const expected = await afterMoved(resize, 'background', 'person-half');
    const truth = await sharp(person.truth, { raw: { width: person.width, height: person.height, channels: 1 } }).resize(result.width, result.height, { fit: 'fill' }).negate().extractChannel(0).raw().toBuffer();
    assert.ok(iou(expected.mask.alpha, truth) > 0.85, 'the mask of the smaller picture is its background');
    const changed = outsideKeptInsideChanged(expected.pixels, (await rgba(result.data)).data, expected.mask);
    assert.ok(changed > 0.3, `${(changed * 100).toFixed(0)}% of the background changed`);
  });

  test('"crop to the woman and blur the background": the background of the cropped picture, the woman untouched', async () => {
    const plan = planner.planSync('crop to the woman and blur the background');
    assert.deepEqual(plan.operations.map((o) => [o.op, 'region' in o ? o.region : undefined]), [['crop_to_region', 'subject'], ['blur', 'background']]);
    const result = await renderEdits(person.image, { operations: [...plan.operations, { op: 'format', format: 'png' }] }, options(person.image, 'person'));
    const expected = await afterMoved(plan.operations.slice(0, 1), 'background', 'person-cropped');
    const changed = outsideKeptInsideChanged(expected.pixels, (await rgba(result.data)).data, expected.mask);
    assert.ok(changed > 0.3, `${(changed * 100).toFixed(0)}% of the background changed`);
    // Asked again, the mask of the cropped picture comes from the cache (named by the steps before it).
    const cached = segmenter.cachedBytes;
    await renderEdits(person.image, { operations: [...plan.operations, { op: 'format', format: 'png' }] }, options(person.image, 'person'));
    assert.equal(segmenter.cachedBytes, cached);
  });
});

describe('a generative step about a region', () => {
  let server: OpenAiTestServer;
  before(async () => {
    server = await new OpenAiTestServer().start();
  });
  after(() => server.close());

  test('sends the mask, and every pixel outside the region stays the source\'s, bit for bit, at full size', async () => {
    const provider = new OpenAiImagesProvider({ baseUrl: server.url, apiKey: '', model: 'gpt-image-1', size: 'auto', quality: 'auto', timeoutMs: 5000 });
    // The provider gets a smaller copy (as a real one answers at most 1536 px), and paints all of it.
    const generative = { provider, limiter: new WorkLimiter(1, 1000, 'the generative provider'), maxSide: 160, restoreSize: false };
    const plan: EditPlan = { operations: [{ op: 'generate', instruction: 'put a beach behind her', region: 'background' }, { op: 'format', format: 'png' }] };
    const result = await executePlan(person.image, plan, { render: options(person.image, 'person'), imageWork: new WorkLimiter(2, 1000), generative });
    const call = server.imageCalls.at(-1)!;
    assert.deepEqual([call.width, call.height], [160, Math.round((160 * person.height) / person.width)]);
    // The mask as the Images API wants it: transparent where the model may paint (the background).
    const sentMask = await rgba(call.mask!);
    const background = masks.get('background')!;
    const small = await sharp(background.alpha, { raw: { width: background.width, height: background.height, channels: 1 } }).resize(sentMask.width, sentMask.height, { fit: 'fill' }).extractChannel(0).raw().toBuffer();
    let agree = 0;
    for (let p = 0; p < small.length; p++) if (small[p]! >= 128 === sentMask.data[p * 4 + 3]! < 128) agree++;
    assert.ok(agree / small.length > 0.97, `the mask sent marks the background (${agree} of ${small.length})`);
    // At the source's full size; outside the region the source's pixels; inside the provider's (inverted).
    assert.deepEqual([result.width, result.height], [person.width, person.height]);
    const out = (await rgba(result.data)).data;
    assert.ok(outsideKeptInsideChanged(pixels, out, background) > 0.9);
    let inverted = 0;
    let inside = 0;
    for (let p = 0; p < background.alpha.length; p++) {
      if (background.alpha[p] !== 255) continue;
      inside++;
      if (Math.abs(out[p * 4]! - (255 - pixels[p * 4]!)) < 80) inverted++;
    }
    assert.ok(inverted / inside > 0.8, `${inverted} of ${inside} background pixels are the provider's`);
  });

  test('after a resize, the mask is of the resized picture, and outside the region its pixels stay', async () => {
    const provider = new OpenAiImagesProvider({ baseUrl: server.url, apiKey: '', model: 'gpt-image-1', size: 'auto', quality: 'auto', timeoutMs: 5000 });
    const generative = { provider, limiter: new WorkLimiter(1, 1000, 'the generative provider'), maxSide: 1024, restoreSize: false };
    const resize: EditPlan['operations'] = [{ op: 'resize', width: { value: 50, unit: '%' }, fit: 'inside' }];
    const plan: EditPlan = { operations: [...resize, { op: 'generate', instruction: 'put a lake behind her', region: 'background' }, { op: 'format', format: 'png' }] };
    const result = await executePlan(person.image, plan, { render: options(person.image, 'person'), imageWork: new WorkLimiter(2, 1000), generative });
    const resized = await renderEdits(person.image, { operations: [...resize, { op: 'format', format: 'png' }] }, options(person.image, 'person'));
    const mask = await segmenter.mask({ source: resized.data, blobId: 'person-half-provider', region: 'background', maxPixels: MAX_PIXELS });
    assert.deepEqual([result.width, result.height], [resized.width, resized.height]);
    assert.ok(outsideKeptInsideChanged((await rgba(resized.data)).data, (await rgba(result.data)).data, mask) > 0.8);
  });
});
