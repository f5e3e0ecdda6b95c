import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const SCRIPT = `console.log(${JSON.stringify('tessera '.repeat(200))});\n`;

/** A console build of our own, so these tests do not depend on `npm run build:console`. */
async function fakeBuild(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-console-'));
  await fs.mkdir(path.join(dir, 'assets'));
  await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Tessera</title><script type="module" src="/assets/index-abc123.js"></script>');
  await fs.writeFile(path.join(dir, 'assets', 'index-abc123.js'), SCRIPT);
  await fs.writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

describe('the web console is served at /', () => {
  let t: TestApp;
  let dir: string;

  before(async () => {
    dir = await fakeBuild();
    t = await startTestApp('sqlite', { TESSERA_CONSOLE_DIR: dir });
  });
  after(async () => {
    await t.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  test('the page: revalidated every time, with a strict Content-Security-Policy', async () => {
    const res = await t.app.inject({ url: '/' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<title>Tessera<\/title>/);
    assert.equal(res.headers['cache-control'], 'no-cache');
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    const again = await t.app.inject({ url: '/', headers: { 'if-none-match': String(res.headers.etag) } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.headers['content-length'], undefined);
  });

  test('hashed assets are immutable and sent brotli-compressed to browsers that take it', async () => {
    const plain = await t.app.inject({ url: '/assets/index-abc123.js' });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.body, SCRIPT);
    assert.match(String(plain.headers['content-type']), /^text\/javascript/);
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(plain.headers['content-encoding'], undefined);

    const compressed = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(compressed.headers['content-encoding'], 'br');
    assert.equal(compressed.headers.vary, 'accept-encoding');
    assert.ok(compressed.rawPayload.length < SCRIPT.length / 4);
    assert.equal(brotliDecompressSync(compressed.rawPayload).toString(), SCRIPT);

    const icon = await t.app.inject({ url: '/favicon.svg' });
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['content-type'], 'image/svg+xml');
  });

  test('nothing outside the build is reachable, and unknown assets are a JSON 404', async () => {
    for (const url of ['/assets/missing.js', '/assets/../../package.json', '/assets/%2e%2e/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json', '/package.json']) {
      const res = await t.app.inject({ url });
      assert.notEqual(res.statusCode, 200, url);
      assert.doesNotMatch(res.body, /"name": "tessera"/, url);
    }
    const res = await t.app.inject({ url: '/assets/missing.js' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error.code, 'not_found');
  });

  test('the API is unaffected: /v1 still needs a key', async () => {
    assert.equal((await t.app.inject({ url: '/v1/storage/files' })).statusCode, 401);
  });
});

describe('without a console build', () => {
  for (const setting of ['off', '/nonexistent/tessera-console']) {
    test(`TESSERA_CONSOLE_DIR=${setting}: / shows the API docs instead`, async () => {
      const t = await startTestApp('sqlite', { TESSERA_CONSOLE_DIR: setting });
      try {
        const res = await t.app.inject({ url: '/' });
        assert.equal(res.statusCode, 302);
        assert.equal(res.headers.location, '/docs');
      } finally {
        await t.close();
      }
    });
  }
});
