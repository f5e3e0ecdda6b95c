import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects } from '../helpers/databases.ts';
import { multipart, startTestApp, type TestApp, type UploadFile } from '../helpers/app.ts';
import sharp from 'sharp';
import { leftEditMask, pngHeaderOnly, redBlue } from '../helpers/images.ts';

/** The OpenAI Images API form of POST /v1/images/edits: its refusals, in OpenAI's error shape, store nothing. */
for (const dialect of await dialects()) {
  describe(`the OpenAI form of an edit on ${dialect}`, () => {
    let t: TestApp;
    before(async () => {
      // Region edits planned (the people model), so that a region named beside a mask is seen.
      t = await startTestApp(dialect, { TESSERA_EDIT_FORM_MAX_IMAGES: '2', TESSERA_EDIT_MAX_SOURCE_BYTES: '60000', TESSERA_SEGMENTER: 'people' });
    });
    after(() => t.close());

    const image = async (name = 'a.png', field = 'image'): Promise<UploadFile> => ({ name, content: await redBlue(), type: 'image/png', field });
    const send = (files: UploadFile[], fields: Record<string, string>, key = t.key) => {
      const { body, headers } = multipart(files, fields);
      return t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { ...headers, authorization: `Bearer ${key}` }, payload: body });
    };
    const count = async () => (await t.app.inject({ url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': t.key } })).json().files.length as number;

    test('every refusal names its field, in OpenAI\'s shape with our status and code, and stores nothing', async () => {
      const before = await count();
      const cases: Array<{ files: UploadFile[]; fields: Record<string, string>; status: number; code: string; param: string | null; message: RegExp }> = [
        { files: [await image()], fields: {}, status: 400, code: 'invalid_request', param: 'prompt', message: /prompt is required/ },
        { files: [], fields: { prompt: 'invert' }, status: 400, code: 'invalid_request', param: 'image', message: /no image/ },
        { files: [await image()], fields: { prompt: 'invert', size: '1024x1024' }, status: 400, code: 'invalid_request', param: 'size', message: /resize to 1024x1024/ },
        { files: [await image()], fields: { prompt: 'invert', quality: 'low' }, status: 400, code: 'invalid_request', param: 'quality', message: /full quality/ },
        { files: [await image()], fields: { prompt: 'invert', background: 'transparent' }, status: 400, code: 'invalid_request', param: 'background', message: /in the prompt/ },
        { files: [await image()], fields: { prompt: 'invert', response_format: 'jpeg' }, status: 400, code: 'invalid_request', param: 'response_format', message: /b64_json, url/ },
        { files: [await image()], fields: { prompt: 'invert', output_compression: '50' }, status: 400, code: 'invalid_request', param: 'output_compression', message: /unknown field/ },
        { files: [await image()], fields: { prompt: 'invert', stream: 'true' }, status: 400, code: 'invalid_request', param: 'stream', message: /respond-async/ },
        { files: [await image(), await image(), await image()], fields: { prompt: 'invert' }, status: 413, code: 'payload_too_large', param: 'image', message: /TESSERA_EDIT_FORM_MAX_IMAGES/ },
        { files: [{ name: 'notes.txt', content: 'not a picture', type: 'text/plain', field: 'image' }], fields: { prompt: 'invert' }, status: 422, code: 'not_an_image', param: null, message: /./ },
        { files: [await image(), { name: 'notes.txt', content: 'not a picture', type: 'text/plain', field: 'image' }], fields: { prompt: 'invert' }, status: 422, code: 'not_an_image', param: null, message: /./ },
        { files: [await image()], fields: { prompt: 'invert', workspace_id: 'spc_01J0000000000000000000000' }, status: 404, code: 'not_found', param: null, message: /spc_/ },
      ];
      for (const c of cases) {
        const res = await send(c.files, c.fields);
        const what = `${JSON.stringify(c.fields)} with ${c.files.map((f) => f.field).join(',')}: ${res.body}`;
        assert.equal(res.statusCode, c.status, what);
        const error = res.json().error;
        assert.equal(error.type, 'invalid_request_error', what);
        assert.equal(error.code, c.code, what);
        assert.equal(error.param, c.param, what);
        assert.match(error.message, c.message, what);
        assert.equal(await count(), before, `nothing stored: ${what}`);
      }
    });

    test('every refusal of a mask names it (param mask), in OpenAI\'s shape, and stores nothing', async () => {
      const before = await count();
      const mask = async (width = 200, height = 100): Promise<UploadFile> => ({ name: 'mask.png', content: await leftEditMask(width, height, 60), type: 'image/png', field: 'mask' });
      const grey = { prompt: 'make it black and white' };
      const small = { name: 'small.png', content: await sharp({ create: { width: 50, height: 50, channels: 3, background: 'red' } }).png().toBuffer(), type: 'image/png', field: 'image' };
      const cases: Array<{ files: UploadFile[]; fields: Record<string, string>; headers?: Record<string, string>; status: number; code: string; reason?: string; message: RegExp }> = [
        { files: [await image(), { name: 'mask.png', content: 'not a picture', type: 'image/png', field: 'mask' }], fields: grey, status: 400, code: 'invalid_request', message: /the mask is not a readable image/ },
        { files: [await image(), { name: 'mask.png', content: await sharp(await redBlue()).removeAlpha().png().toBuffer(), type: 'image/png', field: 'mask' }], fields: grey, status: 400, code: 'invalid_request', message: /the mask has no alpha channel/ },
        { files: [await image(), await mask(100, 200)], fields: grey, status: 400, code: 'invalid_request', message: /the mask is 100×200 but image 1 \("a.png"\) is 200×100/ },
        { files: [await image(), await mask(), small], fields: grey, status: 400, code: 'invalid_request', message: /image 2 \("small.png"\) is 50×50/ },
        { files: [await image(), { name: 'mask.png', content: pngHeaderOnly(20_000, 20_000), type: 'image/png', field: 'mask' }], fields: grey, status: 400, code: 'invalid_request', message: /the mask has 400000000 pixels.*over the limit of \d+ \(TESSERA_EDIT_MAX_PIXELS\)/ },
        { files: [await image(), { name: 'mask.png', content: Buffer.alloc(60_001, 7), type: 'image/png', field: 'mask' }], fields: grey, status: 413, code: 'payload_too_large', message: /the mask is over 60000 bytes/ },
        { files: [await image(), await mask(), await mask()], fields: grey, status: 400, code: 'invalid_request', message: /mask is sent twice/ },
        { files: [await image(), await mask()], fields: { prompt: 'rotate 90 degrees' }, status: 422, code: 'unsupported_edit', reason: 'not_confinable', message: /the mask cannot confine "rotate"/ },
        { files: [await image(), await mask()], fields: { prompt: 'make it black and white and invert it' }, status: 422, code: 'unsupported_edit', reason: 'not_confinable', message: /the mask cannot confine "invert"/ },
        { files: [await image(), await mask()], fields: { prompt: 'add the text "Sale" at the top' }, status: 422, code: 'unsupported_edit', reason: 'not_confinable', message: /the mask cannot confine "text"/ },
        { files: [await image(), await mask()], fields: { prompt: 'remove the background' }, status: 422, code: 'unsupported_edit', reason: 'not_confinable', message: /the mask cannot confine "remove_background"/ },
        { files: [await image(), await mask()], fields: { prompt: 'make it black and white and blur the background' }, status: 422, code: 'prompt_not_understood', reason: 'ambiguous', message: /edits the background \(blur\) and the mask marks where to edit/ },
        { files: [await image(), await mask()], fields: grey, headers: { prefer: 'respond-async' }, status: 422, code: 'unsupported_edit', message: /not taken with Prefer: respond-async/ },
      ];
      for (const c of cases) {
        const { body, headers } = multipart(c.files, c.fields);
        const res = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { ...headers, authorization: `Bearer ${t.key}`, ...c.headers }, payload: body });
        const what = `${JSON.stringify(c.fields)} with ${c.files.map((f) => f.field).join(',')} (${c.message}): ${res.body.slice(0, 300)}`;
        assert.equal(res.statusCode, c.status, what);
        const error = res.json().error;
        assert.equal(error.type, 'invalid_request_error', what);
        assert.equal(error.code, c.code, what);
        assert.equal(error.param, 'mask', what);
        assert.equal(error.reason, c.reason ?? null, what);
        assert.match(error.message, c.message, what);
        assert.equal(await count(), before, `nothing stored: ${what}`);
      }
    });

    test('a mask fits the image as the renderer turns it upright (EXIF orientation); encoding steps pass with it', async () => {
      // Stored 200×100, shown 100×200 (orientation 6: turned a quarter clockwise).
      const turned = await sharp(await redBlue()).jpeg().withMetadata({ orientation: 6 }).toBuffer();
      const photo: UploadFile = { name: 'turned.jpg', content: turned, type: 'image/jpeg', field: 'image' };
      const wrong = await send([photo, { name: 'mask.png', content: await leftEditMask(200, 100, 60), type: 'image/png', field: 'mask' }], { prompt: 'make it black and white' });
      assert.equal(wrong.statusCode, 400, wrong.body);
      assert.match(wrong.json().error.message, /the mask is 200×100 but image 1 \("turned.jpg"\) is 100×200 \(after its EXIF orientation\)/);
      const right = await send([photo, { name: 'mask.png', content: await leftEditMask(100, 200, 50), type: 'image/png', field: 'mask' }], { prompt: 'make it black and white', output_format: 'png' });
      assert.equal(right.statusCode, 200, right.body);
      const [datum] = right.json().data;
      assert.deepEqual([datum.width, datum.height], [100, 200]);
      const out = await sharp(Buffer.from(datum.b64_json, 'base64')).raw().toBuffer();
      const src = await sharp(turned).autoOrient().raw().toBuffer();
      for (let y = 0; y < 200; y++) {
        for (let x = 0; x < 100; x++) {
          const i = (y * 100 + x) * 3;
          const same = out[i] === src[i] && out[i + 1] === src[i + 1] && out[i + 2] === src[i + 2];
          assert.ok(x < 50 ? !same || src[i] === src[i + 1] : same, `pixel (${x}, ${y}): ${x < 50 ? 'edited' : 'kept'}`);
        }
      }
    });

    test('an Idempotency-Key is refused on this form (a retry of an upload is not recognisable)', async () => {
      const { body, headers } = multipart([await image()], { prompt: 'invert' });
      const res = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { ...headers, 'x-api-key': t.key, 'idempotency-key': 'k1' }, payload: body });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.param, 'Idempotency-Key');
    });

    test("another account's Space is 404, not 403", async () => {
      const bobSpace = (await t.app.inject({ url: '/v1/spaces', headers: { 'x-api-key': t.otherKey } })).json().spaces[0].id;
      const res = await send([await image()], { prompt: 'invert', workspace_id: bobSpace });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().error.code, 'not_found');
    });

    test('a refusal of the prompt carries reason and clause', async () => {
      const res = await send([await image()], { prompt: "don't rotate it" });
      assert.equal(res.statusCode, 422);
      const error = res.json().error;
      assert.equal(error.code, 'prompt_not_understood');
      assert.equal(typeof error.reason, 'string');
      assert.ok(error.reason.length > 0);
    });

    test('model and user are accepted and not used; image[] is an image', async () => {
      const res = await send([await image('x.png', 'image[]')], { prompt: 'invert', model: 'gpt-image-1', user: 'someone', n: '1', size: 'auto', quality: 'high', background: 'auto' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.length, 1);
    });

    test('a JSON edit keeps the seed\'s contract; another body type is still 415 in our shape', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key, 'content-type': 'text/plain' }, payload: 'invert' });
      assert.equal(res.statusCode, 415);
      assert.deepEqual(Object.keys(res.json().error).sort(), ['code', 'message']);
      const bad = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key }, payload: { prompt: 'invert' } });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error.code, 'invalid_request');
      assert.equal(bad.json().error.type, undefined);
    });
  });
}
