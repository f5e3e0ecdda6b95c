import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import type { IdempotencyRow } from '../../src/db/schema.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { redBlue } from '../helpers/images.ts';
import { startServer } from '../helpers/server.ts';

const DAY_MS = 24 * 3600 * 1000;

for (const dialect of await dialects()) {
  describe(`Idempotency-Keys expire and are purged on ${dialect}`, () => {
    let t: TestApp;
    let accountId: string;

    before(async () => {
      t = await startTestApp(dialect, { TESSERA_IDEMPOTENCY_PURGE_BATCH: '100' });
      accountId = (await t.context.keys.authenticate(t.key))!.accountId;
    });
    after(() => t.close());

    const db = () => t.context.database.db;
    const keyRow = (key: string, createdAt: number, response = '{"name":"x"}'): IdempotencyRow => ({ account_id: accountId, key, request_hash: 'h', response, created_at: createdAt });

    test('the purge deletes every key past the TTL, a bounded batch at a time, and keeps the rest', async () => {
      const now = Date.now();
      const expired = Array.from({ length: 250 }, (_, i) => keyRow(`old-${i}`, now - DAY_MS - 1000 - i));
      await db().insertInto('idempotency_keys').values(expired).execute();
      await db().insertInto('idempotency_keys').values([keyRow('fresh', now - 1000), keyRow('nearly', now - DAY_MS + 60_000), keyRow('working', now - 1000, '')]).execute();

      const purged = await t.context.edits.purgeExpiredIdempotencyKeys(now);
      assert.equal(purged, 250, 'three batches of at most 100');
      const left = (await db().selectFrom('idempotency_keys').select('key').where('account_id', '=', accountId).execute()).map((r) => r.key).sort();
      assert.deepEqual(left, ['fresh', 'nearly', 'working']);
      assert.equal(await t.context.edits.purgeExpiredIdempotencyKeys(now), 0);
    });

    test('a retry after the TTL is a new request: a new file, and another body is no conflict', async () => {
      const space = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json().spaces[0].id as string;
      const source = (await upload(t, [{ name: 'pic.png', content: await redBlue(), type: 'image/png' }])).json().files[0].fileId as string;
      const edit = (prompt: string) =>
        t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key, 'idempotency-key': 'retry-late' }, payload: { prompt, workspace_id: space, file_id: source } });

      const first = await edit('rotate 90 degrees');
      assert.equal(first.statusCode, 200, first.body);
      assert.equal((await edit('rotate 90 degrees')).json().file_id, first.json().file_id, 'within the TTL: the first answer');
      assert.equal((await edit('make it black and white')).statusCode, 409, 'within the TTL: another body is a conflict');

      // A day and a bit later, before any purge ran.
      await db().updateTable('idempotency_keys').set({ created_at: Date.now() - DAY_MS - 1000 }).where('key', '=', 'retry-late').execute();
      const late = await edit('rotate 90 degrees');
      assert.equal(late.statusCode, 200, late.body);
      assert.notEqual(late.json().file_id, first.json().file_id, 'the edit is made again');
      assert.equal((await edit('rotate 90 degrees')).json().file_id, late.json().file_id, 'and the key now replays the new answer');

      await db().updateTable('idempotency_keys').set({ created_at: Date.now() - DAY_MS - 1000 }).where('key', '=', 'retry-late').execute();
      const other = await edit('make it black and white');
      assert.equal(other.statusCode, 200, other.body);
    });
  });

  test(`the server purges expired Idempotency-Keys in the background on ${dialect}`, async () => {
    const database = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-purge-'));
    const env = { DATABASE_URL: database.databaseUrl, TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: 'purge-test-key', TESSERA_IDEMPOTENCY_PURGE_INTERVAL_SECONDS: '1' };
    const server = await startServer(env);
    const direct = openDatabase({ databaseUrl: database.databaseUrl, dataDir, sqliteSynchronous: 'NORMAL', pgPoolMax: 2, pgStatementTimeoutMs: 0, pgSsl: false });
    try {
      const account = await direct.db.selectFrom('accounts').select('id').where('name', '=', 'default').executeTakeFirstOrThrow();
      const now = Date.now();
      await direct.db
        .insertInto('idempotency_keys')
        .values([
          { account_id: account.id, key: 'expired', request_hash: 'h', response: '{}', created_at: now - DAY_MS - 1000 },
          { account_id: account.id, key: 'live', request_hash: 'h', response: '{}', created_at: now },
        ])
        .execute();
      const keys = async () => (await direct.db.selectFrom('idempotency_keys').select('key').execute()).map((r) => r.key);
      for (const deadline = Date.now() + 15_000; (await keys()).includes('expired') && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(await keys(), ['live'], 'the expired key went without any request');
    } finally {
      await direct.close();
      await server.stop();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
