import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { startTestApp, upload } from '../helpers/app.ts';
import { tessera } from '../helpers/cli.ts';
import { dialects } from '../helpers/databases.ts';
import { WalrusStandIn, walrusEnv } from '../helpers/walrus.ts';

/** Master key rotation, as docs/walrus.md tells it: new key, old key as previous, rewrap, old key gone. */
for (const dialect of await dialects()) {
  test(`tessera walrus rewrap moves every wrapped key to the new master key (${dialect})`, async () => {
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
      // The old key is no longer needed: every file opens with the new key alone.
      const context = await createContext(loadConfig({ ...base, ...walrusEnv(walrus, newKey) }));
      try {
        const report = await context.maintenance.verify();
        assert.deepEqual(report.problems, []);
        assert.equal(report.patches, 3);
      } finally {
        await context.close();
      }
    } finally {
      await t.close();
      await walrus.close();
    }
  });
}
