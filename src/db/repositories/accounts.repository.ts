import { sql, type Kysely, type Transaction } from 'kysely';
import { newId } from '../../ids.ts';
import { isUniqueViolation } from '../database.ts';
import { PreparedQueries } from '../prepared.ts';
import type { Schema } from '../schema.ts';

export const DEFAULT_SPACE_NAME = 'default';

export interface AccountIdentity {
  id: string;
  name: string;
  created_at: number;
}

/** What an account stores and may store. Limits: undefined is unlimited. */
export interface AccountUsage extends AccountIdentity {
  usedBytes: number;
  usedFiles: number;
  limitBytes: number | undefined;
  limitFiles: number | undefined;
}

/** The limits of accounts that have none of their own; undefined is unlimited. */
export interface QuotaDefaults {
  bytes: number | undefined;
  files: number | undefined;
}

/** An account's own limit as stored: null follows the default, -1 is unlimited. */
export type StoredLimit = number | null;

export class AccountsRepository {
  private readonly db: Kysely<Schema>;
  private readonly prepared: PreparedQueries;
  constructor(db: Kysely<Schema>) {
    this.db = db;
    this.prepared = new PreparedQueries(db);
  }

  findByName(name: string): Promise<AccountIdentity | undefined> {
    return this.db.selectFrom('accounts').select(['id', 'name', 'created_at']).where('name', '=', name).executeTakeFirst();
  }

  findById(id: string): Promise<AccountIdentity | undefined> {
    return this.db.selectFrom('accounts').select(['id', 'name', 'created_at']).where('id', '=', id).executeTakeFirst();
  }

  /** Answers the account of that name, creating it (with its `default` Space) if new. */
  async ensure(name: string): Promise<AccountIdentity> {
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

  /** Read before every upload (its allowance): a prepared query. */
  async usage(accountId: string, defaults: QuotaDefaults): Promise<AccountUsage | undefined> {
    const [row] = await this.prepared.rows('usage', [accountId], ([id]) =>
      this.db.selectFrom('accounts').select(['id', 'name', 'created_at', 'used_bytes', 'used_files', 'quota_bytes', 'quota_files']).where('id', '=', id as string),
    );
    if (!row) return undefined;
    return {
      id: row.id,
      name: row.name,
      created_at: Number(row.created_at),
      usedBytes: Number(row.used_bytes),
      usedFiles: Number(row.used_files),
      limitBytes: effectiveLimit(row.quota_bytes, defaults.bytes),
      limitFiles: effectiveLimit(row.quota_files, defaults.files),
    };
  }

  /** Sets an account's own limits (null: follow the defaults; -1: unlimited). False: no such account. */
  async setQuota(name: string, limits: { bytes?: StoredLimit; files?: StoredLimit }): Promise<boolean> {
    const values: { quota_bytes?: StoredLimit; quota_files?: StoredLimit } = {};
    if (limits.bytes !== undefined) values.quota_bytes = limits.bytes;
    if (limits.files !== undefined) values.quota_files = limits.files;
    if (Object.keys(values).length === 0) return (await this.findByName(name)) !== undefined;
    const result = await this.db.updateTable('accounts').set(values).where('name', '=', name).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

function effectiveLimit(own: number | string | null, fallback: number | undefined): number | undefined {
  if (own === null) return fallback;
  const value = Number(own);
  return value < 0 ? undefined : value;
}

/**
 * Adds new files to an account's usage inside the caller's transaction, only if the result stays
 * within its limits; answers false (and changes nothing) otherwise. One conditional UPDATE does
 * check and count together: PostgreSQL holds the account's row lock from it to the commit and
 * re-evaluates the condition for a writer that waited on that lock, SQLite has one writer at a
 * time, so concurrent uploads can never together pass a limit.
 */
export async function chargeUsage(trx: Transaction<Schema>, accountId: string, bytes: number, files: number, defaults: QuotaDefaults, prepared: PreparedQueries): Promise<boolean> {
  // Run at every upload: compiled once per database (`prepared` is one of its repositories').
  const result = await prepared.runIn(trx, 'charge', [accountId, bytes, files, defaults.bytes ?? -1, defaults.files ?? -1], ([id, b, f, defaultBytes, defaultFiles]) =>
    trx
      .updateTable('accounts')
      .set((eb) => ({ used_bytes: eb('used_bytes', '+', b as number), used_files: eb('used_files', '+', f as number), files_version: eb('files_version', '+', 1) }))
      .where('id', '=', id as string)
      .where(sql<boolean>`(coalesce(quota_bytes, ${defaultBytes}) < 0 or used_bytes + ${b} <= coalesce(quota_bytes, ${defaultBytes}))`)
      .where(sql<boolean>`(coalesce(quota_files, ${defaultFiles}) < 0 or used_files + ${f} <= coalesce(quota_files, ${defaultFiles}))`),
  );
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Takes removed files off an account's usage, in the transaction that removed them. */
export async function releaseUsage(trx: Transaction<Schema>, accountId: string, bytes: number, files: number): Promise<void> {
  if (files === 0) return;
  await trx
    .updateTable('accounts')
    .set((eb) => ({ used_bytes: eb('used_bytes', '-', bytes), used_files: eb('used_files', '-', files), files_version: eb('files_version', '+', 1) }))
    .where('id', '=', accountId)
    .execute();
}
