import { createHmac, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ByteLru } from '../byte-lru.ts';
import { isForeignKeyViolation } from '../db/database.ts';
import { DEFAULT_SPACE_NAME } from '../db/repositories/accounts.repository.ts';
import { blobKeyOf, contentIdOf } from '../db/repositories/blobs.repository.ts';
import type { AccountsRepository, QuotaDefaults } from '../db/repositories/accounts.repository.ts';
import { QuotaExceededError, type FilesRepository, type ListPosition, type StoredFile, type WithinCommit, type WithinDelete } from '../db/repositories/files.repository.ts';
import type { SpacesRepository } from '../db/repositories/spaces.repository.ts';
import type { NewBlobRow, SpaceRow } from '../db/schema.ts';
import { AppError, notFound } from '../errors.ts';
import { isId, newId, type IdPrefix } from '../ids.ts';
import { accountIdOf, boundSpace, type Owner } from './owner.ts';
import type { EventPublisher } from './webhook-events.ts';
import { BlobMissingError, type BlobLocation, type BlobStore, type ByteRange, type StagedBlob } from '../storage/blob-store.ts';

export interface IncomingFile {
  staged: StagedBlob;
  name: string;
  mimeType: string;
}

export interface FilePage {
  files: StoredFile[];
  hasMore: boolean;
  /** Empty when there is no next page. */
  cursor: string;
  /**
   * An entity tag for exactly this page (see `listEtag`): the same while the account's list
   * version is the one its rows were read at. None for an empty page, whose rows carry no version.
   */
  etag?: string;
}

/** What a list page is of, and how it is cut: the page at one list version is these and nothing else. */
interface ListQuery {
  accountId: string;
  spaceId: string | undefined;
  limit: number;
  cursor: string | undefined;
  after: ListPosition | undefined;
}

/**
 * The entity tag of a list page: an HMAC, under a key every replica shares, of the page's JSON
 * format, what the page is of and the account's list version. Keyed, it says nothing of the
 * account or of how often its list changed (the version is a count a plain digest would give
 * away to anyone who can guess the rest); with the format in it, servers of two versions that
 * write a page differently never give the same tag to different bytes.
 */
const LIST_PAGE_FORMAT = 'tessera-list-page-v1';
function pageEtag(key: string, query: ListQuery, version: number): string {
  const digest = createHmac('sha256', key).update([LIST_PAGE_FORMAT, pageKey(query), version].join('\n')).digest('base64url');
  return `"l${digest.slice(0, 27)}"`;
}

/** Which page it is, whatever its version: the list cache's key, and what the page's tag is of. */
const pageKey = (query: ListQuery): string => `${query.accountId}\n${query.spaceId ?? ''}\n${query.limit}\n${query.cursor ?? ''}`;

/** What an account may still store; undefined: no limit. */
export interface Allowance {
  bytes: number | undefined;
  files: number | undefined;
  /** The byte quota and usage, for messages. */
  quota: string;
}

export interface ListCacheSettings {
  /** Memory for pages listed lately (0: none). */
  budgetBytes: number;
  /** Told of each look-up, whether the page was kept and still current. */
  onLookup?: (hit: boolean) => void;
  /** The key of the pages' entity tags: the same on every replica (kept in the database they share). */
  etagKey?: string;
}

/**
 * What a kept page is counted as: its rows as objects and, in the HTTP layer, its JSON (a record
 * is some 350 bytes of JSON plus its name).
 */
const PAGE_BYTES = 256;
const LISTED_FILE_BYTES = 1024;

export const MAX_LIST_LIMIT = 1000;
export const DEFAULT_LIST_LIMIT = 100;
/** Attempts when a deduplicated blob is reclaimed between our look-up and our insert. */
const COMMIT_ATTEMPTS = 3;

/** Accounts whose `default` Space id is remembered (it can be neither deleted nor renamed). */
const DEFAULT_SPACES_KEPT = 10_000;

export class FilesService {
  private readonly files: FilesRepository;
  private readonly spaces: SpacesRepository;
  private readonly store: BlobStore;
  private readonly accounts: AccountsRepository;
  private readonly quota: QuotaDefaults;
  /** Webhook events (file.created, file.deleted), written in the transactions of the changes. */
  private readonly events?: EventPublisher;
  private readonly defaultSpaces = new Map<string, SpaceRow>();
  /** Pages listed lately, each with the list version it was read at (see list()). */
  private readonly pages = new ByteLru<{ version: number; page: FilePage }>();
  private readonly listCache: ListCacheSettings;
  /** Given by the context from the database; a service made without one has its own, so its tags are its own. */
  private readonly etagKey: string;

  constructor(
    files: FilesRepository,
    spaces: SpacesRepository,
    store: BlobStore,
    accounts: AccountsRepository,
    quota: QuotaDefaults = { bytes: undefined, files: undefined },
    events?: EventPublisher,
    listCache: ListCacheSettings = { budgetBytes: 0 },
  ) {
    this.listCache = listCache;
    this.etagKey = listCache.etagKey ?? randomBytes(32).toString('base64url');
    this.files = files;
    this.spaces = spaces;
    this.store = store;
    this.accounts = accounts;
    this.quota = quota;
    this.events = events;
  }

  stage(source: AsyncIterable<Buffer> | Iterable<Buffer>, maxBytes: number): Promise<StagedBlob> {
    return this.store.stage(source, { maxBytes });
  }

  /**
   * The Space a new file lands in: the named one, or the account's `default` (for a key bound to
   * a Space: that Space; any other is not found).
   */
  async resolveSpace(owner: Owner, spaceId: string | undefined): Promise<SpaceRow> {
    const bound = boundSpace(owner);
    if (bound !== undefined && spaceId !== undefined && spaceId !== bound) throw notFound('space', spaceId);
    const wanted = spaceId ?? bound;
    if (wanted !== undefined) {
      const space = await this.spaces.find(accountIdOf(owner), wanted);
      if (!space) throw notFound('space', wanted);
      return space;
    }
    const accountId = accountIdOf(owner);
    const known = this.defaultSpaces.get(accountId);
    if (known) return known;
    const space = await this.spaces.findByName(accountId, DEFAULT_SPACE_NAME);
    if (!space) throw new AppError('internal', 'account has no default Space');
    if (this.defaultSpaces.size >= DEFAULT_SPACES_KEPT) this.defaultSpaces.delete(this.defaultSpaces.keys().next().value!);
    this.defaultSpaces.set(accountId, space);
    return space;
  }

  /**
   * What the account may still store now (undefined: no limit): for refusing an upload while its
   * bytes arrive, or from its declared length before they do. The commit decides for good.
   */
  async allowance(owner: Owner): Promise<Allowance> {
    const usage = await this.accounts.usage(accountIdOf(owner), this.quota);
    const room = (limit: number | undefined, used: number) => (limit === undefined ? undefined : Math.max(0, limit - used));
    return {
      bytes: usage && room(usage.limitBytes, usage.usedBytes),
      files: usage && room(usage.limitFiles, usage.usedFiles),
      quota: usage ? `its quota of ${usage.limitBytes} bytes (${usage.usedBytes} stored)` : '',
    };
  }

  /**
   * Refuses files that would take the account past its quota. Checked before any byte is written
   * (cheap, and it spares the store), and again, authoritatively, in the transaction that
   * records the files (FilesRepository.insertFiles), which concurrent uploads cannot race.
   */
  async checkQuota(owner: Owner, bytes: number, files: number): Promise<void> {
    const usage = await this.accounts.usage(accountIdOf(owner), this.quota);
    if (!usage) return;
    const overBytes = usage.limitBytes !== undefined && usage.usedBytes + bytes > usage.limitBytes;
    const overFiles = usage.limitFiles !== undefined && usage.usedFiles + files > usage.limitFiles;
    if (!overBytes && !overFiles) return;
    const what = overBytes
      ? `${bytes} more bytes would pass the account's quota of ${usage.limitBytes} bytes (${usage.usedBytes} stored)`
      : `${files} more files would pass the account's quota of ${usage.limitFiles} files (${usage.usedFiles} stored)`;
    throw new AppError('quota_exceeded', `${what}; nothing was stored. Delete files or ask the operator for a larger quota`);
  }

  /**
   * Stores staged files as new files of the account, all or none. Content already stored is not
   * written again; new content of one call shares a quilt. The rows are committed only after the
   * bytes are durable, so a crash leaves at worst an unreferenced quilt, never a file without bytes.
   * The staged blobs are released whatever happens.
   */
  async commit(owner: Owner, spaceId: string | undefined, incoming: readonly IncomingFile[], within?: WithinCommit, checked?: Allowance): Promise<StoredFile[]> {
    const accountId = accountIdOf(owner);
    const persisted = new Map<string, BlobLocation>();
    const incomingBytes = incoming.reduce((sum, f) => sum + f.staged.sizeBytes, 0);
    // The early check is spared when the caller has just read the allowance and the files fit it
    // (the upload routes, which refuse as the bytes arrive): the transaction decides for good anyway.
    const fits = checked !== undefined && (checked.bytes === undefined || incomingBytes <= checked.bytes) && (checked.files === undefined || incoming.length <= checked.files);
    /** Decided at the first attempt: what was persisted then stays as it was persisted. */
    let plaintext: boolean | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        const space = await this.resolveSpace(owner, spaceId);
        if (!fits || attempt > 1) await this.checkQuota(owner, incomingBytes, incoming.length);
        // A public Space's files are published unencrypted by an engine that otherwise seals them;
        // elsewhere the choice changes nothing about the bytes.
        plaintext ??= space.encryption === 'none' && this.store.seals === true;
        // Content this account already stores (the same way) is not written again; another account's is.
        const keyOf = (contentId: string) => blobKeyOf(accountId, contentId, plaintext!);
        const known = new Map((await this.files.findBlobs(incoming.map((f) => keyOf(f.staged.blobId)))).map((b) => [b.blob_id, b]));
        const toWrite = distinctBy(
          incoming.map((f) => f.staged).filter((s) => !known.has(keyOf(s.blobId)) && !persisted.has(s.blobId)),
          (s) => s.blobId,
        );
        for (const location of await this.store.persist(toWrite, { plaintext })) persisted.set(location.blobId, location);
        const now = Date.now();
        const newBlobs: NewBlobRow[] = [...persisted.values()]
          .filter((l) => !known.has(keyOf(l.blobId)))
          .map((l) => ({ blob_id: keyOf(l.blobId), size_bytes: l.sizeBytes, quilt_id: l.quiltId, quilt_patch_id: l.quiltPatchId, created_at: now, sealed_key: l.sealedKey ?? null }));
        const rows = incoming.map((f) => ({
          id: newId('file', now),
          account_id: accountId,
          space_id: space.id,
          blob_id: keyOf(f.staged.blobId),
          name: f.name,
          mime_type: f.mimeType,
          size_bytes: f.staged.sizeBytes,
          created_at: now,
        }));
        try {
          const blobs = await this.files.insertFiles(newBlobs, rows, this.withCreatedEvents(accountId, within));
          return rows.map((r) => ({ ...r, quilt_id: blobs.get(r.blob_id)!.quilt_id, quilt_patch_id: blobs.get(r.blob_id)!.quilt_patch_id }));
        } catch (error) {
          if (isForeignKeyViolation(error) && attempt < COMMIT_ATTEMPTS) {
            this.defaultSpaces.delete(accountId);
            continue;
          }
          if (error instanceof QuotaExceededError) {
            // Another upload of the account got there first. Nothing points at the bytes just
            // written: they go now, not at the next gc. Then say which limit, with today's usage.
            await Promise.all([...persisted.values()].filter((l) => !known.has(keyOf(l.blobId))).map((l) => this.store.delete(l.quiltPatchId).catch(() => {})));
            await this.checkQuota(owner, incomingBytes, incoming.length);
            throw new AppError('quota_exceeded', "the files would pass the account's quota; nothing was stored");
          }
          throw error;
        }
      }
    } finally {
      await Promise.all(incoming.map((f) => f.staged.discard()));
    }
  }

  /** The page asked for, checked: a Space the caller may not list (or that is not there) is 404, a bad cursor 400. */
  private async listQuery(owner: Owner, options: { limit: number; cursor?: string; spaceId?: string }): Promise<ListQuery> {
    const accountId = accountIdOf(owner);
    const after = options.cursor ? decodeCursor(options.cursor) : undefined;
    const bound = boundSpace(owner);
    if (bound !== undefined && options.spaceId !== undefined && options.spaceId !== bound) throw notFound('space', options.spaceId);
    const spaceId = options.spaceId ?? bound;
    if (spaceId !== undefined && !(await this.spaces.find(accountId, spaceId))) throw notFound('space', spaceId);
    return { accountId, spaceId, limit: options.limit, cursor: options.cursor || undefined, after };
  }

  /**
   * The entity tag the page asked for has now, without reading the page: one indexed read of the
   * account's list version. A client that holds the page with this tag holds it as it is now
   * (a conditional GET answers 304). Every change of what the account's list shows moves the
   * version in its own transaction, on every replica, so a changed page never keeps its tag.
   */
  async listEtag(owner: Owner, options: { limit: number; cursor?: string; spaceId?: string }): Promise<string | undefined> {
    const query = await this.listQuery(owner, options);
    const version = await this.files.listVersion(query.accountId);
    return version === undefined ? undefined : pageEtag(this.etagKey, query, version);
  }

  async list(owner: Owner, options: { limit: number; cursor?: string; spaceId?: string }): Promise<FilePage> {
    const query = await this.listQuery(owner, options);
    const { accountId, spaceId, after } = query;
    // A page kept from an earlier call is answered again while the account's list version is
    // the one its rows were read at (in their own statement, so the page is exactly that
    // version's). Only a kept page costs a look at the version; a page not kept is read as before.
    const { budgetBytes, onLookup } = this.listCache;
    const key = pageKey(query);
    const kept = budgetBytes > 0 ? this.pages.get(key) : undefined;
    if (kept) {
      const current = (await this.files.listVersion(accountId)) === kept.version;
      onLookup?.(current);
      if (current) return kept.page;
    } else if (budgetBytes > 0) {
      onLookup?.(false);
    }
    const rows = await this.files.list({ accountId, spaceId }, options.limit + 1, after);
    const hasMore = rows.length > options.limit;
    const files = hasMore ? rows.slice(0, options.limit) : rows;
    const last = files[files.length - 1];
    // An empty page carries no version: it has no tag, and is not kept.
    const version = rows[0]?.list_version;
    const page: FilePage = {
      files,
      hasMore,
      cursor: hasMore && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : '',
      etag: version == null ? undefined : pageEtag(this.etagKey, query, Number(version)),
    };
    if (budgetBytes > 0 && version != null) {
      const bytes = files.reduce((sum, f) => sum + LISTED_FILE_BYTES + 2 * f.name.length, PAGE_BYTES);
      this.pages.set(key, { version: Number(version), page }, bytes, budgetBytes);
    }
    return page;
  }

  async get(owner: Owner, id: string): Promise<StoredFile> {
    const file = await this.files.find(accountIdOf(owner), id);
    const bound = boundSpace(owner);
    if (!file || (bound !== undefined && file.space_id !== bound)) throw notFound('file', id);
    return file;
  }

  /** The file a signed link names, whichever account holds it (the link's signature is the check). */
  findForLink(id: string): Promise<StoredFile | undefined> {
    return this.files.findAnyAccount(id);
  }

  /**
   * Opens the file's bytes (or a range). A file deleted meanwhile is not found; a file whose
   * quilt was rewritten meanwhile (gc) is read from its new place.
   */
  async open(file: StoredFile, range?: ByteRange): Promise<Readable> {
    try {
      return await this.store.read(file.quilt_patch_id, range);
    } catch (error) {
      if (!(error instanceof BlobMissingError)) throw error;
      const current = await this.files.find(file.account_id, file.id);
      if (!current) throw notFound('file', file.id);
      if (current.quilt_patch_id !== file.quilt_patch_id) return this.store.read(current.quilt_patch_id, range);
      throw error;
    }
  }

  /**
   * The file's bytes (or a range) to send: one buffer when the store reads them in one go (small
   * files: no stream to set up), else a stream. Found again like `open` when gc moved them.
   */
  async content(file: StoredFile, range?: ByteRange): Promise<Buffer | Readable> {
    if (!this.store.readBuffer) return this.open(file, range);
    try {
      return (await this.store.readBuffer(file.quilt_patch_id, range)) ?? (await this.open(file, range));
    } catch (error) {
      if (!(error instanceof BlobMissingError)) throw error;
      return this.open(file, range);
    }
  }

  async delete(owner: Owner, id: string): Promise<void> {
    const file = await this.get(owner, id);
    if (!(await this.files.delete(accountIdOf(owner), id, this.deletedEvents(accountIdOf(owner))))) throw notFound('file', id);
    await this.reclaim([file.blob_id]);
  }

  async deleteAllInSpace(accountId: string, spaceId: string): Promise<void> {
    await this.reclaim(await this.files.deleteInSpace(accountId, spaceId, this.deletedEvents(accountId)));
  }

  /** `within`, then a file.created event per new file, in the same transaction. */
  private withCreatedEvents(accountId: string, within: WithinCommit | undefined): WithinCommit | undefined {
    const events = this.events;
    if (!events) return within;
    return async (trx, files) => {
      await within?.(trx, files);
      await events(
        trx,
        accountId,
        files.map((f) => ({
          type: 'file.created' as const,
          at: f.created_at,
          data: { fileId: f.id, workspaceId: f.space_id, name: f.name, mimeType: f.mime_type, sizeBytes: String(f.size_bytes), createdAt: new Date(f.created_at).toISOString(), blobId: contentIdOf(f.blob_id) },
        })),
      );
    };
  }

  private deletedEvents(accountId: string): WithinDelete | undefined {
    const events = this.events;
    if (!events) return undefined;
    return async (trx, files) => {
      const now = Date.now();
      await events(
        trx,
        accountId,
        files.map((f) => ({
          type: 'file.deleted' as const,
          at: now,
          data: { fileId: f.id, workspaceId: f.space_id, name: f.name, mimeType: f.mime_type, sizeBytes: String(f.size_bytes), deletedAt: new Date(now).toISOString() },
        })),
      );
    };
  }

  /** Frees the bytes of blobs no file refers to any longer. */
  private async reclaim(blobIds: readonly string[]): Promise<void> {
    for (const blobId of blobIds) {
      const patch = await this.files.deleteBlobIfUnreferenced(blobId);
      // A failure here only leaves garbage behind, which `tessera gc` reclaims; the delete stands.
      if (patch) await this.store.delete(patch).catch(() => {});
    }
  }
}

function distinctBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)));
}

export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

/** A cursor of a list ordered by (created_at, id), whose ids have the prefix `prefix`. */
export function decodeCursor(cursor: string, prefix: IdPrefix = 'file'): ListPosition {
  const invalid = new AppError('invalid_cursor', 'cursor is not one this server issued; pass pagination.cursor from the previous page unchanged');
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(value) || value.length !== 2) throw invalid;
  const [createdAt, id] = value as unknown[];
  if (!Number.isSafeInteger(createdAt) || (createdAt as number) < 0 || typeof id !== 'string' || !isId(prefix, id)) throw invalid;
  return { createdAt: createdAt as number, id };
}
