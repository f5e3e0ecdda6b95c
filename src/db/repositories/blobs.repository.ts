import type { Kysely } from 'kysely';
import type { BlobRow, Schema } from '../schema.ts';

/** Accounts or blob keys per statement when gc marks the lists of moved blobs' accounts changed (within any bound on bound parameters). */
const MOVED_BLOBS_PER_STATEMENT = 500;

/**
 * The key of a blob row (`blobs.blob_id`, and `files.blob_id` pointing at it): the account and
 * the content id. Content is deduplicated within one account only, so that how fast an upload
 * is answered never tells whether another account stores the same bytes (docs/security.md).
 * Rows written before keys were scoped hold the bare content id, shared as they were.
 *
 * `plaintext`: the bytes were published unencrypted by an engine that otherwise seals them (a
 * public Space on Walrus). Such a blob is a row of its own, `<account id>:plaintext:<content id>`,
 * so that a sealed copy is never served for a public Space nor a plaintext one for a private Space.
 */
export function blobKeyOf(accountId: string, contentId: string, plaintext = false): string {
  return plaintext ? `${accountId}:plaintext:${contentId}` : `${accountId}:${contentId}`;
}

/** The account a blob row's key names (blobKeyOf); undefined for a key made before blobs were per account. */
export function accountOfBlobKey(blobKey: string): string | undefined {
  const end = blobKey.indexOf(':');
  return end === -1 ? undefined : blobKey.slice(0, end);
}

/** The content id (base64url SHA-256 of the bytes) in a blob row's key: what the API calls blobId. */
export function contentIdOf(blobKey: string): string {
  return blobKey.slice(blobKey.lastIndexOf(':') + 1);
}

/** Blob rows as the storage tools see them: by quilt, and moved when a quilt is rewritten. */
export class BlobsRepository {
  private readonly db: Kysely<Schema>;
  constructor(db: Kysely<Schema>) {
    this.db = db;
  }

  /** The quilts rows point at, in order, a page at a time (from the quilt index alone). */
  async quiltIdsAfter(afterQuiltId: string, limit: number): Promise<string[]> {
    const rows = await this.db.selectFrom('blobs').select('quilt_id').distinct().where('quilt_id', '>', afterQuiltId).orderBy('quilt_id').limit(limit).execute();
    return rows.map((r) => r.quilt_id);
  }

  find(blobId: string): Promise<BlobRow | undefined> {
    return this.db.selectFrom('blobs').selectAll().where('blob_id', '=', blobId).executeTakeFirst();
  }

  /** The blob a patch holds, and its wrapped data key if the engine sealed it. */
  byPatch(quiltPatchId: string): Promise<{ blob_id: string; sealed_key: string | null } | undefined> {
    return this.db.selectFrom('blobs').select(['blob_id', 'sealed_key']).where('quilt_patch_id', '=', quiltPatchId).executeTakeFirst();
  }

  /** The ids of (at most `limit`) files that hold this blob, oldest first. */
  async fileIdsOf(blobId: string, limit: number): Promise<string[]> {
    const rows = await this.db.selectFrom('files').select('id').where('blob_id', '=', blobId).orderBy('created_at').orderBy('id').limit(limit).execute();
    return rows.map((r) => r.id);
  }

  /** Sealed keys in blob_id order, a page at a time (for re-wrapping under a new master key). */
  sealedPage(afterBlobId: string, limit: number): Promise<Array<{ blob_id: string; sealed_key: string }>> {
    return this.db
      .selectFrom('blobs')
      .select(['blob_id', 'sealed_key'])
      .where('blob_id', '>', afterBlobId)
      .where('sealed_key', 'is not', null)
      .orderBy('blob_id')
      .limit(limit)
      .execute() as Promise<Array<{ blob_id: string; sealed_key: string }>>;
  }

  /** Replaces a wrapped key, only if it is still the one read (a concurrent delete or rewrap wins). */
  async replaceSealedKey(blobId: string, from: string, to: string): Promise<boolean> {
    const result = await this.db.updateTable('blobs').set({ sealed_key: to }).where('blob_id', '=', blobId).where('sealed_key', '=', from).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  inQuilt(quiltId: string): Promise<BlobRow[]> {
    return this.db.selectFrom('blobs').selectAll().where('quilt_id', '=', quiltId).orderBy('blob_id').execute();
  }

  /** Live bytes and blobs of one quilt. */
  async liveIn(quiltId: string): Promise<{ blobs: number; bytes: number }> {
    const row = await this.db
      .selectFrom('blobs')
      .select((eb) => [eb.fn.countAll<number>().as('blobs'), eb.fn.sum<number>('size_bytes').as('bytes')])
      .where('quilt_id', '=', quiltId)
      .executeTakeFirstOrThrow();
    return { blobs: Number(row.blobs), bytes: Number(row.bytes ?? 0) };
  }

  /**
   * Points blobs at their new location, in one transaction, but only those still in the old
   * quilt (a blob deleted meanwhile stays deleted). Answers how many moved.
   */
  async move(fromQuiltId: string, moves: readonly { blobId: string; quiltId: string; quiltPatchId: string }[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      let moved = 0;
      for (const move of moves) {
        const result = await trx
          .updateTable('blobs')
          .set({ quilt_id: move.quiltId, quilt_patch_id: move.quiltPatchId })
          .where('blob_id', '=', move.blobId)
          .where('quilt_id', '=', fromQuiltId)
          .executeTakeFirst();
        moved += Number(result.numUpdatedRows);
      }
      // The files of these blobs now list another quilt: their accounts' lists change. The
      // account is the one the blob's key names, whether or not a file of it is committed yet:
      // an upload deduplicating onto a blob no file holds (deleted, not yet reclaimed) commits its
      // file after this statement began, and would not be seen through the files. Keys made
      // before blobs were per account name none; their files name the accounts.
      const named = [...new Set(moves.map((m) => accountOfBlobKey(m.blobId)).filter((a) => a !== undefined))];
      const bare = moves.map((m) => m.blobId).filter((key) => accountOfBlobKey(key) === undefined);
      for (let at = 0; at < named.length; at += MOVED_BLOBS_PER_STATEMENT) {
        const some = named.slice(at, at + MOVED_BLOBS_PER_STATEMENT);
        await trx.updateTable('accounts').set((eb) => ({ files_version: eb('files_version', '+', 1) })).where('id', 'in', some).execute();
      }
      for (let at = 0; at < bare.length; at += MOVED_BLOBS_PER_STATEMENT) {
        const some = bare.slice(at, at + MOVED_BLOBS_PER_STATEMENT);
        await trx
          .updateTable('accounts')
          .set((eb) => ({ files_version: eb('files_version', '+', 1) }))
          .where('id', 'in', (eb) => eb.selectFrom('files').select('files.account_id').where('files.blob_id', 'in', some))
          .execute();
      }
      return moved;
    });
  }

  async referenced(quiltId: string): Promise<boolean> {
    return (await this.db.selectFrom('blobs').select('blob_id').where('quilt_id', '=', quiltId).limit(1).executeTakeFirst()) !== undefined;
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('blobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async fileCount(): Promise<number> {
    const row = await this.db.selectFrom('files').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
