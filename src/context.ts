import { ConfigError, type Config } from './config.ts';
import { openMigratedDatabase, type Database } from './db/database.ts';
import { AccountsRepository } from './db/repositories/accounts.repository.ts';
import { ApiKeysRepository } from './db/repositories/api-keys.repository.ts';
import { FilesRepository } from './db/repositories/files.repository.ts';
import { BlobsRepository } from './db/repositories/blobs.repository.ts';
import { EditsRepository } from './db/repositories/edits.repository.ts';
import { GroupCommit } from './db/group-commit.ts';
import { SpacesRepository } from './db/repositories/spaces.repository.ts';
import { WorkLimiter } from './edits/limiter.ts';
import { RulePlanner } from './edits/planner/rule-planner.ts';
import { Metrics } from './metrics.ts';
import { EditsService } from './services/edits.service.ts';
import { FilesService } from './services/files.service.ts';
import { KeysService } from './services/keys.service.ts';
import { SpacesService } from './services/spaces.service.ts';
import { StorageMaintenance } from './services/storage-maintenance.service.ts';
import { ThumbnailsService } from './services/thumbnails.service.ts';
import { openStore, type OpenedStore } from './storage/engines.ts';
import { BucketMissingError, type BlobStore } from './storage/blob-store.ts';

/** Everything a running Tessera holds: opened once, shared by the HTTP layer and the CLI. */
export interface AppContext {
  config: Config;
  database: Database;
  store: BlobStore;
  metrics: Metrics;
  keys: KeysService;
  spaces: SpacesService;
  files: FilesService;
  edits: EditsService;
  thumbnails: ThumbnailsService;
  /** tessera verify and gc. */
  maintenance: StorageMaintenance;
  close(): Promise<void>;
}

export async function createContext(config: Config): Promise<AppContext> {
  const database = await openMigratedDatabase(config);
  const metrics = new Metrics();
  let opened: OpenedStore;
  try {
    opened = await openStore(config, (seal) => metrics.recordSeal(seal));
  } catch (error) {
    await database.close();
    // A missing bucket is a setting to fix, said in one line like any other bad setting.
    throw error instanceof BucketMissingError ? new ConfigError(error.message) : error;
  }
  const { store, catalog } = opened;
  const { db } = database;
  const spacesRepository = new SpacesRepository(db);
  const groupCommit = database.dialect === 'sqlite' && config.sqliteGroupCommitMax > 1 ? new GroupCommit(db, config.sqliteGroupCommitMax) : undefined;
  const files = new FilesService(new FilesRepository(db, groupCommit), spacesRepository, store);
  // Edits and thumbnails share one cap on concurrent image work.
  const imageWork = new WorkLimiter(config.editConcurrency, config.editQueueTimeoutMs);
  const edits = new EditsService(files, new EditsRepository(db), new RulePlanner(), imageWork, {
    maxPixels: config.editMaxPixels,
    maxSourceBytes: config.editMaxSourceBytes,
    maxResultBytes: config.maxFileBytes,
    timeoutMs: config.editTimeoutMs,
    idempotencyTtlMs: config.idempotencyTtlMs,
  });
  return {
    config,
    database,
    store,
    metrics,
    keys: new KeysService(new AccountsRepository(db), new ApiKeysRepository(db)),
    spaces: new SpacesService(spacesRepository, files),
    files,
    edits,
    thumbnails: new ThumbnailsService(
      files,
      imageWork,
      { maxPixels: config.editMaxPixels, maxSourceBytes: config.editMaxSourceBytes, timeoutMs: config.editTimeoutMs, cacheBytes: config.thumbnailCacheBytes },
      (hit) => metrics.thumbnailLookups.inc({ result: hit ? 'hit' : 'miss' }),
    ),
    maintenance: new StorageMaintenance(new BlobsRepository(db), store, catalog, { graceMs: config.gcMinAgeMs }),
    async close() {
      await store.close();
      await database.close();
    },
  };
}
