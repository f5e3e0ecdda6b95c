import type { Insertable, Kysely } from 'kysely';
import type { Schema, SpaceEncryption, SpaceRow, SpacesTable } from '../schema.ts';

export class SpacesRepository {
  private readonly db: Kysely<Schema>;
  constructor(db: Kysely<Schema>) {
    this.db = db;
  }

  async insert(row: Insertable<SpacesTable>): Promise<void> {
    await this.db.insertInto('spaces').values(row).execute();
  }

  list(accountId: string): Promise<SpaceRow[]> {
    return this.db.selectFrom('spaces').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
  }

  /** Scoped to the account: another account's Space is simply not found. */
  find(accountId: string, id: string): Promise<SpaceRow | undefined> {
    return this.db.selectFrom('spaces').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  findByName(accountId: string, name: string): Promise<SpaceRow | undefined> {
    return this.db.selectFrom('spaces').selectAll().where('account_id', '=', accountId).where('name', '=', name).executeTakeFirst();
  }

  /** Answers the Space as changed, or undefined if the account has no such Space. */
  async setEncryption(accountId: string, id: string, encryption: SpaceEncryption): Promise<SpaceRow | undefined> {
    await this.db.updateTable('spaces').set({ encryption }).where('id', '=', id).where('account_id', '=', accountId).execute();
    return this.find(accountId, id);
  }

  async hasFiles(spaceId: string): Promise<boolean> {
    const row = await this.db.selectFrom('files').select('id').where('space_id', '=', spaceId).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('spaces').where('id', '=', id).execute();
  }
}
