import type { Kysely, Transaction } from 'kysely';
import type { EditRow, IdempotencyRow, Schema } from '../schema.ts';

export class EditsRepository {
  constructor(private readonly db: Kysely<Schema>) {}

  findIdempotent(accountId: string, key: string): Promise<IdempotencyRow | undefined> {
    return this.db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
  }

  async recordIdempotent(trx: Transaction<Schema>, row: IdempotencyRow): Promise<void> {
    await trx.insertInto('idempotency_keys').values(row).execute();
  }

  async recordLineage(trx: Transaction<Schema>, row: EditRow): Promise<void> {
    await trx.insertInto('edits').values(row).execute();
  }

  findLineage(accountId: string, fileId: string): Promise<EditRow | undefined> {
    return this.db.selectFrom('edits').selectAll().where('file_id', '=', fileId).where('account_id', '=', accountId).executeTakeFirst();
  }
}
