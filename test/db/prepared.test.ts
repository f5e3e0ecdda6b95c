import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openMigratedDatabase } from '../../src/db/database.ts';
import { PreparedQueries } from '../../src/db/prepared.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';

for (const dialect of await dialects()) {
  test(`prepared queries on ${dialect}: compiled once, each run answers for its own values`, async () => {
    const testDatabase = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-prepared-'));
    const database = await openMigratedDatabase(loadConfig({ TESSERA_DATA_DIR: dataDir, DATABASE_URL: testDatabase.databaseUrl }));
    try {
      const { db } = database;
      for (const [id, name, at] of [['acc_a', 'alpha', 1], ['acc_b', 'beta', 2], ['acc_c', 'gamma', 3]] as const) {
        await db.insertInto('accounts').values({ id, name, created_at: at }).execute();
      }
      const prepared = new PreparedQueries(db);
      let built = 0;
      const named = (name: string, after: number) =>
        prepared.rows('named', [name, after], ([n, a]) => {
          built++;
          return db.selectFrom('accounts').select(['id']).where('name', '=', n as string).where('created_at', '>', a as number);
        });
      assert.deepEqual(await named('beta', 0), [{ id: 'acc_b' }]);
      assert.deepEqual(await named('gamma', 0), [{ id: 'acc_c' }]);
      assert.deepEqual(await named('gamma', 3), [], 'the second value is swapped in too');
      assert.deepEqual(await named('missing', 0), []);
      assert.equal(built, 1, 'built and compiled once');
      // A value the query does not take as a parameter cannot be swapped in: refused at once.
      await assert.rejects(prepared.rows('constant', ['alpha'], () => db.selectFrom('accounts').select('id').where('name', '=', 'alpha')), /not a parameter/);
    } finally {
      await database.close();
      await testDatabase.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
