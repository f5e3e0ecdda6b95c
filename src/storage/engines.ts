import path from 'node:path';
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { HashThreads } from './hash-threads.ts';
import { LocalQuiltStore } from './local-quilt-store.ts';
import type { QuiltCatalog } from './quilt-catalog.ts';
import { QuiltDirectory } from './quilt-directory.ts';
import type { BlobOfPatch, OnQuiltStored, WalrusQuiltStore } from './walrus-quilt-store.ts';

export interface OpenedStore {
  store: BlobStore;
  /** What verify and gc walk. */
  catalog: QuiltCatalog;
  /** The Walrus engine's store itself, for renewals and `tessera walrus status`. */
  walrus?: WalrusQuiltStore;
}

type StoreSettings = Pick<Config, 'store' | 's3' | 'walrus' | 'dataDir' | 'quiltBatchWindowMs' | 'quiltBatchMaxBytes' | 'quiltInlineMaxBytes' | 'openQuiltFiles' | 'readCacheBytes'> & Partial<Pick<Config, 'hashThreads'>>;
type OnSeal = (seal: { patches: number; bytes: number; seconds: number }) => void;
/** Told of every read the read cache could answer, and whether it did (metrics). */
type OnReadCacheLookup = (hit: boolean) => void;

/** What an engine may need of the database: the Walrus engine finds a patch's blob and wrapped key there. */
export interface StoreLookups {
  blobOfPatch: BlobOfPatch;
  /** Keeps each Walrus quilt's end epoch and cost. */
  onQuiltStored?: OnQuiltStored;
}

/** The engine TESSERA_STORE names: local quilt files, quilt objects in an S3 bucket, or quilts on Walrus. */
export async function openStore(config: StoreSettings, onSeal?: OnSeal, lookups?: StoreLookups, onReadCacheLookup?: OnReadCacheLookup): Promise<OpenedStore> {
  // Every engine stages large uploads to a file first: hashed by these threads, closed with the store.
  const hashThreads = (config.hashThreads ?? 0) > 0 ? new HashThreads(config.hashThreads!) : undefined;
  const groupCommit = { batchWindowMs: config.quiltBatchWindowMs, batchMaxBytes: config.quiltBatchMaxBytes, onSeal, hashThreads };
  if (config.store === 'walrus') {
    if (!lookups) throw new Error('the Walrus engine needs the database (to find a patch\'s blob and key)');
    const { openWalrusStore } = await import('./walrus-engine.ts');
    return openWalrusStore(config, groupCommit, lookups);
  }
  if (config.store === 's3') {
    // Loaded only when used: the AWS SDK takes a third of a second to import.
    const [{ createS3Client }, { S3QuiltCatalog }, { S3QuiltStore }] = await Promise.all([import('./s3-client.ts'), import('./s3-quilt-catalog.ts'), import('./s3-quilt-store.ts')]);
    // Large uploads are staged in this process's own data dir: replicas share nothing on disk.
    const tmpDir = path.join(config.dataDir, 's3-staging');
    // One client (and connection pool) for the store and its catalog; closing the store ends it.
    const client = createS3Client(config.s3);
    const store = await S3QuiltStore.open({
      ...groupCommit,
      maxConcurrentSeals: config.s3.concurrentPuts,
      client,
      bucket: config.s3.bucket,
      prefix: config.s3.prefix,
      tmpDir,
      inlineMaxBytes: config.quiltInlineMaxBytes,
      partBytes: config.s3.partBytes,
      partsInFlight: config.s3.partsInFlight,
      checkTimeoutMs: Math.min(config.s3.timeoutMs, 5000),
      readCacheBytes: config.readCacheBytes,
      onReadCacheLookup,
    });
    return { store, catalog: new S3QuiltCatalog(client, config.s3.bucket, config.s3.prefix, tmpDir) };
  }
  const dir = path.join(config.dataDir, 'quilts');
  const store = await LocalQuiltStore.open({ ...groupCommit, dir, inlineMaxBytes: config.quiltInlineMaxBytes, openQuiltFiles: config.openQuiltFiles, readCacheBytes: config.readCacheBytes, onReadCacheLookup });
  return { store, catalog: new QuiltDirectory(dir, (id) => store.quiltPath(id), (id) => store.forget(id)) };
}
