import type { Kysely } from 'kysely';
import { newId } from '../../ids.ts';
import { isUniqueViolation } from '../database.ts';
import type { AccountRow, Schema } from '../schema.ts';

export const DEFAULT_SPACE_NAME = 'default';

export class AccountsRepository {
  constructor(private readonly db: Kysely<Schema>) {}

  findByName(name: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /** Answers the account of that name, creating it (with its `default` Space) if new. */
  async ensure(name: string): Promise<AccountRow> {
    const existing = await this.findByName(name);
    if (existing) return existing;
    const now = Date.now();
    const account = { id: newId('acc', now), name, created_at: now };
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('accounts').values(account).execute();
        await trx
          .insertInto('spaces')
          .values({ id: newId('spc', now), account_id: account.id, name: DEFAULT_SPACE_NAME, created_at: now })
          .execute();
      });
      return account;
    } catch (error) {
      // Another process created it first.
      if (isUniqueViolation(error)) return (await this.findByName(name))!;
      throw error;
    }
  }
}
