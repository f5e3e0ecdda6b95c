import type { Kysely } from 'kysely';
import type { ApiKeyRow, Schema } from '../schema.ts';

export interface ApiKeyListing extends Omit<ApiKeyRow, 'key_hash'> {
  account_name: string;
}

export class ApiKeysRepository {
  constructor(private readonly db: Kysely<Schema>) {}

  async insert(row: ApiKeyRow): Promise<void> {
    await this.db.insertInto('api_keys').values(row).execute();
  }

  findByHash(keyHash: string): Promise<Pick<ApiKeyRow, 'id' | 'account_id' | 'key_hash' | 'revoked_at'> | undefined> {
    return this.db
      .selectFrom('api_keys')
      .select(['id', 'account_id', 'key_hash', 'revoked_at'])
      .where('key_hash', '=', keyHash)
      .executeTakeFirst();
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  list(accountName?: string): Promise<ApiKeyListing[]> {
    let query = this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select(['api_keys.id', 'api_keys.account_id', 'api_keys.name', 'api_keys.created_at', 'api_keys.revoked_at', 'accounts.name as account_name'])
      .orderBy('api_keys.id');
    if (accountName !== undefined) query = query.where('accounts.name', '=', accountName);
    return query.execute();
  }

  /** Answers false when no such key exists. Revoking twice keeps the first time. */
  async revoke(id: string, at: number): Promise<boolean> {
    const exists = await this.db.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst();
    if (!exists) return false;
    await this.db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    return true;
  }
}
