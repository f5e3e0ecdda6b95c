import type { Kysely } from 'kysely';
import type { Schema } from '../schema.ts';

/** Values every replica must agree on, kept in the database they share. */
export class ServerSettingsRepository {
  private readonly db: Kysely<Schema>;
  constructor(db: Kysely<Schema>) {
    this.db = db;
  }

  /**
   * The value of `name`, storing `create()` first if there is none. Replicas starting together
   * may each offer a value; the first insert wins and all of them read it back.
   */
  async ensure(name: string, create: () => string): Promise<string> {
    await this.db
      .insertInto('server_settings')
      .values({ name, value: create(), created_at: Date.now() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await this.db.selectFrom('server_settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
    return row.value;
  }
}
