import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { BlobMissingError, BlobStoreUnavailableError, BlobTooLargeError, BucketMissingError, type BlobStore } from '../../src/storage/blob-store.ts';
import { LocalQuiltStore } from '../../src/storage/local-quilt-store.ts';
import { FOOTER_BYTES, INDEX_ENTRY_BYTES, decodePatchId, encodePatchId, parseFooter, parseIndex, quiltIdOf, type PatchEntry } from '../../src/storage/quilt-format.ts';
import { createS3Client } from '../../src/storage/s3-client.ts';
import { S3QuiltStore } from '../../src/storage/s3-quilt-store.ts';
import { freshBucket, s3Faults, s3Outage, storeEngines, testS3Settings, type TestBucket } from '../helpers/s3.ts';
import { WalrusStandIn, openTestWalrusStore } from '../helpers/walrus.ts';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url');

async function* chunked(bytes: Buffer, size = 16 * 1024) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A quilt's own index and the id its header and index hash to, from its raw bytes. */
function describeQuilt(raw: Buffer): { entries: PatchEntry[]; quiltId: string } {
  const { indexOffset, count } = parseFooter(raw.subarray(raw.length - FOOTER_BYTES), raw.length);
  const index = raw.subarray(indexOffset, indexOffset + count * INDEX_ENTRY_BYTES);
  return { entries: parseIndex(index, count), quiltId: quiltIdOf(raw.subarray(0, 16), index).toString('base64url') };
}

interface StoreOptions {
  batchWindowMs: number;
  batchMaxBytes: number;
  inlineMaxBytes: number;
  readCacheBytes?: number;
}

/** What a test needs to see of an engine besides the BlobStore interface. */
interface Engine {
  open(options?: Partial<StoreOptions>): Promise<BlobStore>;
  /** The quilt's bytes as stored, or undefined if it is gone (Tessera's own format: local and S3). */
  raw(quiltId: string): Promise<Buffer | undefined>;
  /** Replaces a quilt's stored bytes (local and S3): what never happens to a real quilt, for tests of the read cache. */
  overwrite?(quiltId: string, bytes: Buffer): Promise<void>;
  /** How many patches the quilt holds, or undefined if it is not there. */
  patchesIn(quiltId: string): Promise<number | undefined>;
  quiltCount(): Promise<number>;
  /** Files in the staging directory. */
  staging(): Promise<string[]>;
  stagingDir(): string;
}

const defaults: StoreOptions = { batchWindowMs: 2, batchMaxBytes: 16 * 1024 * 1024, inlineMaxBytes: 64 * 1024 };

const ownFormatPatches = (raw: Buffer | undefined) => (raw ? describeQuilt(raw).entries.length : undefined);

for (const engine of [...(await storeEngines()), 'walrus' as const]) {
  describe(`quilt store (${engine})`, () => {
    let dir: string;
    let bucket: TestBucket | undefined;
    let walrus: WalrusStandIn | undefined;
    let prefix = '';
    const stores: BlobStore[] = [];
    const local = (): Engine => ({
      async open(options = {}) {
        const store = await LocalQuiltStore.open({ dir, ...defaults, ...options });
        stores.push(store);
        return store;
      },
      raw: (quiltId) => fs.readFile(path.join(dir, quiltId.slice(0, 2), `${quiltId}.quilt`)).catch(() => undefined),
      overwrite: (quiltId, bytes) => fs.writeFile(path.join(dir, quiltId.slice(0, 2), `${quiltId}.quilt`), bytes),
      patchesIn: async (quiltId) => ownFormatPatches(await fs.readFile(path.join(dir, quiltId.slice(0, 2), `${quiltId}.quilt`)).catch(() => undefined)),
      quiltCount: async () => (await fs.readdir(dir, { recursive: true })).map(String).filter((f) => f.endsWith('.quilt')).length,
      staging: () => fs.readdir(path.join(dir, 'tmp')),
      stagingDir: () => path.join(dir, 'tmp'),
    });
    const s3 = (): Engine => ({
      async open(options = {}) {
        const store = await S3QuiltStore.open({
          ...defaults,
          ...options,
          client: createS3Client(bucket!.settings),
          bucket: bucket!.name,
          prefix,
          tmpDir: path.join(dir, 'staging'),
          partBytes: 5 * 1024 * 1024,
          partsInFlight: 2,
          maxConcurrentSeals: 4,
          checkTimeoutMs: 3000,
        });
        stores.push(store);
        return store;
      },
      async raw(quiltId) {
        try {
          const object = await bucket!.client.send(new GetObjectCommand({ Bucket: bucket!.name, Key: `${prefix}quilts/${quiltId}.quilt` }));
          return Buffer.from(await object.Body!.transformToByteArray());
        } catch {
          return undefined;
        }
      },
      async patchesIn(quiltId) {
        return ownFormatPatches(await this.raw(quiltId));
      },
      async overwrite(quiltId, bytes) {
        await bucket!.client.send(new PutObjectCommand({ Bucket: bucket!.name, Key: `${prefix}quilts/${quiltId}.quilt`, Body: bytes }));
      },
      quiltCount: async () => (await bucket!.keys()).filter((k) => k.startsWith(`${prefix}quilts/`)).length,
      staging: () => fs.readdir(path.join(dir, 'staging')),
      stagingDir: () => path.join(dir, 'staging'),
    });
    const onWalrus = (): Engine => ({
      async open(options = {}) {
        const store = await openTestWalrusStore(walrus!, dir, { ...defaults, ...options });
        stores.push(store);
        return store;
      },
      raw: async () => undefined,
      patchesIn: async (quiltId) => walrus!.blobs.get(quiltId)?.patches?.length,
      quiltCount: async () => walrus!.blobs.size,
      staging: () => fs.readdir(path.join(dir, 'walrus-staging')),
      stagingDir: () => path.join(dir, 'walrus-staging'),
    });
    const it = engine === 'local' ? local() : engine === 's3' ? s3() : onWalrus();
    const put = async (store: BlobStore, bytes: Buffer) => (await store.persist([await store.stage(chunked(bytes), { maxBytes: Infinity })]))[0]!;

    before(async () => {
      if (engine === 's3') bucket = await freshBucket();
    });
    after(async () => {
      await bucket?.drop();
    });
    beforeEach(async () => {
      if (engine === 'walrus') walrus = await WalrusStandIn.start();
    });
    afterEach(async () => {
      await walrus?.close();
    });
    beforeEach(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-store-'));
      prefix = `t${randomBytes(4).toString('hex')}/`;
    });
    afterEach(async () => {
      await Promise.all(stores.splice(0).map((s) => s.close()));
      await fs.rm(dir, { recursive: true, force: true });
    });

    test('small blobs round-trip; blobId is the SHA-256 of the bytes', async () => {
      const store = await it.open();
      const bytes = randomBytes(5000);
      const location = await put(store, bytes);
      assert.equal(location.blobId, sha(bytes));
      assert.equal(location.sizeBytes, 5000);
      assert.deepEqual(await readAll(await store.read(location.quiltPatchId)), bytes);
    });

    test('a blob above the inline limit streams to a quilt of its own', async () => {
      const store = await it.open({ inlineMaxBytes: 1024 });
      const bytes = randomBytes(300 * 1024);
      const staged = await store.stage(chunked(bytes, 7000), { maxBytes: Infinity });
      assert.equal((await it.staging()).length, 1, 'spilled to a temp file while staged');
      const [location] = await store.persist([staged]);
      assert.deepEqual(await readAll(await store.read(location!.quiltPatchId)), bytes);
      assert.equal(await it.patchesIn(location!.quiltId), 1);
      assert.deepEqual(await it.staging(), []);
    });

    test('the blobs of one call share a quilt; the store merges no two blobs, identical bytes included', async () => {
      const store = await it.open();
      const same = randomBytes(2000);
      const other = randomBytes(3000);
      const staged = [await store.stage(chunked(same), { maxBytes: Infinity }), await store.stage(chunked(other), { maxBytes: Infinity }), await store.stage(chunked(same), { maxBytes: Infinity })];
      const [a, b, c] = await store.persist(staged);
      assert.equal(a!.quiltId, b!.quiltId);
      assert.equal(a!.quiltId, c!.quiltId);
      assert.notEqual(a!.quiltPatchId, c!.quiltPatchId, 'deduplication is the caller\'s, per account: the store keeps what it is handed');
      assert.equal(await it.patchesIn(a!.quiltId), 3);
      for (const location of [a!, c!]) assert.deepEqual(await readAll(await store.read(location.quiltPatchId)), same);
    });

    test("two accounts' identical bytes in one batch: two patches of one quilt; deleting one leaves the other readable", async () => {
      // The cap seals the batch as soon as both are queued: one quilt, whatever the timing.
      const store = await it.open({ batchWindowMs: 10_000, batchMaxBytes: 64 * 1024, inlineMaxBytes: 64 * 1024 });
      const same = randomBytes(32 * 1024);
      const stage = () => store.stage(chunked(same), { maxBytes: Infinity });
      const [[alice], [bob]] = await Promise.all([store.persist([await stage()]), store.persist([await stage()])]);
      assert.equal(alice!.quiltId, bob!.quiltId, 'one batch, one quilt');
      assert.notEqual(alice!.quiltPatchId, bob!.quiltPatchId, 'a patch each');
      assert.equal(await it.patchesIn(alice!.quiltId), 2);
      await store.delete(alice!.quiltPatchId);
      assert.deepEqual(await readAll(await store.read(bob!.quiltPatchId)), same);
    });

    test('group commit: 200 concurrent writers share few quilts, and every blob reads back', async () => {
      const store = await it.open({ batchWindowMs: 5 });
      const blobs = Array.from({ length: 200 }, (_, i) => randomBytes(1000 + i * 37));
      const locations = await Promise.all(blobs.map((bytes) => put(store, bytes)));
      const quilts = await it.quiltCount();
      assert.ok(quilts <= 20, `${quilts} quilts for 200 blobs`);
      assert.equal(new Set(locations.map((l) => l.quiltId)).size, quilts);
      for (const [i, location] of locations.entries()) assert.deepEqual(await readAll(await store.read(location.quiltPatchId)), blobs[i]);
    });

    test('the size cap seals a batch at once', async () => {
      const store = await it.open({ batchWindowMs: 10_000, batchMaxBytes: 4096 });
      const started = Date.now();
      await Promise.all([put(store, randomBytes(3000)), put(store, randomBytes(3000))]);
      assert.ok(Date.now() - started < 5000, 'did not wait for the 10 s window');
    });

    test('range reads return exactly the requested bytes', async () => {
      const store = await it.open();
      const bytes = Buffer.from('0123456789abcdefghij');
      const { quiltPatchId } = await put(store, bytes);
      await put(store, randomBytes(100)); // neighbours must not leak into the range
      for (const [start, end] of [[0, 0], [0, 9], [5, 14], [19, 19], [0, 19]] as const) {
        assert.deepEqual(await readAll(await store.read(quiltPatchId, { start, end })), bytes.subarray(start, end + 1), `${start}-${end}`);
      }
    });

    if (engine !== 'walrus') test('small patches are kept in memory (TESSERA_READ_CACHE_BYTES): the same bytes, within the bound; a large patch is not kept; a deleted blob leaves', async () => {
      const budget = 16 * 8000; // so one entry is at most 8,000 bytes
      const store = (await it.open({ readCacheBytes: budget })) as LocalQuiltStore | S3QuiltStore;
      const first = await put(store, randomBytes(3000));
      const firstBytes = (await store.readBuffer(first.quiltPatchId))!;
      assert.deepEqual(await store.readBuffer(first.quiltPatchId, { start: 100, end: 199 }), firstBytes.subarray(100, 200));
      assert.deepEqual(store.readCacheUse(), { entries: 1, bytes: 3000 });
      const kept = (await store.readBuffer(first.quiltPatchId))!;
      assert.equal(sha(kept), first.blobId);
      assert.equal(kept.buffer.byteLength, 3000, 'a copy of its own, not a slice of a shared pool');

      // Proof that the next reads come from memory: the quilt's stored bytes are overwritten
      // (which never happens to a real quilt), and the kept bytes are still answered.
      const raw = (await it.raw(first.quiltId))!;
      const at = raw.indexOf(kept);
      assert.ok(at > 0);
      await it.overwrite!(first.quiltId, Buffer.concat([raw.subarray(0, at), Buffer.alloc(3000, 7), raw.subarray(at + 3000)]));
      assert.equal(sha((await store.readBuffer(first.quiltPatchId))!), first.blobId);
      assert.deepEqual(await store.readBuffer(first.quiltPatchId, { start: 2990, end: 2999 }), kept.subarray(2990));

      // Larger than an entry may be: never kept (the S3 engine streams it; the local one reads it each time).
      const large = await put(store, randomBytes(9000));
      if (store instanceof LocalQuiltStore) assert.equal(sha((await store.readBuffer(large.quiltPatchId))!), large.blobId);
      else assert.equal(await store.readBuffer(large.quiltPatchId), undefined);
      assert.equal(sha(await readAll(await store.read(large.quiltPatchId))), large.blobId);
      assert.deepEqual(store.readCacheUse(), { entries: 1, bytes: 3000 });

      // The bound: 60 patches of 3,000 bytes read into a budget of 128,000.
      const many = [];
      for (let i = 0; i < 60; i++) many.push(await put(store, randomBytes(3000)));
      for (const location of many) assert.equal(sha((await store.readBuffer(location.quiltPatchId))!), location.blobId);
      const use = store.readCacheUse();
      assert.ok(use.bytes <= budget && use.bytes > budget - 3000, `${use.bytes} bytes kept against a budget of ${budget}`);
      assert.equal(use.entries, Math.floor(budget / 3000));
      // The least recently read went first: the first patch (overwritten) is read anew.
      assert.deepEqual(await store.readBuffer(first.quiltPatchId), Buffer.alloc(3000, 7));

      const last = many[many.length - 1]!;
      await store.delete(last.quiltPatchId);
      assert.equal(store.readCacheUse().bytes, use.bytes - 3000, 'a deleted blob gives its memory back at once');
      await assert.rejects(store.readBuffer(last.quiltPatchId), BlobMissingError);
    });

    test('a zero-byte blob round-trips', async () => {
      const store = await it.open();
      const location = await put(store, Buffer.alloc(0));
      assert.equal(location.sizeBytes, 0);
      assert.equal((await readAll(await store.read(location.quiltPatchId))).length, 0);
    });

    test('over the limit: BlobTooLargeError and nothing left in staging', async () => {
      const store = await it.open({ inlineMaxBytes: 1024 });
      await assert.rejects(store.stage(chunked(randomBytes(50_000)), { maxBytes: 40_000 }), BlobTooLargeError);
      assert.deepEqual(await it.staging(), []);
      const spilled = await store.stage(chunked(randomBytes(5000)), { maxBytes: Infinity });
      await spilled.discard();
      assert.deepEqual(await it.staging(), [], 'discard removes a spilled temp file');
    });

    test(engine === 'walrus' ? 'delete: the blob reads no more, its neighbours still do' : 'delete removes a single-patch quilt and keeps shared quilts', async () => {
      const store = await it.open({ inlineMaxBytes: 1024 });
      const alone = await put(store, randomBytes(5000));
      await store.delete(alone.quiltPatchId);
      // Walrus has no delete: the quilt stays until its end epoch (and a sealed one is unreadable).
      if (engine !== 'walrus') assert.equal(await it.raw(alone.quiltId), undefined);
      await assert.rejects(store.read(alone.quiltPatchId), BlobMissingError);
      const shared = await store.persist([await store.stage([randomBytes(100)], { maxBytes: Infinity }), await store.stage([Buffer.from('neighbour')], { maxBytes: Infinity })]);
      await store.delete(shared[0]!.quiltPatchId);
      assert.equal((await readAll(await store.read(shared[1]!.quiltPatchId))).toString(), 'neighbour');
    });

    if (engine !== 'walrus') test('a quilt describes itself: its index and id can be recomputed, patches read without a database', async () => {
      const store = await it.open();
      const blobs = [randomBytes(10), randomBytes(2000), randomBytes(700)];
      const locations = await store.persist(await Promise.all(blobs.map((b) => store.stage([b], { maxBytes: Infinity }))));
      const raw = (await it.raw(locations[0]!.quiltId))!;
      const { entries, quiltId } = describeQuilt(raw);
      assert.deepEqual(entries.map((e) => e.hash.toString('base64url')), locations.map((l) => l.blobId));
      assert.equal(quiltId, locations[0]!.quiltId);
      for (const [i, location] of locations.entries()) {
        const locator = decodePatchId(location.quiltPatchId)!;
        assert.equal(locator.quiltId, location.quiltId);
        assert.deepEqual(raw.subarray(locator.offset, locator.offset + locator.length), blobs[i]);
      }
    });

    test('close waits for pending writes', async () => {
      const store = await it.open({ batchWindowMs: 200 });
      const pending = put(store, randomBytes(100));
      await store.close();
      const location = await pending;
      assert.ok(await it.patchesIn(location.quiltId));
    });

    test('opening removes stale temp files and keeps fresh ones', async () => {
      await fs.mkdir(it.stagingDir(), { recursive: true });
      const stale = path.join(it.stagingDir(), 'stale.part');
      const fresh = path.join(it.stagingDir(), 'fresh.part');
      await fs.writeFile(stale, 'x');
      await fs.writeFile(fresh, 'x');
      const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
      await fs.utimes(stale, twoHoursAgo, twoHoursAgo);
      await it.open();
      await assert.rejects(fs.access(stale));
      await fs.access(fresh);
    });

    if (engine === 's3') {
      test('s3: a file of several parts goes up by multipart upload and leaves no upload open', async () => {
        const store = await it.open({ inlineMaxBytes: 1024 });
        const bytes = randomBytes(12 * 1024 * 1024 + 123);
        const [location] = await store.persist([await store.stage(chunked(bytes, 64 * 1024), { maxBytes: Infinity })]);
        assert.equal(sha(await readAll(await store.read(location!.quiltPatchId))), sha(bytes));
        const head = await bucket!.client.send(new HeadObjectCommand({ Bucket: bucket!.name, Key: `${prefix}quilts/${location!.quiltId}.quilt` }));
        assert.match(head.ETag ?? '', /-3"?$/, 'three parts (multipart ETag)');
        const open = await bucket!.client.send(new ListMultipartUploadsCommand({ Bucket: bucket!.name }));
        assert.deepEqual(open.Uploads ?? [], []);
        assert.deepEqual(await it.staging(), [], 'the temp file is gone');
      });

      test('s3: a part that fails is sent again from the file; one that keeps failing aborts the upload, leaving none open', async () => {
        const faults = await s3Faults();
        // The SDK would tell the console it does not send a streamed part again; the store does.
        const warned: unknown[][] = [];
        const warn = console.warn;
        console.warn = (...content: unknown[]) => void warned.push(content);
        try {
          const settings = testS3Settings({ bucket: bucket!.name, endpoint: faults.endpoint, maxAttempts: 3 });
          const store = await S3QuiltStore.open({ ...defaults, client: createS3Client(settings), bucket: bucket!.name, prefix, tmpDir: path.join(dir, 'staging'), partBytes: 5 << 20, partsInFlight: 2, checkTimeoutMs: 3000 });
          stores.push(store);
          const secondPart = (request: { method?: string; url?: string }) => request.method === 'PUT' && /[?&]partNumber=2(&|$)/.test(request.url ?? '');
          const bytes = randomBytes(12 * 1024 * 1024 + 5);
          faults.failNext(2, 503, secondPart);
          const [location] = await store.persist([await store.stage(chunked(bytes, 64 * 1024), { maxBytes: Infinity })]);
          assert.equal(faults.faultsServed, 2, 'the second part was refused twice, then went up');
          assert.equal(sha(await readAll(await store.read(location!.quiltPatchId))), sha(bytes), 'the object holds every byte, the resent part too');

          faults.failNext(3, 503, secondPart);
          await assert.rejects(store.persist([await store.stage(chunked(randomBytes(12 * 1024 * 1024 + 7), 64 * 1024), { maxBytes: Infinity })]), BlobStoreUnavailableError);
          assert.equal(faults.faultsServed, 5, 'three attempts, then the upload failed');
          const open = await bucket!.client.send(new ListMultipartUploadsCommand({ Bucket: bucket!.name }));
          assert.deepEqual(open.Uploads ?? [], [], 'the failed upload was aborted');
          assert.deepEqual(await it.staging(), [], 'and its temp file removed');
          assert.deepEqual(warned, [], 'nothing said to the console');
        } finally {
          console.warn = warn;
          await faults.close();
        }
      });

      test('s3: a missing bucket is refused at open, saying so', async () => {
        const settings = testS3Settings({ bucket: 'tessera-no-such-bucket' });
        await assert.rejects(
          S3QuiltStore.open({ ...defaults, client: createS3Client(settings), bucket: settings.bucket, prefix: '', tmpDir: path.join(dir, 'staging'), partBytes: 5 << 20, partsInFlight: 1, checkTimeoutMs: 3000 }),
          (error: unknown) => error instanceof BucketMissingError && /tessera-no-such-bucket" does not exist/.test(error.message),
        );
      });

      test('s3: throttling and 5xx answers are retried with backoff; past the attempts they are BlobStoreUnavailableError', async () => {
        const faults = await s3Faults();
        try {
          const settings = testS3Settings({ bucket: bucket!.name, endpoint: faults.endpoint, maxAttempts: 3 });
          const store = await S3QuiltStore.open({ ...defaults, client: createS3Client(settings), bucket: bucket!.name, prefix, tmpDir: path.join(dir, 'staging'), partBytes: 5 << 20, partsInFlight: 1, checkTimeoutMs: 3000 });
          stores.push(store);
          faults.failNext(2, 503);
          const bytes = randomBytes(700);
          const location = await put(store, bytes);
          assert.equal(faults.faultsServed, 2, 'two SlowDown answers, then the third attempt went through');
          faults.failNext(1, 500);
          assert.deepEqual(await readAll(await store.read(location.quiltPatchId)), bytes);
          assert.equal(faults.faultsServed, 3);
          faults.failNext(3, 503);
          await assert.rejects(put(store, randomBytes(10)), BlobStoreUnavailableError);
          assert.equal(faults.faultsServed, 6);
        } finally {
          await faults.close();
        }
      });

      test('s3: a service that does not answer is BlobStoreUnavailableError, for writes, reads and readiness; it recovers', async () => {
        const outage = await s3Outage();
        try {
          const settings = testS3Settings({ bucket: bucket!.name, endpoint: outage.endpoint, maxAttempts: 2, timeoutMs: 2000 });
          const store = await S3QuiltStore.open({ ...defaults, client: createS3Client(settings), bucket: bucket!.name, prefix, tmpDir: path.join(dir, 'staging'), partBytes: 5 << 20, partsInFlight: 1, checkTimeoutMs: 2000 });
          stores.push(store);
          const location = await put(store, randomBytes(100));
          await outage.cut();
          await assert.rejects(store.check(), BlobStoreUnavailableError);
          await assert.rejects(store.read(location.quiltPatchId), BlobStoreUnavailableError);
          await assert.rejects(put(store, randomBytes(10)), BlobStoreUnavailableError);
          await assert.rejects(put(store, randomBytes(3 * 1024 * 1024)), BlobStoreUnavailableError, 'a multipart upload too');
          assert.deepEqual(await it.staging(), [], 'the failed upload left no temp file');
          await outage.restore();
          await store.check();
          assert.equal((await readAll(await store.read(location.quiltPatchId))).length, 100);
        } finally {
          await outage.close();
        }
      });
    }
  });
}

test('patch ids round-trip and garbage is rejected', () => {
  const hash = createHash('sha256').update('q').digest();
  const id = encodePatchId(hash, 16, 4242);
  assert.deepEqual(decodePatchId(id), { quiltId: hash.toString('base64url'), offset: 16, length: 4242 });
  for (const bad of ['', 'abc', `${id}x`, id.replace(/./, '!'), 'A'.repeat(63)]) assert.equal(decodePatchId(bad), undefined, bad);
});

describe('local quilt store: open quilt files (TESSERA_OPEN_QUILT_FILES)', () => {
  test('reads across more quilts than it keeps open are all right, and no more than the bound stay open', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-open-quilts-'));
    const store = await LocalQuiltStore.open({ dir, ...defaults, openQuiltFiles: 2 });
    try {
      const files: Array<{ bytes: Buffer; quiltPatchId: string; quiltId: string }> = [];
      // One persist each: six quilts.
      for (let i = 0; i < 6; i++) {
        const bytes = randomBytes(3000 + i);
        const [location] = await store.persist([await store.stage(chunked(bytes), { maxBytes: Infinity })]);
        files.push({ bytes, quiltPatchId: location!.quiltPatchId, quiltId: location!.quiltId });
      }
      assert.equal(new Set(files.map((f) => f.quiltId)).size, 6);
      const openInStore = async () => {
        const fds = await fs.readdir('/proc/self/fd');
        const targets = await Promise.all(fds.map((fd) => fs.readlink(`/proc/self/fd/${fd}`).catch(() => '')));
        return targets.filter((target) => target.startsWith(dir) && target.endsWith('.quilt')).length;
      };
      for (let round = 0; round < 3; round++) {
        for (const file of round % 2 ? [...files].reverse() : files) {
          assert.deepEqual(await readAll(await store.read(file.quiltPatchId)), file.bytes);
          assert.deepEqual(await store.readBuffer!(file.quiltPatchId, { start: 10, end: 99 }), file.bytes.subarray(10, 100));
        }
      }
      // An evicted handle closes once its reads are done: give the closes a moment.
      for (let waited = 0; (await openInStore()) > 2 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok((await openInStore()) <= 2, `${await openInStore()} quilt files open, over the bound of 2`);
    } finally {
      await store.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

