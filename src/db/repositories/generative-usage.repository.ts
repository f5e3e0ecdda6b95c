import { sql, type Kysely } from 'kysely';
import type { Schema } from '../schema.ts';

/** The per-account daily budget of generative provider calls. */
export class GenerativeUsageRepository {
  private readonly db: Kysely<Schema>;
  constructor(db: Kysely<Schema>) {
    this.db = db;
  }

  /**
   * Takes `calls` from the account's budget for `day`, all or nothing: one upsert whose update
   * only happens while the total stays within `limit`, so concurrent requests cannot overshoot
   * on either database. False when the budget does not have them.
   */
  async reserve(accountId: string, day: string, calls: number, limit: number): Promise<boolean> {
    if (calls > limit) return false;
    const row = await this.db
      .insertInto('generative_usage')
      .values({ account_id: accountId, day, calls })
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'day'])
          .doUpdateSet({ calls: sql<number>`generative_usage.calls + ${calls}` })
          .where(sql<boolean>`generative_usage.calls + ${calls} <= ${limit}`),
      )
      .returning('calls')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Gives back calls reserved but never made (the plan failed before reaching them). */
  async release(accountId: string, day: string, calls: number): Promise<void> {
    if (calls <= 0) return;
    await this.db
      .updateTable('generative_usage')
      .set({ calls: sql<number>`calls - ${calls}` })
      .where('account_id', '=', accountId)
      .where('day', '=', day)
      .execute();
  }

  async used(accountId: string, day: string): Promise<number> {
    const row = await this.db.selectFrom('generative_usage').select('calls').where('account_id', '=', accountId).where('day', '=', day).executeTakeFirst();
    return row ? Number(row.calls) : 0;
  }
}
