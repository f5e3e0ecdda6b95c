import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { dialects } from '../helpers/databases.ts';
import { errorOf, startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { redBlue } from '../helpers/images.ts';

/** Bytes under the data dir outside the database: quilts and staged temp files. */
async function storeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && !entry.name.startsWith('tessera.sqlite')) total += (await fs.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/**
 * A multipart upload of one file whose first `sent` bytes arrive and then nothing more, as from
 * a slow client: an answer before the body ends can only be a refusal made while it arrives.
 */
function stalledUpload(sent: number): { body: PassThrough; headers: Record<string, string> } {
  const boundary = '----tesseraStalled';
  const body = new PassThrough();
  body.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  for (let at = 0; at < sent; at += 65536) body.write(Buffer.alloc(Math.min(65536, sent - at), 7));
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The answer, or undefined if none came within a few seconds (the server waited for the body). */
async function answerWithin<T>(pending: Promise<T>, ms = 5000): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([pending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

for (const dialect of await dialects()) {
  describe(`quotas on ${dialect}`, () => {
    let t: TestApp;

    before(async () => {
      t = await startTestApp(dialect, { TESSERA_DEFAULT_QUOTA_FILES: '1000', TESSERA_DEFAULT_QUOTA_BYTES: '1000000' });
    });
    after(() => t.close());

    const account = async (key = t.key) => (await t.app.inject({ method: 'GET', url: '/v1/account', headers: { 'x-api-key': key } })).json();
    const files = async (key: string) => (await t.app.inject({ method: 'GET', url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': key } })).json().files as Array<{ fileId: string; sizeBytes: string }>;

    test('GET /v1/account shows usage and the default limits', async () => {
      await upload(t, [{ name: 'a.txt', content: 'x'.repeat(100) }, { name: 'b.txt', content: 'y'.repeat(23) }]);
      const body = await account();
      assert.equal(body.name, 'alice');
      assert.deepEqual(body.usage, { bytes: '123', files: 2 });
      assert.deepEqual(body.limits, { bytes: '1000000', files: 1000 });
      assert.deepEqual(body.key.scope, 'admin');
    });

    test('concurrent uploads at the edge of the quota never end above it', async () => {
      const { key } = await t.context.keys.create('racer');
      await t.context.accounts.setQuota('racer', { bytes: '10000', files: 'unlimited' });
      // 24 uploads of 1,000 bytes race for room for 10: each one passes the early check alone.
      const results = await Promise.all(
        Array.from({ length: 24 }, (_, i) => upload(t, [{ name: `r${i}.bin`, content: Buffer.alloc(1000, i + 1) }], { key })),
      );
      const stored = results.filter((r) => r.statusCode === 201).length;
      const refused = results.filter((r) => r.statusCode === 413);
      assert.equal(stored + refused.length, 24, results.map((r) => r.statusCode).join(' '));
      assert.equal(stored, 10, 'exactly as many as fit');
      for (const res of refused) assert.equal(errorOf(res).code, 'quota_exceeded');
      const listed = await files(key);
      assert.equal(listed.length, 10, 'nothing of a refused upload is stored');
      const usage = (await account(key)).usage;
      assert.deepEqual(usage, { bytes: '10000', files: 10 });
      assert.equal(listed.reduce((sum, f) => sum + Number(f.sizeBytes), 0), 10000, 'usage is exactly what is stored');

      // The file-count limit, raced the same way with several files per upload.
      const { key: counter } = await t.context.keys.create('counter');
      await t.context.accounts.setQuota('counter', { files: '7' });
      const batches = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(t, [{ name: `c${i}a`, content: `a${i}` }, { name: `c${i}b`, content: `b${i}` }], { key: counter })));
      assert.equal(batches.filter((r) => r.statusCode === 201).length, 3, batches.map((r) => r.statusCode).join(' '));
      assert.equal((await files(counter)).length, 6);
      assert.equal((await account(counter)).usage.files, 6);
    });

    test('413 quota_exceeded says the limit and the usage, stores nothing; deleting makes room', async () => {
      const { key } = await t.context.keys.create('tight');
      await t.context.accounts.setQuota('tight', { bytes: '1500', files: '2' });
      const first = await upload(t, [{ name: 'one.bin', content: Buffer.alloc(1000, 1) }], { key });
      assert.equal(first.statusCode, 201);
      const over = await upload(t, [{ name: 'two.bin', content: Buffer.alloc(600, 2) }], { key });
      assert.equal(over.statusCode, 413);
      assert.equal(errorOf(over).code, 'quota_exceeded');
      assert.match(errorOf(over).message, /quota of 1500 bytes \(1000 stored\)/);
      assert.equal((await files(key)).length, 1);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${first.json().files[0].fileId}`, headers: { 'x-api-key': key } })).statusCode, 204);
      assert.deepEqual((await account(key)).usage, { bytes: '0', files: 0 });
      assert.equal((await upload(t, [{ name: 'two.bin', content: Buffer.alloc(600, 2) }], { key })).statusCode, 201);
      const many = await upload(t, [{ name: 'x', content: 'x' }, { name: 'y', content: 'y' }], { key });
      assert.equal(many.statusCode, 413);
      assert.match(errorOf(many).message, /quota of 2 files \(1 stored\)/);
    });

    test('edit results count, and a Space deleted with its files gives their room back', async () => {
      const { key } = await t.context.keys.create('editor');
      const picture = await redBlue();
      const fileId = (await upload(t, [{ name: 'p.png', content: picture, type: 'image/png' }], { key })).json().files[0].fileId;
      await t.context.accounts.setQuota('editor', { files: '1' });
      const spaceId = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': key } })).json().spaces[0].id;
      const edit = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': key }, payload: { prompt: 'invert', workspace_id: spaceId, file_id: fileId } });
      assert.equal(edit.statusCode, 413, edit.body);
      assert.equal(errorOf(edit).code, 'quota_exceeded');
      await t.context.accounts.setQuota('editor', { files: 'default' });
      const space = (await t.app.inject({ method: 'POST', url: '/v1/spaces', headers: { 'x-api-key': key }, payload: { name: 'temp' } })).json().id;
      assert.equal((await upload(t, [{ name: 'q.bin', content: Buffer.alloc(300, 7) }], { key, fields: { workspace_id: space } })).statusCode, 201);
      assert.deepEqual((await account(key)).usage, { bytes: String(picture.length + 300), files: 2 });
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${space}?force=true`, headers: { 'x-api-key': key } })).statusCode, 204);
      assert.deepEqual((await account(key)).usage, { bytes: String(picture.length), files: 1 });
      const usage = await t.context.accounts.setQuota('editor', { bytes: 'unlimited' });
      assert.equal(usage.limitBytes, undefined);
      assert.equal(usage.limitFiles, 1000);
    });

    test('an upload whose declared length passes the quota is refused before its body is read', async () => {
      const { key } = await t.context.keys.create('declared');
      await t.context.accounts.setQuota('declared', { bytes: '1000000' });
      const { body, headers } = stalledUpload(100_000);
      const before = await storeBytes(t.dataDir);
      const res = await answerWithin(t.app.inject({ method: 'POST', url: '/v1/storage/files', headers: { ...headers, 'content-length': String(50_000_000), 'x-api-key': key }, payload: body }));
      body.destroy();
      assert.ok(res, 'answered while the body was still arriving');
      assert.equal(res.statusCode, 413);
      assert.equal(errorOf(res).code, 'quota_exceeded');
      assert.match(errorOf(res).message, /declares 50000000 bytes \(Content-Length\), more than the 1000000 bytes the account may still store/);
      assert.equal(res.headers.connection, 'close', 'the client is told to stop sending');
      assert.equal(await storeBytes(t.dataDir), before, 'nothing staged, nothing stored');
    });

    test('an upload of unknown length is refused as soon as its bytes pass the quota; nothing staged is left', async () => {
      const { key } = await t.context.keys.create('streamed');
      await t.context.accounts.setQuota('streamed', { bytes: '2000000' });
      const before = await storeBytes(t.dataDir);
      // 3 MB arrive (spilled to a temp file past 1 MiB), then the client stalls.
      const { body, headers } = stalledUpload(3_000_000);
      const res = await answerWithin(t.app.inject({ method: 'POST', url: '/v1/storage/files', headers: { ...headers, 'x-api-key': key }, payload: body }));
      body.destroy();
      assert.ok(res, 'answered before the body ended');
      assert.equal(res.statusCode, 413);
      assert.equal(errorOf(res).code, 'quota_exceeded');
      assert.match(errorOf(res).message, /more than the 2000000 bytes the account may still store under its quota of 2000000 bytes \(0 stored\)/);
      assert.equal(await storeBytes(t.dataDir), before, 'the staged bytes went with the refusal');
      assert.deepEqual((await account(key)).usage, { bytes: '0', files: 0 });
    });
  });
}
