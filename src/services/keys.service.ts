import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { AccountsRepository } from '../db/repositories/accounts.repository.ts';
import type { ApiKeyListing, ApiKeysRepository } from '../db/repositories/api-keys.repository.ts';
import type { SpacesRepository } from '../db/repositories/spaces.repository.ts';
import type { ApiKeyRow, KeyScope } from '../db/schema.ts';
import { boundSpace } from './owner.ts';

export const BOOTSTRAP_ACCOUNT = 'default';

/** Each scope allows what the ones before it allow. */
export const KEY_SCOPES: readonly KeyScope[] = ['read', 'write', 'admin'];
export type { KeyScope };

export function isKeyScope(value: string): value is KeyScope {
  return (KEY_SCOPES as readonly string[]).includes(value);
}

/** Whether a key of scope `held` may do what needs `needed`. */
export function scopeAllows(held: KeyScope, needed: KeyScope): boolean {
  return KEY_SCOPES.indexOf(held) >= KEY_SCOPES.indexOf(needed);
}

export interface CreatedKey {
  id: string;
  /** The key itself: shown once, never stored. */
  key: string;
  accountId: string;
  accountName: string;
  name: string;
  scope: KeyScope;
  spaceId: string | null;
  createdAt: number;
}

/** Who is calling: the key's account, what the key may do, and the Space it is bound to. */
export interface Principal {
  accountId: string;
  keyId: string;
  scope: KeyScope;
  spaceId: string | null;
}

export interface KeyOptions {
  label?: string;
  scope?: KeyScope;
  /** Binds the key to this Space of the account. */
  spaceId?: string;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateKey(): string {
  return `tsk_${randomBytes(32).toString('base64url')}`;
}

/**
 * Authenticated keys kept a short while, so a request costs no database look-up for its key. A
 * revocation still wins: through this service at once; by another process as soon as `version`
 * (the database's `keysVersion`) moves, which empties the cache; and no entry outlives `ttlMs`
 * whatever happens. While `version` is undefined nothing is cached.
 */
export interface KeyCacheOptions {
  ttlMs: number;
  maxEntries: number;
  version: () => number | undefined;
  now?: () => number;
}

interface CachedKey {
  principal: Principal;
  expiresAt: number;
}

export class KeysService {
  private readonly accounts: AccountsRepository;
  private readonly keys: ApiKeysRepository;
  private readonly spaces: SpacesRepository;
  private readonly cache?: KeyCacheOptions;
  private readonly cached = new Map<string, CachedKey>();
  private cachedVersion: number | undefined;
  /** Moves on at every revocation through this service: a look-up begun before it keeps nothing. */
  private revocations = 0;

  constructor(
    accounts: AccountsRepository,
    keys: ApiKeysRepository,
    spaces: SpacesRepository,
    cache?: KeyCacheOptions,
  ) {
    this.accounts = accounts;
    this.keys = keys;
    this.spaces = spaces;
    this.cache = cache;
  }

  /** An operator's key (CLI): for any account, created if new. */
  async create(accountName: string, options: KeyOptions = {}, key = generateKey()): Promise<CreatedKey> {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(accountName)) {
      throw new AppError('invalid_request', 'account names are 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
    }
    const account = await this.accounts.ensure(accountName);
    return this.insert(account, options, key);
  }

  /**
   * A key made over the API by an admin key, for its own account. A key bound to a Space makes
   * keys bound to that Space only, so no key can make one that reaches further than itself.
   */
  async createFor(principal: Principal, options: KeyOptions): Promise<CreatedKey> {
    const bound = boundSpace(principal);
    if (bound !== undefined && options.spaceId !== undefined && options.spaceId !== bound) throw notFound('space', options.spaceId);
    const account = await this.accounts.findById(principal.accountId);
    if (!account) throw new AppError('unauthorized', 'the key\'s account no longer exists');
    return this.insert(account, { ...options, spaceId: options.spaceId ?? bound });
  }

  private async insert(account: { id: string; name: string }, options: KeyOptions, key = generateKey()): Promise<CreatedKey> {
    const { row, created } = await this.prepare(account, options, key);
    await this.keys.insert(row);
    return created;
  }

  /** The row of a new key (the Space it is bound to checked) and what its creator is shown. */
  private async prepare(account: { id: string; name: string }, options: KeyOptions, key: string): Promise<{ row: ApiKeyRow; created: CreatedKey }> {
    const scope = options.scope ?? 'admin';
    const spaceId = options.spaceId ?? null;
    if (spaceId !== null && !(await this.spaces.find(account.id, spaceId))) throw notFound('space', spaceId);
    const now = Date.now();
    const id = newId('key', now);
    const name = options.label ?? `key for ${account.name}`;
    return {
      row: { id, account_id: account.id, name, key_hash: hashKey(key), created_at: now, revoked_at: null, scope, space_id: spaceId },
      created: { id, key, accountId: account.id, accountName: account.name, name, scope, spaceId, createdAt: now },
    };
  }

  list(accountName?: string): Promise<ApiKeyListing[]> {
    return this.keys.list({ accountName });
  }

  /** The keys an admin key may see: its account's, or its Space's when it is bound to one. */
  listFor(principal: Principal): Promise<ApiKeyListing[]> {
    return this.keys.list({ accountId: principal.accountId, spaceId: boundSpace(principal) });
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.forgetAround(id, () => this.keys.revoke(id, Date.now())))) throw new AppError('not_found', `key ${id} does not exist`);
  }

  async revokeFor(principal: Principal, id: string): Promise<void> {
    if (!(await this.forgetAround(id, () => this.keys.revoke(id, Date.now(), { accountId: principal.accountId, spaceId: boundSpace(principal) })))) throw notFound('key', id);
  }

  /**
   * Revokes with the cache emptied of the key before and after the commit: a look-up that raced
   * the revocation (it read the row before the commit) cannot leave the key cached behind it.
   */
  private async forgetAround<T>(id: string, revoke: () => Promise<T>): Promise<T> {
    this.forget(id);
    try {
      return await revoke();
    } finally {
      this.forget(id);
    }
  }

  /** Drops the cached key of this id, and whatever is cached until the revocation is committed. */
  private forget(id: string): void {
    for (const [digest, entry] of this.cached) if (entry.principal.keyId === id) this.cached.delete(digest);
    this.revocations++;
  }

  /**
   * Resolves a presented key to its account, or undefined. The lookup is by SHA-256 digest, so
   * its timing says nothing about the key; the final comparison is constant-time all the same.
   */
  async authenticate(presented: string): Promise<Principal | undefined> {
    return this.authenticateDigest(hashKey(presented));
  }

  /** `authenticate` for a key already hashed (`hashKey`). */
  async authenticateDigest(digest: string): Promise<Principal | undefined> {
    const cache = this.cache;
    const revocations = this.revocations;
    let version: number | undefined;
    let now = 0;
    if (cache && cache.ttlMs > 0) {
      version = cache.version();
      now = (cache.now ?? Date.now)();
      if (version === undefined || version !== this.cachedVersion) {
        this.cached.clear();
        this.cachedVersion = version;
      } else {
        const hit = this.cached.get(digest);
        if (hit && hit.expiresAt > now) return hit.principal;
        if (hit) this.cached.delete(digest);
      }
    }
    const row = await this.keys.findByHash(digest);
    if (!row || row.revoked_at !== null) return undefined;
    if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(digest, 'hex'))) return undefined;
    const principal: Principal = { accountId: row.account_id, keyId: row.id, scope: isKeyScope(row.scope) ? row.scope : 'read', spaceId: row.space_id ?? null };
    // Kept only when nothing may have been revoked since the look-up began (the version then is
    // still the cache's). Unknown and revoked keys are never kept: a new key works at once, and
    // guessing cannot fill the cache.
    if (cache && version !== undefined && revocations === this.revocations && version === this.cachedVersion && cache.version() === version) {
      if (this.cached.size >= cache.maxEntries) this.cached.delete(this.cached.keys().next().value!);
      this.cached.set(digest, { principal, expiresAt: now + cache.ttlMs });
    }
    return principal;
  }

  /**
   * On a database with no keys, registers the configured key (or a generated one) for the
   * account `default`. Answers the key only when it was generated, so it can be shown once.
   * Replicas starting together on an empty database make one key between them: whichever
   * inserts the first key, the others find it made and answer nothing.
   */
  async bootstrap(configuredKey: string | undefined): Promise<CreatedKey | undefined> {
    if ((await this.keys.count()) > 0) return undefined;
    const account = await this.accounts.ensure(BOOTSTRAP_ACCOUNT);
    const { row, created } = await this.prepare(account, { label: configuredKey ? 'TESSERA_API_KEY' : 'generated at first start' }, configuredKey ?? generateKey());
    if (!(await this.keys.insertFirst(row))) return undefined;
    return configuredKey ? undefined : created;
  }
}
