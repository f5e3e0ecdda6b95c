import { sql, type Kysely } from 'kysely';
import { KEYS_CHANNEL, isUniqueViolation, type DialectName } from '../database.ts';
import { PreparedQueries } from '../prepared.ts';
import type { ApiKeyRow, Schema } from '../schema.ts';

export interface ApiKeyListing extends Omit<ApiKeyRow, 'key_hash'> {
  account_name: string;
}

/** The server setting that names the first key, once one was made. */
const FIRST_KEY_SETTING = 'first_key';

export class ApiKeysRepository {
  private readonly db: Kysely<Schema>;
  private readonly dialect: DialectName;
  private readonly prepared: PreparedQueries;

  constructor(
    db: Kysely<Schema>,
    dialect: DialectName,
  ) {
    this.db = db;
    this.dialect = dialect;
    this.prepared = new PreparedQueries(db);
  }

  async insert(row: ApiKeyRow): Promise<void> {
    await this.db.insertInto('api_keys').values(row).execute();
  }

  /**
   * Inserts the first key of an installation: together with a `first_key` row in server_settings,
   * whose primary key lets exactly one of several replicas starting at once make it. False when
   * another did.
   */
  async insertFirst(row: ApiKeyRow): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('server_settings').values({ name: FIRST_KEY_SETTING, value: row.id, created_at: row.created_at }).execute();
        await trx.insertInto('api_keys').values(row).execute();
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async findByHash(keyHash: string): Promise<Pick<ApiKeyRow, 'id' | 'account_id' | 'key_hash' | 'revoked_at' | 'scope' | 'space_id'> | undefined> {
    const [row] = await this.prepared.rows('by-hash', [keyHash], ([hash]) =>
      this.db.selectFrom('api_keys').select(['id', 'account_id', 'key_hash', 'revoked_at', 'scope', 'space_id']).where('key_hash', '=', hash as string),
    );
    return row;
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Every key, or those of one account (by name or id), or of one Space of it. */
  list(filter: { accountName?: string; accountId?: string; spaceId?: string } = {}): Promise<ApiKeyListing[]> {
    let query = this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select(['api_keys.id', 'api_keys.account_id', 'api_keys.name', 'api_keys.created_at', 'api_keys.revoked_at', 'api_keys.scope', 'api_keys.space_id', 'accounts.name as account_name'])
      .orderBy('api_keys.id');
    if (filter.accountName !== undefined) query = query.where('accounts.name', '=', filter.accountName);
    if (filter.accountId !== undefined) query = query.where('api_keys.account_id', '=', filter.accountId);
    if (filter.spaceId !== undefined) query = query.where('api_keys.space_id', '=', filter.spaceId);
    return query.execute();
  }

  /**
   * Answers false when no such key exists (within `within`, when given: an account, or a Space of
   * it). Revoking twice keeps the first time. On PostgreSQL the revocation is announced on
   * KEYS_CHANNEL in the same transaction, so every replica's key cache hears of it at the commit.
   */
  async revoke(id: string, at: number, within: { accountId?: string; spaceId?: string } = {}): Promise<boolean> {
    let lookup = this.db.selectFrom('api_keys').select('id').where('id', '=', id);
    if (within.accountId !== undefined) lookup = lookup.where('account_id', '=', within.accountId);
    if (within.spaceId !== undefined) lookup = lookup.where('space_id', '=', within.spaceId);
    const exists = await lookup.executeTakeFirst();
    if (!exists) return false;
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
      if (this.dialect === 'postgres') await sql`select pg_notify(${KEYS_CHANNEL}, ${id})`.execute(trx);
    });
    return true;
  }
}
