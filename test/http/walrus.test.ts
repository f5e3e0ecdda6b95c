import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { errorOf, startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { dialects } from '../helpers/databases.ts';
import { redBlue } from '../helpers/images.ts';
import { MasterKeys } from '../../src/storage/walrus-sealing.ts';
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
      const row = await t.context.database.db.selectFrom('blobs').select('sealed_key').where('quilt_patch_id', '=', gone.metadata.quiltPatchId).executeTakeFirst();
      assert.equal(row, undefined, 'the row and its wrapped key are gone');
    });

    test('a public Space: its files are on Walrus as they are, for any aggregator; a private Space keeps them sealed; a change applies to new files', async () => {
      const call = (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: object) =>
        t.app.inject({ method, url, headers: { 'x-api-key': t.key }, ...(payload ? { payload } : {}) });
      const published = async (file: FileRecord) => Buffer.from(await (await fetch(`${walrus.url}/v1/blobs/by-quilt-patch-id/${file.metadata.quiltPatchId}`)).arrayBuffer());
      const sealedKeyOf = async (file: FileRecord) =>
        (await t.context.database.db.selectFrom('blobs').innerJoin('files', 'files.blob_id', 'blobs.blob_id').select('blobs.sealed_key').where('files.id', '=', file.fileId).executeTakeFirstOrThrow()).sealed_key;
      const store = async (space: string, name: string, content: Buffer) => {
        const res = await upload(t, [{ name, content }], { fields: { workspace_id: space } });
        assert.equal(res.statusCode, 201, res.body);
        const file = res.json().files[0] as FileRecord;
        assert.equal(file.metadata.blobId, sha(content));
        const back = await t.app.inject({ url: `/v1/storage/files/${file.fileId}/content`, headers: { 'x-api-key': t.key } });
        assert.deepEqual(back.rawPayload, content, `${name} reads back through Tessera`);
        return file;
      };
      const isPlain = async (file: FileRecord, content: Buffer) => {
        assert.deepEqual(await published(file), content, 'the aggregator serves the upload as it was');
        assert.equal(await sealedKeyOf(file), null);
      };
      const isSealed = async (file: FileRecord, content: Buffer) => {
        const bytes = await published(file);
        assert.equal(bytes.length, content.length + 28, 'IV, ciphertext, tag');
        assert.equal(bytes.indexOf(content.subarray(0, 64)), -1, 'no run of the plaintext is on Walrus');
        assert.notEqual(await sealedKeyOf(file), null);
      };

      const created = await call('POST', '/v1/spaces', { name: 'open to all', encryption: 'none' });
      assert.equal(created.statusCode, 201, created.body);
      const open = created.json() as { id: string; encryption: string };
      assert.equal(open.encryption, 'none');
      const privateSpace = (await call('POST', '/v1/spaces', { name: 'kept sealed' })).json() as { id: string; encryption: string };
      assert.equal(privateSpace.encryption, 'sealed', 'sealed unless the owner chose otherwise');

      // The same bytes in both: two blobs, one plaintext and one sealed, neither served for the other.
      const shared = randomBytes(4000);
      const [inOpen, inPrivate] = [await store(open.id, 'open.bin', shared), await store(privateSpace.id, 'private.bin', shared)];
      await isPlain(inOpen, shared);
      await isSealed(inPrivate, shared);
      assert.notEqual(inOpen.metadata.quiltPatchId, inPrivate.metadata.quiltPatchId);
      // A second plaintext upload of those bytes to a public Space shares the plaintext blob.
      assert.equal((await store(open.id, 'again.bin', shared)).metadata.quiltPatchId, inOpen.metadata.quiltPatchId);

      // A large file (a quilt of its own, streamed) and an edit's result follow their Space too.
      const large = randomBytes(1024 * 1024 + 5000);
      await isPlain(await store(open.id, 'large.bin', large), large);
      const picture = await redBlue();
      const source = await store(privateSpace.id, 'source.png', picture);
      const edit = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key }, payload: { prompt: 'invert', workspace_id: open.id, file_id: source.fileId } });
      assert.equal(edit.statusCode, 200, edit.body);
      const result = (await call('GET', `/v1/storage/files/${edit.json().file_id}`)).json() as FileRecord;
      const resultBytes = (await t.app.inject({ url: `/v1/storage/files/${result.fileId}/content`, headers: { 'x-api-key': t.key } })).rawPayload;
      await isPlain(result, resultBytes);

      // A change applies to files stored from then on; those stored before keep their bytes.
      const sealedNow = await call('PATCH', `/v1/spaces/${open.id}`, { encryption: 'sealed' });
      assert.equal(sealedNow.statusCode, 200, sealedNow.body);
      assert.equal(sealedNow.json().encryption, 'sealed');
      assert.equal((await call('GET', `/v1/spaces/${open.id}`)).json().encryption, 'sealed');
      const later = randomBytes(3000);
      await isSealed(await store(open.id, 'later.bin', later), later);
      await isPlain(inOpen, shared);
      assert.equal((await call('PATCH', `/v1/spaces/${privateSpace.id}`, { encryption: 'none' })).json().encryption, 'none');
      const opened = randomBytes(3000);
      await isPlain(await store(privateSpace.id, 'opened.bin', opened), opened);
      await isSealed(inPrivate, shared);
      assert.deepEqual((await t.context.maintenance.verify()).problems, []);
    });

    test("two accounts' identical bytes in one quilt: a patch and a data key each; one's delete leaves the other's file readable; public Spaces too", async () => {
      // The batch cap (64 KiB) seals as soon as both uploads of 32 KiB are queued: one quilt, whatever the timing.
      const both = await startTestApp(dialect, { ...walrusEnv(walrus), TESSERA_QUILT_BATCH_WINDOW_MS: '1000', TESSERA_QUILT_BATCH_MAX_BYTES: String(64 * 1024) });
      try {
        const as = (key: string) => ({
          store: async (content: Buffer, space?: string) => {
            const res = await upload(both, [{ name: 'same.bin', content }], { key, ...(space ? { fields: { workspace_id: space } } : {}) });
            assert.equal(res.statusCode, 201, res.body);
            return res.json().files[0] as FileRecord;
          },
          read: (file: FileRecord) => both.app.inject({ url: `/v1/storage/files/${file.fileId}/content`, headers: { 'x-api-key': key } }),
          remove: (file: FileRecord) => both.app.inject({ method: 'DELETE', url: `/v1/storage/files/${file.fileId}`, headers: { 'x-api-key': key } }),
          publicSpace: async () => (await both.app.inject({ method: 'POST', url: '/v1/spaces', headers: { 'x-api-key': key }, payload: { name: 'public', encryption: 'none' } })).json().id as string,
        });
        const [alice, bob] = [as(both.key), as(both.otherKey)];
        const published = async (file: FileRecord) => Buffer.from(await (await fetch(`${walrus.url}/v1/blobs/by-quilt-patch-id/${file.metadata.quiltPatchId}`)).arrayBuffer());
        const sealedKeyOf = async (file: FileRecord) =>
          (await both.context.database.db.selectFrom('blobs').innerJoin('files', 'files.blob_id', 'blobs.blob_id').select('blobs.sealed_key').where('files.id', '=', file.fileId).executeTakeFirstOrThrow()).sealed_key;

        const sealed = randomBytes(32 * 1024);
        const [aliceSealed, bobSealed] = await Promise.all([alice.store(sealed), bob.store(sealed)]);
        assert.equal(aliceSealed.metadata.quiltId, bobSealed.metadata.quiltId, 'one batch, one quilt');
        assert.equal(aliceSealed.metadata.blobId, bobSealed.metadata.blobId, 'the content id is the content id');
        assert.notEqual(aliceSealed.metadata.quiltPatchId, bobSealed.metadata.quiltPatchId, 'a patch each');
        assert.notEqual(await sealedKeyOf(aliceSealed), await sealedKeyOf(bobSealed), 'a data key each');
        assert.notDeepEqual(await published(aliceSealed), await published(bobSealed));

        const [aliceSpace, bobSpace] = await Promise.all([alice.publicSpace(), bob.publicSpace()]);
        const open = randomBytes(32 * 1024);
        const [alicePublic, bobPublic] = await Promise.all([alice.store(open, aliceSpace), bob.store(open, bobSpace)]);
        assert.equal(alicePublic.metadata.quiltId, bobPublic.metadata.quiltId, 'one batch, one quilt');
        assert.notEqual(alicePublic.metadata.quiltPatchId, bobPublic.metadata.quiltPatchId, 'a patch each, plaintext too');
        for (const file of [alicePublic, bobPublic]) assert.deepEqual(await published(file), open);

        for (const file of [aliceSealed, alicePublic]) assert.equal((await alice.remove(file)).statusCode, 204);
        for (const [file, content] of [[bobSealed, sealed], [bobPublic, open]] as const) {
          const back = await bob.read(file);
          assert.equal(back.statusCode, 200);
          assert.deepEqual(back.rawPayload, content, "bob's file outlives alice's delete");
        }
        assert.equal(await both.context.database.db.selectFrom('blobs').select('blob_id').where('quilt_patch_id', '=', aliceSealed.metadata.quiltPatchId).executeTakeFirst(), undefined, "alice's row and wrapped key are gone");
        assert.deepEqual((await both.context.maintenance.verify()).problems, []);
      } finally {
        await both.close();
      }
    });

    test("a file over the publisher's body limit: 413 payload_too_large naming the limit, before anything is sent", async () => {
      const small = await startTestApp(dialect, { ...walrusEnv(walrus), TESSERA_WALRUS_MAX_QUILT_BYTES: String(64 * 1024) });
      try {
        const stores = walrus.calls.store;
        const res = await upload(small, [{ name: 'big.bin', content: randomBytes(70 * 1024) }]);
        assert.equal(res.statusCode, 413, res.body);
        assert.equal(errorOf(res).code, 'payload_too_large');
        assert.match(errorOf(res).message, /TESSERA_WALRUS_MAX_QUILT_BYTES=65536/);
        assert.equal(walrus.calls.store, stores, 'nothing went to the publisher');
        assert.deepEqual((await small.app.inject({ url: '/v1/storage/files', headers: { 'x-api-key': small.key } })).json().files, []);
        assert.equal((await upload(small, [{ name: 'fits.bin', content: randomBytes(60 * 1024) }])).statusCode, 201, 'under the limit it is stored');
      } finally {
        await small.close();
      }
    });

    test('tessera verify reads every live patch back and checks it', async () => {
      await upload(t, [{ name: 'v.bin', content: randomBytes(700) }]);
      const report = await t.context.maintenance.verify();
      assert.deepEqual(report.problems, []);
      assert.ok(report.patches >= 3);
      const gc = await t.context.maintenance.gc({ threshold: 0.5 });
      assert.equal(gc.quiltsRemoved + gc.quiltsRewritten, 0, 'nothing to collect on Walrus: quilts lapse at their end epoch');
    });

    test('tessera verify names a broken patch by what its owner knows: file id, blobId, quiltPatchId (never the row key)', async () => {
      const [lapsed, unkeyed] = [
        (await upload(t, [{ name: 'lapsed.bin', content: randomBytes(700) }])).json().files[0] as FileRecord,
        (await upload(t, [{ name: 'unkeyed.bin', content: randomBytes(800) }])).json().files[0] as FileRecord,
      ];
      walrus.blobs.delete(lapsed.metadata.quiltId);
      // A data key wrapped by a master key this server does not have.
      const foreign = new MasterKeys(randomBytes(32)).newDataKey(unkeyed.metadata.blobId).wrapped;
      await t.context.database.db.updateTable('blobs').set({ sealed_key: foreign }).where('quilt_patch_id', '=', unkeyed.metadata.quiltPatchId).execute();
      try {
        const { problems } = await t.context.maintenance.verify();
        assert.equal(problems.length, 2, problems.join('\n'));
        for (const [file, what] of [[lapsed, /its patch is not on Walrus/], [unkeyed, /master key that is not configured/]] as const) {
          const problem = problems.find((p) => p.includes(file.fileId));
          assert.ok(problem, problems.join('\n'));
          assert.ok(problem.startsWith(`file ${file.fileId} (blobId ${file.metadata.blobId}, quiltPatchId ${file.metadata.quiltPatchId}): `), problem);
          assert.match(problem, what);
          assert.doesNotMatch(problem, /acc_/, 'the account-prefixed row key is no name a user knows');
        }
      } finally {
        for (const file of [lapsed, unkeyed]) await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${file.fileId}`, headers: { 'x-api-key': t.key } });
      }
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

    test('/readyz asks both daemons: the publisher or the aggregator down alone fails it, naming which', async () => {
      const aggregator = await WalrusStandIn.start();
      const split = await startTestApp(dialect, { ...walrusEnv(walrus), TESSERA_WALRUS_AGGREGATOR_URL: aggregator.url });
      try {
        assert.equal((await split.app.inject({ url: '/readyz' })).statusCode, 200);
        aggregator.setOffline(true);
        const noAggregator = await split.app.inject({ url: '/readyz' });
        assert.equal(noAggregator.statusCode, 503);
        assert.match(errorOf(noAggregator).message, /Walrus aggregator/);
        aggregator.setOffline(false);
        walrus.setOffline(true);
        const noPublisher = await split.app.inject({ url: '/readyz' });
        assert.equal(noPublisher.statusCode, 503);
        assert.match(errorOf(noPublisher).message, /Walrus publisher/);
      } finally {
        walrus.setOffline(false);
        await split.close();
        await aggregator.close();
      }
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
