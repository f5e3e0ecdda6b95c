import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { BlobStoreUnavailableError, BlobTooLargeError } from '../../src/storage/blob-store.ts';
import { MasterKeys } from '../../src/storage/walrus-sealing.ts';
import { WalrusStandIn, openTestWalrusStore, type TestWalrusOptions, type TestWalrusStore } from '../helpers/walrus.ts';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url');

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What the Walrus engine adds to the store suite (which runs over it too, in quilt-store.test.ts). */
describe('Walrus engine', () => {
  let walrus: WalrusStandIn;
  let dir: string;
  const stores: TestWalrusStore[] = [];
  const open = async (options: Partial<TestWalrusOptions> = {}) => {
    const store = await openTestWalrusStore(walrus, dir, { batchWindowMs: 2, batchMaxBytes: 16 * 1024 * 1024, inlineMaxBytes: 64 * 1024, ...options });
    stores.push(store);
    return store;
  };
  const put = async (store: TestWalrusStore, ...blobs: Buffer[]) => store.persist(await Promise.all(blobs.map((b) => store.stage([b], { maxBytes: Infinity }))));
  const published = async (quiltPatchId: string) => {
    const answer = await fetch(`${walrus.url}/v1/blobs/by-quilt-patch-id/${quiltPatchId}`);
    assert.equal(answer.status, 200);
    return Buffer.from(await answer.arrayBuffer());
  };

  beforeEach(async () => {
    walrus = await WalrusStandIn.start({ nShards: 100 });
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-walrus-'));
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await walrus.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  test('one PUT /v1/quilts per group; records carry the Walrus quilt id and QuiltPatchIds; blobId stays the content hash', async () => {
    const store = await open({ encrypt: false });
    const blobs = [Buffer.from('a first small file'), Buffer.from('a second small file'), randomBytes(3000)];
    const locations = await put(store, ...blobs);
    assert.equal(walrus.calls.store, 1);
    assert.deepEqual(walrus.storeQueries.map((q) => q.toString()), ['epochs=2']);
    for (const [i, location] of locations.entries()) {
      assert.equal(location.blobId, sha(blobs[i]!));
      assert.equal(location.quiltPatchId.length, 50);
      assert.equal(Buffer.from(location.quiltPatchId, 'base64url').subarray(0, 32).toString('base64url'), location.quiltId);
      // Plaintext: any aggregator gives the very bytes for the patch id alone.
      assert.deepEqual(await published(location.quiltPatchId), blobs[i]);
    }
    const quilt = walrus.blobs.get(locations[0]!.quiltId)!;
    assert.equal(walrus.blobIdOf(quilt.bytes), locations[0]!.quiltId, "the quilt id is the network's id of the quilt's bytes");
    assert.deepEqual(quilt.patches!.map((p) => p.identifier).sort(), blobs.map((b) => createHash('sha256').update(b).digest('hex')).sort(), 'identifiers are the content hashes');
  });

  test("the same bytes in two uploads of one batch (two accounts', say) are two patches; plaintext ones are named by the hash, then .2", async () => {
    const store = await open({ encrypt: false, batchWindowMs: 10_000, batchMaxBytes: 2 * 1000 });
    const same = randomBytes(1000);
    const [[first], [second]] = await Promise.all([put(store, same), put(store, same)]);
    assert.equal(walrus.calls.store, 1, 'one quilt for both uploads');
    assert.equal(first!.quiltId, second!.quiltId);
    assert.notEqual(first!.quiltPatchId, second!.quiltPatchId);
    const hex = createHash('sha256').update(same).digest('hex');
    assert.deepEqual(walrus.blobs.get(first!.quiltId)!.patches!.map((p) => p.identifier).sort(), [hex, `${hex}.2`]);
    for (const location of [first!, second!]) assert.deepEqual(await published(location.quiltPatchId), same);
  });

  test('sealed: the same bytes in two uploads of one batch are two patches with two data keys and two ciphertexts; a delete leaves the other', async () => {
    const masterKey = randomBytes(32);
    const store = await open({ masterKey, batchWindowMs: 10_000, batchMaxBytes: 2 * 1000 });
    const same = randomBytes(1000);
    const [[first], [second]] = await Promise.all([put(store, same), put(store, same)]);
    assert.equal(first!.quiltId, second!.quiltId, 'one quilt for both uploads');
    assert.notEqual(first!.quiltPatchId, second!.quiltPatchId);
    assert.notEqual(first!.sealedKey, second!.sealedKey);
    assert.notDeepEqual(await published(first!.quiltPatchId), await published(second!.quiltPatchId));
    const firstKey = new MasterKeys(masterKey).unwrap(first!.sealedKey!, first!.blobId);
    assert.equal(firstKey.equals(new MasterKeys(masterKey).unwrap(second!.sealedKey!, second!.blobId)), false, 'a data key each');
    await store.delete(first!.quiltPatchId);
    await assert.rejects(store.read(first!.quiltPatchId), /missing/);
    assert.deepEqual(await readAll(await store.read(second!.quiltPatchId)), same);
  });

  test('a plaintext persist (a public Space) on a sealing store: published as it is; the same bytes sealed in the same batch are a patch of their own', async () => {
    const store = await open({ batchWindowMs: 50 });
    assert.equal(store.seals, true);
    const same = Buffer.from('one content, wanted public by one upload and private by another '.repeat(8));
    const stage = () => store.stage([same], { maxBytes: Infinity });
    const [[open1], [sealed], [open2]] = await Promise.all([
      store.persist([await stage()], { plaintext: true }),
      store.persist([await stage()]),
      store.persist([await stage()], { plaintext: true }),
    ]);
    assert.equal(walrus.calls.store, 1, 'one quilt for the three uploads');
    assert.notEqual(open1!.quiltPatchId, open2!.quiltPatchId, 'two uploads, two patches, plaintext too');
    assert.notEqual(sealed!.quiltPatchId, open1!.quiltPatchId);
    assert.deepEqual(await published(open1!.quiltPatchId), same, 'any aggregator serves the plaintext patch as uploaded');
    assert.equal(open1!.sealedKey, undefined);
    const ciphertext = await published(sealed!.quiltPatchId);
    assert.equal(ciphertext.length, same.length + 28);
    assert.equal(ciphertext.includes(same.subarray(0, 24)), false);
    assert.ok(sealed!.sealedKey);
    const identifiers = walrus.blobs.get(open1!.quiltId)!.patches!.map((p) => p.identifier);
    assert.equal(identifiers.length, 3);
    assert.ok(identifiers.includes(createHash('sha256').update(same).digest('hex')), 'the plaintext patch is named by its content hash');
    for (const location of [open1!, open2!, sealed!]) assert.deepEqual(await readAll(await store.read(location.quiltPatchId)), same);

    // A large one, a quilt of its own, streamed: plaintext too.
    const large = randomBytes(200 * 1024);
    const [big] = await store.persist([await store.stage([large], { maxBytes: Infinity })], { plaintext: true });
    assert.deepEqual(await published(big!.quiltPatchId), large);
  });

  test('private by default: what leaves is sealed, the key stays with the row, and a deleted row leaves the bytes unreadable', async () => {
    const store = await open();
    const secret = Buffer.from('the launch date is the fourth of March '.repeat(20));
    const [location] = await put(store, secret);
    const onWalrus = await published(location!.quiltPatchId);
    assert.equal(onWalrus.length, secret.length + 28);
    assert.equal(onWalrus.includes(secret.subarray(0, 24)), false, 'no plaintext on the network');
    assert.equal(walrus.blobs.get(location!.quiltId)!.patches![0]!.identifier.includes(createHash('sha256').update(secret).digest('hex')), false, 'the identifier is no content hash');
    assert.ok(location!.sealedKey);
    assert.deepEqual(await readAll(await store.read(location!.quiltPatchId)), secret);
    await store.delete(location!.quiltPatchId);
    await assert.rejects(store.read(location!.quiltPatchId), /missing/);
  });

  test('master key rotation: an old key still opens its rows; rewrap moves them to the new key', async () => {
    const oldKey = randomBytes(32);
    const first = await open({ masterKey: oldKey });
    const bytes = randomBytes(500);
    const [location] = await put(first, bytes);
    const newKey = randomBytes(32);
    const rotated = await open({ masterKey: newKey, previousMasterKeys: [oldKey] });
    rotated.rows.set(location!.quiltPatchId, first.rows.get(location!.quiltPatchId)!);
    assert.deepEqual(await readAll(await rotated.read(location!.quiltPatchId)), bytes);
    const keys = new MasterKeys(newKey, [oldKey]);
    const rewrapped = keys.rewrap(location!.sealedKey!, location!.blobId)!;
    assert.ok(rewrapped.startsWith(`${keys.currentId}.`));
    assert.equal(keys.rewrap(rewrapped, location!.blobId), undefined, 'already current');
    assert.throws(() => new MasterKeys(newKey).unwrap(location!.sealedKey!, location!.blobId), /not configured/);
    assert.throws(() => keys.unwrap(rewrapped, sha(randomBytes(5))), /does not open/, 'a key moved to another blob does not open');
  });

  test('reads go through the on-disk cache: a second read and a Range do not cross the network', async () => {
    const store = await open();
    const bytes = randomBytes(20_000);
    const [location] = await put(store, bytes);
    assert.deepEqual(await readAll(await store.read(location!.quiltPatchId)), bytes);
    const reads = walrus.calls.read;
    assert.deepEqual(await readAll(await store.read(location!.quiltPatchId)), bytes);
    assert.deepEqual(await readAll(await store.read(location!.quiltPatchId, { start: 100, end: 199 })), bytes.subarray(100, 200));
    assert.equal(walrus.calls.read, reads);
  });

  test('the cache is bounded: least recently used patches go first', async () => {
    const store = await open({ cacheBytes: 25_000 });
    const blobs = [randomBytes(10_000), randomBytes(10_000), randomBytes(10_000)];
    const locations = await put(store, ...blobs);
    for (const [i, l] of locations.entries()) assert.deepEqual(await readAll(await store.read(l.quiltPatchId)), blobs[i]);
    const files = await fs.readdir(path.join(dir, 'walrus-cache'));
    let size = 0;
    for (const f of files) size += (await fs.stat(path.join(dir, 'walrus-cache', f))).size;
    assert.ok(size <= 25_000, `${size} bytes cached`);
    const reads = walrus.calls.read;
    await readAll(await store.read(locations[2]!.quiltPatchId));
    assert.equal(walrus.calls.read, reads, 'the most recent is still cached');
    await readAll(await store.read(locations[0]!.quiltPatchId));
    assert.equal(walrus.calls.read, reads + 1, 'the oldest was evicted');
  });

  test('bytes are checked against the content hash before anything is served', async () => {
    const store = await open({ encrypt: false });
    // Upper-case letters: a byte the quilt's index (hex identifiers, lengths) cannot hold.
    const [location] = await put(store, Buffer.alloc(300, 'Q'));
    const quilt = walrus.blobs.get(location!.quiltId)!;
    const at = quilt.bytes.indexOf('Q'.charCodeAt(0));
    assert.ok(at > 0);
    quilt.bytes[at] = 'R'.charCodeAt(0);
    await assert.rejects(store.read(location!.quiltPatchId), /reads back as content/);
    assert.deepEqual(await fs.readdir(path.join(dir, 'walrus-cache')), [], 'nothing unverified is cached');
    assert.match((await store.inner.verifyPatch(location!.quiltPatchId))!, /reads back as content/);
  });

  test('503 BLOB_UNAVAILABLE and 429 are retried with backoff', async () => {
    const store = await open();
    walrus.failNext('store', 2, { status: 503, reason: 'BLOB_UNAVAILABLE' });
    const [location] = await put(store, Buffer.from('stored on the third attempt'));
    walrus.failNext('read', 1, { status: 429 });
    walrus.failNext('read', 1, { status: 503, reason: 'BLOB_UNAVAILABLE' });
    assert.equal((await readAll(await store.read(location!.quiltPatchId))).toString(), 'stored on the third attempt');
  });

  test('a call that times out is retried: a stalled store and a stalled read still succeed', async () => {
    const store = await open({ timeoutMs: 300, maxAttempts: 3 });
    walrus.failNext('store', 1, { stallMs: 1500 });
    const stores = walrus.calls.store;
    const [location] = await put(store, Buffer.from('stored after a timeout'));
    assert.equal(walrus.calls.store, stores + 2, 'the first attempt timed out, the second stored');
    walrus.failNext('read', 1, { stallMs: 1500 });
    const reads = walrus.calls.read;
    assert.equal((await readAll(await store.read(location!.quiltPatchId))).toString(), 'stored after a timeout');
    assert.equal(walrus.calls.read, reads + 2);
  });

  test('a read whose body stalls half-way fails within the timeout instead of hanging', async () => {
    const store = await open({ timeoutMs: 300, maxAttempts: 3 });
    const [location] = await put(store, randomBytes(64 * 1024));
    walrus.failNext('read', 1, { stallBodyMs: 30_000 });
    const started = Date.now();
    await assert.rejects(async () => readAll(await store.read(location!.quiltPatchId)), /stalled for 300 ms/);
    assert.ok(Date.now() - started < 20_000, 'failed long before the daemon would have finished');
    assert.equal((await readAll(await store.read(location!.quiltPatchId))).length, 64 * 1024, 'the next read is whole');
  });

  test('TESSERA_WALRUS_SEND_OBJECT_TO goes with every store as send_object_to', async () => {
    const owner = `0x${'ab'.repeat(32)}`;
    const store = await open({ sendObjectTo: owner });
    const [location] = await put(store, Buffer.from('a quilt whose Blob object goes to the owner'));
    assert.deepEqual(walrus.storeQueries.map((q) => q.get('send_object_to')), [owner]);
    await store.inner.renew(location!.quiltId);
    assert.deepEqual(walrus.storeQueries.map((q) => q.get('send_object_to')), [owner, owner], 'renewals too');
  });

  test('a publisher outage or timeout is BlobStoreUnavailableError and answers no location; readiness says so', async () => {
    const store = await open({ maxAttempts: 2, timeoutMs: 300 });
    await store.check();
    walrus.setOffline(true);
    await assert.rejects(put(store, Buffer.from('never acknowledged')), BlobStoreUnavailableError);
    await assert.rejects(store.check(), BlobStoreUnavailableError);
    walrus.setOffline(false);
    walrus.delayMs = 1000;
    await assert.rejects(put(store, Buffer.from('too slow')), BlobStoreUnavailableError);
    walrus.delayMs = 0;
    assert.equal(store.rows.size, 0);
    const [location] = await put(store, Buffer.from('back again'));
    assert.equal((await readAll(await store.read(location!.quiltPatchId))).toString(), 'back again');
  });

  test("files past the publisher's body limit are refused naming it; a 413 from the publisher too", async () => {
    const store = await open({ inlineMaxBytes: 1024, maxQuiltBytes: 64 * 1024 });
    await assert.rejects(store.stage([randomBytes(70 * 1024)], { maxBytes: Infinity }), (e: unknown) => e instanceof BlobTooLargeError && /TESSERA_WALRUS_MAX_QUILT_BYTES=65536/.test(e.message));
    walrus.failNext('store', 1, { status: 413 });
    await assert.rejects(put(store, randomBytes(100)), BlobTooLargeError);
  });

  test('a large file is a quilt of its own, streamed', async () => {
    const store = await open({ inlineMaxBytes: 1024 });
    const bytes = randomBytes(3 * 1024 * 1024);
    const [location] = await put(store, bytes);
    assert.equal(walrus.blobs.get(location!.quiltId)!.patches!.length, 1);
    assert.deepEqual(await readAll(await store.read(location!.quiltPatchId, { start: 1_000_000, end: 1_000_099 })), bytes.subarray(1_000_000, 1_000_100));
    assert.deepEqual(await fs.readdir(path.join(dir, 'walrus-staging')), []);
  });
});
