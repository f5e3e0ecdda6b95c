import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { buildApp } from '../../src/http/app.ts';
import { LinksService } from '../../src/services/links.service.ts';
import { dialects } from '../helpers/databases.ts';
import { errorOf, startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { redBlue } from '../helpers/images.ts';

const SECRET = 'a-configured-link-secret-of-32-characters-or-more';

for (const dialect of await dialects()) {
  describe(`signed links on ${dialect}`, () => {
    let t: TestApp;
    let picture: string;
    let text: string;
    let bytes: Buffer;

    before(async () => {
      t = await startTestApp(dialect, { TESSERA_LINK_MAX_EXPIRES_SECONDS: '86400' });
      bytes = await redBlue();
      picture = (await upload(t, [{ name: 'pic.png', content: bytes, type: 'image/png' }])).json().files[0].fileId;
      text = (await upload(t, [{ name: 'page.html', content: '<script>alert(1)</script>', type: 'text/html' }])).json().files[0].fileId;
    });
    after(() => t.close());

    const makeLink = (fileId: string, body: object, key = t.key) => t.app.inject({ method: 'POST', url: `/v1/storage/files/${fileId}/links`, headers: { 'x-api-key': key }, payload: body });
    const pathOf = (url: string) => {
      const u = new URL(url);
      return u.pathname + u.search;
    };
    /** Fetches a link as a browser would: no key at all. */
    const open = (path: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: path, headers });
    const keyed = (path: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: path, headers: { 'x-api-key': t.key, ...headers } });

    test('a link serves the bytes without a key, exactly like the keyed route', async () => {
      const res = await makeLink(picture, { expires_in: 3600 });
      assert.equal(res.statusCode, 201, res.body);
      const { url, expires_at } = res.json();
      assert.match(url, /^http:\/\/localhost(:80)?\/links\/files\/file_\w+\/content\?expires=\d+&sig=[\w-]{43}$/);
      const lifetime = Date.parse(expires_at) - Date.now();
      assert.ok(lifetime > 3590_000 && lifetime <= 3600_000, `expires in an hour: ${expires_at}`);
      const viaLink = await open(pathOf(url));
      const viaKey = await keyed(`/v1/storage/files/${picture}/content`);
      assert.equal(viaLink.statusCode, 200, viaLink.body);
      assert.deepEqual(viaLink.rawPayload, bytes);
      for (const header of ['content-type', 'content-length', 'etag', 'accept-ranges', 'cache-control', 'x-content-type-options', 'content-security-policy', 'content-disposition']) {
        assert.equal(viaLink.headers[header], viaKey.headers[header], header);
      }
      const partial = await open(pathOf(url), { range: 'bytes=0-9' });
      assert.equal(partial.statusCode, 206);
      assert.equal(partial.headers['content-range'], `bytes 0-9/${bytes.length}`);
      assert.deepEqual(partial.rawPayload, bytes.subarray(0, 10));
      assert.equal((await open(pathOf(url), { 'if-none-match': String(viaLink.headers.etag) })).statusCode, 304);
      const outside = await open(pathOf(url), { range: `bytes=${bytes.length + 5}-` });
      assert.equal(outside.statusCode, 416);
      assert.equal(errorOf(outside).code, 'invalid_request');
    });

    test('download links are attachments; anything not safe to render is an attachment anyway', async () => {
      const download = await open(pathOf((await makeLink(picture, { expires_in: 60, download: true })).json().url));
      assert.match(String(download.headers['content-disposition']), /^attachment; filename="pic.png"/);
      const html = await open(pathOf((await makeLink(text, { expires_in: 60 })).json().url));
      assert.equal(html.statusCode, 200);
      assert.match(String(html.headers['content-disposition']), /^attachment;/);
      assert.match(String(html.headers['content-security-policy']), /sandbox/);
    });

    test('a thumbnail link serves the keyed thumbnail; other files have none', async () => {
      const { url } = (await makeLink(picture, { expires_in: 600, thumbnail_width: 64 })).json();
      assert.match(url, /\/links\/files\/file_\w+\/thumbnail\?expires=\d+&width=64&sig=/);
      const viaLink = await open(pathOf(url));
      const viaKey = await keyed(`/v1/storage/files/${picture}/thumbnail?width=64`);
      assert.equal(viaLink.statusCode, 200, viaLink.body);
      assert.equal(viaLink.headers['content-type'], 'image/webp');
      assert.equal(viaLink.headers.etag, viaKey.headers.etag);
      assert.deepEqual(viaLink.rawPayload, viaKey.rawPayload);
      const maxAge = Number(/max-age=(\d+)/.exec(String(viaLink.headers['cache-control']))?.[1]);
      assert.ok(maxAge > 0 && maxAge <= 600, 'not cached past the link');
      assert.equal((await sharp(viaLink.rawPayload).metadata()).width, 64);
      assert.equal((await open(pathOf(url), { 'if-none-match': String(viaLink.headers.etag) })).statusCode, 304);
      const refused = await makeLink(text, { expires_in: 60, thumbnail_width: 64 });
      assert.equal(refused.statusCode, 422);
      assert.equal(errorOf(refused).code, 'not_an_image');
    });

    test('an altered link is 403, and says the same whether or not the file exists', async () => {
      const { url } = (await makeLink(picture, { expires_in: 600 })).json();
      const path = pathOf(url);
      const sig = new URL(url).searchParams.get('sig')!;
      const expires = new URL(url).searchParams.get('expires')!;
      const flipped = sig.startsWith('A') ? `B${sig.slice(1)}` : `A${sig.slice(1)}`;
      const otherFile = (await upload(t, [{ name: 'other.png', content: await redBlue('jpeg') }])).json().files[0].fileId;
      const tampered = [
        path.replace(sig, flipped),
        path.replace(`expires=${expires}`, `expires=${Number(expires) + 86400}`),
        path.replace(picture, otherFile),
        path.replace('/content?', '/thumbnail?width=64&'),
        `${path}&download=1`,
        path.replace(/&sig=.*/, ''),
        path.replace(`expires=${expires}`, 'expires=soon'),
        `${path}x`,
        path.replace(picture, 'file_01JC0000000000000000000000'),
      ];
      const bodies = new Set<string>();
      for (const attempt of tampered) {
        const res = await open(attempt);
        assert.equal(res.statusCode, 403, `${attempt}: ${res.body}`);
        assert.equal(errorOf(res).code, 'forbidden');
        assert.equal(res.headers['content-disposition'], undefined);
        bodies.add(errorOf(res).message);
      }
      assert.deepEqual([...bodies], ['this link is not valid; ask for a new link'], 'one answer for every alteration, existing file or not');
      // The key does not help either: a link is its own credential.
      assert.equal((await keyed(path.replace(sig, flipped))).statusCode, 403);
    });

    test('an expired link is 403; a deleted file stops its links at once', async () => {
      const old = await t.context.links.create(t.context.keys && (await t.context.keys.authenticate(t.key))!, picture, { expiresInSeconds: 60 }, Date.now() - 61_000);
      const expired = await open(old.pathAndQuery);
      assert.equal(expired.statusCode, 403);
      assert.equal(errorOf(expired).message, 'this link has expired; ask for a new link');
      const victim = (await upload(t, [{ name: 'gone.png', content: await redBlue('jpeg') }])).json().files[0].fileId;
      const link = pathOf((await makeLink(victim, { expires_in: 3600 })).json().url);
      const thumb = pathOf((await makeLink(victim, { expires_in: 3600, thumbnail_width: 32 })).json().url);
      assert.equal((await open(link)).statusCode, 200);
      assert.equal((await open(thumb)).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${victim}`, headers: { 'x-api-key': t.key } })).statusCode, 204);
      for (const gone of [link, thumb]) {
        const res = await open(gone);
        assert.equal(res.statusCode, 404, res.body);
        assert.equal(errorOf(res).code, 'not_found');
      }
    });

    test("links are made by the file's account only, within the allowed lifetime", async () => {
      const other = await makeLink(picture, { expires_in: 60 }, t.otherKey);
      assert.equal(other.statusCode, 404);
      assert.equal(errorOf(other).code, 'not_found');
      for (const body of [{ expires_in: 0 }, { expires_in: 86401 }, { expires_in: 1.5 }, {}, { expires_in: 60, thumbnail_width: 5 }, { expires_in: 60, thumbnail_width: 999999 }, { expires_in: 60, extra: 1 }]) {
        const res = await makeLink(picture, body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
        assert.equal(errorOf(res).code, 'invalid_request');
      }
      assert.match(errorOf(await makeLink(picture, { expires_in: 86401 })).message, /TESSERA_LINK_MAX_EXPIRES_SECONDS/);
    });

    test('every replica verifies every link: the generated secret is kept in the shared database', async () => {
      const { url } = (await makeLink(picture, { expires_in: 600 })).json();
      const replica = await createContext(loadConfig({ TESSERA_DATA_DIR: t.dataDir, DATABASE_URL: t.context.config.databaseUrl, TESSERA_CONSOLE_DIR: 'off' }));
      const app = await buildApp(replica);
      try {
        const res = await app.inject({ method: 'GET', url: pathOf(url) });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.rawPayload, bytes);
      } finally {
        await app.close();
        await replica.close();
      }
    });

    test('rotation: the previous secret verifies until its links expire; without it they stop', async () => {
      const limits = { maxExpiresSeconds: 3600, thumbnailMaxWidth: 2048 };
      const before = new LinksService(t.context.files, { current: SECRET }, limits);
      const link = await before.create(t.context.keys && (await t.context.keys.authenticate(t.key))!, picture, { expiresInSeconds: 600 });
      const [path, query] = link.pathAndQuery.split('?') as [string, string];
      const fileId = path.split('/')[3]!;
      const parsed = Object.fromEntries(new URLSearchParams(query));
      const rotated = new LinksService(t.context.files, { current: `${SECRET}-next`, previous: SECRET }, limits);
      assert.equal((await rotated.open('content', fileId, parsed)).file.id, picture);
      const forgotten = new LinksService(t.context.files, { current: `${SECRET}-next` }, limits);
      await assert.rejects(forgotten.open('content', fileId, parsed), (error: { code?: string }) => error.code === 'forbidden');
      // And through HTTP with the settings themselves.
      const replica = await createContext(
        loadConfig({ TESSERA_DATA_DIR: t.dataDir, DATABASE_URL: t.context.config.databaseUrl, TESSERA_CONSOLE_DIR: 'off', TESSERA_LINK_SECRET: `${SECRET}-next`, TESSERA_LINK_PREVIOUS_SECRET: SECRET, TESSERA_PUBLIC_URL: 'https://files.example.com/' }),
      );
      const app = await buildApp(replica);
      try {
        assert.equal((await app.inject({ method: 'GET', url: link.pathAndQuery })).statusCode, 200);
        const made = await app.inject({ method: 'POST', url: `/v1/storage/files/${picture}/links`, headers: { 'x-api-key': t.key }, payload: { expires_in: 60 } });
        assert.match(made.json().url, /^https:\/\/files\.example\.com\/links\/files\//, 'TESSERA_PUBLIC_URL gives the origin');
        // The database's generated secret is not the configured one: links of the other replica fail here.
        const fromOther = pathOf((await makeLink(picture, { expires_in: 60 })).json().url);
        assert.equal((await app.inject({ method: 'GET', url: fromOther })).statusCode, 403);
      } finally {
        await app.close();
        await replica.close();
      }
    });
  });
}
