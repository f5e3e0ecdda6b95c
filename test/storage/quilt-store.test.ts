import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { BlobMissingError, BlobTooLargeError } from '../../src/storage/blob-store.ts';
import { LocalQuiltStore, type LocalQuiltStoreOptions } from '../../src/storage/local-quilt-store.ts';
import { computeQuiltId, decodePatchId, encodePatchId, readQuiltIndex } from '../../src/storage/quilt-format.ts';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url');

async function* chunked(bytes: Buffer, size = 16 * 1024) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('local quilt store', () => {
  let dir: string;
  const stores: LocalQuiltStore[] = [];
  const open = async (options: Partial<LocalQuiltStoreOptions> = {}) => {
    const store = await LocalQuiltStore.open({ dir, batchWindowMs: 2, batchMaxBytes: 16 * 1024 * 1024, inlineMaxBytes: 64 * 1024, ...options });
    stores.push(store);
    return store;
  };
  const put = async (store: LocalQuiltStore, bytes: Buffer) => (await store.persist([await store.stage(chunked(bytes), { maxBytes: Infinity })]))[0]!;
  const quiltFiles = async () => (await fs.readdir(dir, { recursive: true })).map(String).filter((f) => f.endsWith('.quilt'));

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-store-'));
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await fs.rm(dir, { recursive: true, force: true });
  });

  test('small blobs round-trip; blobId is the SHA-256 of the bytes', async () => {
    const store = await open();
    const bytes = randomBytes(5000);
    const location = await put(store, bytes);
    assert.equal(location.blobId, sha(bytes));
    assert.equal(location.sizeBytes, 5000);
    assert.deepEqual(await readAll(await store.read(location.quiltPatchId)), bytes);
  });

  test('a blob above the inline limit streams to a quilt of its own', async () => {
    const store = await open({ inlineMaxBytes: 1024 });
    const bytes = randomBytes(300 * 1024);
    const staged = await store.stage(chunked(bytes, 7000), { maxBytes: Infinity });
    assert.equal((await fs.readdir(path.join(dir, 'tmp'))).length, 1, 'spilled to a temp file while staged');
    const [location] = await store.persist([staged]);
    assert.deepEqual(await readAll(await store.read(location!.quiltPatchId)), bytes);
    const handle = await fs.open(store.quiltPath(location!.quiltId));
    try {
      assert.equal((await readQuiltIndex(handle)).length, 1);
    } finally {
      await handle.close();
    }
    assert.deepEqual(await fs.readdir(path.join(dir, 'tmp')), []);
  });

  test('the blobs of one call share a quilt; identical bytes are stored once', async () => {
    const store = await open();
    const same = randomBytes(2000);
    const other = randomBytes(3000);
    const staged = [await store.stage(chunked(same), { maxBytes: Infinity }), await store.stage(chunked(other), { maxBytes: Infinity }), await store.stage(chunked(same), { maxBytes: Infinity })];
    const [a, b, c] = await store.persist(staged);
    assert.equal(a!.quiltId, b!.quiltId);
    assert.equal(a!.quiltPatchId, c!.quiltPatchId, 'one patch for the same bytes');
    const handle = await fs.open(store.quiltPath(a!.quiltId));
    try {
      assert.equal((await readQuiltIndex(handle)).length, 2);
    } finally {
      await handle.close();
    }
  });

  test('group commit: 200 concurrent writers share few quilts, and every blob reads back', async () => {
    const store = await open({ batchWindowMs: 5 });
    const blobs = Array.from({ length: 200 }, (_, i) => randomBytes(1000 + i * 37));
    const locations = await Promise.all(blobs.map((bytes) => put(store, bytes)));
    const quilts = await quiltFiles();
    assert.ok(quilts.length <= 20, `${quilts.length} quilts for 200 blobs`);
    assert.equal(new Set(locations.map((l) => l.quiltId)).size, quilts.length);
    for (const [i, location] of locations.entries()) assert.deepEqual(await readAll(await store.read(location.quiltPatchId)), blobs[i]);
  });

  test('the size cap seals a batch at once', async () => {
    const store = await open({ batchWindowMs: 10_000, batchMaxBytes: 4096 });
    const started = Date.now();
    await Promise.all([put(store, randomBytes(3000)), put(store, randomBytes(3000))]);
    assert.ok(Date.now() - started < 5000, 'did not wait for the 10 s window');
  });

  test('range reads return exactly the requested bytes', async () => {
    const store = await open();
    const bytes = Buffer.from('0123456789abcdefghij');
    const { quiltPatchId } = await put(store, bytes);
    await put(store, randomBytes(100)); // neighbours must not leak into the range
    for (const [start, end] of [[0, 0], [0, 9], [5, 14], [19, 19], [0, 19]] as const) {
      assert.deepEqual(await readAll(await store.read(quiltPatchId, { start, end })), bytes.subarray(start, end + 1), `${start}-${end}`);
    }
  });

  test('a zero-byte blob round-trips', async () => {
    const store = await open();
    const location = await put(store, Buffer.alloc(0));
    assert.equal(location.sizeBytes, 0);
    assert.equal((await readAll(await store.read(location.quiltPatchId))).length, 0);
  });

  test('over the limit: BlobTooLargeError and nothing left in tmp', async () => {
    const store = await open({ inlineMaxBytes: 1024 });
    await assert.rejects(store.stage(chunked(randomBytes(50_000)), { maxBytes: 40_000 }), BlobTooLargeError);
    assert.deepEqual(await fs.readdir(path.join(dir, 'tmp')), []);
    const spilled = await store.stage(chunked(randomBytes(5000)), { maxBytes: Infinity });
    await spilled.discard();
    assert.deepEqual(await fs.readdir(path.join(dir, 'tmp')), [], 'discard removes a spilled temp file');
  });

  test('delete removes a single-patch quilt and keeps shared quilts', async () => {
    const store = await open({ inlineMaxBytes: 1024 });
    const alone = await put(store, randomBytes(5000));
    await store.delete(alone.quiltPatchId);
    await assert.rejects(fs.access(store.quiltPath(alone.quiltId)));
    await assert.rejects(store.read(alone.quiltPatchId), BlobMissingError);
    const shared = await store.persist([await store.stage([randomBytes(100)], { maxBytes: Infinity }), await store.stage([Buffer.from('neighbour')], { maxBytes: Infinity })]);
    await store.delete(shared[0]!.quiltPatchId);
    assert.equal((await readAll(await store.read(shared[1]!.quiltPatchId))).toString(), 'neighbour');
  });

  test('a quilt describes itself: its index and id can be recomputed, patches read without a database', async () => {
    const store = await open();
    const blobs = [randomBytes(10), randomBytes(2000), randomBytes(700)];
    const locations = await store.persist(await Promise.all(blobs.map((b) => store.stage([b], { maxBytes: Infinity }))));
    const file = store.quiltPath(locations[0]!.quiltId);
    const handle = await fs.open(file);
    try {
      const index = await readQuiltIndex(handle);
      assert.deepEqual(index.map((e) => e.hash.toString('base64url')), locations.map((l) => l.blobId));
      assert.equal(await computeQuiltId(handle), locations[0]!.quiltId);
    } finally {
      await handle.close();
    }
    const raw = await fs.readFile(file);
    for (const [i, location] of locations.entries()) {
      const locator = decodePatchId(location.quiltPatchId)!;
      assert.equal(locator.quiltId, location.quiltId);
      assert.deepEqual(raw.subarray(locator.offset, locator.offset + locator.length), blobs[i]);
    }
  });

  test('patch ids round-trip and garbage is rejected', () => {
    const hash = createHash('sha256').update('q').digest();
    const id = encodePatchId(hash, 16, 4242);
    assert.deepEqual(decodePatchId(id), { quiltId: hash.toString('base64url'), offset: 16, length: 4242 });
    for (const bad of ['', 'abc', `${id}x`, id.replace(/./, '!'), 'A'.repeat(63)]) assert.equal(decodePatchId(bad), undefined, bad);
  });

  test('close waits for pending writes', async () => {
    const store = await open({ batchWindowMs: 200 });
    const pending = put(store, randomBytes(100));
    await store.close();
    const location = await pending;
    await fs.access(store.quiltPath(location.quiltId));
  });

  test('opening removes stale temp files and keeps fresh ones', async () => {
    await fs.mkdir(path.join(dir, 'tmp'), { recursive: true });
    const stale = path.join(dir, 'tmp', 'stale.part');
    const fresh = path.join(dir, 'tmp', 'fresh.part');
    await fs.writeFile(stale, 'x');
    await fs.writeFile(fresh, 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    await fs.utimes(stale, twoHoursAgo, twoHoursAgo);
    await open();
    await assert.rejects(fs.access(stale));
    await fs.access(fresh);
  });
});
