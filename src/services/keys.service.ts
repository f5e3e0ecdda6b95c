import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isUniqueViolation } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { AccountsRepository } from '../db/repositories/accounts.repository.ts';
import type { ApiKeyListing, ApiKeysRepository } from '../db/repositories/api-keys.repository.ts';

export const BOOTSTRAP_ACCOUNT = 'default';

export interface CreatedKey {
  id: string;
  /** The key itself: shown once, never stored. */
  key: string;
  accountId: string;
  accountName: string;
  name: string;
  createdAt: number;
}

export interface Principal {
  accountId: string;
  keyId: string;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateKey(): string {
  return `tsk_${randomBytes(32).toString('base64url')}`;
}

export class KeysService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly keys: ApiKeysRepository,
  ) {}

  async create(accountName: string, label?: string, key = generateKey()): Promise<CreatedKey> {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(accountName)) {
      throw new AppError('invalid_request', 'account names are 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
    }
    const account = await this.accounts.ensure(accountName);
    const now = Date.now();
    const id = newId('key', now);
    const name = label ?? `key for ${accountName}`;
    await this.keys.insert({ id, account_id: account.id, name, key_hash: hashKey(key), created_at: now, revoked_at: null });
    return { id, key, accountId: account.id, accountName, name, createdAt: now };
  }

  list(accountName?: string): Promise<ApiKeyListing[]> {
    return this.keys.list(accountName);
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.keys.revoke(id, Date.now()))) throw new AppError('not_found', `key ${id} does not exist`);
  }

  /**
   * Resolves a presented key to its account, or undefined. The lookup is by SHA-256 digest, so
   * its timing says nothing about the key; the final comparison is constant-time all the same.
   */
  async authenticate(presented: string): Promise<Principal | undefined> {
    const digest = hashKey(presented);
    const row = await this.keys.findByHash(digest);
    if (!row || row.revoked_at !== null) return undefined;
    if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(digest, 'hex'))) return undefined;
    return { accountId: row.account_id, keyId: row.id };
  }

  /**
   * On a database with no keys, registers the configured key (or a generated one) for the
   * account `default`. Answers the key only when it was generated, so it can be shown once.
   */
  async bootstrap(configuredKey: string | undefined): Promise<CreatedKey | undefined> {
    if ((await this.keys.count()) > 0) return undefined;
    try {
      const created = await this.create(BOOTSTRAP_ACCOUNT, configuredKey ? 'TESSERA_API_KEY' : 'generated at first start', configuredKey ?? generateKey());
      return configuredKey ? undefined : created;
    } catch (error) {
      // Replicas starting together: another one registered the configured key first.
      if (configuredKey && isUniqueViolation(error)) return undefined;
      throw error;
    }
  }
}
