import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { CreateMultipartUploadCommand, GetObjectCommand, ListMultipartUploadsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { after, before, describe, test } from 'node:test';
import { GC_LOCK } from '../../src/services/storage-maintenance.service.ts';
import { dialects } from '../helpers/databases.ts';
import { startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { freshBucket, s3Available, type TestBucket } from '../helpers/s3.ts';

interface Rec {
  fileId: string;
  metadata: { blobId: string; quiltId: string; quiltPatchId: string };
}

/** tessera verify and gc on the S3 engine: listing by prefix, ranged reads, rewrites, removals. */
if (await s3Available()) {
  const dialect = (await dialects()).includes('postgres') ? 'postgres' : 'sqlite';
  describe(`verify and gc on S3 (${dialect})`, () => {
    let t: TestApp;
    let bucket: TestBucket;
    const prefix = 'deploy-a/';
    const keyOf = (quiltId: string) => `${prefix}quilts/${quiltId}.quilt`;
    const exists = async (quiltId: string) => (await bucket.keys()).includes(keyOf(quiltId));
    const content = async (fileId: string) => (await t.app.inject({ url: `/v1/storage/files/${fileId}/content`, headers: { 'x-api-key': t.key } })).rawPayload;
    const remove = (fileId: string) => t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${fileId}`, headers: { 'x-api-key': t.key } });

    before(async () => {
      bucket = await freshBucket();
      t = await startTestApp(dialect, { ...bucket.env, TESSERA_S3_PREFIX: 'deploy-a', TESSERA_GC_MIN_AGE_MS: '0', TESSERA_QUILT_INLINE_MAX_BYTES: '65536' });
    });
    after(async () => {
      await t.close();
      await bucket.drop();
    });

    test('verify is clean, then finds dead patches; gc rewrites the mostly dead quilt and removes it', async () => {
      const files = Array.from({ length: 8 }, (_, i) => ({ name: `g${i}.txt`, content: `gc ${i} `.repeat(300 + i) }));
      const stored = (await upload(t, [...files, { name: 'large.bin', content: Buffer.alloc(200_000, 7) }])).json().files as Rec[];
      assert.ok(stored.every((f) => f.metadata.quiltId), 'stored');
      const oldQuilt = stored[0]!.metadata.quiltId;
      assert.ok(await exists(oldQuilt), 'quilts live under the prefix');
      const clean = await t.context.maintenance.verify();
      assert.deepEqual(clean.problems, []);
      assert.equal(clean.quilts, 2);
      assert.equal(clean.patches, 9);

      for (const f of stored.slice(2, 8)) assert.equal((await remove(f.fileId)).statusCode, 204);
      const garbage = await t.context.maintenance.verify();
      assert.deepEqual(garbage.problems, []);
      assert.equal(garbage.unreferencedPatches, 6);

      const before = await Promise.all(stored.slice(0, 2).map((f) => content(f.fileId)));
      const report = await t.context.maintenance.gc({ threshold: 0.5 });
      assert.equal(report.quiltsRewritten, 1);
      assert.equal(report.blobsMoved, 2);
      assert.equal(await exists(oldQuilt), false, 'the old quilt object is removed');
      for (const [i, f] of stored.slice(0, 2).entries()) assert.deepEqual(await content(f.fileId), before[i]);
      assert.equal((await content(stored[8]!.fileId)).length, 200_000);
      const after = await t.context.maintenance.verify();
      assert.deepEqual(after.problems, []);
      assert.equal(after.unreferencedPatches, 0);
    });

    test('a quilt nothing points at is removed by gc; a corrupt object is a problem for verify', async () => {
      const staged = await t.context.store.stage(Readable.from([Buffer.from('orphaned bytes')]), { maxBytes: 1000 });
      const [orphan] = await t.context.store.persist([staged]);
      assert.equal((await t.context.maintenance.verify()).unreferencedQuilts, 1);
      const report = await t.context.maintenance.gc({ threshold: 0.5 });
      assert.equal(report.quiltsRemoved, 1);
      assert.equal(await exists(orphan!.quiltId), false);

      const file = (await upload(t, [{ name: 'victim.txt', content: 'precious bytes' }])).json().files[0] as Rec;
      const key = keyOf(file.metadata.quiltId);
      const object = await bucket.client.send(new GetObjectCommand({ Bucket: bucket.name, Key: key }));
      const raw = Buffer.from(await object.Body!.transformToByteArray());
      raw[16] = raw[16]! ^ 0xff; // the first byte of the patch
      await bucket.client.send(new PutObjectCommand({ Bucket: bucket.name, Key: key, Body: raw }));
      const broken = await t.context.maintenance.verify();
      assert.ok(broken.problems.some((p) => p.includes(file.metadata.blobId) && /corrupt/.test(p)), broken.problems.join('\n'));
      raw[16] = raw[16]! ^ 0xff;
      await bucket.client.send(new PutObjectCommand({ Bucket: bucket.name, Key: key, Body: raw }));
      assert.deepEqual((await t.context.maintenance.verify()).problems, []);
    });

    test('an unfinished multipart upload (a crash mid-upload) is reported, and verify --repair aborts it', async () => {
      await bucket.client.send(new CreateMultipartUploadCommand({ Bucket: bucket.name, Key: `${prefix}quilts/${'A'.repeat(43)}.quilt` }));
      const report = await t.context.maintenance.verify({ repair: true });
      assert.equal(report.tempFiles, 1);
      assert.equal(report.repaired.length, 1, report.repaired.join('\n'));
      const open = await bucket.client.send(new ListMultipartUploadsCommand({ Bucket: bucket.name }));
      assert.deepEqual(open.Uploads ?? [], []);
    });

    if (dialect === 'postgres') {
      test('gc takes a cross-process lock: while one holds it, another is turned away', async () => {
        const nested = await t.context.database.exclusive(GC_LOCK, async () => t.context.database.exclusive(GC_LOCK, async () => 'ran'));
        assert.equal(nested, undefined, 'the second taker did not run');
        assert.equal(await t.context.database.exclusive(GC_LOCK, async () => 'ran'), 'ran', 'released afterwards');
      });
    }
  });
}
