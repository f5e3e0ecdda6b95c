import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { dialects } from '../helpers/databases.ts';
import { errorOf, startTestApp, upload, type TestApp } from '../helpers/app.ts';

for (const dialect of await dialects()) {
  describe(`system routes and auth on ${dialect}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    test('health, readiness and metrics need no key', async () => {
      assert.deepEqual((await t.app.inject({ url: '/healthz' })).json(), { status: 'ok' });
      const ready = await t.app.inject({ url: '/readyz' });
      assert.equal(ready.statusCode, 200);
      assert.equal(ready.json().database, dialect);
      await upload(t, [{ name: 'm.txt', content: 'metrics' }]);
      const metrics = await t.app.inject({ url: '/metrics' });
      assert.equal(metrics.statusCode, 200);
      assert.match(metrics.headers['content-type'] as string, /^text\/plain/);
      assert.match(metrics.body, /tessera_http_requests_total\{route="\/v1\/storage\/files",method="POST",status="201"\} 1/);
      assert.match(metrics.body, /tessera_quilt_seals_total [1-9]/);
    });

    test('every answer carries X-Request-Id and a Cache-Control; HTML gets security headers', async () => {
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
      for (const res of [
        await t.app.inject({ url: '/healthz' }),
        await t.app.inject({ url: '/v1/spaces', headers: { 'x-api-key': t.key } }),
        await t.app.inject({ url: '/v1/spaces' }),
        await t.app.inject({ url: '/no/such/route' }),
      ]) {
        assert.match(res.headers['x-request-id'] as string, uuid, res.body);
        assert.ok(res.headers['cache-control'], `cache-control on ${res.statusCode}`);
      }
      assert.equal((await t.app.inject({ url: '/v1/spaces', headers: { 'x-api-key': t.key } })).headers['cache-control'], 'no-store');
      assert.equal((await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-42.a:b' } })).headers['x-request-id'], 'trace-42.a:b', 'a sane caller id is kept');
      const injected = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'x\u0000{"level":60}'.repeat(20) } });
      assert.match(injected.headers['x-request-id'] as string, uuid, 'an unsafe one is replaced');
      const file = (await upload(t, [{ name: 'c.txt', content: 'cache' }])).json().files[0];
      assert.equal((await t.app.inject({ url: `/v1/storage/files/${file.fileId}/content`, headers: { 'x-api-key': t.key } })).headers['cache-control'], 'private, no-cache');
      const docs = await t.app.inject({ url: '/docs/' });
      assert.match(docs.headers['content-type'] as string, /^text\/html/);
      assert.equal(docs.headers['x-content-type-options'], 'nosniff');
      assert.equal(docs.headers['x-frame-options'], 'DENY');
    });

    test('readiness fails when the store is unusable', async () => {
      const tmp = path.join(t.dataDir, 'quilts', 'tmp');
      await fs.rm(tmp, { recursive: true });
      try {
        const res = await t.app.inject({ url: '/readyz' });
        assert.equal(res.statusCode, 503);
        assert.equal(errorOf(res).code, 'provider_unavailable');
      } finally {
        await fs.mkdir(tmp);
      }
    });

    test('the OpenAPI document covers every route, with schemas, and /docs renders it', async () => {
      const doc = (await t.app.inject({ url: '/openapi.json' })).json();
      assert.match(doc.openapi, /^3\.1\./);
      for (const [route, method] of [
        ['/v1/storage/files', 'get'],
        ['/v1/storage/files', 'post'],
        ['/v1/storage/files/{fileId}', 'get'],
        ['/v1/storage/files/{fileId}/content', 'get'],
        ['/v1/storage/files/{fileId}', 'delete'],
        ['/v1/spaces', 'post'],
        ['/v1/spaces', 'get'],
        ['/v1/spaces/{id}', 'get'],
        ['/v1/spaces/{id}', 'delete'],
        ['/healthz', 'get'],
        ['/readyz', 'get'],
      ] as const) {
        assert.ok(doc.paths[route]?.[method], `${method} ${route} documented`);
      }
      assert.ok(doc.paths['/v1/storage/files'].post.requestBody.content['multipart/form-data']);
      assert.ok(doc.paths['/v1/storage/files'].get.responses['200']);
      assert.deepEqual(doc.components.securitySchemes.apiKey, { type: 'apiKey', in: 'header', name: 'x-api-key' });
      assert.ok(doc.components.schemas.FileRecord);
      const docs = await t.app.inject({ url: '/docs/' });
      assert.equal(docs.statusCode, 200);
      assert.match(docs.headers['content-type'] as string, /html/);
    });

    test('missing, unknown and revoked keys are 401', async () => {
      for (const headers of [{}, { 'x-api-key': '' }, { 'x-api-key': 'tsk_wrong' }, { 'x-api-key': 'x'.repeat(10_000) }]) {
        const res = await t.app.inject({ url: '/v1/storage/files', headers });
        assert.equal(res.statusCode, 401);
        assert.equal(errorOf(res).code, 'unauthorized');
      }
      const created = await t.context.keys.create('revoked-account');
      assert.equal((await t.app.inject({ url: '/v1/spaces', headers: { 'x-api-key': created.key } })).statusCode, 200);
      await t.context.keys.revoke(created.id);
      const res = await t.app.inject({ url: '/v1/spaces', headers: { 'x-api-key': created.key } });
      assert.equal(res.statusCode, 401);
      assert.equal(errorOf(res).code, 'unauthorized');
    });

    test('Authorization: Bearer is the same key as x-api-key, with the same scope; two different keys are 401', async () => {
      const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
      assert.equal((await t.app.inject({ url: '/v1/spaces', headers: bearer(t.key) })).statusCode, 200);
      assert.equal((await t.app.inject({ url: '/v1/spaces', headers: { authorization: `bearer  ${t.key}` } })).statusCode, 200, 'the scheme is case-insensitive');
      assert.equal((await t.app.inject({ url: '/v1/spaces', headers: { ...bearer(t.key), 'x-api-key': t.key } })).statusCode, 200, 'the same key twice is fine');
      for (const headers of [bearer('tsk_wrong'), { authorization: 'Bearer' }, { authorization: `Basic ${Buffer.from(`u:${t.key}`).toString('base64')}` }, { ...bearer(t.otherKey), 'x-api-key': t.key }]) {
        const res = await t.app.inject({ url: '/v1/spaces', headers });
        assert.equal(res.statusCode, 401, JSON.stringify(headers));
        assert.equal(errorOf(res).code, 'unauthorized');
      }
      const both = await t.app.inject({ url: '/v1/spaces', headers: { ...bearer(t.otherKey), 'x-api-key': t.key } });
      assert.match(errorOf(both).message, /two different keys/);
      assert.doesNotMatch(both.body, new RegExp(`${t.key}|${t.otherKey}`), 'no key is echoed');
      // The same scope: a read key by Bearer may read, not write.
      const reader = await t.context.keys.create('alice', { scope: 'read' });
      assert.equal((await t.app.inject({ url: '/v1/spaces', headers: bearer(reader.key) })).statusCode, 200);
      const write = await t.app.inject({ method: 'POST', url: '/v1/spaces', headers: bearer(reader.key), payload: { name: 'by-bearer' } });
      assert.equal(write.statusCode, 403);
      assert.equal(errorOf(write).code, 'forbidden');
      // Revoked is revoked, whichever header carries it.
      await t.context.keys.revoke(reader.id);
      assert.equal((await t.app.inject({ url: '/v1/spaces', headers: bearer(reader.key) })).statusCode, 401);
    });

    test('keys are stored only as hashes', async () => {
      const created = await t.context.keys.create('hash-check');
      const rows = await t.context.database.db.selectFrom('api_keys').selectAll().execute();
      assert.ok(rows.every((row) => !Object.values(row).some((value) => String(value).includes(created.key))));
    });

    test('unknown routes are 404 in the error shape', async () => {
      const res = await t.app.inject({ url: '/v1/nothing-here', headers: { 'x-api-key': t.key } });
      assert.equal(res.statusCode, 404);
      assert.equal(errorOf(res).code, 'not_found');
    });

    test('a server-side failure is 500 internal and leaks nothing', async () => {
      const file = (await upload(t, [{ name: 'gone.txt', content: `gone ${Math.random()}` }])).json().files[0];
      const { quiltId } = file.metadata;
      await fs.rm(path.join(t.dataDir, 'quilts', quiltId.slice(0, 2), `${quiltId}.quilt`));
      const res = await t.app.inject({ url: `/v1/storage/files/${file.fileId}/content`, headers: { 'x-api-key': t.key } });
      assert.equal(res.statusCode, 500);
      assert.equal(errorOf(res).code, 'internal');
      assert.match(errorOf(res).message, /^internal error \(request [^)]+\)$/);
      assert.doesNotMatch(res.body, /quilt|ENOENT|\/tmp|stack/i);
    });
  });

  describe(`rate limiting on ${dialect}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { TESSERA_RATE_LIMIT_MAX: '3', TESSERA_RATE_LIMIT_WINDOW_MS: '60000' });
    });
    after(() => t.close());

    test('past the limit a key gets 429 with Retry-After; other keys are unaffected', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await t.app.inject({ url: '/v1/spaces', headers: { 'x-api-key': t.key } })).statusCode, 200);
      const limited = await t.app.inject({ url: '/v1/spaces', headers: { 'x-api-key': t.key } });
      assert.equal(limited.statusCode, 429);
      assert.equal(errorOf(limited).code, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.equal((await t.app.inject({ url: '/v1/spaces', headers: { authorization: `Bearer ${t.key}` } })).statusCode, 429, 'the same key by Bearer is the same count');
      assert.equal((await t.app.inject({ url: '/v1/spaces', headers: { 'x-api-key': t.otherKey } })).statusCode, 200);
      assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200, 'health is never limited');
    });
  });
}
