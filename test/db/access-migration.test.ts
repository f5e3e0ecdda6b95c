import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrations.ts';
import { AccountsRepository } from '../../src/db/repositories/accounts.repository.ts';
import { ApiKeysRepository } from '../../src/db/repositories/api-keys.repository.ts';
import { SpacesRepository } from '../../src/db/repositories/spaces.repository.ts';
import { hashKey, KeysService } from '../../src/services/keys.service.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';

/** 0003_access on a database made before it: old keys keep full access, usage counts what is stored. */
for (const dialect of await dialects()) {
  test(`migration 0003_access keeps old keys whole and counts stored files on ${dialect}`, async () => {
    const testDatabase = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-migration-'));
    const database = openDatabase(loadConfig({ TESSERA_DATA_DIR: dataDir, DATABASE_URL: testDatabase.databaseUrl }));
    try {
      const raw = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      await migrateUpTo(raw as Kysely<unknown>, dialect, '0002_edits');
      await raw.insertInto('accounts').values([{ id: 'acc_a', name: 'old', created_at: 1 }, { id: 'acc_b', name: 'empty', created_at: 1 }]).execute();
      await raw.insertInto('spaces').values({ id: 'spc_a', account_id: 'acc_a', name: 'default', created_at: 1 }).execute();
      await raw.insertInto('api_keys').values({ id: 'key_a', account_id: 'acc_a', name: 'before scopes', key_hash: hashKey('tsk_old'), created_at: 1, revoked_at: null }).execute();
      await raw.insertInto('blobs').values({ blob_id: 'b1', size_bytes: 700, quilt_id: 'q', quilt_patch_id: 'p', created_at: 1 }).execute();
      await raw
        .insertInto('files')
        .values([1, 2, 3].map((i) => ({ id: `file_${i}`, account_id: 'acc_a', space_id: 'spc_a', blob_id: 'b1', name: `f${i}`, mime_type: 'text/plain', size_bytes: 700, created_at: i })))
        .execute();

      assert.equal((await migrateToLatest(raw as Kysely<unknown>, dialect))[0], '0003_access');
      const keys = new KeysService(new AccountsRepository(database.db), new ApiKeysRepository(database.db, database.dialect), new SpacesRepository(database.db));
      const principal = await keys.authenticate('tsk_old');
      assert.deepEqual(principal, { accountId: 'acc_a', keyId: 'key_a', scope: 'admin', spaceId: null }, 'a key from before scopes keeps full access');
      const accounts = new AccountsRepository(database.db);
      const usage = await accounts.usage('acc_a', { bytes: undefined, files: 5 });
      assert.deepEqual([usage?.usedBytes, usage?.usedFiles, usage?.limitBytes, usage?.limitFiles], [2100, 3, undefined, 5]);
      assert.deepEqual([(await accounts.usage('acc_b', { bytes: undefined, files: undefined }))?.usedFiles], [0]);
    } finally {
      await database.close();
      await testDatabase.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
