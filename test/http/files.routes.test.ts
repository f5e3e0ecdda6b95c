import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { createContext } from '../../src/context.ts';
import { buildApp } from '../../src/http/app.ts';
import { dialects } from '../helpers/databases.ts';
import { errorOf, multipart, startTestApp, upload, type TestApp } from '../helpers/app.ts';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('base64url');

interface FileRec {
  fileId: string;
  sizeBytes: string;
  mimeType: string;
  name: string;
  createdAt: string;
  workspaceId: string;
  metadata: { blobId: string; quiltId: string; quiltPatchId: string };
}

for (const dialect of await dialects()) {
  describe(`files routes on ${dialect}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { TESSERA_MAX_FILE_BYTES: String(64 * 1024), TESSERA_MAX_FILES_PER_UPLOAD: '5' });
    });
    after(() => t.close());

    const get = (url: string, key = t.key, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { 'x-api-key': key, ...headers } });

    async function listAll(query = '', limit = 2): Promise<FileRec[]> {
      const seen: FileRec[] = [];
      let cursor = '';
      for (let page = 0; page < 1000; page++) {
        const res = await get(`/v1/storage/files?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json() as { files: FileRec[]; pagination: { hasMore: boolean; cursor: string } };
        assert.ok(body.files.length <= limit);
        seen.push(...body.files);
        if (!body.pagination.hasMore) {
          assert.equal(body.pagination.cursor, '');
          return seen;
        }
        cursor = encodeURIComponent(body.pagination.cursor);
      }
      throw new Error('pagination did not end');
    }

    test('upload answers 201 with complete FileRecords, and the bytes read back', async () => {
      const res = await upload(t, [
        { name: 'hello.txt', content: 'hello world', type: 'text/plain' },
        { name: 'pixel.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
      ]);
      assert.equal(res.statusCode, 201, res.body);
      const files = res.json().files as FileRec[];
      assert.equal(files.length, 2);
      const [text, png] = files as [FileRec, FileRec];
      assert.match(text.fileId, /^file_[0-9A-Z]{26}$/);
      assert.equal(text.sizeBytes, '11');
      assert.equal(text.mimeType, 'text/plain');
      assert.equal(png.mimeType, 'image/png', 'octet-stream is refined from the extension');
      assert.match(text.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(text.metadata.blobId, sha('hello world'));
      assert.equal(text.metadata.quiltId, png.metadata.quiltId, 'files of one request share a quilt');
      assert.notEqual(text.metadata.quiltPatchId, png.metadata.quiltPatchId);
      const one = await get(`/v1/storage/files/${text.fileId}`);
      assert.deepEqual(one.json(), text);
      const content = await get(`/v1/storage/files/${text.fileId}/content`);
      assert.equal(content.statusCode, 200);
      assert.equal(content.body, 'hello world');
      assert.equal(content.headers['content-type'], 'text/plain');
      assert.equal(content.headers.etag, `"${text.metadata.blobId}"`);
      assert.equal(content.headers['content-length'], '11');
      assert.equal(content.headers['x-content-type-options'], 'nosniff');
    });

    test('list pages newest first, every file exactly once, while new uploads arrive', async () => {
      const before = await listAll();
      for (let i = 0; i < 5; i++) assert.equal((await upload(t, [{ name: `n${i}.txt`, content: `file ${i} ${Math.random()}` }])).statusCode, 201);
      const existing = await listAll();
      assert.equal(existing.length, before.length + 5);
      // Walk the chain while uploads keep arriving: the files that existed appear exactly once.
      const seen: FileRec[] = [];
      let cursor = '';
      let extra = 0;
      for (;;) {
        const res = await get(`/v1/storage/files?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        const body = res.json() as { files: FileRec[]; pagination: { hasMore: boolean; cursor: string } };
        seen.push(...body.files);
        await upload(t, [{ name: `late${extra++}.txt`, content: `late ${Math.random()}` }]);
        if (!body.pagination.hasMore) break;
        cursor = body.pagination.cursor;
      }
      const ids = seen.map((f) => f.fileId);
      assert.equal(new Set(ids).size, ids.length, 'no file twice');
      for (const file of existing) assert.ok(ids.includes(file.fileId), `${file.fileId} listed`);
      const ordered = [...seen].sort((a, b) => (a.createdAt === b.createdAt ? (a.fileId < b.fileId ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
      assert.deepEqual(ids, ordered.map((f) => f.fileId), 'createdAt desc, then fileId desc');
    });

    test('a page of the list is what the OpenAPI document says, whatever the names hold', async () => {
      const names = ['quote " and {"json": [1]}.txt', 'naïve café 写真 😀.txt', '<script>&amp;.html'];
      // The raw-body upload takes the name in the query: any character, where a multipart header could not hold a quote.
      for (const name of names) {
        const res = await t.app.inject({ method: 'POST', url: `/v1/storage/files/raw?name=${encodeURIComponent(name)}`, headers: { 'x-api-key': t.key, 'content-type': 'text/plain' }, payload: `named ${name}` });
        assert.equal(res.statusCode, 201, res.body);
      }
      const doc = (await t.app.inject({ url: '/openapi.json' })).json();
      const ajv = new Ajv({ strict: false });
      (addFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
      for (const [id, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema as object, `#/components/schemas/${id}`);
      const validate = ajv.compile(doc.paths['/v1/storage/files'].get.responses['200'].content['application/json'].schema);
      const res = await get('/v1/storage/files?limit=10');
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      const body = res.json() as { files: FileRec[] };
      assert.ok(validate(body), JSON.stringify(validate.errors));
      const listed = body.files.map((f) => f.name);
      for (const name of names) assert.ok(listed.includes(name), `${name} listed as it was given`);
      for (const file of body.files) assert.deepEqual((await get(`/v1/storage/files/${file.fileId}`)).json(), file, 'the same record as GET of the file');
    });

    test('a small file read again is answered from memory, counted in /metrics; a Range of it too', async () => {
      const up = await upload(t, [{ name: 'hot.txt', content: 'read me often, read me fast' }]);
      const { fileId } = (up.json() as { files: FileRec[] }).files[0]!;
      const lookups = async (result: string) => {
        const text = (await t.app.inject({ url: '/metrics' })).body;
        return Number(new RegExp(`tessera_read_cache_lookups_total\\{result="${result}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
      };
      const [hits, misses] = [await lookups('hit'), await lookups('miss')];
      assert.equal((await get(`/v1/storage/files/${fileId}/content`)).body, 'read me often, read me fast');
      assert.equal(await lookups('miss'), misses + 1, 'the first read is from the store');
      assert.equal((await get(`/v1/storage/files/${fileId}/content`)).body, 'read me often, read me fast');
      const ranged = await get(`/v1/storage/files/${fileId}/content`, t.key, { range: 'bytes=5-11' });
      assert.equal(ranged.statusCode, 206);
      assert.equal(ranged.body, 'me ofte');
      assert.equal(await lookups('hit'), hits + 2, 'the next two are from memory');
    });

    test('a page held is answered 304 while it is unchanged, and read again once it changes', async () => {
      await upload(t, [{ name: 'held.txt', content: `held ${Math.random()}` }]);
      const first = await get('/v1/storage/files?limit=3');
      assert.equal(first.statusCode, 200);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"l[\w-]{27}"$/);
      // Kept by the client that sends the tag, never by a browser's cache.
      assert.equal(first.headers['cache-control'], 'no-store');
      for (const held of [etag, `W/${etag}`, `"other", ${etag}`]) {
        const again = await get('/v1/storage/files?limit=3', t.key, { 'if-none-match': held });
        assert.equal(again.statusCode, 304, held);
        assert.equal(again.body, '');
        assert.equal(again.headers.etag, etag);
        // No body and no length of one (a 304's Content-Length would have to be the page's).
        assert.equal(again.headers['content-length'], undefined);
        assert.equal(again.headers['content-type'], undefined);
      }
      // "*" would match an empty page too, which has no tag: not honoured.
      assert.equal((await get('/v1/storage/files?limit=3', t.key, { 'if-none-match': '*' })).statusCode, 200);
      // Another page, or another account, is not the page held.
      assert.equal((await get('/v1/storage/files?limit=4', t.key, { 'if-none-match': etag })).statusCode, 200);
      const theirs = await get('/v1/storage/files?limit=3', t.otherKey, { 'if-none-match': etag });
      assert.notEqual(theirs.statusCode, 304);
      // A bad cursor or an unknown Space is refused as without the header.
      assert.equal((await get('/v1/storage/files?cursor=nope', t.key, { 'if-none-match': etag })).statusCode, 400);
      assert.equal((await get('/v1/storage/files?workspace_id=spc_01ABCDEFGHJKMNPQRSTVWXYZ01', t.key, { 'if-none-match': etag })).statusCode, 404);
      // An upload changes the page: the tag held no longer matches, and the answer holds the new file.
      const added = (await upload(t, [{ name: 'newer.txt', content: `newer ${Math.random()}` }])).json().files[0] as FileRec;
      const changed = await get('/v1/storage/files?limit=3', t.key, { 'if-none-match': etag });
      assert.equal(changed.statusCode, 200);
      assert.notEqual(changed.headers.etag, etag);
      assert.equal((changed.json() as { files: FileRec[] }).files[0]!.fileId, added.fileId);
      // So does a delete.
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${added.fileId}`, headers: { 'x-api-key': t.key } })).statusCode, 204);
      assert.equal((await get('/v1/storage/files?limit=3', t.key, { 'if-none-match': String(changed.headers.etag) })).statusCode, 200);
    });

    test('one tag never names two pages, while two replicas answer readers and writers change the list at once', async () => {
      // Its own app and account, and a second replica on the same database: a tag must name one
      // page on both, with the list cache on (the first replica) and off (the second).
      const own = await startTestApp(dialect, { TESSERA_RATE_LIMIT_MAX: '1000000000' });
      const other = await createContext({ ...own.context.config, listCacheBytes: 0 });
      const second = await buildApp(other);
      try {
        const replicas = [own.app, second];
        for (let i = 0; i < 4; i++) await upload(own, [{ name: `seed${i}`, content: `seed ${i} ${Math.random()}` }]);
        const pages = new Map<string, string>();
        let writes = 0;
        let stop = false;
        let answered304 = 0;
        // A writer that fails stops everyone, so that the test fails rather than waits.
        const writers = Promise.all([0, 1, 2].map(async (w) => {
          const mine: string[] = [];
          while (!stop) {
            const on = replicas[(writes + w) % 2]!;
            if (mine.length > 2 && writes % 3 === 0) {
              const id = mine.shift()!;
              assert.equal((await on.inject({ method: 'DELETE', url: `/v1/storage/files/${id}`, headers: { 'x-api-key': own.key } })).statusCode, 204);
            } else {
              const { body, headers } = multipart([{ name: `w${writes}.txt`, content: `w ${writes} ${Math.random()}` }]);
              const res = await on.inject({ method: 'POST', url: '/v1/storage/files', headers: { ...headers, 'x-api-key': own.key }, payload: body });
              assert.equal(res.statusCode, 201, res.body);
              mine.push((res.json() as { files: FileRec[] }).files[0]!.fileId);
            }
            writes++;
          }
        })).catch((error: unknown) => {
          stop = true;
          throw error;
        });
        const readers = Array.from({ length: 6 }, async (_, r) => {
          let held: string | undefined;
          for (let i = 0; writes < 90 && !stop; i++) {
            await new Promise((resolve) => setImmediate(resolve));
            const res = await replicas[(i + r) % 2]!.inject({ url: '/v1/storage/files?limit=3', headers: { 'x-api-key': own.key, ...(held ? { 'if-none-match': held } : {}) } });
            if (res.statusCode === 304) {
              answered304++;
              assert.equal(res.headers.etag, held);
              continue;
            }
            assert.equal(res.statusCode, 200);
            held = String(res.headers.etag);
            const seen = pages.get(held);
            if (seen !== undefined) assert.equal(res.body, seen, `the tag ${held} named two pages`);
            pages.set(held, res.body);
          }
        });
        await Promise.all([Promise.all(readers).finally(() => (stop = true)), writers]);
        assert.ok(pages.size > 10 && answered304 > 0, `${pages.size} pages, ${answered304} answered 304`);
      } finally {
        await second.close();
        await other.close();
        await own.close();
      }
    });

    test('limit defaults to 100 and is bounded to 1..1000', async () => {
      for (const bad of ['0', '1001', '-1', 'abc', '1.5', '']) {
        const res = await get(`/v1/storage/files?limit=${bad}`);
        assert.equal(res.statusCode, 400, `limit=${bad}`);
        assert.equal(errorOf(res).code, 'invalid_request');
      }
      assert.equal((await get('/v1/storage/files?limit=1000')).statusCode, 200);
      const all = await get('/v1/storage/files');
      assert.ok(all.json().files.length <= 100);
    });

    test('a cursor this server did not issue is invalid_cursor', async () => {
      for (const bad of ['garbage!', 'WzEsMl0', Buffer.from('[1,"file_x"]').toString('base64url'), 'a'.repeat(300)]) {
        const res = await get(`/v1/storage/files?cursor=${bad}`);
        assert.equal(res.statusCode, 400, bad);
        assert.equal(errorOf(res).code, bad.length > 200 ? 'invalid_request' : 'invalid_cursor');
      }
    });

    test('workspace_id filters the list and places uploads; unknown Spaces are 404', async () => {
      const space = (await t.app.inject({ method: 'POST', url: '/v1/spaces', headers: { 'x-api-key': t.key }, payload: { name: `w-${Math.random()}` } })).json();
      const viaField = await upload(t, [{ name: 'in-space.txt', content: `space ${Math.random()}` }], { fields: { workspace_id: space.id } });
      assert.equal(viaField.statusCode, 201, viaField.body);
      const viaQuery = await upload(t, [{ name: 'in-space2.txt', content: `space ${Math.random()}` }], { query: `?workspace_id=${space.id}` });
      assert.equal(viaQuery.statusCode, 201);
      const listed = await listAll(`&workspace_id=${space.id}`);
      assert.deepEqual(listed.map((f) => f.name).sort(), ['in-space.txt', 'in-space2.txt']);
      assert.ok(listed.every((f) => f.workspaceId === space.id));
      assert.equal((await get('/v1/storage/files?workspace_id=spc_01ABCDEFGHJKMNPQRSTVWXYZ01')).statusCode, 404);
      const missing = await upload(t, [{ name: 'x.txt', content: 'nope' }], { fields: { workspace_id: 'spc_01ABCDEFGHJKMNPQRSTVWXYZ01' } });
      assert.equal(missing.statusCode, 404);
      assert.equal(errorOf(missing).code, 'not_found');
    });

    test('the same bytes of two accounts are stored twice: no deduplication across accounts', async () => {
      const content = `two accounts ${Math.random()}`;
      const mine = (await upload(t, [{ name: 'mine.txt', content }])).json().files[0] as FileRec;
      const theirs = (await upload(t, [{ name: 'theirs.txt', content }], { key: t.otherKey })).json().files[0] as FileRec;
      assert.equal(theirs.metadata.blobId, mine.metadata.blobId, 'the same content id');
      assert.notEqual(theirs.metadata.quiltPatchId, mine.metadata.quiltPatchId, 'written again, not found');
      const rows = await t.context.database.db.selectFrom('blobs').select('quilt_patch_id').where('blob_id', 'like', `%${mine.metadata.blobId}`).execute();
      assert.equal(rows.length, 2, 'one blob row per account');
      // Either account deleting its file leaves the other's bytes alone.
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${mine.fileId}`, headers: { 'x-api-key': t.key } })).statusCode, 204);
      assert.equal((await get(`/v1/storage/files/${theirs.fileId}/content`, t.otherKey)).body, content);

      // Arriving together (one quilt, perhaps), they still get a patch each.
      const together = `together ${Math.random()}`;
      const [one, two] = await Promise.all([t.key, t.otherKey].map(async (key) => (await upload(t, [{ name: 'x.txt', content: together }], { key })).json().files[0] as FileRec));
      assert.notEqual(one!.metadata.quiltPatchId, two!.metadata.quiltPatchId);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${one!.fileId}`, headers: { 'x-api-key': t.key } })).statusCode, 204);
      assert.equal((await get(`/v1/storage/files/${two!.fileId}/content`, t.otherKey)).body, together);
    });

    test('identical bytes are stored once; deleting one file keeps the other readable', async () => {
      const content = `dedup ${Math.random()}`;
      const a = (await upload(t, [{ name: 'a.txt', content }])).json().files[0] as FileRec;
      const b = (await upload(t, [{ name: 'b.txt', content }])).json().files[0] as FileRec;
      assert.notEqual(a.fileId, b.fileId);
      assert.deepEqual(a.metadata, b.metadata, 'same blob, same patch');
      const other = (await upload(t, [{ name: 'c.txt', content }], { key: t.otherKey })).json().files[0] as FileRec;
      assert.equal(other.metadata.blobId, a.metadata.blobId);
      const del = await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${a.fileId}`, headers: { 'x-api-key': t.key } });
      assert.equal(del.statusCode, 204);
      assert.equal(del.body, '');
      assert.equal((await get(`/v1/storage/files/${a.fileId}`)).statusCode, 404);
      assert.equal((await get(`/v1/storage/files/${a.fileId}/content`)).statusCode, 404);
      assert.equal((await get(`/v1/storage/files/${b.fileId}/content`)).body, content);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${a.fileId}`, headers: { 'x-api-key': t.key } })).statusCode, 404);
    });

    test('deleting the last file of a large blob removes its quilt from disk', async () => {
      const big = Buffer.alloc(40 * 1024, 7);
      const t2 = await startTestApp(dialect, { TESSERA_QUILT_INLINE_MAX_BYTES: '1024' });
      try {
        const file = (await upload(t2, [{ name: 'big.bin', content: big }])).json().files[0] as FileRec;
        const quilt = path.join(t2.dataDir, 'quilts', file.metadata.quiltId.slice(0, 2), `${file.metadata.quiltId}.quilt`);
        await fs.access(quilt);
        assert.equal((await t2.app.inject({ method: 'DELETE', url: `/v1/storage/files/${file.fileId}`, headers: { 'x-api-key': t2.key } })).statusCode, 204);
        await assert.rejects(fs.access(quilt));
        assert.deepEqual(await fs.readdir(path.join(t2.dataDir, 'quilts', 'tmp')), []);
      } finally {
        await t2.close();
      }
    });

    test('Range requests answer 206 with the slice; outside the file is 416', async () => {
      const bytes = Buffer.from('0123456789abcdef');
      const file = (await upload(t, [{ name: 'r.bin', content: bytes }])).json().files[0] as FileRec;
      const url = `/v1/storage/files/${file.fileId}/content`;
      const cases: Array<[string, string, string]> = [
        ['bytes=0-3', '0123', 'bytes 0-3/16'],
        ['bytes=10-', 'abcdef', 'bytes 10-15/16'],
        ['bytes=-2', 'ef', 'bytes 14-15/16'],
        ['bytes=15-99', 'f', 'bytes 15-15/16'],
      ];
      for (const [range, body, contentRange] of cases) {
        const res = await get(url, t.key, { range });
        assert.equal(res.statusCode, 206, range);
        assert.equal(res.body, body, range);
        assert.equal(res.headers['content-range'], contentRange);
      }
      const outside = await get(url, t.key, { range: 'bytes=16-' });
      assert.equal(outside.statusCode, 416);
      assert.equal(outside.headers['content-range'], 'bytes */16');
      assert.equal(errorOf(outside).code, 'invalid_request');
      assert.equal((await get(url, t.key, { range: 'bytes=0-1', 'if-range': '"other"' })).statusCode, 200);
      const unchanged = await get(url, t.key, { 'if-none-match': `"${file.metadata.blobId}"` });
      assert.equal(unchanged.statusCode, 304);
      // No Content-Length but the 200's may go with a 304: none at all, as it has no body.
      assert.equal(unchanged.headers['content-length'], undefined);
      const head = await t.app.inject({ method: 'HEAD', url, headers: { 'x-api-key': t.key } });
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers['content-length'], '16');
    });

    test('Content-Disposition is safe for any name; risky types download', async () => {
      const name = 'résumé; 100%, 日本 (1).html';
      const file = (await upload(t, [{ name, content: '<script>alert(1)</script>', type: 'text/html' }])).json().files[0] as FileRec;
      const res = await get(`/v1/storage/files/${file.fileId}/content`);
      const disposition = String(res.headers['content-disposition']);
      assert.match(disposition, /^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''/);
      assert.equal(decodeURIComponent(disposition.split("UTF-8''")[1]!), name);
      assert.match(String(res.headers['content-security-policy']), /sandbox/);
      const png = (await upload(t, [{ name: 'p.png', content: 'x', type: 'image/png' }])).json().files[0] as FileRec;
      assert.match(String((await get(`/v1/storage/files/${png.fileId}/content`)).headers['content-disposition']), /^inline;/);
      assert.match(String((await get(`/v1/storage/files/${png.fileId}/content?download=true`)).headers['content-disposition']), /^attachment;/);
    });

    test('file names lose directories and control characters; empty files are fine', async () => {
      const res = await upload(t, [{ name: '../../etc/pass\u0007wd', content: '' }]);
      assert.equal(res.statusCode, 201, res.body);
      const file = res.json().files[0] as FileRec;
      assert.equal(file.name, 'passwd');
      assert.equal(file.sizeBytes, '0');
      assert.equal((await get(`/v1/storage/files/${file.fileId}/content`)).body, '');
    });

    test('bad uploads are refused and leave nothing behind', async () => {
      const before = (await listAll('', 1000)).length;
      const quilts = async () => (await fs.readdir(path.join(t.dataDir, 'quilts'), { recursive: true })).filter((f) => String(f).endsWith('.quilt')).length;
      const quiltsBefore = await quilts();
      const tooBig = await upload(t, [{ name: 'ok.txt', content: 'fine' }, { name: 'big.bin', content: Buffer.alloc(64 * 1024 + 1) }]);
      assert.equal(tooBig.statusCode, 413);
      assert.equal(errorOf(tooBig).code, 'payload_too_large');
      const tooMany = await upload(t, Array.from({ length: 6 }, (_, i) => ({ name: `m${i}.txt`, content: `many ${i}` })));
      assert.equal(tooMany.statusCode, 413);
      const noFile = await upload(t, [], { fields: { workspace_id: 'spc_x' } });
      assert.equal(noFile.statusCode, 400);
      assert.equal(errorOf(noFile).code, 'invalid_request');
      const wrongField = await upload(t, [{ name: 'a.txt', content: 'a', field: 'document' }]);
      assert.equal(wrongField.statusCode, 400);
      const unknownField = await upload(t, [{ name: 'a.txt', content: 'a' }], { fields: { colour: 'red' } });
      assert.equal(unknownField.statusCode, 400);
      const json = await t.app.inject({ method: 'POST', url: '/v1/storage/files', headers: { 'x-api-key': t.key }, payload: { file: 'x' } });
      assert.equal(json.statusCode, 415);
      assert.equal(errorOf(json).code, 'unsupported_media_type');
      const { body, headers } = multipart([{ name: 'cut.txt', content: 'x'.repeat(1000) }]);
      const truncated = await t.app.inject({ method: 'POST', url: '/v1/storage/files', headers: { ...headers, 'x-api-key': t.key }, payload: body.subarray(0, body.length - 300) });
      assert.equal(truncated.statusCode, 400, truncated.body);
      assert.equal((await listAll('', 1000)).length, before, 'no file was added');
      assert.equal(await quilts(), quiltsBefore, 'no quilt was written');
      assert.deepEqual(await fs.readdir(path.join(t.dataDir, 'quilts', 'tmp')), []);
    });

    test("another account's files are 404 on every route", async () => {
      const mine = (await upload(t, [{ name: 'secret.txt', content: `secret ${Math.random()}` }])).json().files[0] as FileRec;
      for (const url of [`/v1/storage/files/${mine.fileId}`, `/v1/storage/files/${mine.fileId}/content`]) {
        const res = await get(url, t.otherKey);
        assert.equal(res.statusCode, 404, url);
        assert.equal(errorOf(res).code, 'not_found');
      }
      const del = await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${mine.fileId}`, headers: { 'x-api-key': t.otherKey } });
      assert.equal(del.statusCode, 404);
      const theirs = (await get('/v1/storage/files?limit=1000', t.otherKey)).json().files as FileRec[];
      assert.ok(!theirs.some((f) => f.fileId === mine.fileId));
      assert.equal((await get(`/v1/storage/files/${mine.fileId}`)).statusCode, 200, 'still there for its owner');
    });
  });
}
