import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { directReaderOf, directRunnerOf, openMigratedDatabase, parametersAsExpressions } from '../../src/db/database.ts';
import { FilesRepository } from '../../src/db/repositories/files.repository.ts';
import { PreparedQueries } from '../../src/db/prepared.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { sql } from 'kysely';

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

for (const dialect of await dialects()) {
  test(`prepared statements of a transaction on ${dialect}: run in it (and rolled back with it); a caller outside one never runs inside another's`, async () => {
    const testDatabase = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-prepared-trx-'));
    const database = await openMigratedDatabase(loadConfig({ TESSERA_DATA_DIR: dataDir, DATABASE_URL: testDatabase.databaseUrl }));
    try {
      const { db } = database;
      const prepared = new PreparedQueries(db);
      const insert = (executor: Parameters<PreparedQueries['runIn']>[0], id: string) =>
        prepared.runIn(executor, 'insert-account', [id, id, 1], ([i, n, at]) => db.insertInto('accounts').values({ id: i as string, name: n as string, created_at: at as number }));
      const named = (executor: Parameters<PreparedQueries['runIn']>[0], id: string) =>
        prepared.runIn(executor, 'account-by-id', [id], ([i]) => db.selectFrom('accounts').select('name').where('id', '=', i as string));
      const ids = async () => (await db.selectFrom('accounts').select('id').orderBy('id').execute()).map((r) => r.id);

      // Inside a transaction: its own writes are seen by its reads, and go with its rollback.
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          assert.equal((await insert(trx, 'acc_inside')).numAffectedRows, 1n);
          assert.deepEqual((await named(trx, 'acc_inside')).rows, [{ name: 'acc_inside' }]);
          throw new Error('rolled back on purpose');
        }),
        /on purpose/,
      );
      assert.deepEqual(await ids(), [], 'rolled back with its transaction');
      if (dialect === 'sqlite') assert.equal(directRunnerOf(db)!('select 1', []), undefined, 'outside a transaction the runner declines');
      else assert.equal(directRunnerOf(db), undefined, 'PostgreSQL has no direct runner');

      // A write of a caller outside any transaction, made while another caller's transaction is
      // open: it is not part of that transaction (on SQLite it waits for its end), so the other's
      // rollback does not take it away.
      let inserted!: () => void;
      const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
      let finish!: () => void;
      const finishNow = new Promise<void>((resolve) => (finish = resolve));
      const rolledBack = db.transaction().execute(async (trx) => {
        await insert(trx, 'acc_theirs');
        inserted();
        await finishNow;
        throw new Error('rolled back on purpose');
      });
      await insertedNow;
      const outside = insert(db, 'acc_mine');
      finish();
      await assert.rejects(rolledBack, /on purpose/);
      await outside;
      assert.deepEqual(await ids(), ['acc_mine']);
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

if ((await dialects()).includes('postgres')) {
  test('named prepared statements on postgres: generic plans that walk the indexes, the same rows as through Kysely, and a setting to turn them off', async () => {
    const testDatabase = await freshDatabase('postgres');
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-prepared-pg-'));
    const database = await openMigratedDatabase(loadConfig({ TESSERA_DATA_DIR: dataDir, DATABASE_URL: testDatabase.databaseUrl }));
    const without = await openMigratedDatabase(loadConfig({ TESSERA_DATA_DIR: dataDir, DATABASE_URL: testDatabase.databaseUrl, TESSERA_PG_PREPARED_STATEMENTS: 'false' }));
    try {
      const { db } = database;
      const direct = directReaderOf(db);
      assert.ok(direct, 'PostgreSQL has a direct reader');
      assert.equal(directReaderOf(without.db), undefined, 'TESSERA_PG_PREPARED_STATEMENTS=false: the reads go through Kysely');
      assert.deepEqual(await direct('show plan_cache_mode', []), [{ plan_cache_mode: 'force_generic_plan' }], 'the hot reads\' sessions plan generically');
      assert.deepEqual((await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(db)).rows, [{ plan_cache_mode: 'auto' }], 'the main pool keeps the default');

      await db.insertInto('accounts').values([{ id: 'acc_a', name: 'alpha', created_at: 1 }, { id: 'acc_b', name: 'beta', created_at: 1 }]).execute();
      await db.insertInto('spaces').values([{ id: 'spc_a', account_id: 'acc_a', name: 'default', created_at: 1 }, { id: 'spc_b', account_id: 'acc_b', name: 'default', created_at: 1 }]).execute();
      const blobs = [];
      const files = [];
      for (let i = 0; i < 3000; i++) {
        const account = i % 3 === 0 ? 'b' : 'a';
        blobs.push({ blob_id: `blob_${i}`, size_bytes: i, quilt_id: `q${i % 3}`, quilt_patch_id: `p${i}`, created_at: i });
        files.push({ id: `file_${String(i).padStart(5, '0')}`, account_id: `acc_${account}`, space_id: `spc_${account}`, blob_id: `blob_${i}`, name: `f${i}`, mime_type: 'text/plain', size_bytes: i, created_at: 1000 + (i % 700) });
      }
      for (let i = 0; i < files.length; i += 500) {
        await db.insertInto('blobs').values(blobs.slice(i, i + 500)).execute();
        await db.insertInto('files').values(files.slice(i, i + 500)).execute();
      }
      await sql`analyze`.execute(db);
      const repository = new FilesRepository(db);
      const queries = [
        [repository.listQuery({ accountId: 'acc_a' }, 101), 'files_account_order'],
        [repository.listQuery({ accountId: 'acc_a' }, 101, { createdAt: 1400, id: 'file_01000' }), 'files_account_order'],
        [repository.listQuery({ accountId: '', spaceId: 'spc_b' }, 11, { createdAt: 1650, id: 'file_00000' }), 'files_space_order'],
      ] as const;
      for (const [built, index] of queries) {
        const query = built.compile();
        // Several runs: PostgreSQL would switch to a generic plan of its own accord after five.
        for (let run = 0; run < 7; run++) assert.deepEqual(await direct(query.sql, query.parameters), (await db.executeQuery(query)).rows);
        // The plan such a session runs: the generic one, with every value a parameter.
        const plan = await db.connection().execute(async (connection) => {
          await sql`set plan_cache_mode = force_generic_plan`.execute(connection);
          try {
            await sql.raw(`prepare page_plan as ${query.sql}`).execute(connection);
            const values = query.parameters.map((v) => (typeof v === 'number' ? String(v) : `'${String(v)}'`)).join(', ');
            const rows = (await sql.raw<Record<string, string>>(`explain execute page_plan(${values})`).execute(connection)).rows;
            return rows.map((row) => row['QUERY PLAN']).join('\n');
          } finally {
            await sql`deallocate all`.execute(connection);
            await sql`reset plan_cache_mode`.execute(connection);
          }
        });
        assert.match(plan, new RegExp(`Index Scan Backward using ${index} on files`), plan);
        assert.doesNotMatch(plan, /Seq Scan on files|Sort/, plan);
      }
      // A column added under the prepared statements (another replica's migration): the reads
      // still answer, with the table as it is now.
      await repository.find('acc_a', 'file_00001');
      await sql`alter table files add column later_column integer default 7`.execute(db);
      assert.equal(((await repository.find('acc_a', 'file_00001')) as unknown as { later_column: number }).later_column, 7);
      assert.equal(((await repository.find('acc_a', 'file_00001')) as unknown as { later_column: number }).later_column, 7);
      await sql`alter table files drop column later_column`.execute(db);
      // The look-ups by id: another account's file is not found.
      assert.equal((await repository.find('acc_a', 'file_00002'))?.quilt_patch_id, 'p2');
      assert.equal(await repository.find('acc_b', 'file_00002'), undefined);
    } finally {
      await without.close();
      await database.close();
      await testDatabase.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
