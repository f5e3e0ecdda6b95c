import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { errorOf, startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { dialects } from '../helpers/databases.ts';
import { WalrusStandIn, walrusEnv } from '../helpers/walrus.ts';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url');

interface FileRecord {
  fileId: string;
  sizeBytes: string;
  metadata: { blobId: string; quiltId: string; quiltPatchId: string };
}

/** The API over TESSERA_STORE=walrus, against the stand-in publisher and aggregator, on both databases. */
for (const dialect of await dialects()) {
  describe(`the API on the Walrus engine (${dialect})`, () => {
    let walrus: WalrusStandIn;
    let t: TestApp;
    before(async () => {
      walrus = await WalrusStandIn.start();
      t = await startTestApp(dialect, walrusEnv(walrus));
    });
    after(async () => {
      await t.close();
      await walrus.close();
    });

    test('an upload is one quilt on Walrus; records carry its ids; bytes read back, ranges too; a delete takes the key', async () => {
      const contents = [randomBytes(3000), Buffer.from('a short note'), randomBytes(100)];
      const stores = walrus.calls.store;
      const res = await upload(t, contents.map((content, i) => ({ name: `f${i}.bin`, content })));
      assert.equal(res.statusCode, 201);
      assert.equal(walrus.calls.store, stores + 1, 'one PUT /v1/quilts');
      const files = res.json().files as FileRecord[];
      for (const [i, file] of files.entries()) {
        assert.equal(file.metadata.blobId, sha(contents[i]!));
        assert.equal(file.metadata.quiltId, files[0]!.metadata.quiltId);
        assert.ok(walrus.blobs.has(file.metadata.quiltId), 'the quilt id is the Walrus blobId');
        assert.equal(file.metadata.quiltPatchId.length, 50);
        const content = await t.app.inject({ url: `/v1/storage/files/${file.fileId}/content`, headers: { 'x-api-key': t.key } });
        assert.deepEqual(content.rawPayload, contents[i]);
        // What anyone reading Walrus gets: sealed bytes, not the file.
        const published = Buffer.from(await (await fetch(`${walrus.url}/v1/blobs/by-quilt-patch-id/${file.metadata.quiltPatchId}`)).arrayBuffer());
        assert.notDeepEqual(published.subarray(12, 12 + contents[i]!.length), contents[i]);
      }
      const ranged = await t.app.inject({ url: `/v1/storage/files/${files[0]!.fileId}/content`, headers: { 'x-api-key': t.key, range: 'bytes=10-19' } });
      assert.equal(ranged.statusCode, 206);
      assert.deepEqual(ranged.rawPayload, contents[0]!.subarray(10, 20));

      const gone = files[1]!;
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${gone.fileId}`, headers: { 'x-api-key': t.key } })).statusCode, 204);
      const row = await t.context.database.db.selectFrom('blobs').select('sealed_key').where('blob_id', '=', gone.metadata.blobId).executeTakeFirst();
      assert.equal(row, undefined, 'the row and its wrapped key are gone');
    });

    test('tessera verify reads every live patch back and checks it', async () => {
      await upload(t, [{ name: 'v.bin', content: randomBytes(700) }]);
      const report = await t.context.maintenance.verify();
      assert.deepEqual(report.problems, []);
      assert.ok(report.patches >= 3);
      const gc = await t.context.maintenance.gc({ threshold: 0.5 });
      assert.equal(gc.quiltsRemoved + gc.quiltsRewritten, 0, 'nothing to collect on Walrus: quilts lapse at their end epoch');
    });

    test('lifecycle: each quilt keeps its end epoch and cost; quilts with live files are renewed before they lapse, the others left to', async () => {
      const lifecycle = t.context.walrus!;
      const kept = (await upload(t, [{ name: 'kept.bin', content: randomBytes(600) }])).json().files[0] as FileRecord;
      const dropped = (await upload(t, [{ name: 'dropped.bin', content: randomBytes(600) }])).json().files[0] as FileRecord;
      await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${dropped.fileId}`, headers: { 'x-api-key': t.key } });
      const before = await lifecycle.status();
      const keptQuilt = before.quilts.find((q) => q.quiltId === kept.metadata.quiltId)!;
      assert.equal(keptQuilt.endEpoch, walrus.currentEpoch + 5, 'TESSERA_WALRUS_EPOCHS defaults to 5');
      assert.ok(keptQuilt.costFrost > 0 && keptQuilt.liveBlobs === 1);
      assert.equal(before.quilts.find((q) => q.quiltId === dropped.metadata.quiltId)!.liveBlobs, 0);
      assert.deepEqual((await lifecycle.renewDue()).renewed, [], 'nothing lapses within an epoch yet');

      // Four epochs on, the next store tells Tessera the time: the first quilts are then due.
      walrus.currentEpoch += 4;
      await upload(t, [{ name: 'later.bin', content: randomBytes(600) }]);
      const report = await lifecycle.renewDue();
      assert.deepEqual(report.failed, []);
      const renewed = new Set(report.renewed.map((r) => r.quiltId));
      assert.ok(renewed.has(kept.metadata.quiltId));
      assert.ok(!renewed.has(dropped.metadata.quiltId), 'no live file: left to lapse');
      assert.equal((await lifecycle.status()).quilts.find((q) => q.quiltId === kept.metadata.quiltId)!.endEpoch, walrus.currentEpoch + 5);

      // Past the original end epoch: the renewed quilt still reads, by the same patch id.
      walrus.currentEpoch += 3;
      assert.equal((await fetch(`${walrus.url}/v1/blobs/by-quilt-patch-id/${kept.metadata.quiltPatchId}`)).status, 200);
      assert.equal((await fetch(`${walrus.url}/v1/blobs/by-quilt-patch-id/${dropped.metadata.quiltPatchId}`)).status, 404);
      assert.deepEqual((await t.context.maintenance.verify()).problems, []);
    });

    test('a Walrus outage: 503 provider_unavailable, nothing acknowledged, readiness fails, then recovers', async () => {
      const before = (await t.app.inject({ url: '/v1/storage/files', headers: { 'x-api-key': t.key } })).json().files.length;
      assert.equal((await t.app.inject({ url: '/readyz' })).statusCode, 200);
      walrus.setOffline(true);
      const res = await upload(t, [{ name: 'lost.bin', content: randomBytes(500) }]);
      assert.equal(res.statusCode, 503);
      assert.equal(errorOf(res).code, 'provider_unavailable');
      const ready = await t.app.inject({ url: '/readyz' });
      assert.equal(ready.statusCode, 503);
      walrus.setOffline(false);
      assert.equal((await t.app.inject({ url: '/v1/storage/files', headers: { 'x-api-key': t.key } })).json().files.length, before);
      assert.equal((await t.app.inject({ url: '/readyz' })).statusCode, 200);
      assert.equal((await upload(t, [{ name: 'after.bin', content: randomBytes(500) }])).statusCode, 201);
    });
  });
}
