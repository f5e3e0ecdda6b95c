import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { loadConfig } from '../../src/config.ts';
import { createSegmenter } from '../../src/edits/masks/segmenter.ts';
import { dialects } from '../helpers/databases.ts';
import { startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { composite } from '../helpers/regions.ts';

/** Region edits through POST /v1/images/edits, with the people model (TESSERA_SEGMENTER=people), and with region edits off. */
for (const dialect of await dialects()) {
  describe(`region edits on ${dialect}`, () => {
    let t: TestApp;
    let space: string;
    let person: string;
    let personJpeg: string;
    let product: string;
    let personPng: Buffer;

    before(async () => {
      t = await startTestApp(dialect, { TESSERA_SEGMENTER: 'people' });
      space = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json().spaces[0].id;
      personPng = (await composite('person', 256, 'png')).image;
      const files = (
        await upload(t, [
          { name: 'portrait.png', content: personPng, type: 'image/png' },
          { name: 'portrait.jpg', content: (await composite('person', 256, 'jpeg')).image, type: 'image/jpeg' },
          { name: 'cup.png', content: (await composite('product', 256, 'png')).image, type: 'image/png' },
        ])
      ).json().files;
      [person, personJpeg, product] = files.map((file: { fileId: string }) => file.fileId);
    });
    after(() => t.close());

    const edit = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key }, payload: body });
    const fileCount = async () => (await t.app.inject({ method: 'GET', url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': t.key } })).json().files.length as number;
    const download = async (fileId: string) => (await t.app.inject({ method: 'GET', url: `/v1/storage/files/${fileId}/content`, headers: { 'x-api-key': t.key } })).rawPayload;

    test('a dry run shows the region in the plan; the catalogue lists the region operations and the region parameter', async () => {
      const dry = await edit({ prompt: 'blur the background and brighten her face', workspace_id: space, file_id: person, dry_run: true });
      assert.equal(dry.statusCode, 200, dry.body);
      assert.deepEqual(dry.json().operations, [
        { op: 'blur', sigma: 3, region: 'background' },
        { op: 'brightness', factor: 1.25, region: 'face' },
      ]);
      // A dry run plans only, and says which regions it did not look for.
      assert.deepEqual(dry.json().regions_unchecked, ['background', 'face']);
      const catalogue = (await t.app.inject({ method: 'GET', url: '/v1/images/operations', headers: { 'x-api-key': t.key } })).json().operations as Array<{ op: string; parameters: Record<string, string> }>;
      for (const op of ['remove_background', 'fill', 'smooth', 'crop_to_region']) assert.ok(catalogue.some((entry) => entry.op === op), op);
      assert.match(catalogue.find((entry) => entry.op === 'blur')!.parameters.region!, /background, subject or face/);
    });

    test('blurring the background changes it and leaves every pixel of the person as it was', async () => {
      const res = await edit({ prompt: 'blur the background', workspace_id: space, file_id: person });
      assert.equal(res.statusCode, 200, res.body);
      const out = await sharp(await download(res.json().file_id)).removeAlpha().raw().toBuffer();
      const src = await sharp(personPng).removeAlpha().raw().toBuffer();
      const segmenter = createSegmenter({ ...loadConfig({}).segmenter, kind: 'people' });
      try {
        const mask = await segmenter.mask({ source: personPng, blobId: 'x', region: 'background', maxPixels: 50_000_000 });
        let inside = 0;
        let changed = 0;
        for (let p = 0; p < mask.alpha.length; p++) {
          const same = out[p * 3] === src[p * 3] && out[p * 3 + 1] === src[p * 3 + 1] && out[p * 3 + 2] === src[p * 3 + 2];
          if (mask.alpha[p] === 0) assert.ok(same, `pixel ${p} of the person changed`);
          if (mask.alpha[p] === 255) {
            inside++;
            if (!same) changed++;
          }
        }
        assert.ok(inside > 1000 && changed / inside > 0.5, `${changed} of ${inside} background pixels changed`);
      } finally {
        await segmenter.close();
      }
    });

    test('removing the background of a JPEG writes a PNG with alpha, and says so in its name and type', async () => {
      const res = await edit({ prompt: 'remove the background', workspace_id: space, file_id: personJpeg });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual([res.json().name, res.json().mime_type], ['portrait-edited.png', 'image/png']);
      const dry = await edit({ prompt: 'remove the background', workspace_id: space, file_id: personJpeg, dry_run: true });
      assert.deepEqual([dry.json().name, dry.json().mime_type], ['portrait-edited.png', 'image/png']);
      const meta = await sharp(await download(res.json().file_id)).stats();
      assert.ok(meta.channels.length === 4 && meta.channels[3]!.min === 0 && meta.channels[3]!.max === 255, 'transparent and opaque parts');
    });

    test('a region the model cannot find is a clear 422, and nothing is stored; the dry run (planning only) says it did not look', async () => {
      const dry = await edit({ prompt: 'blur the background', workspace_id: space, file_id: product, dry_run: true });
      assert.equal(dry.statusCode, 200, dry.body);
      assert.deepEqual(dry.json().regions_unchecked, ['background']);
      const whole = await edit({ prompt: 'blur it', workspace_id: space, file_id: product, dry_run: true });
      assert.equal(whole.json().regions_unchecked, undefined);
      const count = await fileCount();
      for (const [prompt, message] of [
        ['blur the background', /^no person was found in this image, so it has no background/],
        ['brighten her face', /^no face was found in this image/],
      ] as const) {
        const res = await edit({ prompt, workspace_id: space, file_id: product });
        assert.equal(res.statusCode, 422, res.body);
        const error = res.json().error;
        assert.deepEqual([error.code, error.reason], ['unsupported_edit', 'region_not_found']);
        assert.match(error.message, message);
      }
      assert.equal(await fileCount(), count);
    });
  });
}

describe('region edits off (TESSERA_SEGMENTER=off)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('sqlite', { TESSERA_SEGMENTER: 'off' });
  });
  after(() => t.close());

  test('"blur the background" stays refused: needs_region', async () => {
    const space = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json().spaces[0].id;
    const file = (await upload(t, [{ name: 'p.png', content: (await composite('person', 128, 'png')).image, type: 'image/png' }])).json().files[0].fileId;
    const res = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key }, payload: { prompt: 'blur the background', workspace_id: space, file_id: file } });
    assert.equal(res.statusCode, 422);
    assert.deepEqual([res.json().error.code, res.json().error.reason], ['unsupported_edit', 'needs_region']);
    assert.match(res.json().error.message, /edits the background: that needs the background located, and region edits are off on this server \(TESSERA_SEGMENTER=off\)/);
  });
});
