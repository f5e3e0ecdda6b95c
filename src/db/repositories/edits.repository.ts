import type { Kysely, Transaction } from 'kysely';
import type { EditRow, IdempotencyRow, Schema } from '../schema.ts';

export class EditsRepository {
  private readonly db: Kysely<Schema>;
  constructor(db: Kysely<Schema>) {
    this.db = db;
  }

  findIdempotent(accountId: string, key: string): Promise<IdempotencyRow | undefined> {
    return this.db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
  }

  async recordIdempotent(trx: Transaction<Schema>, row: IdempotencyRow): Promise<void> {
    await trx.insertInto('idempotency_keys').values(row).execute();
  }

  /**
   * Claims a key before paid work starts: a row with an empty response. False when the key is
   * already taken (answered, or claimed by a request still working).
   */
  async claimIdempotent(row: Omit<IdempotencyRow, 'response'>): Promise<boolean> {
    const result = await this.db
      .insertInto('idempotency_keys')
      .values({ ...row, response: '' })
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Fills in the answer of a claimed key, in the transaction that stores the result. */
  async completeIdempotent(trx: Transaction<Schema>, accountId: string, key: string, response: string): Promise<void> {
    const result = await trx.updateTable('idempotency_keys').set({ response }).where('account_id', '=', accountId).where('key', '=', key).where('response', '=', '').executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new Error(`the claim on Idempotency-Key ${key} was lost`);
  }

  /** Drops a claim whose work failed (or, with olderThan, one left by a crashed process). */
  async releaseClaim(accountId: string, key: string, olderThan = Number.MAX_SAFE_INTEGER): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).where('response', '=', '').where('created_at', '<', olderThan).execute();
  }

  /** Drops an answered key past its time to live, so the key can be used again. */
  async dropExpired(accountId: string, key: string, before: number): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).where('response', '<>', '').where('created_at', '<', before).execute();
  }

  /**
   * Deletes at most `limit` keys past their time: answered ones created before `answeredBefore`,
   * claims (a request still working, or one that crashed) before `claimBefore`. Answers how many,
   * so the caller repeats while whole batches go.
   */
  async purgeExpired(answeredBefore: number, claimBefore: number, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('idempotency_keys')
      .where((eb) =>
        eb(
          eb.refTuple('account_id', 'key'),
          'in',
          eb
            .selectFrom('idempotency_keys')
            .select(['account_id', 'key'])
            .where('created_at', '<', answeredBefore)
            .where((inner) => inner.or([inner('response', '<>', ''), inner('created_at', '<', claimBefore)]))
            .limit(limit)
            .$asTuple('account_id', 'key'),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async recordLineage(trx: Transaction<Schema>, row: EditRow): Promise<void> {
    await trx.insertInto('edits').values(row).execute();
  }

  findLineage(accountId: string, fileId: string): Promise<EditRow | undefined> {
    return this.db.selectFrom('edits').selectAll().where('file_id', '=', fileId).where('account_id', '=', accountId).executeTakeFirst();
  }
}
