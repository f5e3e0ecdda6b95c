import type { Kysely, Transaction } from 'kysely';
import { isForeignKeyViolation } from '../database.ts';
import { chargeUsage, releaseUsage, type QuotaDefaults } from './accounts.repository.ts';
import type { GroupCommit } from '../group-commit.ts';
import { PreparedQueries } from '../prepared.ts';
import type { BlobRow, FileRow, NewBlobRow, NewFileRow, Schema } from '../schema.ts';

/** A file row joined with the location of its bytes. */
export interface StoredFile extends FileRow {
  quilt_id: string;
  quilt_patch_id: string;
}

/** A row of a list page: with its account's list version, read in the same statement. */
export interface ListedFile extends StoredFile {
  list_version: number | string | null;
}

export interface ListPosition {
  createdAt: number;
  id: string;
}

/** More writes that must commit (or fail) together with new files, e.g. an edit's lineage. */
export type WithinCommit = (trx: Transaction<Schema>, files: readonly NewFileRow[]) => Promise<void>;

/** More writes that must commit (or fail) together with the removal of files, e.g. their events. */
export type WithinDelete = (trx: Transaction<Schema>, files: readonly FileRow[]) => Promise<void>;

export interface ListFilter {
  accountId: string;
  /** Given: that Space only (its ownership is checked by the caller). */
  spaceId?: string;
}

/** New files would take their account past its quota; their transaction (or savepoint) stored nothing. */
export class QuotaExceededError extends Error {
  readonly accountId: string;
  constructor(accountId: string) {
    super(`account ${accountId} is over its quota`);
    this.accountId = accountId;
  }
}

export class FilesRepository {
  private readonly db: Kysely<Schema>;
  private readonly groupCommit?: GroupCommit;
  private readonly quota: QuotaDefaults;
  private readonly prepared: PreparedQueries;

  /**
   * `groupCommit`: new files are committed in batches (SQLite); else each in its own transaction.
   * `quota`: the limits of accounts without their own (default: unlimited).
   */
  constructor(
    db: Kysely<Schema>,
    groupCommit?: GroupCommit,
    quota: QuotaDefaults = { bytes: undefined, files: undefined },
  ) {
    this.db = db;
    this.groupCommit = groupCommit;
    this.quota = quota;
    this.prepared = new PreparedQueries(db);
  }

  private selectStored() {
    return this.db
      .selectFrom('files')
      .innerJoin('blobs', 'blobs.blob_id', 'files.blob_id')
      .selectAll('files')
      .select(['blobs.quilt_id', 'blobs.quilt_patch_id']);
  }

  /**
   * One page, newest first, strictly after `after` in (created_at, id) order. The row-value
   * comparison lets both dialects walk the (owner, created_at, id) index without a sort.
   */
  list(filter: ListFilter, limit: number, after?: ListPosition): Promise<ListedFile[]> {
    const { accountId, spaceId } = filter;
    // Every value of a prepared query is one of its parameters: the Space only where it filters.
    const owner = spaceId === undefined ? [accountId] : [accountId, spaceId];
    const place = ([a, s]: readonly unknown[]): ListFilter => (s === undefined ? { accountId: a as string } : { accountId: a as string, spaceId: s as string });
    const shape = spaceId === undefined ? 'account' : 'space';
    if (!after) {
      return this.prepared.rows(`list:${shape}`, [...owner, limit], (v) => this.listQuery(place(v.slice(0, -1)), v.at(-1) as number));
    }
    return this.prepared.rows(`list-after:${shape}`, [...owner, limit, after.createdAt, after.id], (v) => {
      const [n, at, id] = v.slice(-3);
      return this.listQuery(place(v.slice(0, -3)), n as number, { createdAt: at as number, id: id as string });
    });
  }

  /**
   * How many times what the account's list shows has changed (files added or removed, their
   * blobs moved), counted in the transactions of those changes: a page whose rows were read at
   * this version (ListedFile.list_version) is still the page while it answers the same, on every
   * replica.
   */
  async listVersion(accountId: string): Promise<number | undefined> {
    const [row] = await this.prepared.rows('list-version', [accountId], ([id]) => this.db.selectFrom('accounts').select('files_version').where('id', '=', id as string));
    return row === undefined ? undefined : Number(row.files_version);
  }

  /** The list query itself, so its plan can be checked (test/db) and documented. */
  listQuery(filter: ListFilter, limit: number, after?: ListPosition) {
    // The account's list version beside each row, from the statement's own snapshot: the page
    // is exactly the one of that version (an uncorrelated subquery, evaluated once).
    let query = this.selectStored().select((eb) => eb.selectFrom('accounts').select('accounts.files_version').where('accounts.id', '=', filter.accountId).as('list_version'));
    query = filter.spaceId !== undefined ? query.where('files.space_id', '=', filter.spaceId) : query.where('files.account_id', '=', filter.accountId);
    if (after) query = query.where((eb) => eb(eb.refTuple('files.created_at', 'files.id'), '<', eb.tuple(after.createdAt, after.id)));
    return query.orderBy('files.created_at', 'desc').orderBy('files.id', 'desc').limit(limit);
  }

  async find(accountId: string, id: string): Promise<StoredFile | undefined> {
    const [row] = await this.prepared.rows('find', [accountId, id], ([a, f]) => this.selectStored().where('files.id', '=', f as string).where('files.account_id', '=', a as string));
    return row;
  }

  /** Whatever account holds it: for signed links, whose signature already names the file. */
  async findAnyAccount(id: string): Promise<StoredFile | undefined> {
    const [row] = await this.prepared.rows('find-any', [id], ([f]) => this.selectStored().where('files.id', '=', f as string));
    return row;
  }

  findBlobs(blobIds: readonly string[]): Promise<BlobRow[]> {
    if (blobIds.length === 0) return Promise.resolve([]);
    // One blob (an upload of one file, the usual case) is a prepared query.
    if (blobIds.length === 1) return this.prepared.rows('blob', [blobIds[0]!], ([id]) => this.db.selectFrom('blobs').selectAll().where('blob_id', '=', id as string));
    return this.db.selectFrom('blobs').selectAll().where('blob_id', 'in', blobIds).execute();
  }

  /**
   * Records new blobs (keeping the existing row when the same content raced in) and the files
   * that point at them, in one transaction, counting them into their account's usage first:
   * over its quota, QuotaExceededError and nothing is recorded. All files are of one account.
   * Answers the blob rows the files now point at.
   */
  async insertFiles(newBlobs: readonly NewBlobRow[], files: readonly NewFileRow[], within?: WithinCommit): Promise<Map<string, BlobRow>> {
    const accountId = files[0]!.account_id;
    const bytes = files.reduce((sum, f) => sum + f.size_bytes, 0);
    const work = async (trx: Transaction<Schema>) => {
      // First, so that the account's row lock orders concurrent uploads of one account (PostgreSQL).
      if (!(await chargeUsage(trx, accountId, bytes, files.length, this.quota, this.prepared))) throw new QuotaExceededError(accountId);
      // One file of one blob (the usual upload): statements compiled once, run with its values.
      const [blob] = newBlobs;
      if (newBlobs.length === 1 && blob!.sealed_key == null) {
        const values = [blob!.blob_id, Number(blob!.size_bytes), blob!.quilt_id, blob!.quilt_patch_id, Number(blob!.created_at)];
        await this.prepared.runIn(trx, 'insert-blob', values, ([blobId, size, quilt, patch, at]) =>
          trx.insertInto('blobs').values({ blob_id: blobId as string, size_bytes: size as number, quilt_id: quilt as string, quilt_patch_id: patch as string, created_at: at as number, sealed_key: null }).onConflict((oc) => oc.column('blob_id').doNothing()),
        );
      } else if (newBlobs.length > 0) {
        await trx.insertInto('blobs').values(newBlobs).onConflict((oc) => oc.column('blob_id').doNothing()).execute();
      }
      const [file] = files;
      if (files.length === 1) {
        const values = [file!.id, file!.account_id, file!.space_id, file!.blob_id, file!.name, file!.mime_type, Number(file!.size_bytes), Number(file!.created_at)];
        await this.prepared.runIn(trx, 'insert-file', values, ([id, account, space, blobId, name, mime, size, at]) =>
          trx.insertInto('files').values({ id: id as string, account_id: account as string, space_id: space as string, blob_id: blobId as string, name: name as string, mime_type: mime as string, size_bytes: size as number, created_at: at as number }),
        );
      } else {
        await trx.insertInto('files').values(files).execute();
      }
      await within?.(trx, files);
      const blobIds = [...new Set(files.map((f) => f.blob_id))];
      const rows =
        blobIds.length === 1
          ? (await this.prepared.runIn(trx, 'blob-in', [blobIds[0]!], ([id]) => trx.selectFrom('blobs').selectAll().where('blob_id', '=', id as string))).rows
          : await trx.selectFrom('blobs').selectAll().where('blob_id', 'in', blobIds).execute();
      return new Map(rows.map((r) => [r.blob_id, r]));
    };
    return this.groupCommit ? this.groupCommit.run(work) : this.db.transaction().execute(work);
  }

  /** Removes the file and takes it off its account's usage, together (with `within`, e.g. its event). */
  delete(accountId: string, id: string, within?: WithinDelete): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.deleteFrom('files').where('id', '=', id).where('account_id', '=', accountId).returningAll().executeTakeFirst();
      if (!row) return false;
      await releaseUsage(trx, accountId, Number(row.size_bytes), 1);
      await within?.(trx, [row]);
      return true;
    });
  }

  /** Removes every file of the Space (of that account) and takes them off its usage, together. */
  deleteInSpace(accountId: string, spaceId: string, within?: WithinDelete): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx.deleteFrom('files').where('space_id', '=', spaceId).where('account_id', '=', accountId).returningAll().execute();
      await releaseUsage(trx, accountId, rows.reduce((sum, r) => sum + Number(r.size_bytes), 0), rows.length);
      await within?.(trx, rows);
      return [...new Set(rows.map((r) => r.blob_id))];
    });
  }

  /**
   * Drops the blob row if no file points at it any longer, answering its patch so the bytes can
   * be reclaimed. A file that points at it concurrently keeps it (the foreign key refuses).
   */
  async deleteBlobIfUnreferenced(blobId: string): Promise<string | undefined> {
    try {
      const row = await this.db
        .deleteFrom('blobs')
        .where('blob_id', '=', blobId)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('files').select('files.id').where('files.blob_id', '=', blobId))))
        .returning('quilt_patch_id')
        .executeTakeFirst();
      return row?.quilt_patch_id;
    } catch (error) {
      if (isForeignKeyViolation(error)) return undefined;
      throw error;
    }
  }
}
