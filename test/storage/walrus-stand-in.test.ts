import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { WalrusStandIn } from '../helpers/walrus.ts';

/** The stand-in speaks the protocol the engine relies on: if it drifted, the engine's tests would prove nothing. */
describe('Walrus stand-in publisher and aggregator', () => {
  let walrus: WalrusStandIn;
  before(async () => {
    walrus = await WalrusStandIn.start({ nShards: 10 });
  });
  after(() => walrus.close());

  test('computes the network\'s documented blobId with 1000 shards', () => {
    assert.equal(walrus.blobIdOf(Buffer.from('some other string'), 1000), 'M4hsZGQ1oCktdzegB6HnI6Mi28S2nqOPHxK-W7_4BUk');
  });

  test('a quilt stored by PUT /v1/quilts is read back patch by patch, and listed', async () => {
    const form = new FormData();
    form.append('beta', new Blob([Buffer.from('second file, a little longer than the first')]), 'beta');
    form.append('alpha', new Blob([Buffer.from('first')]), 'alpha');
    form.append('_metadata', JSON.stringify([{ identifier: 'alpha', tags: { kind: 'text' } }]));
    const stored = await fetch(`${walrus.url}/v1/quilts?epochs=3`, { method: 'PUT', body: form });
    assert.equal(stored.status, 200);
    const answer = (await stored.json()) as { blobStoreResult: { newlyCreated: { blobObject: { blobId: string; storage: { endEpoch: number } } } }; storedQuiltBlobs: Array<{ identifier: string; quiltPatchId: string }> };
    const quiltId = answer.blobStoreResult.newlyCreated.blobObject.blobId;
    assert.match(quiltId, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(answer.blobStoreResult.newlyCreated.blobObject.storage.endEpoch, walrus.currentEpoch + 3);
    const byName = new Map(answer.storedQuiltBlobs.map((b) => [b.identifier, b.quiltPatchId]));
    for (const [name, text] of [['alpha', 'first'], ['beta', 'second file, a little longer than the first']]) {
      const patchId = byName.get(name)!;
      assert.equal(patchId.length, 50);
      const raw = Buffer.from(patchId, 'base64url');
      assert.equal(raw.subarray(0, 32).toString('base64url'), quiltId);
      assert.equal(raw[32], 1);
      assert.ok(raw.readUInt16LE(33) < raw.readUInt16LE(35));
      const read = await fetch(`${walrus.url}/v1/blobs/by-quilt-patch-id/${patchId}`);
      assert.equal(read.status, 200);
      assert.equal(read.headers.get('x-quilt-patch-identifier'), name);
      assert.equal(Buffer.from(await read.arrayBuffer()).toString(), text);
    }
    // The quilt is a blob like any other: its id is the encoder's id of its bytes.
    const whole = Buffer.from(await (await fetch(`${walrus.url}/v1/blobs/${quiltId}`)).arrayBuffer());
    assert.equal(walrus.blobIdOf(whole), quiltId);
    const listed = (await (await fetch(`${walrus.url}/v1/quilts/${quiltId}/patches`)).json()) as Array<{ identifier: string; patch_id: string; tags: Record<string, string> }>;
    assert.deepEqual(listed.map((p) => [p.identifier, p.patch_id, p.tags]), [['alpha', byName.get('alpha'), { kind: 'text' }], ['beta', byName.get('beta'), {}]]);
  });

  test('byte ranges: one closed Range header, or start and length', async () => {
    const put = await fetch(`${walrus.url}/v1/blobs?epochs=1`, { method: 'PUT', body: Buffer.from('0123456789') });
    const { newlyCreated } = (await put.json()) as { newlyCreated: { blobObject: { blobId: string } } };
    const id = newlyCreated.blobObject.blobId;
    const ranged = await fetch(`${walrus.url}/v1/blobs/${id}`, { headers: { range: 'bytes=2-4' } });
    assert.equal(ranged.status, 206);
    assert.equal(await ranged.text(), '234');
    assert.equal((await fetch(`${walrus.url}/v1/blobs/${id}`, { headers: { range: 'bytes=2-' } })).status, 400);
    assert.equal(await (await fetch(`${walrus.url}/v1/blobs/${id}/byte-range?start=5&length=3`)).text(), '567');
    const again = (await (await fetch(`${walrus.url}/v1/blobs?epochs=1`, { method: 'PUT', body: Buffer.from('0123456789') })).json()) as Record<string, unknown>;
    assert.ok('alreadyCertified' in again);
  });

  test('errors have the daemon\'s shape; unknown query parameters are refused; 413 and 429 are plain text', async () => {
    const missing = await fetch(`${walrus.url}/v1/blobs/${Buffer.alloc(32).toString('base64url')}`);
    assert.equal(missing.status, 404);
    const body = (await missing.json()) as { error: { code: number; status: string; details: Array<{ reason: string }> } };
    assert.equal(body.error.code, 404);
    assert.equal(body.error.details[0]!.reason, 'BLOB_NOT_FOUND');
    assert.equal((await fetch(`${walrus.url}/v1/blobs?epochs=1&colour=blue`, { method: 'PUT', body: 'x' })).status, 400);
    walrus.failNext('store', 1, { status: 429 });
    const limited = await fetch(`${walrus.url}/v1/blobs?epochs=1`, { method: 'PUT', body: 'x' });
    assert.equal(limited.status, 429);
    assert.match(limited.headers.get('content-type')!, /text\/plain/);
    walrus.failNext('read', 1, { status: 503, reason: 'BLOB_UNAVAILABLE' });
    const unavailable = await fetch(`${walrus.url}/v1/blobs/${Buffer.alloc(32).toString('base64url')}`);
    assert.equal(unavailable.status, 503);
    assert.equal(((await unavailable.json()) as { error: { details: Array<{ reason: string }> } }).error.details[0]!.reason, 'BLOB_UNAVAILABLE');
  });
});
