import path from 'node:path';
import type { Config } from '../config.ts';
import type { GroupCommitOptions } from './group-commit-writer.ts';
import { PatchCache } from './walrus-cache.ts';
import { WalrusClient } from './walrus-client.ts';
import { WalrusQuiltCatalog } from './walrus-quilt-catalog.ts';
import { WalrusQuiltStore, type BlobOfPatch, type OnQuiltStored } from './walrus-quilt-store.ts';
import { MasterKeys } from './walrus-sealing.ts';

/** Multipart headers and seal of one patch, generously. */
const PATCH_FRAMING_BYTES = 1100;

/** The Walrus engine from its settings: client, master keys, cache, store and catalog. */
export async function openWalrusStore(
  config: Pick<Config, 'walrus' | 'dataDir' | 'quiltInlineMaxBytes'>,
  groupCommit: GroupCommitOptions,
  lookups: { blobOfPatch: BlobOfPatch; onQuiltStored?: OnQuiltStored },
): Promise<{ store: WalrusQuiltStore; catalog: WalrusQuiltCatalog; walrus: WalrusQuiltStore }> {
  const settings = config.walrus;
  const client = new WalrusClient({ ...settings });
  // Replicas share nothing on disk: staging and cache are this process's own.
  const tmpDir = path.join(config.dataDir, 'walrus-staging');
  const cache = await PatchCache.open(path.join(config.dataDir, 'walrus-cache'), settings.cacheBytes);
  const store = await WalrusQuiltStore.open({
    ...groupCommit,
    // A quilt's body, framing and seals of every patch included, stays within the publisher's limit.
    batchMaxBytes: Math.max(64 * 1024, Math.min(groupCommit.batchMaxBytes, settings.maxQuiltBytes - settings.maxQuiltPatches * PATCH_FRAMING_BYTES)),
    batchMaxPatches: settings.maxQuiltPatches,
    maxConcurrentSeals: settings.concurrentPuts,
    client,
    keys: settings.masterKey ? new MasterKeys(settings.masterKey, settings.previousMasterKeys) : undefined,
    encrypt: settings.encrypt,
    cache,
    tmpDir,
    inlineMaxBytes: config.quiltInlineMaxBytes,
    maxQuiltBytes: settings.maxQuiltBytes,
    checkTimeoutMs: Math.min(settings.timeoutMs, 5000),
    ...lookups,
  });
  return { store, catalog: new WalrusQuiltCatalog(store, tmpDir), walrus: store };
}
