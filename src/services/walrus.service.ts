import type { BlobsRepository } from '../db/repositories/blobs.repository.ts';
import type { MasterKeys } from '../storage/walrus-sealing.ts';

const PAGE = 500;

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
      const rewrapped = keys.rewrap(row.sealed_key, row.blob_id);
      if (rewrapped && (await blobs.replaceSealedKey(row.blob_id, row.sealed_key, rewrapped))) report.rewrapped++;
    }
  }
}
