import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrations.ts';
import { SpacesRepository } from '../../src/db/repositories/spaces.repository.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';

/** 0009_public_spaces on a database made before it: every Space stays sealed; a Space can then be made public. */
for (const dialect of await dialects()) {
  test(`migration 0009_public_spaces keeps existing Spaces sealed on ${dialect}`, async () => {
    const testDatabase = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-migration-'));
    const database = openDatabase(loadConfig({ TESSERA_DATA_DIR: dataDir, DATABASE_URL: testDatabase.databaseUrl }));
    try {
      const raw = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      await migrateUpTo(raw as Kysely<unknown>, dialect, '0007_bounded_state');
      await raw.insertInto('accounts').values({ id: 'acc_a', name: 'old', created_at: 1 }).execute();
      await raw.insertInto('spaces').values([{ id: 'spc_a', account_id: 'acc_a', name: 'default', created_at: 1 }, { id: 'spc_b', account_id: 'acc_a', name: 'photos', created_at: 2 }]).execute();

      assert.ok((await migrateToLatest(raw as Kysely<unknown>, dialect)).includes('0009_public_spaces'));
      const spaces = new SpacesRepository(database.db);
      assert.deepEqual((await spaces.list('acc_a')).map((s) => [s.id, s.encryption]), [['spc_a', 'sealed'], ['spc_b', 'sealed']]);
      assert.equal((await spaces.setEncryption('acc_a', 'spc_b', 'none'))?.encryption, 'none');
      assert.equal(await spaces.setEncryption('acc_other', 'spc_a', 'none'), undefined, "another account's Space is not found, and not changed");
      assert.equal((await spaces.find('acc_a', 'spc_a'))?.encryption, 'sealed');
      await spaces.insert({ id: 'spc_c', account_id: 'acc_a', name: 'new', created_at: 3 });
      assert.equal((await spaces.find('acc_a', 'spc_c'))?.encryption, 'sealed', 'a row inserted without a choice is sealed');
    } finally {
      await database.close();
      await testDatabase.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
