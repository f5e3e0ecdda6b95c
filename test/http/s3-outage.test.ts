import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { errorOf, startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { freshBucket, s3Available, s3Outage, type S3Outage, type TestBucket } from '../helpers/s3.ts';

/**
 * The S3 service goes away under a running app (a proxy in front of the gateway is cut) and
 * comes back: API calls that need it answer 503 provider_unavailable with Retry-After, /readyz
 * fails, and both recover by themselves.
 */
if (await s3Available()) {
  describe('an S3 outage', () => {
    let t: TestApp;
    let bucket: TestBucket;
    let outage: S3Outage;
    before(async () => {
      bucket = await freshBucket();
      outage = await s3Outage();
      t = await startTestApp('sqlite', { ...bucket.env, TESSERA_S3_ENDPOINT: outage.endpoint, TESSERA_S3_MAX_ATTEMPTS: '2', TESSERA_S3_TIMEOUT_MS: '2000' });
    });
    after(async () => {
      await t.close();
      await outage.close();
      await bucket.drop();
    });

    test('answers 503 provider_unavailable with Retry-After; readiness fails, then recovers by itself', async () => {
      const ready = await t.app.inject({ url: '/readyz' });
      assert.equal(ready.statusCode, 200);
      assert.equal(ready.json().store, 's3-quilt');
      const stored = (await upload(t, [{ name: 'before.bin', content: randomBytes(2000) }])).json().files[0];

      await outage.cut();
      const notReady = await t.app.inject({ url: '/readyz' });
      assert.equal(notReady.statusCode, 503);
      assert.equal(errorOf(notReady).code, 'provider_unavailable');
      assert.ok(Number(notReady.headers['retry-after']) > 0);
      for (const res of [
        await upload(t, [{ name: 'during.bin', content: randomBytes(500) }]),
        await t.app.inject({ url: `/v1/storage/files/${stored.fileId}/content`, headers: { 'x-api-key': t.key } }),
      ]) {
        assert.equal(res.statusCode, 503, res.body);
        assert.equal(errorOf(res).code, 'provider_unavailable');
        assert.ok(Number(res.headers['retry-after']) > 0, 'Retry-After');
      }
      const listed = (await t.app.inject({ url: '/v1/storage/files', headers: { 'x-api-key': t.key } })).json().files;
      assert.deepEqual(listed.map((f: { name: string }) => f.name), ['before.bin'], 'the refused upload listed nothing');

      await outage.restore();
      assert.equal((await t.app.inject({ url: '/readyz' })).statusCode, 200);
      const content = await t.app.inject({ url: `/v1/storage/files/${stored.fileId}/content`, headers: { 'x-api-key': t.key } });
      assert.equal(content.statusCode, 200);
      assert.equal(content.rawPayload.length, 2000);
      assert.equal((await upload(t, [{ name: 'after.bin', content: randomBytes(500) }])).statusCode, 201);
    });
  });
}
