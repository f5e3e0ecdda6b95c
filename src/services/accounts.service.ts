import type { AccountsRepository, AccountUsage, QuotaDefaults, StoredLimit } from '../db/repositories/accounts.repository.ts';
import { AppError } from '../errors.ts';

/** Accounts as their owners and operators see them: usage and quotas. */
export class AccountsService {
  private readonly accounts: AccountsRepository;
  readonly quotaDefaults: QuotaDefaults;
  constructor(
    accounts: AccountsRepository,
    quotaDefaults: QuotaDefaults,
  ) {
    this.accounts = accounts;
    this.quotaDefaults = quotaDefaults;
  }

  async usage(accountId: string): Promise<AccountUsage> {
    const usage = await this.accounts.usage(accountId, this.quotaDefaults);
    if (!usage) throw new AppError('unauthorized', "the key's account no longer exists");
    return usage;
  }

  async usageByName(name: string): Promise<AccountUsage> {
    const account = await this.accounts.findByName(name);
    if (!account) throw new AppError('not_found', `account ${name} does not exist`);
    return this.usage(account.id);
  }

  /**
   * An operator sets one account's limits: a number, `unlimited`, or `default` (follow
   * TESSERA_DEFAULT_QUOTA_*). Lowering a limit below the usage refuses new files only; nothing
   * stored is removed.
   */
  async setQuota(name: string, limits: { bytes?: string; files?: string }): Promise<AccountUsage> {
    const parse = (raw: string | undefined, what: string): StoredLimit | undefined => {
      if (raw === undefined) return undefined;
      if (raw === 'default') return null;
      if (raw === 'unlimited') return -1;
      const value = Number(raw);
      if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value)) throw new AppError('invalid_request', `${what} must be a whole number, "unlimited" or "default", not ${JSON.stringify(raw)}`);
      return value;
    };
    const bytes = parse(limits.bytes, '--bytes');
    const files = parse(limits.files, '--files');
    if (!(await this.accounts.setQuota(name, { bytes, files }))) throw new AppError('not_found', `account ${name} does not exist`);
    return this.usageByName(name);
  }
}
