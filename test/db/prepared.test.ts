import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { directReaderOf, openMigratedDatabase, parametersAsExpressions } from '../../src/db/database.ts';
import { FilesRepository } from '../../src/db/repositories/files.repository.ts';
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

      // A transaction held open across awaits by another caller: a prepared read neither sees its
      // uncommitted row nor runs inside it (on SQLite, where reads skip Kysely when they can, it
      // waits for the transaction's end); afterwards it sees what was committed.
      let inserted!: () => void;
      const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
      let finish!: () => void;
      const finishNow = new Promise<void>((resolve) => (finish = resolve));
      const rolledBack = db.transaction().execute(async (trx) => {
        await trx.insertInto('accounts').values({ id: 'acc_d', name: 'delta', created_at: 4 }).execute();
        inserted();
        await finishNow;
        throw new Error('rolled back on purpose');
      });
      await insertedNow;
      const duringRolledBack = named('delta', 0);
      finish();
      await assert.rejects(rolledBack, /on purpose/);
      assert.deepEqual(await duringRolledBack, [], 'the uncommitted row was never seen');
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('accounts').values({ id: 'acc_e', name: 'epsilon', created_at: 5 }).execute();
      });
      assert.deepEqual(await named('epsilon', 0), [{ id: 'acc_e' }], 'a committed row is seen at once');
      assert.equal(built, 1);
    } finally {
      await database.close();
      await testDatabase.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}

test('parameters as expressions: only bare parameters outside quoted names, never SQL with a string literal', () => {
  assert.equal(parametersAsExpressions('select "a?" from "t" where "x" = ? and ("y", "z") < (?, ?) limit ?'), 'select "a?" from "t" where "x" = +? and ("y", "z") < (+?, +?) limit +?');
  assert.equal(parametersAsExpressions("select * from t where x = ? and y = 'why?'"), "select * from t where x = ? and y = 'why?'");
});

test('direct reads on sqlite: the list and the look-up walk the same indexes and answer the same rows as through Kysely', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-prepared-direct-'));
  const database = await openMigratedDatabase(loadConfig({ TESSERA_DATA_DIR: dataDir }));
  try {
    const { db } = database;
    const direct = directReaderOf(db);
    assert.ok(direct, 'SQLite has a direct reader');
    assert.equal(directReaderOf(db.withoutPlugins()), undefined, 'another Kysely instance has none: it goes through Kysely');
    await db.insertInto('accounts').values([{ id: 'acc_a', name: 'alpha', created_at: 1 }, { id: 'acc_b', name: 'beta', created_at: 1 }]).execute();
    await db.insertInto('spaces').values([{ id: 'spc_a', account_id: 'acc_a', name: 'default', created_at: 1 }, { id: 'spc_b', account_id: 'acc_b', name: 'default', created_at: 1 }]).execute();
    for (let i = 0; i < 30; i++) {
      await db.insertInto('blobs').values({ blob_id: `blob_${i}`, size_bytes: i, quilt_id: `q${i % 3}`, quilt_patch_id: `p${i}`, created_at: i }).execute();
      const account = i % 2 === 0 ? 'a' : 'b';
      await db.insertInto('files').values({ id: `file_${String(i).padStart(3, '0')}`, account_id: `acc_${account}`, space_id: `spc_${account}`, blob_id: `blob_${i}`, name: `f${i}`, mime_type: 'text/plain', size_bytes: i, created_at: 1000 + (i % 7) }).execute();
    }
    const repository = new FilesRepository(db);
    const queries = [
      repository.listQuery({ accountId: 'acc_a' }, 5),
      repository.listQuery({ accountId: 'acc_a' }, 5, { createdAt: 1004, id: 'file_010' }),
      repository.listQuery({ accountId: '', spaceId: 'spc_b' }, 100),
    ].map((q) => q.compile());
    for (const query of queries) {
      const rows = direct(query.sql, query.parameters);
      assert.deepEqual(rows, (await db.executeQuery(query)).rows);
      assert.ok(rows && rows.length > 0);
      const plan = async (sql: string) => ((await db.executeQuery({ ...query, sql: `explain query plan ${sql}` })).rows as Array<{ detail: string }>).map((r) => r.detail);
      assert.deepEqual(await plan(parametersAsExpressions(query.sql)), await plan(query.sql), 'the same plan');
    }
    // The look-up by id and account: another account's file is not found.
    assert.equal((await repository.find('acc_a', 'file_002'))?.quilt_patch_id, 'p2');
    assert.equal(await repository.find('acc_b', 'file_002'), undefined);
  } finally {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
