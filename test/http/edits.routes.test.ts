import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { EditsRepository } from '../../src/db/repositories/edits.repository.ts';
import { dialects } from '../helpers/databases.ts';
import { errorOf, startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { pngHeaderOnly, redBlue } from '../helpers/images.ts';

const SEED_PROMPT = 'rotate 90 degrees, make it black and white and add a red 10px border';

for (const dialect of await dialects()) {
  describe(`image edit routes on ${dialect}`, () => {
    let t: TestApp;
    let space: string;
    let otherSpace: string;
    let source: string;

    before(async () => {
      t = await startTestApp(dialect);
      const spaces = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json().spaces;
      space = spaces[0].id;
      otherSpace = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.otherKey } })).json().spaces[0].id;
      source = (await upload(t, [{ name: 'pic.png', content: await redBlue(), type: 'image/png' }])).json().files[0].fileId;
    });
    after(() => t.close());

    const edit = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key, ...headers }, payload: body });
    const fileCount = async (key = t.key) => (await t.app.inject({ method: 'GET', url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': key } })).json().files.length as number;
    const download = async (fileId: string) => (await t.app.inject({ method: 'GET', url: `/v1/storage/files/${fileId}/content`, headers: { 'x-api-key': t.key } })).rawPayload;

    test('the seed prompt: rotated, black and white, red border, stored in the Space and listed', async () => {
      const res = await edit({ prompt: SEED_PROMPT, workspace_id: space, file_id: source });
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json();
      assert.match(answer.file_id, /^file_[0-9A-Z]{26}$/);
      assert.equal(answer.name, 'pic-edited.png');
      assert.equal(answer.mime_type, 'image/png');
      assert.equal(answer.source_file_id, source);
      assert.deepEqual(answer.operations.map((o: { op: string }) => o.op), ['rotate', 'grayscale', 'border']);
      assert.deepEqual([answer.width, answer.height], [120, 220]);

      const bytes = await download(answer.file_id);
      assert.equal(bytes.length, answer.size_bytes);
      const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([info.width, info.height], [120, 220]);
      const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
      assert.deepEqual(at(0, 0), [255, 0, 0], 'the border is red');
      const [r, g, b] = at(60, 50);
      assert.ok(r === g && g === b, 'inside is grey');
      assert.ok(at(60, 50)[0]! > at(60, 170)[0]!, 'red (lighter grey) on top after rotating clockwise, blue (darker) below');

      const listed = (await t.app.inject({ method: 'GET', url: `/v1/storage/files?workspace_id=${space}`, headers: { 'x-api-key': t.key } })).json().files;
      assert.equal(listed[0].fileId, answer.file_id, 'newest first');
      assert.equal(listed[0].workspaceId, space);
      assert.equal(listed[0].mimeType, 'image/png');
      const lineage = await new EditsRepository(t.context.database.db).findLineage(await accountOfKey(t), answer.file_id);
      assert.equal(lineage?.source_file_id, source);
      assert.equal(lineage?.prompt, SEED_PROMPT);
      assert.deepEqual(JSON.parse(lineage!.plan).operations, answer.operations);
      const original = await sharp(await download(source)).metadata();
      assert.deepEqual([original.width, original.height], [200, 100], 'the source is unchanged');
    });

    test('output_format and name shape the result', async () => {
      const res = await edit({ prompt: 'mirror it', workspace_id: space, file_id: source, output_format: 'webp', name: 'Mirror Image.png' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().name, 'Mirror Image.webp');
      assert.equal(res.json().mime_type, 'image/webp');
      const bytes = await download(res.json().file_id);
      assert.equal(bytes.subarray(8, 12).toString(), 'WEBP');
      const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
      assert.ok(data[2]! > 200 && data[0]! < 60, 'blue now on the left');
    });

    test('dry_run returns the plan and stores nothing', async () => {
      const before = await fileCount();
      const res = await edit({ prompt: 'convert to jpeg and make it warmer', workspace_id: space, file_id: source, dry_run: true });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().dry_run, true);
      assert.equal(res.json().file_id, undefined);
      assert.equal(res.json().mime_type, 'image/jpeg');
      assert.deepEqual(res.json().operations.map((o: { op: string }) => o.op), ['format', 'temperature']);
      assert.equal(await fileCount(), before);
    });

    test('Idempotency-Key: a retry returns the first result and creates nothing; another body is 409', async () => {
      const body = { prompt: 'blur slightly', workspace_id: space, file_id: source };
      const first = await edit(body, { 'idempotency-key': 'retry-me-1' });
      assert.equal(first.statusCode, 200, first.body);
      const count = await fileCount();
      const again = await edit({ file_id: source, workspace_id: space, prompt: 'blur slightly' }, { 'idempotency-key': 'retry-me-1' });
      assert.equal(again.statusCode, 200);
      assert.deepEqual(again.json(), first.json());
      assert.equal(await fileCount(), count);
      const different = await edit({ ...body, prompt: 'blur a lot' }, { 'idempotency-key': 'retry-me-1' });
      assert.equal(different.statusCode, 409);
      assert.equal(errorOf(different).code, 'conflict');
      // Keys belong to an account: bob's same key is a different request.
      const bobSource = (await upload(t, [{ name: 'b.png', content: await redBlue() }], { key: t.otherKey })).json().files[0].fileId;
      const bob = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.otherKey, 'idempotency-key': 'retry-me-1' }, payload: { ...body, workspace_id: otherSpace, file_id: bobSource } });
      assert.equal(bob.statusCode, 200, bob.body);
    });

    test('concurrent retries with one key store one file', async () => {
      const count = await fileCount();
      const body = { prompt: 'sharpen', workspace_id: space, file_id: source };
      const answers = await Promise.all([1, 2, 3, 4].map(() => edit(body, { 'idempotency-key': 'racing-key' })));
      assert.deepEqual(answers.map((a) => a.statusCode), [200, 200, 200, 200]);
      assert.equal(new Set(answers.map((a) => a.json().file_id)).size, 1);
      assert.equal(await fileCount(), count + 1);
    });

    test("another account's file or Space is 404, and nothing is stored", async () => {
      const count = await fileCount();
      const bobFile = (await upload(t, [{ name: 'bob.png', content: await redBlue() }], { key: t.otherKey })).json().files[0].fileId;
      for (const body of [
        { prompt: 'invert', workspace_id: space, file_id: bobFile },
        { prompt: 'invert', workspace_id: otherSpace, file_id: source },
        { prompt: 'invert', workspace_id: space, file_id: 'file_01JC0000000000000000000000' },
        { prompt: `add ${bobFile} as a logo in the top left`, workspace_id: space, file_id: source },
      ]) {
        const res = await edit(body);
        assert.equal(res.statusCode, 404, JSON.stringify(body));
        assert.equal(errorOf(res).code, 'not_found');
      }
      assert.equal(await fileCount(), count);
    });

    test('a logo from another file of the same account', async () => {
      const logo = (await upload(t, [{ name: 'logo.png', content: await sharp({ create: { width: 50, height: 50, channels: 3, background: '#00ff00' } }).png().toBuffer() }])).json().files[0].fileId;
      const res = await edit({ prompt: `add ${logo} as a logo in the bottom-right corner at 25% size`, workspace_id: space, file_id: source });
      assert.equal(res.statusCode, 200, res.body);
      const { data, info } = await sharp(await download(res.json().file_id)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const i = ((info.height - 10) * info.width + (info.width - 10)) * 3;
      assert.deepEqual([...data.subarray(i, i + 3)], [0, 255, 0]);
    });

    test('prompts it cannot map are 422 with the reason, the clause and suggestions; nothing is stored', async () => {
      const count = await fileCount();
      const vague = await edit({ prompt: 'rotate 90 degrees and make it fabulous', workspace_id: space, file_id: source });
      assert.equal(vague.statusCode, 422);
      const error = vague.json().error;
      assert.equal(error.code, 'prompt_not_understood');
      assert.equal(error.reason, 'not_understood');
      assert.equal(error.clause, 'make it fabulous');
      assert.match(error.message, /"make it fabulous"/);
      assert.ok(error.suggestions.length > 0);
      const generative = await edit({ prompt: 'replace the sky with a sunset', workspace_id: space, file_id: source });
      assert.equal(generative.statusCode, 422);
      assert.equal(errorOf(generative).code, 'unsupported_edit');
      assert.equal(generative.json().error.reason, 'needs_model');
      // Region edits are planned (test/http/region-edits.routes.test.ts); a part no model finds is not.
      const region = (await edit({ prompt: 'sharpen it and darken her hair', workspace_id: space, file_id: source })).json().error;
      assert.deepEqual([region.code, region.reason, region.clause], ['unsupported_edit', 'needs_model', 'darken her hair']);
      const asked = (await edit({ prompt: 'crop the image', workspace_id: space, file_id: source })).json().error;
      assert.deepEqual([asked.code, asked.reason, asked.clause], ['prompt_not_understood', 'missing_parameter', 'crop the image']);
      assert.equal(await fileCount(), count);
    });

    test('a source that is not an image, or is corrupt, is 422 not_an_image', async () => {
      const text = (await upload(t, [{ name: 'notes.txt', content: 'hello' }])).json().files[0].fileId;
      const png = await redBlue();
      const broken = (await upload(t, [{ name: 'broken.png', content: png.subarray(0, png.length - 40), type: 'image/png' }])).json().files[0].fileId;
      const count = await fileCount();
      for (const fileId of [text, broken]) {
        const res = await edit({ prompt: 'make it black and white', workspace_id: space, file_id: fileId });
        assert.equal(res.statusCode, 422, res.body);
        assert.equal(errorOf(res).code, 'not_an_image');
      }
      assert.equal(await fileCount(), count);
    });

    test('a decompression bomb is refused from its header with 413', async () => {
      const bomb = (await upload(t, [{ name: 'bomb.png', content: pngHeaderOnly(30_000, 30_000), type: 'image/png' }])).json().files[0].fileId;
      const started = performance.now();
      const res = await edit({ prompt: 'blur', workspace_id: space, file_id: bomb });
      const ms = performance.now() - started;
      assert.equal(res.statusCode, 413, res.body);
      assert.equal(errorOf(res).code, 'payload_too_large');
      assert.match(errorOf(res).message, /900000000 pixels/);
      console.log(`900-megapixel header refused in ${ms.toFixed(0)} ms`);
    });

    test('bodies that break the contract: 400 and 415', async () => {
      const base = { prompt: 'invert', workspace_id: space, file_id: source };
      for (const body of [{ ...base, extra: 1 }, { prompt: 'invert', file_id: source }, { ...base, prompt: '' }, { ...base, prompt: 'x'.repeat(4001) }, { ...base, output_format: 'bmp' }, { ...base, dry_run: 'yes' }]) {
        const res = await edit(body);
        assert.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 80));
        assert.equal(errorOf(res).code, 'invalid_request');
      }
      const plain = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key, 'content-type': 'text/plain' }, payload: 'rotate it' });
      assert.equal(plain.statusCode, 415);
      assert.equal(errorOf(plain).code, 'unsupported_media_type');
      // A multipart body is OpenAI's Images API form (test/http/edit-form.routes.test.ts): an empty one lacks its prompt.
      const form = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key, 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--\r\n' });
      assert.equal(form.statusCode, 400);
      assert.equal(form.json().error.param, 'prompt');
      const broken = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key, 'content-type': 'application/json' }, payload: '{"prompt": ' });
      assert.equal(broken.statusCode, 400);
      assert.equal((await t.app.inject({ method: 'POST', url: '/v1/images/edits', payload: base })).statusCode, 401);
    });

    test('GET /v1/images/operations lists every operation with examples', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/images/operations', headers: { 'x-api-key': t.key } });
      assert.equal(res.statusCode, 200);
      const ops = res.json().operations as Array<{ op: string; examples: string[]; parameters: Record<string, string> }>;
      assert.ok(ops.length >= 40);
      const rotate = ops.find((o) => o.op === 'rotate')!;
      assert.ok(rotate.examples.includes('rotate 90 degrees'));
      assert.ok('degrees' in rotate.parameters);
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      assert.ok(doc.paths['/v1/images/edits'].post.requestBody);
      assert.ok(doc.paths['/v1/images/operations'].get);
    });
  });
}

/** alice's account id, from one of her Spaces' owner (the test app creates her first). */
async function accountOfKey(t: TestApp): Promise<string> {
  const row = await t.context.database.db.selectFrom('accounts').select('id').where('name', '=', 'alice').executeTakeFirstOrThrow();
  return row.id;
}

describe('image edits under overload', () => {
  test('work beyond the concurrency cap is 503 with Retry-After, never queued without bound', async () => {
    const t = await startTestApp('sqlite', { TESSERA_EDIT_CONCURRENCY: '1', TESSERA_EDIT_QUEUE_TIMEOUT_MS: '0' });
    try {
      const noise = Buffer.alloc(1500 * 1500 * 3);
      for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
      const big = await sharp(noise, { raw: { width: 1500, height: 1500, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
      const fileId = (await upload(t, [{ name: 'big.png', content: big }])).json().files[0].fileId;
      const spaceId = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json().spaces[0].id;
      const answers = await Promise.all(
        [1, 2, 3, 4, 5, 6].map(() => t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key }, payload: { prompt: 'blur a lot, then add a vignette', workspace_id: spaceId, file_id: fileId } })),
      );
      const statuses = answers.map((a) => a.statusCode);
      assert.ok(statuses.includes(200), String(statuses));
      assert.ok(statuses.includes(503), String(statuses));
      assert.ok(statuses.every((s) => s === 200 || s === 503), String(statuses));
      for (const refused of answers.filter((a) => a.statusCode === 503)) {
        assert.equal(refused.headers['retry-after'], '1');
        assert.equal(errorOf(refused).code, 'provider_unavailable');
      }
    } finally {
      await t.close();
    }
  });
});
