import type { Kysely, Transaction } from 'kysely';
import type { DialectName } from '../database.ts';
import type { EditJobRow, Schema } from '../schema.ts';

/** How a job ended: its answers (JSON), or its error (JSON). */
export type JobOutcome = { status: 'succeeded'; result: string } | { status: 'failed'; error: string };

/**
 * Edit jobs. A runner claims a job that is due (queued and past its `run_after`, or running with
 * its lease run out: its runner died) and holds it under a lease it renews. On PostgreSQL the claim
 * locks the row it picks with `FOR UPDATE SKIP LOCKED`, so runners of several replicas pick
 * different jobs without waiting on each other; on SQLite (one writer at a time) the claim is a
 * conditional UPDATE that only one runner can win. Every later write names the runner, so a runner
 * that lost its lease changes nothing.
 */
export class EditJobsRepository {
  private readonly db: Kysely<Schema>;
  private readonly dialect: DialectName;
  constructor(
    db: Kysely<Schema>,
    dialect: DialectName,
  ) {
    this.db = db;
    this.dialect = dialect;
  }

  async insert(row: EditJobRow): Promise<void> {
    await this.db.insertInto('edit_jobs').values(row).execute();
  }

  find(accountId: string, id: string): Promise<EditJobRow | undefined> {
    return this.db.selectFrom('edit_jobs').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  findByIdempotencyKey(accountId: string, key: string): Promise<EditJobRow | undefined> {
    return this.db.selectFrom('edit_jobs').selectAll().where('account_id', '=', accountId).where('idempotency_key', '=', key).executeTakeFirst();
  }

  /** Takes one due job for `runner` until `leaseUntil`, or answers undefined when none is due. */
  async claim(runner: string, now: number, leaseUntil: number): Promise<EditJobRow | undefined> {
    const due = (db: Kysely<Schema>) =>
      db
        .selectFrom('edit_jobs')
        .select('id')
        .where((eb) => eb.or([eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', now)]), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)])]))
        .orderBy('run_after')
        .orderBy('id')
        .limit(1);
    if (this.dialect === 'postgres') {
      return this.db.transaction().execute(async (trx) => {
        const picked = await due(trx).forUpdate().skipLocked().executeTakeFirst();
        if (!picked) return undefined;
        return trx
          .updateTable('edit_jobs')
          .set((eb) => ({ status: 'running', runner, lease_until: leaseUntil, attempts: eb('attempts', '+', 1), updated_at: now }))
          .where('id', '=', picked.id)
          .returningAll()
          .executeTakeFirst();
      });
    }
    for (let tries = 0; tries < 5; tries++) {
      const picked = await due(this.db).executeTakeFirst();
      if (!picked) return undefined;
      // Only one runner's UPDATE finds the job still due; another's changes nothing and looks again.
      const claimed = await this.db
        .updateTable('edit_jobs')
        .set((eb) => ({ status: 'running', runner, lease_until: leaseUntil, attempts: eb('attempts', '+', 1), updated_at: now }))
        .where('id', '=', picked.id)
        .where((eb) => eb.or([eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', now)]), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)])]))
        .returningAll()
        .executeTakeFirst();
      if (claimed) return claimed;
    }
    return undefined;
  }

  /** Extends the lease of a job this runner still holds; false when it lost it. */
  async renewLease(id: string, runner: string, leaseUntil: number, now: number): Promise<boolean> {
    const result = await this.db.updateTable('edit_jobs').set({ lease_until: leaseUntil, updated_at: now }).where('id', '=', id).where('runner', '=', runner).where('status', '=', 'running').executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records, before the call, that this run may call the generative provider. */
  async markProviderCalled(id: string, runner: string, now: number): Promise<boolean> {
    const result = await this.db.updateTable('edit_jobs').set({ provider_called_at: now, updated_at: now }).where('id', '=', id).where('runner', '=', runner).where('status', '=', 'running').executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Puts a job this runner holds back in the queue until `runAfter` (a provider outage: no call was answered). */
  async requeue(id: string, runner: string, runAfter: number, error: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('edit_jobs')
      .set({ status: 'queued', runner: null, lease_until: null, provider_called_at: null, run_after: runAfter, error, updated_at: now })
      .where('id', '=', id)
      .where('runner', '=', runner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Ends a job this runner holds, with its answer or its error, and runs `within` (its event's
   * outbox rows) in the same transaction: the job's end and what is written with it commit
   * together, or neither does (the job stays the runner's until its lease runs out).
   */
  async finish(
    id: string,
    runner: string,
    outcome: JobOutcome,
    now: number,
    within?: (trx: Transaction<Schema>, row: EditJobRow) => Promise<void>,
  ): Promise<EditJobRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('edit_jobs')
        .set({
          status: outcome.status,
          result: outcome.status === 'succeeded' ? outcome.result : null,
          error: outcome.status === 'failed' ? outcome.error : null,
          runner: null,
          lease_until: null,
          finished_at: now,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('runner', '=', runner)
        .where('status', '=', 'running')
        .returningAll()
        .executeTakeFirst();
      if (row) await within?.(trx, row);
      return row;
    });
  }

  /** Deletes at most `limit` finished jobs made before `before`; answers how many. */
  async purgeExpired(before: number, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('edit_jobs')
      .where('id', 'in', (eb) => eb.selectFrom('edit_jobs').select('id').where('created_at', '<', before).where('status', 'in', ['succeeded', 'failed']).limit(limit))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
