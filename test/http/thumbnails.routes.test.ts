import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { dialects } from '../helpers/databases.ts';
import { errorOf, startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { pngHeaderOnly, redBlue } from '../helpers/images.ts';

for (const dialect of await dialects()) {
  describe(`thumbnails and edit lineage on ${dialect}`, () => {
    let t: TestApp;
    let picture: string;

    before(async () => {
      t = await startTestApp(dialect, { TESSERA_THUMBNAIL_MAX_WIDTH: '1024' });
      picture = (await upload(t, [{ name: 'pic.png', content: await redBlue(), type: 'image/png' }])).json().files[0].fileId;
    });
    after(() => t.close());

    const thumbnail = (fileId: string, query = '', headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/v1/storage/files/${fileId}/thumbnail${query}`, headers: { 'x-api-key': t.key, ...headers } });
    const lookups = async () => {
      const text = await t.context.metrics.registry.metrics();
      const count = (result: string) => Number(new RegExp(`tessera_thumbnail_cache_lookups_total\\{result="${result}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
      return { hit: count('hit'), miss: count('miss') };
    };

    test('a WebP scaled to the width asked, keeping the picture; cacheable with an ETag', async () => {
      const res = await thumbnail(picture, '?width=50');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'image/webp');
      assert.match(String(res.headers['cache-control']), /^private, max-age=\d+/);
      assert.equal(res.headers.vary, 'x-api-key');
      const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
      assert.equal(info.format, 'raw');
      assert.deepEqual([info.width, info.height], [50, 25]);
      const at = (x: number) => [...data.subarray((12 * info.width + x) * info.channels, (12 * info.width + x) * info.channels + 3)];
      const [r1, , b1] = at(5);
      const [r2, , b2] = at(45);
      assert.ok(r1! > 200 && b1! < 60, `left stays red: ${at(5)}`);
      assert.ok(b2! > 200 && r2! < 60, `right stays blue: ${at(45)}`);

      const again = await thumbnail(picture, '?width=50', { 'if-none-match': String(res.headers.etag) });
      assert.equal(again.statusCode, 304);
      assert.equal(again.headers['content-length'], undefined);
    });

    test('the default width is 320, and a picture is never enlarged', async () => {
      const res = await thumbnail(picture);
      assert.equal(res.statusCode, 200);
      const meta = await sharp(res.rawPayload).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 200, 100]);
    });

    test('rendered once per blob and width: files with the same bytes share the cached thumbnail', async () => {
      const twin = (await upload(t, [{ name: 'twin.png', content: await redBlue(), type: 'image/png' }])).json().files[0].fileId;
      const before = await lookups();
      const first = await thumbnail(picture, '?width=64');
      const second = await thumbnail(twin, '?width=64');
      const after = await lookups();
      assert.equal(after.miss - before.miss, 1);
      assert.equal(after.hit - before.hit, 1);
      assert.deepEqual(second.rawPayload, first.rawPayload);
      assert.equal(second.headers.etag, first.headers.etag);
    });

    test('thumbnails are never stored as files nor listed', async () => {
      const listed = async () => (await t.app.inject({ method: 'GET', url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': t.key } })).json().files.length;
      const count = await listed();
      for (const width of [16, 100, 700]) assert.equal((await thumbnail(picture, `?width=${width}`)).statusCode, 200);
      assert.equal(await listed(), count);
    });

    test('refusals: width out of range 400, not an image 422, undecodable 422, pixel bomb 413', async () => {
      for (const query of ['?width=0', '?width=15', '?width=1025', '?width=abc', '?width=1.5']) {
        const res = await thumbnail(picture, query);
        assert.equal(res.statusCode, 400, query);
        assert.equal(errorOf(res).code, 'invalid_request');
      }
      const text = (await upload(t, [{ name: 'notes.txt', content: 'hello', type: 'text/plain' }])).json().files[0].fileId;
      const res = await thumbnail(text);
      assert.equal(res.statusCode, 422);
      assert.equal(errorOf(res).code, 'not_an_image');

      const junk = (await upload(t, [{ name: 'junk.png', content: Buffer.from('not a png at all'), type: 'image/png' }])).json().files[0].fileId;
      const broken = await thumbnail(junk);
      assert.equal(broken.statusCode, 422);
      assert.equal(errorOf(broken).code, 'not_an_image');

      const bomb = (await upload(t, [{ name: 'bomb.png', content: pngHeaderOnly(30_000, 30_000), type: 'image/png' }])).json().files[0].fileId;
      const refused = await thumbnail(bomb);
      assert.equal(refused.statusCode, 413);
      assert.equal(errorOf(refused).code, 'payload_too_large');
    });

    test("another account's file, and a file that does not exist, are 404", async () => {
      const res = await thumbnail(picture, '', { 'x-api-key': t.otherKey });
      assert.equal(res.statusCode, 404);
      assert.equal(errorOf(res).code, 'not_found');
      assert.equal((await thumbnail('file_01JDFX4Q3M9Z7K8R2T5V6W7X8Y')).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/storage/files/${picture}/thumbnail` })).statusCode, 401);
    });

    test('GET of an edit result carries its lineage (source, prompt, plan); other files carry none', async () => {
      const space = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json().spaces[0].id;
      const prompt = 'rotate 90 degrees and add a red 10px border';
      const edit = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key }, payload: { prompt, workspace_id: space, file_id: picture } });
      assert.equal(edit.statusCode, 200, edit.body);
      const result = await t.app.inject({ method: 'GET', url: `/v1/storage/files/${edit.json().file_id}`, headers: { 'x-api-key': t.key } });
      assert.equal(result.statusCode, 200);
      assert.deepEqual(result.json().edit, { sourceFileId: picture, prompt, operations: edit.json().operations });

      const plain = await t.app.inject({ method: 'GET', url: `/v1/storage/files/${picture}`, headers: { 'x-api-key': t.key } });
      assert.equal(plain.json().edit, undefined);
      const listed = (await t.app.inject({ method: 'GET', url: '/v1/storage/files', headers: { 'x-api-key': t.key } })).json().files;
      assert.ok(listed.every((f: Record<string, unknown>) => !('edit' in f)), 'lists stay lean');
    });
  });
}
