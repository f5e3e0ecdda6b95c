import { randomBytes } from 'node:crypto';
import { ConfigError, type Config } from './config.ts';
import { openMigratedDatabase, type Database } from './db/database.ts';
import { AccountsRepository } from './db/repositories/accounts.repository.ts';
import { ApiKeysRepository } from './db/repositories/api-keys.repository.ts';
import { FilesRepository } from './db/repositories/files.repository.ts';
import { BlobsRepository, contentIdOf } from './db/repositories/blobs.repository.ts';
import { EditsRepository } from './db/repositories/edits.repository.ts';
import { GroupCommit } from './db/group-commit.ts';
import { ServerSettingsRepository } from './db/repositories/server-settings.repository.ts';
import { SpacesRepository } from './db/repositories/spaces.repository.ts';
import { GenerativeUsageRepository } from './db/repositories/generative-usage.repository.ts';
import { observed } from './edits/generative/provider.ts';
import { WorkLimiter } from './edits/limiter.ts';
import { RulePlanner, type Planner } from './edits/planner/rule-planner.ts';
import { ThreadedPlanner } from './edits/planner/threaded-planner.ts';
import { Metrics } from './metrics.ts';
import { AccountsService } from './services/accounts.service.ts';
import { EditFormService } from './services/edit-form.service.ts';
import { EditJobsService } from './services/edit-jobs.service.ts';
import { EditJobsRepository } from './db/repositories/edit-jobs.repository.ts';
import { EditsService, type GenerativeEdits } from './services/edits.service.ts';
import { FilesService } from './services/files.service.ts';
import { KeysService } from './services/keys.service.ts';
import { LinksService } from './services/links.service.ts';
import { SpacesService } from './services/spaces.service.ts';
import { StorageMaintenance } from './services/storage-maintenance.service.ts';
import { WalrusLifecycle } from './services/walrus.service.ts';
import { WalrusQuiltsRepository } from './db/repositories/walrus-quilts.repository.ts';
import { ThumbnailsService } from './services/thumbnails.service.ts';
import { WebhooksService } from './services/webhooks.service.ts';
import { WebhooksRepository } from './db/repositories/webhooks.repository.ts';
import { createSegmenter, SegmenterUnavailableError, type Segmenter } from './edits/masks/segmenter.ts';
import { openStore, type OpenedStore } from './storage/engines.ts';
import { BucketMissingError, type BlobStore } from './storage/blob-store.ts';

/** Everything a running Tessera holds: opened once, shared by the HTTP layer and the CLI. */
export interface AppContext {
  config: Config;
  database: Database;
  store: BlobStore;
  metrics: Metrics;
  keys: KeysService;
  accounts: AccountsService;
  links: LinksService;
  spaces: SpacesService;
  files: FilesService;
  edits: EditsService;
  /** What turns prompts into plans (the edits' planner; `start` readies its thread). */
  planner: Planner;
  /** The OpenAI Images API form of an edit. */
  editForm: EditFormService;
  /** Edits answered later (Prefer: respond-async), and this process's runner of them. */
  editJobs: EditJobsService;
  thumbnails: ThumbnailsService;
  /** Webhook endpoints, the outbox of events and its deliverer. */
  webhooks: WebhooksService;
  /** tessera verify and gc. */
  maintenance: StorageMaintenance;
  /** The Walrus engine's quilt lifecycle (status, renewal); only with TESSERA_STORE=walrus. */
  walrus?: WalrusLifecycle;
  close(): Promise<void>;
}

export async function createContext(config: Config): Promise<AppContext> {
  // Region edits' models: TESSERA_SEGMENTER=general without the general model is a bad setting,
  // said before anything is opened. No model loads until a region edit asks for one.
  let segmenter: Segmenter;
  try {
    segmenter = createSegmenter(config.segmenter);
  } catch (error) {
    throw error instanceof SegmenterUnavailableError ? new ConfigError(error.message) : error;
  }
  const database = await openMigratedDatabase(config);
  const metrics = new Metrics();
  const walrusQuilts = new WalrusQuiltsRepository(database.db);
  let opened: OpenedStore;
  try {
    const blobs = new BlobsRepository(database.db);
    opened = await openStore(config, (seal) => metrics.recordSeal(seal), {
      blobOfPatch: async (quiltPatchId) => {
        const row = await blobs.byPatch(quiltPatchId);
        return row && { blobId: contentIdOf(row.blob_id), sealedKey: row.sealed_key };
      },
      onQuiltStored: (quilt) => walrusQuilts.record(quilt),
    }, (hit) => metrics.readCacheLookups.inc({ result: hit ? 'hit' : 'miss' }));
  } catch (error) {
    await database.close();
    // A missing bucket is a setting to fix, said in one line like any other bad setting.
    throw error instanceof BucketMissingError ? new ConfigError(error.message) : error;
  }
  const { store, catalog } = opened;
  const { db } = database;
  const spacesRepository = new SpacesRepository(db);
  const groupCommit = database.dialect === 'sqlite' && config.sqliteGroupCommitMax > 1 ? new GroupCommit(db, config.sqliteGroupCommitMax, database.walSync) : undefined;
  const accountsRepository = new AccountsRepository(db);
  const quota = { bytes: config.defaultQuotaBytes, files: config.defaultQuotaFiles };
  const webhooks = new WebhooksService(db, new WebhooksRepository(db, database.dialect), config.webhooks, (outcome) => metrics.webhookAttempts.inc({ outcome }));
  // Every replica must verify every link, and give a list page the same tag: without a
  // configured secret, one is made once and kept in the database they share.
  let linkSecret: string;
  let listEtagKey: string;
  try {
    const settings = new ServerSettingsRepository(db);
    linkSecret = config.linkSecret ?? (await settings.ensure('link_secret', () => randomBytes(32).toString('base64url')));
    listEtagKey = await settings.ensure('list_etag_key', () => randomBytes(32).toString('base64url'));
  } catch (error) {
    await store.close();
    await database.close();
    throw error;
  }
  const files = new FilesService(new FilesRepository(db, groupCommit, quota), spacesRepository, store, accountsRepository, quota, webhooks.publish, {
    budgetBytes: config.listCacheBytes,
    onLookup: (hit) => metrics.listCacheLookups.inc({ result: hit ? 'hit' : 'miss' }),
    etagKey: listEtagKey,
  });
  // Edits and thumbnails share one cap on concurrent image work.
  const imageWork = new WorkLimiter(config.editConcurrency, config.editQueueTimeoutMs);
  const planner = await plannerOf(config, metrics);
  const edits = new EditsService(files, new EditsRepository(db), planner, imageWork, {
    maxPixels: config.editMaxPixels,
    maxSourceBytes: config.editMaxSourceBytes,
    maxResultBytes: config.maxFileBytes,
    timeoutMs: config.editTimeoutMs,
    idempotencyTtlMs: config.idempotencyTtlSeconds * 1000,
    idempotencyPurgeBatch: config.idempotencyPurgeBatch,
  }, await generativeOf(config, new GenerativeUsageRepository(db), metrics), segmenter);
  const editForm = new EditFormService(files, edits, config.editMaxPixels);
  const editJobs = new EditJobsService(
    new EditJobsRepository(db, database.dialect),
    files,
    edits,
    editForm,
    {
      ttlMs: config.editJobTtlSeconds * 1000,
      leaseMs: config.editJobLeaseSeconds * 1000,
      pollMs: config.editJobPollMs,
      concurrency: config.editJobConcurrency,
      maxAttempts: config.editJobMaxAttempts,
      retryDelayMs: config.editJobRetryDelayMs,
      purgeBatch: config.idempotencyPurgeBatch,
    },
    webhooks.publish,
  );
  return {
    config,
    database,
    store,
    metrics,
    keys: new KeysService(accountsRepository, new ApiKeysRepository(db, database.dialect), spacesRepository, {
      ttlMs: config.keyCacheMs,
      maxEntries: config.keyCacheMaxEntries,
      version: () => database.keysVersion(),
    }),
    accounts: new AccountsService(accountsRepository, quota),
    links: new LinksService(files, { current: linkSecret, previous: config.linkPreviousSecret }, { maxExpiresSeconds: config.linkMaxExpiresSeconds, thumbnailMaxWidth: config.thumbnailMaxWidth }),
    spaces: new SpacesService(spacesRepository, files),
    files,
    edits,
    planner,
    editForm,
    editJobs,
    webhooks,
    thumbnails: new ThumbnailsService(
      files,
      imageWork,
      { maxPixels: config.editMaxPixels, maxSourceBytes: config.editMaxSourceBytes, timeoutMs: config.editTimeoutMs, cacheBytes: config.thumbnailCacheBytes },
      (hit) => metrics.thumbnailLookups.inc({ result: hit ? 'hit' : 'miss' }),
    ),
    maintenance: new StorageMaintenance(new BlobsRepository(db), store, catalog, { graceMs: config.gcMinAgeMs }),
    walrus: opened.walrus && new WalrusLifecycle(walrusQuilts, opened.walrus, config.walrus.renewWithinEpochs),
    async close() {
      await editJobs.stop();
      await planner.close?.();
      await segmenter.close();
      await store.close();
      await database.close();
    },
  };
}

// The model planner and the generative provider load the openai client (some 150 modules) only
// when they are configured: a start without them does not pay for it.

/** Rules alone, or rules first and a language model for what they do not understand. */
async function plannerOf(config: Config, metrics: Metrics): Promise<Planner> {
  const generative = config.generative !== undefined;
  // With region edits off, "blur the background" stays refused (needs_region).
  const options = { generative, maxGenerateSteps: config.generative?.maxCallsPerEdit, regions: config.segmenter.kind !== 'off' };
  // A thread of its own where a prompt may take long to read: with a provider, every clause of
  // content is read on (see TESSERA_PLANNER_THREAD).
  const thread = config.planner.thread === 'on' || (config.planner.thread === 'auto' && generative);
  const rules = thread
    ? new ThreadedPlanner(options, { timeoutMs: config.planner.rulesTimeoutMs, queueTimeoutMs: config.planner.queueTimeoutMs })
    : new RulePlanner(options);
  if (config.planner.kind === 'rules') return rules;
  const { ModelPlanner } = await import('./edits/model-planner.ts');
  return new ModelPlanner(rules, {
    ...config.planner,
    generative,
    onUsed: () => metrics.modelPlannerAnswers.inc({ result: 'used' }),
    onRejected: () => metrics.modelPlannerAnswers.inc({ result: 'rejected' }),
  });
}

async function generativeOf(config: Config, usage: GenerativeUsageRepository, metrics: Metrics): Promise<GenerativeEdits | undefined> {
  const g = config.generative;
  if (!g) return undefined;
  const { OpenAiImagesProvider } = await import('./edits/generative/openai-provider.ts');
  const provider = new OpenAiImagesProvider({ baseUrl: g.baseUrl, apiKey: g.apiKey, model: g.model, size: g.size, quality: g.quality, timeoutMs: g.timeoutMs });
  return {
    provider: observed(provider, (outcome, seconds) => {
      metrics.generativeCalls.inc({ outcome });
      metrics.generativeSeconds.observe(seconds);
    }),
    // Provider calls mostly wait on the network: their own cap, not the CPU's.
    limiter: new WorkLimiter(g.concurrency, g.queueTimeoutMs, 'the generative provider'),
    maxSide: g.maxSide,
    restoreSize: g.restoreSize,
    usage,
    dailyBudget: g.dailyBudget,
    maxCallsPerEdit: g.maxCallsPerEdit,
    // A claim outlives any honest request: as many provider calls as one edit may make, plus the image work.
    staleClaimMs: g.maxCallsPerEdit * (g.timeoutMs + g.queueTimeoutMs) + config.editTimeoutMs,
  };
}
