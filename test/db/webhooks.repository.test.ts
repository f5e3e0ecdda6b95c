import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openMigratedDatabase, type Database } from '../../src/db/database.ts';
import { WebhooksRepository } from '../../src/db/repositories/webhooks.repository.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';

/**
 * The claim of due deliveries, on two connections pools as two server processes have: concurrent
 * claims take at most their limit each, and never the same row. (On PostgreSQL a LIMIT … FOR
 * UPDATE SKIP LOCKED subquery inside the UPDATE claimed every due row at once: this caught it.)
 */
for (const dialect of await dialects()) {
  test(`concurrent claims take disjoint deliveries, at most their limit each (${dialect})`, async () => {
    const fresh = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-claims-'));
    const settings = { databaseUrl: fresh.databaseUrl, dataDir, sqliteSynchronous: 'NORMAL' as const, pgPoolMax: 4, pgStatementTimeoutMs: 0, pgSsl: false };
    const databases: Database[] = [await openMigratedDatabase(settings), await openMigratedDatabase(settings)];
    try {
      const db = databases[0]!.db;
      await db.insertInto('accounts').values({ id: 'acc_1', name: 'a', created_at: 1 }).execute();
      await db.insertInto('webhook_endpoints').values({ id: 'whk_1', account_id: 'acc_1', url: 'https://example.com/', events: '[]', description: null, secret: 'plain.AA', created_at: 1 }).execute();
      const rows = Array.from({ length: 40 }, (_, i) => ({
        id: `whd_${String(i).padStart(2, '0')}`, event_id: `msg_${i}`, endpoint_id: 'whk_1', account_id: 'acc_1', event_type: 'file.created',
        payload: '{}', status: 'pending' as const, attempts: 0, next_attempt_at: 1000 + i, created_at: 1, finished_at: null,
      }));
      await db.insertInto('webhook_deliveries').values(rows).execute();
      // A row not yet due, and one delivered, are never claimed.
      await db.insertInto('webhook_deliveries').values([{ ...rows[0]!, id: 'whd_later', next_attempt_at: Date.now() + 60_000 }, { ...rows[0]!, id: 'whd_done', status: 'delivered' }]).execute();

      const repositories = databases.map((d) => new WebhooksRepository(d.db, d.dialect));
      const now = Date.now();
      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => repositories[i % 2]!.claimDue(now, 4, now + 60_000)));
      const ids = claims.flatMap((c) => c.map((d) => d.id));
      assert.ok(claims.every((c) => c.length <= 4), `each claim takes at most 4: ${claims.map((c) => c.length)}`);
      assert.equal(new Set(ids).size, ids.length, 'no delivery is claimed twice');
      assert.ok(!ids.includes('whd_later') && !ids.includes('whd_done'));
      assert.ok(claims.every((c) => c.every((d) => d.attempts === 1 && d.next_attempt_at === now + 60_000 && d.url === 'https://example.com/')));
      // What is left is claimed by later turns, each row once.
      const rest = await repositories[0]!.claimDue(now, 100, now + 60_000);
      assert.equal(ids.length + rest.length, 40);
      assert.deepEqual(await repositories[1]!.claimDue(now, 100, now + 60_000), [], 'all claimed');
    } finally {
      for (const d of databases) await d.close();
      await fresh.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
