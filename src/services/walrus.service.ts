import { contentIdOf, type BlobsRepository } from '../db/repositories/blobs.repository.ts';
import type { WalrusQuiltStatus, WalrusQuiltsRepository } from '../db/repositories/walrus-quilts.repository.ts';
import type { WalrusQuiltStore } from '../storage/walrus-quilt-store.ts';
import type { MasterKeys } from '../storage/walrus-sealing.ts';

const PAGE = 500;

/** The lock that lets one process at a time renew quilts (background job or `tessera walrus renew`). */
export const WALRUS_RENEW_LOCK = 'tessera-walrus-renew';

export interface RewrapReport {
  sealed: number;
  rewrapped: number;
}

/**
 * Master key rotation for the Walrus engine: every wrapped data key not yet under the current
 * master key is unwrapped (with a previous key) and wrapped again. The bytes on Walrus do not
 * change. Safe while the server runs: a row deleted or rewrapped meanwhile is left as it is.
 */
export async function rewrapSealedKeys(blobs: BlobsRepository, keys: MasterKeys): Promise<RewrapReport> {
  const report: RewrapReport = { sealed: 0, rewrapped: 0 };
  for (let after = ''; ; ) {
    const rows = await blobs.sealedPage(after, PAGE);
    if (rows.length === 0) return report;
    after = rows[rows.length - 1]!.blob_id;
    for (const row of rows) {
      report.sealed++;
      const rewrapped = keys.rewrap(row.sealed_key, contentIdOf(row.blob_id));
      if (rewrapped && (await blobs.replaceSealedKey(row.blob_id, row.sealed_key, rewrapped))) report.rewrapped++;
    }
  }
}

export interface WalrusStatus {
  /** The latest epoch a publisher answer showed; undefined before the first store. */
  currentEpoch: number | undefined;
  quilts: WalrusQuiltStatus[];
  totalCostFrost: number;
}

export interface RenewReport {
  renewed: Array<{ quiltId: string; endEpoch: number; costFrost: number }>;
  failed: string[];
}

/**
 * The life of Walrus quilts: storage is bought for a number of epochs, and a quilt expires at the
 * start of its end epoch. Quilts that still hold a live file are renewed before that (stored
 * again for TESSERA_WALRUS_EPOCHS from now: same bytes, same ids); a quilt no live file needs is
 * left to lapse, which is how Walrus space is reclaimed.
 */
export class WalrusLifecycle {
  private readonly quilts: WalrusQuiltsRepository;
  private readonly store: WalrusQuiltStore;
  private readonly renewWithinEpochs: number;
  constructor(
    quilts: WalrusQuiltsRepository,
    store: WalrusQuiltStore,
    renewWithinEpochs: number,
  ) {
    this.quilts = quilts;
    this.store = store;
    this.renewWithinEpochs = renewWithinEpochs;
  }

  async status(): Promise<WalrusStatus> {
    const quilts = await this.quilts.status();
    return { currentEpoch: await this.quilts.currentEpoch(), quilts, totalCostFrost: quilts.reduce((sum, q) => sum + q.costFrost, 0) };
  }

  /** Renews every quilt with live files that lapses within the window; one failure does not stop the rest. */
  async renewDue(): Promise<RenewReport> {
    const report: RenewReport = { renewed: [], failed: [] };
    const current = await this.quilts.currentEpoch();
    if (current === undefined) return report;
    for (const quiltId of await this.quilts.dueBy(current + this.renewWithinEpochs)) {
      try {
        const renewed = await this.store.renew(quiltId);
        report.renewed.push({ quiltId, endEpoch: renewed.endEpoch, costFrost: renewed.costFrost });
      } catch (error) {
        report.failed.push(`quilt ${quiltId}: ${(error as Error).message}`);
      }
    }
    return report;
  }
}
