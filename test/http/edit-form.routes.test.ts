import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects } from '../helpers/databases.ts';
import { multipart, startTestApp, type TestApp, type UploadFile } from '../helpers/app.ts';
import { redBlue } from '../helpers/images.ts';

/** The OpenAI Images API form of POST /v1/images/edits: its refusals, in OpenAI's error shape, store nothing. */
for (const dialect of await dialects()) {
  describe(`the OpenAI form of an edit on ${dialect}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { TESSERA_EDIT_FORM_MAX_IMAGES: '2' });
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
        { files: [await image(), await image('mask.png', 'mask')], fields: { prompt: 'invert' }, status: 422, code: 'unsupported_edit', param: 'mask', message: /mask is not supported/ },
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
