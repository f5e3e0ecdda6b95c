import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { CallerMaskError, maskRefusal, readCallerMask } from '../../src/edits/masks/caller-mask.ts';
import { MASKABLE, OPERATIONS } from '../../src/edits/operations/registry.ts';
import type { EditOperation } from '../../src/edits/plan.ts';
import { renderEdits } from '../../src/edits/render/index.ts';

/** The caller's mask (the OpenAI form's `mask`): how it is read, which plans it can confine, and the render through it. */
describe("the caller's mask", () => {
  test('the weight of the edit is 255 − alpha, whatever PNG layout carries the alpha (RGBA, grey with alpha, palette)', async () => {
    const alphas = [0, 64, 200, 255];
    const rgba = Buffer.alloc(16);
    alphas.forEach((a, i) => (rgba[i * 4 + 3] = a));
    const layouts = {
      rgba: await sharp(rgba, { raw: { width: 4, height: 1, channels: 4 } }).png().toBuffer(),
      greyAlpha: await sharp(Buffer.from(alphas.flatMap((a) => [90, a])), { raw: { width: 4, height: 1, channels: 2 } }).png().toBuffer(),
      palette: await sharp(rgba, { raw: { width: 4, height: 1, channels: 4 } }).png({ palette: true, colours: 4, dither: 0 }).toBuffer(),
    };
    for (const [layout, bytes] of Object.entries(layouts)) {
      const mask = await readCallerMask(bytes, 1000);
      assert.deepEqual([mask.width, mask.height], [4, 1], layout);
      assert.deepEqual([...mask.alpha], alphas.map((a) => 255 - a), layout);
    }
  });

  test('refused: not an image, no alpha, more pixels than allowed', async () => {
    await assert.rejects(readCallerMask(Buffer.from('no picture here'), 1000), CallerMaskError);
    const opaque = await sharp({ create: { width: 4, height: 4, channels: 3, background: 'white' } }).png().toBuffer();
    await assert.rejects(readCallerMask(opaque, 1000), /no alpha channel/);
    const big = await sharp({ create: { width: 40, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    await assert.rejects(readCallerMask(big, 1000), /1600 pixels.*over the limit of 1000/);
  });

  test('the registry decides: a step with an optional region is confined, one naming its region is ambiguous, every other is not confinable; encoding steps pass', () => {
    for (const entry of OPERATIONS) {
      const step = { op: entry.name } as EditOperation;
      const refusal = maskRefusal({ operations: [step] });
      if (entry.encoding) assert.equal(refusal, undefined, entry.name);
      else if (MASKABLE.has(entry.name)) assert.equal(refusal, undefined, entry.name);
      else assert.equal(refusal?.reason, 'not_confinable', entry.name);
    }
    assert.ok(MASKABLE.has('brightness') && MASKABLE.has('blur') && MASKABLE.has('generate'));
    assert.ok(!MASKABLE.has('rotate') && !MASKABLE.has('crop_to_region') && !MASKABLE.has('fill') && !MASKABLE.has('text'));
    assert.deepEqual(maskRefusal({ operations: [{ op: 'blur', sigma: 3, region: 'background' } as EditOperation] })?.reason, 'ambiguous');
    const generative = maskRefusal({ operations: [{ op: 'generate', instruction: 'swap the sky for stars', region: 'background' }] });
    assert.deepEqual([generative?.reason, generative?.clause], ['ambiguous', 'swap the sky for stars']);
  });

  test('a render through it: every step confined, in the decoding and encoding passes too; opaque pixels the source\'s', async () => {
    const source = await sharp({ create: { width: 8, height: 2, channels: 3, background: { r: 200, g: 40, b: 30 } } }).png().toBuffer();
    const weight = Buffer.alloc(16, 0);
    for (let p = 0; p < 16; p++) if (p % 8 < 4) weight[p] = 255;
    const plan = { operations: [{ op: 'grayscale' }, { op: 'brightness', factor: 1.2 }, { op: 'format', format: 'png' }] as EditOperation[] };
    const result = await renderEdits(source, plan, { maxPixels: 1000, timeoutSeconds: 10, loadImage: () => Promise.reject(new Error('none')), confineTo: { width: 8, height: 2, alpha: weight } });
    const { data, info } = await sharp(result.data).raw().toBuffer({ resolveWithObject: true });
    for (let p = 0; p < 16; p++) {
      const pixel = [...data.subarray(p * info.channels, p * info.channels + 3)];
      if (p % 8 < 4) assert.ok(pixel[0] === pixel[1] && pixel[1] === pixel[2], `pixel ${p} edited: ${pixel}`);
      else assert.deepEqual(pixel, [200, 40, 30], `pixel ${p} kept`);
    }
  });
});
