import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Every tunable of the service. Read and validated once, at start-up (see loadConfig). */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Empty: embedded SQLite in dataDir. `postgres://…`: PostgreSQL. */
  databaseUrl: string;
  /** Registered for the account `default` when the database holds no key yet. */
  bootstrapApiKey: string | undefined;
  logLevel: string;
  maxFileBytes: number;
  maxFilesPerUpload: number;
  maxJsonBytes: number;
  /**
   * An answer given before the request's body was read to its end (an upload refused part way)
   * reads and discards up to this much of the rest, so the client, still sending, receives the
   * answer instead of a reset connection; a longer rest closes the connection.
   */
  unreadBodyDrainBytes: number;
  /** …and for at most this long, after which the connection is closed. */
  unreadBodyDrainMs: number;
  /** Group commit: how long the quilt writer waits for more small files before sealing a quilt. */
  quiltBatchWindowMs: number;
  /** Group commit: a quilt is sealed as soon as its pending patches reach this size. */
  quiltBatchMaxBytes: number;
  /** Files up to this size are packed with others; larger ones are streamed to a quilt of their own. */
  quiltInlineMaxBytes: number;
  /** The local store keeps at most this many quilt files open for reads (least recently read closed first). */
  openQuiltFiles: number;
  /** Local store: memory for small patches read lately (0: none). */
  readCacheBytes: number;
  /** Memory for file-list pages listed lately, answered again while the account's list is unchanged (0: none). */
  listCacheBytes: number;
  /** Threads that hash large uploads off the event loop (0: hashed on it). */
  hashThreads: number;
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Authenticated keys kept in memory at most this long (0: looked up on every request). */
  keyCacheMs: number;
  /** Most keys kept in that cache. */
  keyCacheMaxEntries: number;
  shutdownTimeoutMs: number;
  /** Image edits: largest source (width × height) decoded; checked from the header first. */
  editMaxPixels: number;
  /** Image edits: largest source file read into memory. */
  editMaxSourceBytes: number;
  /** Image edits running at once; more wait up to editQueueTimeoutMs, then get 503. */
  editConcurrency: number;
  editQueueTimeoutMs: number;
  /** Image edits: time allowed for one edit's image processing. */
  editTimeoutMs: number;
  /** The OpenAI Images API form of an edit: most `image` parts in one request (each is edited). */
  editFormMaxImages: number;
  /** The OpenAI form with `response_format=url`: how long the signed link of a result works. */
  editFormUrlExpiresSeconds: number;
  /** Edit jobs (`Prefer: respond-async`): how long a job's row is kept after it was made; then purged. */
  editJobTtlSeconds: number;
  /** Edit jobs: a runner's lease on a job; a job whose lease ran out (its runner died) is taken over. */
  editJobLeaseSeconds: number;
  /** Edit jobs: how often each process looks for queued jobs, and how many it runs at once. */
  editJobPollMs: number;
  editJobConcurrency: number;
  /** Edit jobs: runs of a job a provider outage may cost before the job fails, and the wait before the next. */
  editJobMaxAttempts: number;
  editJobRetryDelayMs: number;
  /** SQLite: most new-file writes committed together in one transaction (1: each alone). */
  sqliteGroupCommitMax: number;
  /** Thumbnails: widest one served (`?width=`); also the web console's large preview. */
  thumbnailMaxWidth: number;
  /** Thumbnails: bytes of rendered thumbnails kept in memory, keyed by blobId and width. */
  thumbnailCacheBytes: number;
  /** Web console: directory of its built assets (`npm run build:console`); `off` serves none. */
  consoleDir: string | undefined;
  /** How long an Idempotency-Key replays its first answer; older keys are purged. */
  idempotencyTtlSeconds: number;
  /** The background purge of expired Idempotency-Keys: how often it runs, and rows per delete. */
  idempotencyPurgeIntervalSeconds: number;
  idempotencyPurgeBatch: number;
  /** gc rewrites a quilt when less than this share (percent) of its bytes is still referenced. */
  gcLivePercent: number;
  /** verify and gc leave quilts and temp files younger than this alone: they may be uploads in flight. */
  gcMinAgeMs: number;
  /** Run gc in the server every so often (0: never; run `tessera gc` instead). */
  gcIntervalMs: number;
  /** Signed links: the HMAC secret that signs (and verifies); unset: one kept in the database. */
  linkSecret: string | undefined;
  /** Signed links: the secret before a rotation, still verifying links it signed until they expire. */
  linkPreviousSecret: string | undefined;
  /** Signed links: the longest `expires_in` accepted, in seconds. */
  linkMaxExpiresSeconds: number;
  /** The origin signed links point at (e.g. `https://files.example.com`); unset: the request's own. */
  publicUrl: string | undefined;
  /** Quotas for accounts without their own (`tessera accounts set-quota`); undefined: unlimited. */
  defaultQuotaBytes: number | undefined;
  defaultQuotaFiles: number | undefined;
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /** SQLite: how often the checkpoint thread reads the log's length (0: no thread; SQLite's own checkpoint, on the event loop). */
  sqliteCheckpointIntervalMs: number;
  /** SQLite: the log's length in pages at which it is copied into the database. */
  sqliteCheckpointPages: number;
  /** Generative edits: the provider of new pixels; undefined: none (content edits are 422). */
  generative: GenerativeConfig | undefined;
  /** How prompts become plans: rules alone, or rules first and a language model for the rest. */
  planner: PlannerConfig;
  /** Region edits: which model finds the subject, the background and faces (docs/regions.md). */
  segmenter: SegmenterConfig;
  pgPoolMax: number;
  pgStatementTimeoutMs: number;
  pgSsl: boolean;
  /** PostgreSQL: the hot reads (a key, a file, a page of the list) as named prepared statements. */
  pgPreparedStatements: boolean;
  /** Where the bytes live: `local` (quilt files under dataDir), `s3` (quilt objects in a bucket) or `walrus` (quilts on the Walrus network). */
  store: 'local' | 's3' | 'walrus';
  /** The S3 engine's settings; only read when store is `s3`. */
  s3: S3Config;
  /** The Walrus engine's settings; only read when store is `walrus`. */
  walrus: WalrusConfig;
  /** Webhooks: delivery of signed events to the endpoints accounts register. */
  webhooks: WebhooksConfig;
}

export interface WebhooksConfig {
  /** Deliver to private, loopback and link-local addresses too (off: refused, against SSRF). */
  allowPrivate: boolean;
  /** Endpoints one account may register. */
  maxEndpoints: number;
  /** One attempt: connecting, sending and the receiver's answer. */
  timeoutMs: number;
  /** The first retry waits this long; each next one twice as long, up to retryMaxDelayMs, with jitter. */
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** A delivery still failing this long after its event is marked failed (no more attempts). */
  retryForSeconds: number;
  /** How often each process looks for deliveries that are due, and how many it takes at once. */
  pollIntervalMs: number;
  batch: number;
  /** Delivered and failed deliveries (with their attempts) are kept this long, then purged. */
  deliveryTtlSeconds: number;
  purgeIntervalSeconds: number;
  /** 32 bytes that encrypt the endpoints' signing secrets in the database; unset: stored as they are. */
  masterKey: Buffer | undefined;
}

export interface WalrusConfig {
  /** The publisher that stores quilts (`PUT /v1/quilts`) and the aggregator that reads them back. */
  publisherUrl: string;
  aggregatorUrl: string;
  /** Storage bought per quilt, in Walrus epochs (1 to 53 ahead). */
  epochs: number;
  /** A Sui address the publisher sends the quilts' Blob objects to; unset: the publisher keeps them. */
  sendObjectTo: string | undefined;
  /** 32 bytes (base64 or hex) that wrap every file's data key; unset only with encrypt off. */
  masterKey: Buffer | undefined;
  /** Older master keys, still accepted for unwrapping while `tessera walrus rewrap` moves keys to the current one. */
  previousMasterKeys: Buffer[];
  /** Encrypt bytes before they leave (default). Off: plaintext, readable by anyone with a patch id. */
  encrypt: boolean;
  timeoutMs: number;
  maxAttempts: number;
  /** The publisher's body limit for quilts (its operator's setting; Walrus' default is 100 MiB). */
  maxQuiltBytes: number;
  /** Patches per quilt at most (Walrus allows 666). */
  maxQuiltPatches: number;
  /** Quilts of small files being stored at once. */
  concurrentPuts: number;
  /** The on-disk read-through cache of verified patches, bounded (least recently used go first). */
  cacheBytes: number;
  /** Quilts still holding live files are renewed when they lapse within this many epochs. */
  renewWithinEpochs: number;
  /** How often the server looks for quilts to renew; 0: never (then `tessera walrus renew`). */
  renewIntervalMs: number;
}

export interface S3Config {
  /** Unset: AWS S3. Otherwise the URL of an S3-compatible service (R2, MinIO, Ceph's gateway…). */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  /** Prepended to every object key; empty, or ends in `/`. */
  prefix: string;
  forcePathStyle: boolean;
  /** Both unset: the AWS SDK's default credential chain. */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  timeoutMs: number;
  maxAttempts: number;
  maxSockets: number;
  /** Multipart uploads of large files: bytes per part and parts in flight. */
  partBytes: number;
  partsInFlight: number;
  /** Quilt objects of small files being uploaded at once. */
  concurrentPuts: number;
}

export interface GenerativeConfig {
  provider: 'openai';
  /** An OpenAI Images API endpoint: OpenAI, Azure OpenAI or a compatible gateway. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Passed as the Images API's `size` and `quality`. */
  size: string;
  quality: 'auto' | 'low' | 'medium' | 'high' | 'standard';
  /** Longest side of the image sent; larger sources are scaled down to it. */
  maxSide: number;
  /** Scale the provider's answer back up to the size of the image before it was scaled down. */
  restoreSize: boolean;
  /** Provider calls at once per process (separate from image work); more wait queueTimeoutMs, then 503. */
  concurrency: number;
  queueTimeoutMs: number;
  /** One provider call; past it, 503. */
  timeoutMs: number;
  /** Provider calls per account per UTC day; over it, 429. */
  dailyBudget: number;
  /**
   * Provider calls (generate steps) one edit may make; a plan with more is refused (422, reason
   * `limit`) before anything is paid. It also bounds how long a paid edit may run, and so how
   * long its idempotency claim must stand.
   */
  maxCallsPerEdit: number;
}

export interface SegmenterConfig {
  /** `auto`: the general model when installed, else people; `off`: no region is ever found. */
  kind: 'auto' | 'people' | 'general' | 'off';
  /** An ISNet ONNX file for the general model; unset: the one in @imgly/background-removal-data, if installed. */
  modelPath: string | undefined;
  /** Inferences at once, each on a worker thread of its own (a general one holds about 1.4 GB while it runs). */
  concurrency: number;
  /** How long a mask waits for a free worker before the request gets 503. */
  queueTimeoutMs: number;
  /** One inference; past it the worker is stopped (its memory freed) and the mask fails with 503. */
  timeoutMs: number;
  /** Bytes of masks kept in memory (one byte per source pixel and region), least recently used first out. */
  cacheBytes: number;
}

export interface PlannerConfig {
  kind: 'rules' | 'model';
  /** An OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, vLLM, llama.cpp). */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** How long the model may take to answer before the rule planner's answer stands. */
  timeoutMs: number;
  /**
   * The rule planner runs on a thread of its own (threaded-planner.ts), not on the event loop:
   * `auto` when a generative provider is configured, where a long prompt's clauses of content are
   * all read (tens of milliseconds); without one the worst prompt takes under 10 ms.
   */
  thread: 'auto' | 'on' | 'off';
  /** Planning one prompt on that thread; past it the thread is stopped and the request answered 503. */
  rulesTimeoutMs: number;
  /** How long a prompt may wait for that thread while others are planned; then 503. */
  queueTimeoutMs: number;
}

export type Env = Record<string, string | undefined>;

const OPENAI_URL = 'https://api.openai.com/v1';

const MiB = 1024 * 1024;

/**
 * The default bound on quilt files the local store keeps open: a quarter of the process's limit on
 * open files (sockets, the database and temp files share the rest), between 64 and 4096; 256 where
 * the limit cannot be read (not Linux). Reads over more quilts than the bound open and close a file
 * each time: 600 quilts read at random ran at 2,583 downloads/s with 256 open, 3,620/s with 1024.
 */
function defaultOpenQuiltFiles(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s+/)[3]);
    return Number.isFinite(soft) ? Math.min(4096, Math.max(64, Math.floor(soft / 4))) : 256;
  } catch {
    return 256;
  }
}

export class ConfigError extends Error {}

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = new SettingReader(env, problems);
  const config: Config = {
    host: read.string('HOST', '127.0.0.1'),
    port: read.integer('PORT', 8080, 0, 65535),
    dataDir: path.resolve(read.string('TESSERA_DATA_DIR', './data')),
    databaseUrl: read.string('DATABASE_URL', ''),
    bootstrapApiKey: env.TESSERA_API_KEY || undefined,
    logLevel: read.oneOf('TESSERA_LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    maxFileBytes: read.integer('TESSERA_MAX_FILE_BYTES', 5 * 1024 * MiB, 1, Number.MAX_SAFE_INTEGER),
    maxFilesPerUpload: read.integer('TESSERA_MAX_FILES_PER_UPLOAD', 100, 1, 10_000),
    maxJsonBytes: read.integer('TESSERA_MAX_JSON_BYTES', 1 * MiB, 1024, 100 * MiB),
    unreadBodyDrainBytes: read.integer('TESSERA_UNREAD_BODY_DRAIN_BYTES', 1 * MiB, 0, 1024 * MiB),
    unreadBodyDrainMs: read.integer('TESSERA_UNREAD_BODY_DRAIN_MS', 5000, 0, 600_000),
    quiltBatchWindowMs: read.integer('TESSERA_QUILT_BATCH_WINDOW_MS', 2, 0, 1000),
    quiltBatchMaxBytes: read.integer('TESSERA_QUILT_BATCH_MAX_BYTES', 16 * MiB, 1024, 1024 * MiB),
    quiltInlineMaxBytes: read.integer('TESSERA_QUILT_INLINE_MAX_BYTES', 1 * MiB, 0, 256 * MiB),
    openQuiltFiles: read.integer('TESSERA_OPEN_QUILT_FILES', defaultOpenQuiltFiles(), 1, 1_000_000),
    readCacheBytes: read.integer('TESSERA_READ_CACHE_BYTES', 64 * MiB, 0, 64 * 1024 * MiB),
    listCacheBytes: read.integer('TESSERA_LIST_CACHE_BYTES', 16 * MiB, 0, 64 * 1024 * MiB),
    hashThreads: read.integer('TESSERA_HASH_THREADS', 1, 0, 64),
    rateLimitMax: read.integer('TESSERA_RATE_LIMIT_MAX', 6000, 1, 1e9),
    keyCacheMs: read.integer('TESSERA_KEY_CACHE_MS', 1000, 0, 60_000),
    keyCacheMaxEntries: read.integer('TESSERA_KEY_CACHE_MAX_ENTRIES', 10_000, 1, 1_000_000),
    rateLimitWindowMs: read.integer('TESSERA_RATE_LIMIT_WINDOW_MS', 60_000, 1, 86_400_000),
    shutdownTimeoutMs: read.integer('TESSERA_SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    editMaxPixels: read.integer('TESSERA_EDIT_MAX_PIXELS', 50_000_000, 1, 1_000_000_000),
    editMaxSourceBytes: read.integer('TESSERA_EDIT_MAX_SOURCE_BYTES', 100 * MiB, 1, 4096 * MiB),
    editConcurrency: read.integer('TESSERA_EDIT_CONCURRENCY', 2, 1, 256),
    editQueueTimeoutMs: read.integer('TESSERA_EDIT_QUEUE_TIMEOUT_MS', 2000, 0, 600_000),
    editTimeoutMs: read.integer('TESSERA_EDIT_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    editFormMaxImages: read.integer('TESSERA_EDIT_FORM_MAX_IMAGES', 4, 1, 100),
    editFormUrlExpiresSeconds: read.integer('TESSERA_EDIT_FORM_URL_EXPIRES_SECONDS', 3600, 1, 365 * 24 * 3600),
    editJobTtlSeconds: read.integer('TESSERA_EDIT_JOB_TTL_SECONDS', 24 * 3600, 60, 30 * 24 * 3600),
    editJobLeaseSeconds: read.integer('TESSERA_EDIT_JOB_LEASE_SECONDS', 60, 2, 3600),
    editJobPollMs: read.integer('TESSERA_EDIT_JOB_POLL_MS', 1000, 10, 600_000),
    editJobConcurrency: read.integer('TESSERA_EDIT_JOB_CONCURRENCY', 2, 0, 256),
    editJobMaxAttempts: read.integer('TESSERA_EDIT_JOB_MAX_ATTEMPTS', 5, 1, 100),
    editJobRetryDelayMs: read.integer('TESSERA_EDIT_JOB_RETRY_DELAY_MS', 10_000, 0, 3_600_000),
    sqliteGroupCommitMax: read.integer('TESSERA_SQLITE_GROUP_COMMIT_MAX', 256, 1, 10_000),
    thumbnailMaxWidth: read.integer('TESSERA_THUMBNAIL_MAX_WIDTH', 2048, 16, 8192),
    thumbnailCacheBytes: read.integer('TESSERA_THUMBNAIL_CACHE_BYTES', 64 * MiB, 0, 16 * 1024 * MiB),
    consoleDir: consoleDirOf(read.string('TESSERA_CONSOLE_DIR', path.resolve(import.meta.dirname, '../web/dist'))),
    idempotencyTtlSeconds: read.integer('TESSERA_IDEMPOTENCY_TTL_SECONDS', 24 * 3600, 60, 30 * 24 * 3600),
    idempotencyPurgeIntervalSeconds: read.integer('TESSERA_IDEMPOTENCY_PURGE_INTERVAL_SECONDS', 300, 1, 24 * 3600),
    idempotencyPurgeBatch: read.integer('TESSERA_IDEMPOTENCY_PURGE_BATCH', 1000, 1, 100_000),
    gcLivePercent: read.integer('TESSERA_GC_LIVE_PERCENT', 50, 1, 100),
    gcMinAgeMs: read.integer('TESSERA_GC_MIN_AGE_MS', 10 * 60 * 1000, 0, 30 * 24 * 3600 * 1000),
    gcIntervalMs: read.integer('TESSERA_GC_INTERVAL_MS', 0, 0, 30 * 24 * 3600 * 1000),
    linkSecret: read.secret('TESSERA_LINK_SECRET'),
    linkPreviousSecret: read.secret('TESSERA_LINK_PREVIOUS_SECRET'),
    linkMaxExpiresSeconds: read.integer('TESSERA_LINK_MAX_EXPIRES_SECONDS', 7 * 24 * 3600, 1, 365 * 24 * 3600),
    publicUrl: read.origin('TESSERA_PUBLIC_URL'),
    defaultQuotaBytes: read.optionalInteger('TESSERA_DEFAULT_QUOTA_BYTES', 0, Number.MAX_SAFE_INTEGER),
    defaultQuotaFiles: read.optionalInteger('TESSERA_DEFAULT_QUOTA_FILES', 0, Number.MAX_SAFE_INTEGER),
    sqliteSynchronous: read.oneOf('TESSERA_SQLITE_SYNCHRONOUS', 'FULL', ['FULL', 'NORMAL']),
    sqliteCheckpointIntervalMs: read.integer('TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS', 10, 0, 60_000),
    sqliteCheckpointPages: read.integer('TESSERA_SQLITE_CHECKPOINT_PAGES', 1000, 1, 1_000_000),
    generative: undefined,
    planner: { kind: 'rules', baseUrl: OPENAI_URL, apiKey: '', model: '', timeoutMs: 10_000, thread: 'auto', rulesTimeoutMs: 2000, queueTimeoutMs: 5000 },
    segmenter: {
      kind: read.oneOf('TESSERA_SEGMENTER', 'auto', ['auto', 'people', 'general', 'off']),
      modelPath: env.TESSERA_SEGMENTER_MODEL ? path.resolve(env.TESSERA_SEGMENTER_MODEL) : undefined,
      concurrency: read.integer('TESSERA_SEGMENTER_CONCURRENCY', 1, 1, 64),
      queueTimeoutMs: read.integer('TESSERA_SEGMENTER_QUEUE_TIMEOUT_MS', 60_000, 0, 3_600_000),
      timeoutMs: read.integer('TESSERA_SEGMENTER_TIMEOUT_MS', 120_000, 1000, 3_600_000),
      cacheBytes: read.integer('TESSERA_SEGMENTER_CACHE_BYTES', 128 * MiB, 0, 64 * 1024 * MiB),
    },
    pgPoolMax: read.integer('TESSERA_PG_POOL_MAX', 10, 1, 1000),
    pgStatementTimeoutMs: read.integer('TESSERA_PG_STATEMENT_TIMEOUT_MS', 30_000, 0, 3_600_000),
    pgSsl: read.boolean('TESSERA_PG_SSL', false),
    pgPreparedStatements: read.boolean('TESSERA_PG_PREPARED_STATEMENTS', true),
    store: read.oneOf('TESSERA_STORE', 'local', ['local', 's3', 'walrus']),
    s3: readS3(read, env),
    walrus: readWalrus(read),
    webhooks: readWebhooks(read),
  };
  config.generative = generativeOf(read, problems);
  config.planner = plannerOf(read, problems);
  if (config.store === 's3') {
    if (!config.s3.bucket) problems.push('TESSERA_STORE=s3 needs TESSERA_S3_BUCKET (the bucket that holds the quilts)');
    if (Boolean(config.s3.accessKeyId) !== Boolean(config.s3.secretAccessKey)) {
      problems.push('set both TESSERA_S3_ACCESS_KEY_ID and TESSERA_S3_SECRET_ACCESS_KEY, or neither (the SDK\'s default credential chain)');
    }
    if (config.s3.endpoint && !/^https?:\/\/[^/]/.test(config.s3.endpoint)) problems.push(`TESSERA_S3_ENDPOINT=${config.s3.endpoint} must be an http:// or https:// URL`);
  }
  if (config.store === 'walrus') {
    if (!config.walrus.publisherUrl || !config.walrus.aggregatorUrl) problems.push('TESSERA_STORE=walrus needs TESSERA_WALRUS_PUBLISHER_URL and TESSERA_WALRUS_AGGREGATOR_URL (see docs/walrus.md for testnet)');
    if (config.walrus.encrypt && !config.walrus.masterKey) {
      problems.push('TESSERA_STORE=walrus needs TESSERA_WALRUS_MASTER_KEY (32 bytes, base64 or hex: `openssl rand -base64 32`), or TESSERA_WALRUS_ENCRYPT=false to publish plaintext anyone can read');
    }
  }
  // Renamed: a deployment still setting the old name must not silently get the default.
  if (env.TESSERA_IDEMPOTENCY_TTL_MS) problems.push('TESSERA_IDEMPOTENCY_TTL_MS is now TESSERA_IDEMPOTENCY_TTL_SECONDS (in seconds)');
  if (config.databaseUrl && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for embedded SQLite)');
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  return config;
}

/** TESSERA_GENERATIVE_MAX_CALLS_PER_EDIT unset (the planner's bench plans as a default server does). */
export const DEFAULT_MAX_CALLS_PER_EDIT = 4;

function generativeOf(read: SettingReader, problems: string[]): GenerativeConfig | undefined {
  const provider = read.oneOf('TESSERA_GENERATIVE_PROVIDER', 'off', ['off', 'openai']);
  const config: GenerativeConfig = {
    provider: 'openai',
    baseUrl: read.url('TESSERA_GENERATIVE_BASE_URL', OPENAI_URL),
    apiKey: read.string('TESSERA_GENERATIVE_API_KEY', ''),
    model: read.string('TESSERA_GENERATIVE_MODEL', 'gpt-image-1'),
    size: read.string('TESSERA_GENERATIVE_SIZE', 'auto'),
    quality: read.oneOf('TESSERA_GENERATIVE_QUALITY', 'auto', ['auto', 'low', 'medium', 'high', 'standard']),
    maxSide: read.integer('TESSERA_GENERATIVE_MAX_SIDE', 1536, 64, 8192),
    restoreSize: read.boolean('TESSERA_GENERATIVE_RESTORE_SIZE', false),
    concurrency: read.integer('TESSERA_GENERATIVE_CONCURRENCY', 4, 1, 256),
    queueTimeoutMs: read.integer('TESSERA_GENERATIVE_QUEUE_TIMEOUT_MS', 10_000, 0, 600_000),
    timeoutMs: read.integer('TESSERA_GENERATIVE_TIMEOUT_MS', 120_000, 100, 3_600_000),
    dailyBudget: read.integer('TESSERA_GENERATIVE_DAILY_BUDGET', 100, 1, 1_000_000_000),
    maxCallsPerEdit: read.integer('TESSERA_GENERATIVE_MAX_CALLS_PER_EDIT', DEFAULT_MAX_CALLS_PER_EDIT, 1, 30),
  };
  if (!/^(auto|\d{2,5}x\d{2,5})$/.test(config.size)) problems.push(`TESSERA_GENERATIVE_SIZE=${config.size} must be auto or WIDTHxHEIGHT, e.g. 1024x1024`);
  if (provider === 'off') return undefined;
  if (!config.apiKey && config.baseUrl === OPENAI_URL) problems.push('TESSERA_GENERATIVE_API_KEY is required with TESSERA_GENERATIVE_PROVIDER=openai and the OpenAI endpoint');
  return config;
}

function plannerOf(read: SettingReader, problems: string[]): PlannerConfig {
  const config: PlannerConfig = {
    kind: read.oneOf('TESSERA_PLANNER', 'rules', ['rules', 'model']),
    baseUrl: read.url('TESSERA_PLANNER_BASE_URL', OPENAI_URL),
    apiKey: read.string('TESSERA_PLANNER_API_KEY', ''),
    model: read.string('TESSERA_PLANNER_MODEL', ''),
    timeoutMs: read.integer('TESSERA_PLANNER_TIMEOUT_MS', 10_000, 100, 600_000),
    thread: read.oneOf('TESSERA_PLANNER_THREAD', 'auto', ['auto', 'on', 'off']),
    rulesTimeoutMs: read.integer('TESSERA_PLANNER_RULES_TIMEOUT_MS', 2000, 500, 60_000),
    queueTimeoutMs: read.integer('TESSERA_PLANNER_QUEUE_TIMEOUT_MS', 5000, 100, 600_000),
  };
  if (config.kind === 'model' && !config.model) problems.push('TESSERA_PLANNER_MODEL is required with TESSERA_PLANNER=model (e.g. gpt-4o-mini, or qwen2.5:7b on Ollama)');
  if (config.kind === 'model' && !config.apiKey && config.baseUrl === OPENAI_URL) problems.push('TESSERA_PLANNER_API_KEY is required with TESSERA_PLANNER=model and the OpenAI endpoint');
  return config;
}

function readS3(read: SettingReader, env: Env): S3Config {
  const endpoint = env.TESSERA_S3_ENDPOINT || undefined;
  const prefix = read.string('TESSERA_S3_PREFIX', '').replace(/^\/+/, '');
  return {
    endpoint,
    region: read.string('TESSERA_S3_REGION', env.AWS_REGION || 'us-east-1'),
    bucket: read.string('TESSERA_S3_BUCKET', ''),
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    // S3-compatible services on a host of their own usually want path-style addressing.
    forcePathStyle: read.boolean('TESSERA_S3_FORCE_PATH_STYLE', endpoint !== undefined),
    accessKeyId: env.TESSERA_S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.TESSERA_S3_SECRET_ACCESS_KEY || undefined,
    timeoutMs: read.integer('TESSERA_S3_TIMEOUT_MS', 30_000, 100, 600_000),
    maxAttempts: read.integer('TESSERA_S3_MAX_ATTEMPTS', 3, 1, 20),
    maxSockets: read.integer('TESSERA_S3_MAX_SOCKETS', 64, 1, 4096),
    partBytes: read.integer('TESSERA_S3_PART_BYTES', 8 * MiB, 5 * MiB, 5 * 1024 * MiB),
    partsInFlight: read.integer('TESSERA_S3_PARTS_IN_FLIGHT', 4, 1, 64),
    concurrentPuts: read.integer('TESSERA_S3_CONCURRENT_PUTS', 4, 1, 256),
  };
}

function readWalrus(read: SettingReader): WalrusConfig {
  const optionalUrl = (name: string) => (read.string(name, '') ? read.url(name, '') : '');
  return {
    publisherUrl: optionalUrl('TESSERA_WALRUS_PUBLISHER_URL'),
    aggregatorUrl: optionalUrl('TESSERA_WALRUS_AGGREGATOR_URL'),
    epochs: read.integer('TESSERA_WALRUS_EPOCHS', 5, 1, 53),
    sendObjectTo: read.string('TESSERA_WALRUS_SEND_OBJECT_TO', '') || undefined,
    masterKey: read.key('TESSERA_WALRUS_MASTER_KEY'),
    previousMasterKeys: read
      .string('TESSERA_WALRUS_PREVIOUS_MASTER_KEYS', '')
      .split(',')
      .filter((k) => k.trim() !== '')
      .map((k, i) => read.keyValue(`TESSERA_WALRUS_PREVIOUS_MASTER_KEYS (item ${i + 1})`, k.trim())),
    encrypt: read.boolean('TESSERA_WALRUS_ENCRYPT', true),
    timeoutMs: read.integer('TESSERA_WALRUS_TIMEOUT_MS', 60_000, 100, 3_600_000),
    maxAttempts: read.integer('TESSERA_WALRUS_MAX_ATTEMPTS', 3, 1, 20),
    maxQuiltBytes: read.integer('TESSERA_WALRUS_MAX_QUILT_BYTES', 100 * MiB, 64 * 1024, 1024 * 1024 * MiB),
    maxQuiltPatches: read.integer('TESSERA_WALRUS_MAX_QUILT_PATCHES', 666, 1, 666),
    concurrentPuts: read.integer('TESSERA_WALRUS_CONCURRENT_PUTS', 2, 1, 64),
    cacheBytes: read.integer('TESSERA_WALRUS_CACHE_BYTES', 1024 * MiB, 0, 1024 * 1024 * MiB),
    renewWithinEpochs: read.integer('TESSERA_WALRUS_RENEW_WITHIN_EPOCHS', 1, 0, 52),
    renewIntervalMs: read.integer('TESSERA_WALRUS_RENEW_INTERVAL_MS', 3_600_000, 0, 30 * 24 * 3600 * 1000),
  };
}

function readWebhooks(read: SettingReader): WebhooksConfig {
  return {
    allowPrivate: read.boolean('TESSERA_WEBHOOK_ALLOW_PRIVATE', false),
    maxEndpoints: read.integer('TESSERA_WEBHOOK_MAX_ENDPOINTS', 20, 1, 1000),
    timeoutMs: read.integer('TESSERA_WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000),
    retryBaseMs: read.integer('TESSERA_WEBHOOK_RETRY_BASE_MS', 5000, 10, 3_600_000),
    retryMaxDelayMs: read.integer('TESSERA_WEBHOOK_RETRY_MAX_DELAY_MS', 4 * 3_600_000, 10, 24 * 3_600_000),
    retryForSeconds: read.integer('TESSERA_WEBHOOK_RETRY_FOR_SECONDS', 24 * 3600, 0, 7 * 24 * 3600),
    pollIntervalMs: read.integer('TESSERA_WEBHOOK_POLL_INTERVAL_MS', 1000, 10, 600_000),
    batch: read.integer('TESSERA_WEBHOOK_BATCH', 16, 1, 1000),
    deliveryTtlSeconds: read.integer('TESSERA_WEBHOOK_DELIVERY_TTL_SECONDS', 7 * 24 * 3600, 60, 365 * 24 * 3600),
    purgeIntervalSeconds: read.integer('TESSERA_WEBHOOK_PURGE_INTERVAL_SECONDS', 300, 1, 24 * 3600),
    masterKey: read.key('TESSERA_WEBHOOK_MASTER_KEY'),
  };
}

function consoleDirOf(value: string): string | undefined {
  return value.toLowerCase() === 'off' ? undefined : path.resolve(value);
}

class SettingReader {
  private readonly env: Env;
  private readonly problems: string[];
  constructor(
    env: Env,
    problems: string[],
  ) {
    this.env = env;
    this.problems = problems;
  }

  string(name: string, fallback: string): string {
    const value = this.env[name];
    return value === undefined || value === '' ? fallback : value;
  }

  url(name: string, fallback: string): string {
    const value = this.string(name, fallback);
    if (!/^https?:\/\/[^\s]+$/.test(value)) this.problems.push(`${name}=${value} must be an http:// or https:// address`);
    return value.replace(/\/+$/, '');
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      this.problems.push(`${name}=${raw} must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return value;
  }

  optionalInteger(name: string, min: number, max: number): number | undefined {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return undefined;
    return this.integer(name, 0, min, max);
  }

  /** A secret: at least 32 characters, so that it cannot be guessed. Never echoed in a message. */
  secret(name: string): string | undefined {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return undefined;
    if (raw.length < 32) this.problems.push(`${name} must be at least 32 characters (e.g. \`openssl rand -base64 32\`)`);
    return raw;
  }

  /** A 256-bit key, given as base64 (44 characters) or hex (64); never echoed in a message. */
  key(name: string): Buffer | undefined {
    const raw = this.env[name];
    return raw === undefined || raw === '' ? undefined : this.keyValue(name, raw);
  }

  keyValue(name: string, raw: string): Buffer {
    const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length !== 32) this.problems.push(`${name} must be 32 bytes, as base64 or hex (e.g. \`openssl rand -base64 32\`)`);
    return key;
  }

  /** An origin such as `https://files.example.com` (a path prefix is kept, a trailing slash dropped). */
  origin(name: string): string | undefined {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return undefined;
    try {
      const url = new URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
      if (url.search || url.hash) throw new Error('query');
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      this.problems.push(`${name}=${raw} must be an http(s) URL such as https://files.example.com`);
      return undefined;
    }
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.env[name]?.toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name}=${raw} must be true or false`);
    return fallback;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name}=${raw} must be one of ${allowed.join(', ')}`);
    return fallback;
  }
}
