import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { run, tessera } from '../helpers/cli.ts';
import { freshBucket, s3Available } from '../helpers/s3.ts';

/** A missing bucket stops the start and says so; `tessera s3 create-bucket` makes it. */
if (await s3Available()) {
  test('a missing bucket is an error at start; tessera s3 create-bucket creates it', async () => {
    const bucket = await freshBucket(); // for its settings; the bucket under test is another
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-s3-cli-'));
    const env = { ...bucket.env, TESSERA_S3_BUCKET: `${bucket.name}-new`, TESSERA_DATA_DIR: dataDir, PORT: '0' };
    try {
      const refused = await run(process.execPath, ['src/main.ts'], env);
      assert.equal(refused.status, 2, refused.stdout + refused.stderr);
      assert.match(refused.stderr, new RegExp(`the bucket "${bucket.name}-new" does not exist at http://127\\.0\\.0\\.1:\\d+; create it \\(npx tessera s3 create-bucket\\)`));

      const created = await tessera(env, 's3', 'create-bucket');
      assert.equal(created.status, 0, created.stderr);
      assert.match(created.stdout, new RegExp(`created the bucket ${bucket.name}-new`));
      const verify = await tessera(env, 'verify');
      assert.equal(verify.status, 0, verify.stderr);
      assert.match(verify.stdout, /checked 0 quilts/);
    } finally {
      const { DeleteBucketCommand } = await import('@aws-sdk/client-s3');
      await bucket.client.send(new DeleteBucketCommand({ Bucket: `${bucket.name}-new` })).catch(() => {});
      await bucket.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
