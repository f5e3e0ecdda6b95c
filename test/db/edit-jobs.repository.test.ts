import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openMigratedDatabase, type Database } from '../../src/db/database.ts';
import { EditJobsRepository } from '../../src/db/repositories/edit-jobs.repository.ts';
import type { EditJobRow } from '../../src/db/schema.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';

/**
 * The claim of due edit jobs, on two connection pools as two server processes have. On
 * PostgreSQL a job whose row another transaction holds locked is skipped (`SKIP LOCKED`), not
 * waited for; on both dialects concurrent claims take each job once, and never a job not due.
 */
const job = (id: string, overrides: Partial<EditJobRow> = {}): EditJobRow => ({
  id, account_id: 'acc_1', space_id: 'spc_1', bound_space_id: null, kind: 'json', request: '{}', idempotency_key: null, request_hash: null,
  status: 'queued', attempts: 0, run_after: 1, runner: null, lease_until: null, provider_called_at: null, result: null, error: null,
  created_at: 1, updated_at: 1, finished_at: null, ...overrides,
});

async function twoProcesses(dialect: 'sqlite' | 'postgres', body: (databases: Database[]) => Promise<void>): Promise<void> {
  const fresh = await freshDatabase(dialect);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-job-claims-'));
  const settings = { databaseUrl: fresh.databaseUrl, dataDir, sqliteSynchronous: 'NORMAL' as const, pgPoolMax: 4, pgStatementTimeoutMs: 0, pgSsl: false };
  const databases: Database[] = [await openMigratedDatabase(settings), await openMigratedDatabase(settings)];
  try {
    await databases[0]!.db.insertInto('accounts').values({ id: 'acc_1', name: 'a', created_at: 1 }).execute();
    await body(databases);
  } finally {
    for (const d of databases) await d.close();
    await fresh.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

for (const dialect of await dialects()) {
  test(`concurrent claims take each due job once (${dialect})`, () =>
    twoProcesses(dialect, async (databases) => {
      const now = Date.now();
      const jobs = Array.from({ length: 20 }, (_, i) => job(`edit_${String(i).padStart(2, '0')}`));
      // Not due: queued for later, running under a live lease, finished.
      const notDue = [job('edit_later', { run_after: now + 60_000 }), job('edit_leased', { status: 'running', runner: 'r', lease_until: now + 60_000 }), job('edit_done', { status: 'succeeded' })];
      await databases[0]!.db.insertInto('edit_jobs').values([...jobs, ...notDue]).execute();
      const repositories = databases.map((d) => new EditJobsRepository(d.db, d.dialect));
      const claims = await Promise.all(Array.from({ length: 30 }, (_, i) => repositories[i % 2]!.claim(`runner-${i}`, now, now + 60_000)));
      const ids = claims.flatMap((row) => (row ? [row.id] : []));
      assert.equal(new Set(ids).size, ids.length, 'no job is claimed twice');
      assert.ok(!ids.some((id) => notDue.some((row) => row.id === id)), `only due jobs: ${ids}`);
      const rest: string[] = [];
      for (let row = await repositories[0]!.claim('late', now, now + 60_000); row; row = await repositories[0]!.claim('late', now, now + 60_000)) rest.push(row.id);
      assert.deepEqual([...ids, ...rest].sort(), jobs.map((j) => j.id), 'every due job claimed once, in the end');
    }));
}

if ((await dialects()).includes('postgres')) {
  test('a job whose row another transaction holds is skipped, not waited for (postgres, SKIP LOCKED)', () =>
    twoProcesses('postgres', async ([first, second]) => {
      await first!.db.insertInto('edit_jobs').values([job('edit_a', { run_after: 1 }), job('edit_b', { run_after: 2 })]).execute();
      const repository = new EditJobsRepository(second!.db, second!.dialect);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // Another process's transaction holds the first job's row (the one a claim would pick first).
      const holder = first!.db.transaction().execute(async (trx) => {
        await trx.selectFrom('edit_jobs').select('id').where('id', '=', 'edit_a').forUpdate().execute();
        locked();
        await held;
      });
      try {
        await isLocked;
        const now = Date.now();
        // A claim that waited for the lock would wait for ever (the lock is released after it): a generous bound.
        const claimed = await Promise.race([repository.claim('runner', now, now + 60_000), new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 20_000).unref())]);
        assert.notEqual(claimed, 'waited', 'the claim waited for the locked row');
        assert.equal((claimed as EditJobRow | undefined)?.id, 'edit_b');
        assert.equal(await repository.claim('runner', now, now + 60_000), undefined, 'the locked job is not taken while it is held');
      } finally {
        release();
        await holder;
      }
      const now = Date.now();
      assert.equal((await repository.claim('runner', now, now + 60_000))?.id, 'edit_a', 'once released, it is claimed');
    }));
}
