import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { dialects } from '../helpers/databases.ts';
import { errorOf, multipart, startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { pngHeaderOnly, redBlue } from '../helpers/images.ts';

const CONTRACT_STATUSES = new Set([200, 201, 204, 206, 304, 400, 401, 403, 404, 409, 413, 414, 415, 416, 422, 429, 503]);

/** Deterministic pseudo-random numbers: a failing fuzz run can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

for (const dialect of await dialects()) {
  describe(`hostile input on ${dialect}`, () => {
    let t: TestApp;
    let spaceId: string;
    before(async () => {
      t = await startTestApp(dialect, { TESSERA_MAX_JSON_BYTES: '4096', TESSERA_MAX_FILES_PER_UPLOAD: '3', TESSERA_MAX_FILE_BYTES: '100000' });
      spaceId = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json().spaces[0].id;
    });
    after(() => t.close());

    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, options: { payload?: string | Buffer | object; headers?: Record<string, string> } = {}) =>
      t.app.inject({ method, url, headers: { 'x-api-key': t.key, ...options.headers }, ...(options.payload === undefined ? {} : { payload: options.payload }) });
    const fileCount = async () => (await call('GET', '/v1/storage/files?limit=1000')).json().files.length as number;
    const tempFiles = async () => (await fs.readdir(path.join(t.dataDir, 'quilts', 'tmp'))).length;
    const expectError = (res: LightMyRequestResponse, status: number, code: string, what: string) => {
      assert.equal(res.statusCode, status, `${what}: ${res.body.slice(0, 200)}`);
      assert.equal(errorOf(res).code, code, what);
      assert.equal(typeof errorOf(res).message, 'string');
    };

    test('malformed, oversized, mistyped and over-specified JSON', async () => {
      const before = await fileCount();
      const json = { 'content-type': 'application/json' };
      expectError(await call('POST', '/v1/spaces', { payload: '{"name": ', headers: json }), 400, 'invalid_request', 'cut-off JSON');
      expectError(await call('POST', '/v1/spaces', { payload: '{"name": "x"} trailing', headers: json }), 400, 'invalid_request', 'trailing garbage');
      expectError(await call('POST', '/v1/spaces', { payload: JSON.stringify({ name: 'x'.repeat(5000) }), headers: json }), 413, 'payload_too_large', 'over TESSERA_MAX_JSON_BYTES');
      expectError(await call('POST', '/v1/spaces', { payload: { name: 42 } }), 400, 'invalid_request', 'wrong type');
      expectError(await call('POST', '/v1/spaces', { payload: { name: 'ok', admin: true } }), 400, 'invalid_request', 'unknown field');
      expectError(await call('POST', '/v1/spaces', { payload: '["name"]', headers: json }), 400, 'invalid_request', 'an array');
      expectError(await call('POST', '/v1/spaces', { payload: '{"__proto__": {"polluted": 1}, "name": "p"}', headers: json }), 400, 'invalid_request', 'prototype pollution attempt');
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      expectError(await call('POST', '/v1/images/edits', { payload: { prompt: 'x'.repeat(4001), workspace_id: spaceId, file_id: 'file_x' } }), 400, 'invalid_request', 'a prompt of 4,001 characters');
      expectError(await call('POST', '/v1/images/edits', { payload: { prompt: 'invert', workspace_id: spaceId, file_id: 7 } }), 400, 'invalid_request', 'file_id a number');
      assert.equal(await fileCount(), before);
    });

    test('absurd query values', async () => {
      for (const query of ['limit=0', 'limit=-1', 'limit=1001', 'limit=1e9', 'limit=abc', 'limit=1.5', `workspace_id=${'s'.repeat(65)}`, `cursor=${'c'.repeat(201)}`]) {
        expectError(await call('GET', `/v1/storage/files?${query}`), 400, 'invalid_request', query);
      }
      for (const cursor of ['garbage', 'WzE3OTUz', Buffer.from('["x",1]').toString('base64url'), '%00%ff']) {
        expectError(await call('GET', `/v1/storage/files?cursor=${cursor}`), 400, 'invalid_cursor', `cursor ${cursor}`);
      }
      expectError(await call('GET', '/v1/storage/files?workspace_id=spc_nope'), 404, 'not_found', 'unknown Space');
    });

    test('multipart that is empty, too big, too many, cut short or has odd fields leaves nothing behind', async () => {
      const before = await fileCount();
      const noFile = multipart([], { workspace_id: spaceId });
      expectError(await call('POST', '/v1/storage/files', { payload: noFile.body, headers: noFile.headers }), 400, 'invalid_request', 'no file part');
      expectError(await upload(t, [1, 2, 3, 4].map((i) => ({ name: `${i}.txt`, content: 'x' }))), 413, 'payload_too_large', 'more files than allowed');
      expectError(await upload(t, [{ name: 'big.bin', content: Buffer.alloc(100_001) }]), 413, 'payload_too_large', 'a file over the limit');
      const huge = await upload(t, [{ name: 'a.txt', content: 'a' }], { fields: { workspace_id: 'x'.repeat(2_000_000) } });
      expectError(huge, 400, 'invalid_request', 'a huge field value');
      assert.match(errorOf(huge).message, /longer than any Space id/);
      expectError(await upload(t, [{ name: 'a.txt', content: 'a' }], { fields: { role: 'admin' } }), 400, 'invalid_request', 'an unknown field');
      expectError(await upload(t, [{ name: 'a.txt', content: 'a', field: 'attachment' }]), 400, 'invalid_request', 'a file part with another name');
      const whole = multipart([{ name: 'half.txt', content: 'y'.repeat(50_000) }]);
      const cut = await call('POST', '/v1/storage/files', { payload: whole.body.subarray(0, 20_000), headers: whole.headers });
      assert.equal(cut.statusCode, 400, `a body that stops halfway: ${cut.body}`);
      expectError(await call('POST', '/v1/storage/files', { payload: 'not multipart', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type', 'not multipart');
      assert.equal(await fileCount(), before, 'no file from any refused upload');
      assert.equal(await tempFiles(), 0, 'no temp file left behind');
      const empty = await upload(t, [{ name: 'empty.txt', content: '' }]);
      assert.equal(empty.statusCode, 201, 'a zero-byte file is a file');
      assert.equal(empty.json().files[0].sizeBytes, '0');
    });

    test('file names with traversal, control characters, quotes and newlines stay one safe header', async () => {
      for (const name of ['../../etc/passwd', '..\\..\\boot.ini', 'a\r\nSet-Cookie: x=1.txt', 'quote"semi;colon.txt', 'tab\there\u0000nul.txt', '\u202egnp.exe', 'ünïcödé 名前.txt']) {
        const res = await upload(t, [{ name, content: 'n' }]);
        assert.equal(res.statusCode, 201, `${JSON.stringify(name)}: ${res.body}`);
        const stored = res.json().files[0];
        // eslint-disable-next-line no-control-regex -- the point is that control characters are gone
        assert.doesNotMatch(stored.name, /[/\\\r\n\u0000\u202e]/, JSON.stringify(stored.name));
        const download = await call('GET', `/v1/storage/files/${stored.fileId}/content`);
        const disposition = download.headers['content-disposition'] as string;
        assert.doesNotMatch(disposition, /[\r\n]/);
        assert.equal(download.headers['set-cookie'], undefined);
        assert.match(disposition, /^(inline|attachment); filename="[^"]*"; filename\*=UTF-8''/);
      }
    });

    test('corrupt images, bombs and SVG with external references are refused by the edit', async () => {
      const before = await fileCount();
      const png = await redBlue();
      const jpeg = await redBlue('jpeg');
      const webp = await sharp(png).webp().toBuffer();
      const garbled = Buffer.from(jpeg);
      garbled.fill(0x00, 200, 600);
      const sources: Array<[string, Buffer, number, string]> = [
        ['truncated.png', png.subarray(0, png.length - 30), 422, 'not_an_image'],
        ['truncated.jpg', jpeg.subarray(0, 120), 422, 'not_an_image'],
        ['truncated.webp', webp.subarray(0, 40), 422, 'not_an_image'],
        ['random.png', Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 7919) % 256)), 422, 'not_an_image'],
        ['huge.png', pngHeaderOnly(100_000, 100_000), 413, 'payload_too_large'],
        ['file.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file:///etc/passwd" width="9" height="9"/></svg>'), 422, 'not_an_image'],
        ['http.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><image href="http://127.0.0.1:9/x.png" width="9" height="9"/></svg>'), 422, 'not_an_image'],
        ['entity.svg', Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>'), 422, 'not_an_image'],
      ];
      for (const [name, bytes, status, code] of sources) {
        const fileId = (await upload(t, [{ name, content: bytes }])).json().files[0].fileId;
        expectError(await call('POST', '/v1/images/edits', { payload: { prompt: 'make it black and white', workspace_id: spaceId, file_id: fileId } }), status, code, name);
      }
      // The garbled JPEG decodes (JPEG is forgiving) or is refused; either way no 5xx and no stray file.
      const garbledId = (await upload(t, [{ name: 'garbled.jpg', content: garbled }])).json().files[0].fileId;
      const res = await call('POST', '/v1/images/edits', { payload: { prompt: 'invert', workspace_id: spaceId, file_id: garbledId } });
      assert.ok([200, 422].includes(res.statusCode), res.body);
      assert.equal(await fileCount(), before + sources.length + 1 + (res.statusCode === 200 ? 1 : 0), 'only the uploads (and a successful edit) were stored');
    });

    test('over-long and malformed path parameters answer in the contract\'s shape', async () => {
      for (const url of [`/v1/storage/files/${'f'.repeat(101)}`, `/v1/spaces/${'s'.repeat(5000)}`, `/links/files/${'x'.repeat(150)}/content?expires=1&sig=x`, `/v1/storage/files/${'a'.repeat(120)}/thumbnail`]) {
        const res = await call('GET', url);
        expectError(res, 414, 'invalid_request', url.slice(0, 40));
        assert.deepEqual(Object.keys(res.json()), ['error']);
        assert.doesNotMatch(res.body, /FST_|Bad Request/);
      }
      for (const url of ['/v1/storage/files/%E0%A4%A', '/v1/spaces/%zz', '/links/files/%/content']) {
        const res = await call('GET', url);
        assert.ok([400, 404].includes(res.statusCode), `${url}: ${res.statusCode}`);
        assert.match(errorOf(res).code, /^(invalid_request|not_found)$/, url);
        assert.doesNotMatch(res.body, /FST_/);
      }
    });

    test('fuzz: hostile path and query parameters on every route of the document (seed 20261123)', async () => {
      const next = random(20261123);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const document = (await call('GET', '/openapi.json')).json() as { paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>> };
      const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).filter(([method]) => ['get', 'post', 'delete'].includes(method)).map(([method, op]) => ({ path, method: method.toUpperCase() as 'GET' | 'POST' | 'DELETE', query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name) })),
      );
      const source = (await upload(t, [{ name: 'p.png', content: await redBlue() }])).json().files[0].fileId;
      const segments = [source, spaceId, 'file_01JC0000000000000000000000', 'x'.repeat(101), 'y'.repeat(1000), '%00', '%ff%fe', '..%2f..%2fetc%2fpasswd', '%25', '%', '%E2%80%AE', 'ünï', '{fileId}', '-1', '0', "'%20OR%201=1", '%0d%0aSet-Cookie:%20x', 'null', 'a%2Fb'];
      const values = ['', '0', '-1', '1e309', 'true', 'x'.repeat(300), '%00', '%ff', '[]', '{}', source, spaceId, '16', '99999999999999999999', '%E2%80%AE', '..%2F'];
      const counts = new Map<number, number>();
      const filesBefore = await fileCount();
      for (let i = 0; i < 600; i++) {
        const route = pick(routes);
        const path = route.path.replace(/\{[^}]+\}/g, () => pick(segments));
        const names = [...route.query, 'expires', 'sig', 'width', 'download', 'x'];
        const query = Array.from({ length: Math.floor(next() * 4) }, () => `${pick(names)}=${pick(values)}`).join('&');
        const headers: Record<string, string> = next() < 0.15 ? { 'x-api-key': pick(['', 'tsk_nope', 'x'.repeat(600)]) } : {};
        const res = await t.app.inject({ method: route.method, url: query ? `${path}?${query}` : path, headers: { 'x-api-key': t.key, ...headers }, ...(route.method === 'POST' && next() < 0.5 ? { payload: {} } : {}) });
        counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
        assert.ok(CONTRACT_STATUSES.has(res.statusCode), `request ${i} ${route.method} ${path.slice(0, 80)}?${query.slice(0, 80)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (res.statusCode >= 400) {
          assert.deepEqual(Object.keys(res.json()), ['error'], `request ${i}: ${res.body.slice(0, 200)}`);
          assert.match(errorOf(res).code, /^[a-z_]+$/);
          assert.equal(typeof errorOf(res).message, 'string');
        }
        assert.equal(res.headers['set-cookie'], undefined);
      }
      assert.ok(await fileCount() <= filesBefore + 10, 'only the odd well-formed upload stored anything');
      assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'the server stayed healthy');
      console.log(`path fuzz answers: ${[...counts].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(' ')}`);
    });

    test('fuzz: random requests to both seed endpoints get contract answers only (seed 20261122)', async () => {
      const next = random(20261122);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const source = (await upload(t, [{ name: 'fuzz.png', content: await redBlue() }])).json().files[0].fileId;
      const values: unknown[] = [null, true, 0, -1, 1e308, '', ' ', 'x'.repeat(300), '\u0000', '../', source, spaceId, 'file_01JC0000000000000000000000', [], {}, ['a'], { $gt: '' }];
      const words = ['rotate', '90', 'degrees', 'and', 'blur', 'sky', 'red', 'border', '"quoted"', 'file_', '%', '#fff', 'then', ',', 'x', '99999999', '-5', 'px'];
      const counts = new Map<number, number>();
      const before = await fileCount();
      let stored = 0;
      for (let i = 0; i < 300; i++) {
        let res: LightMyRequestResponse;
        if (next() < 0.4) {
          const params = Array.from({ length: Math.floor(next() * 4) }, () => `${pick(['limit', 'cursor', 'workspace_id', 'x', 'limit[]'])}=${encodeURIComponent(String(pick(values)))}`);
          res = await call('GET', `/v1/storage/files?${params.join('&')}`);
        } else {
          const body: Record<string, unknown> = {};
          for (const field of ['prompt', 'workspace_id', 'file_id', 'output_format', 'name', 'dry_run', 'extra']) {
            if (next() < (['prompt', 'workspace_id', 'file_id'].includes(field) ? 0.85 : 0.15)) body[field] = field === 'prompt' && next() < 0.6 ? Array.from({ length: 1 + Math.floor(next() * 8) }, () => pick(words)).join(' ') : pick(values);
          }
          if (next() < 0.7) [body.workspace_id, body.file_id] = [spaceId, source];
          const type = pick(['application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16']);
          res = await call('POST', '/v1/images/edits', { payload: next() < 0.1 ? JSON.stringify(body).slice(0, Math.floor(next() * 40)) : JSON.stringify(body), headers: { 'content-type': type } });
          if (res.statusCode === 200 && res.json().file_id) stored++;
        }
        counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
        assert.ok(CONTRACT_STATUSES.has(res.statusCode) && res.statusCode !== 500, `request ${i}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (res.statusCode >= 400) {
          assert.match(errorOf(res).code, /^[a-z_]+$/);
          if (res.statusCode === 503) assert.ok(res.headers['retry-after']);
        }
      }
      assert.equal(await fileCount(), before + stored, 'only successful edits stored anything');
      console.log(`fuzz answers: ${[...counts].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(' ')}`);
    });
  });
}
