import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { startTestApp, upload } from '../helpers/app.ts';
import { tessera } from '../helpers/cli.ts';
import { dialects } from '../helpers/databases.ts';
import { WalrusStandIn, walrusEnv } from '../helpers/walrus.ts';

/** Master key rotation, as docs/walrus.md tells it (new key, old key as previous, rewrap, old key gone), and the CLI's status and verify over Walrus. */
for (const dialect of await dialects()) {
  test(`tessera walrus rewrap moves every wrapped key to the new master key; status lists quilts by end epoch; verify names broken patches (${dialect})`, async () => {
    const walrus = await WalrusStandIn.start();
    const oldKey = randomBytes(32);
    const t = await startTestApp(dialect, walrusEnv(walrus, oldKey));
    try {
      for (let i = 0; i < 3; i++) assert.equal((await upload(t, [{ name: `f${i}.bin`, content: randomBytes(400 + i) }])).statusCode, 201);
      const base = { TESSERA_DATA_DIR: t.dataDir, ...(t.context.config.databaseUrl ? { DATABASE_URL: t.context.config.databaseUrl } : {}) };
      const newKey = randomBytes(32);
      const rotated = { ...base, ...walrusEnv(walrus, newKey), TESSERA_WALRUS_PREVIOUS_MASTER_KEYS: oldKey.toString('base64') };
      const run = await tessera(rotated, 'walrus', 'rewrap');
      assert.equal(run.status, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /^3 of 3 wrapped keys moved/m);
      assert.match((await tessera(rotated, 'walrus', 'rewrap')).stdout, /^0 of 3 wrapped keys moved/m, 'a second run has nothing to do');
      const status = await tessera(rotated, 'walrus', 'status');
      assert.equal(status.status, 0, status.stdout + status.stderr);
      assert.match(status.stdout, /current epoch: 1; 3 quilts; cost so far \d+ FROST/);
      const quiltRows = (stdout: string) => stdout.split('\n').filter((line) => /^\s+\d+\s+\d+\s+\d+\s+\d+\s+[\w-]{43}/.test(line));
      assert.equal(quiltRows(status.stdout).length, 3, status.stdout);
      const files = (await t.app.inject({ url: '/v1/storage/files', headers: { 'x-api-key': t.key } })).json().files as Array<{ fileId: string; metadata: { blobId: string; quiltId: string; quiltPatchId: string } }>;
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${files[0]!.fileId}`, headers: { 'x-api-key': t.key } })).statusCode, 204);
      const lapsing = quiltRows((await tessera(rotated, 'walrus', 'status')).stdout).filter((line) => line.includes(files[0]!.metadata.quiltId));
      assert.equal(lapsing.length, 1);
      assert.match(lapsing[0]!, /^\s+\d+\s+0\s+0\s+\d+\s+\S+\s+\(no live file: left to lapse\)$/);

      // verify prints a broken patch by the ids its owner knows.
      walrus.blobs.delete(files[1]!.metadata.quiltId);
      const broken = await tessera(rotated, 'verify');
      assert.equal(broken.status, 1, broken.stdout + broken.stderr);
      assert.match(broken.stdout, /^checked 2 quilts, 1 patches/m);
      assert.ok(broken.stdout.includes(`PROBLEM file ${files[1]!.fileId} (blobId ${files[1]!.metadata.blobId}, quiltPatchId ${files[1]!.metadata.quiltPatchId}): its patch is not on Walrus`), broken.stdout);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${files[1]!.fileId}`, headers: { 'x-api-key': t.key } })).statusCode, 204);
      // The old key is no longer needed: every file opens with the new key alone.
      const context = await createContext(loadConfig({ ...base, ...walrusEnv(walrus, newKey) }));
      try {
        const report = await context.maintenance.verify();
        assert.deepEqual(report.problems, []);
        assert.equal(report.patches, 1, 'the one file left');
      } finally {
        await context.close();
      }
    } finally {
      await t.close();
      await walrus.close();
    }
  });
}
