import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

test('defaults', () => {
  const config = loadConfig({});
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 8080);
  assert.equal(config.dataDir, path.resolve('data'));
  assert.equal(config.databaseUrl, '');
  assert.equal(config.sqliteSynchronous, 'FULL');
  assert.equal(config.editMaxPixels, 50_000_000);
});

test('overrides', () => {
  const config = loadConfig({ PORT: '0', TESSERA_DATA_DIR: '/srv/t', DATABASE_URL: 'postgresql://u@h/db', TESSERA_PG_SSL: 'yes', TESSERA_MAX_FILE_BYTES: '1024' });
  assert.equal(config.port, 0);
  assert.equal(config.dataDir, '/srv/t');
  assert.equal(config.pgSsl, true);
  assert.equal(config.maxFileBytes, 1024);
});

test('bad values stop the start and name every setting at fault', () => {
  for (const [env, name] of [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ TESSERA_SQLITE_SYNCHRONOUS: 'OFF' }, 'TESSERA_SQLITE_SYNCHRONOUS'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ TESSERA_PG_SSL: 'maybe' }, 'TESSERA_PG_SSL'],
    [{ TESSERA_QUILT_BATCH_WINDOW_MS: '-1' }, 'TESSERA_QUILT_BATCH_WINDOW_MS'],
  ] as const) {
    assert.throws(() => loadConfig(env), (error: Error) => error instanceof ConfigError && error.message.includes(name), name);
  }
  assert.throws(() => loadConfig({ PORT: 'x', TESSERA_LOG_LEVEL: 'loud' }), /PORT[\s\S]*TESSERA_LOG_LEVEL/);
});

test('generative edits and the planner: off and rules by default; settings validated', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.generative, undefined, 'no provider unless configured');
  assert.equal(defaults.planner.kind, 'rules');
  // Prompts are read on a thread of the planner's own where a provider is configured (auto), each within a time limit.
  assert.equal(defaults.planner.thread, 'auto');
  assert.equal(defaults.planner.rulesTimeoutMs, 2000);
  assert.equal(defaults.planner.queueTimeoutMs, 5000);
  assert.equal(loadConfig({ TESSERA_PLANNER_THREAD: 'off' }).planner.thread, 'off');
  assert.throws(() => loadConfig({ TESSERA_PLANNER_THREAD: 'maybe' }), /TESSERA_PLANNER_THREAD/);
  const on = loadConfig({
    TESSERA_GENERATIVE_PROVIDER: 'openai',
    TESSERA_GENERATIVE_BASE_URL: 'http://127.0.0.1:9999/v1/',
    TESSERA_GENERATIVE_MODEL: 'gpt-image-1',
    TESSERA_GENERATIVE_DAILY_BUDGET: '25',
    TESSERA_GENERATIVE_SIZE: '1024x1024',
    TESSERA_PLANNER: 'model',
    TESSERA_PLANNER_BASE_URL: 'http://127.0.0.1:11434/v1',
    TESSERA_PLANNER_MODEL: 'qwen2.5:7b',
  });
  assert.equal(on.generative?.baseUrl, 'http://127.0.0.1:9999/v1');
  assert.equal(on.generative?.dailyBudget, 25);
  assert.equal(on.generative?.concurrency, 4);
  assert.equal(on.generative?.maxCallsPerEdit, 4);
  assert.equal(on.planner.model, 'qwen2.5:7b');
  for (const [env, name] of [
    [{ TESSERA_GENERATIVE_PROVIDER: 'dalle' }, 'TESSERA_GENERATIVE_PROVIDER'],
    [{ TESSERA_GENERATIVE_PROVIDER: 'openai' }, 'TESSERA_GENERATIVE_API_KEY'],
    [{ TESSERA_GENERATIVE_BASE_URL: 'ftp://x' }, 'TESSERA_GENERATIVE_BASE_URL'],
    [{ TESSERA_GENERATIVE_SIZE: 'big' }, 'TESSERA_GENERATIVE_SIZE'],
    [{ TESSERA_GENERATIVE_DAILY_BUDGET: '0' }, 'TESSERA_GENERATIVE_DAILY_BUDGET'],
    [{ TESSERA_GENERATIVE_MAX_CALLS_PER_EDIT: '31' }, 'TESSERA_GENERATIVE_MAX_CALLS_PER_EDIT'],
    [{ TESSERA_PLANNER: 'model', TESSERA_PLANNER_BASE_URL: 'http://127.0.0.1:11434/v1' }, 'TESSERA_PLANNER_MODEL'],
  ] as const) {
    assert.throws(() => loadConfig(env), (error: Error) => error instanceof ConfigError && error.message.includes(name), name);
  }
});

test('the S3 engine: defaults, prefix and path style, and what it requires', () => {
  assert.equal(loadConfig({}).store, 'local');
  const aws = loadConfig({ TESSERA_STORE: 's3', TESSERA_S3_BUCKET: 'b', AWS_REGION: 'eu-west-1' });
  assert.equal(aws.s3.endpoint, undefined);
  assert.equal(aws.s3.region, 'eu-west-1');
  assert.equal(aws.s3.forcePathStyle, false, 'virtual-hosted style on AWS');
  assert.equal(aws.s3.accessKeyId, undefined, 'the default credential chain');
  const ceph = loadConfig({ TESSERA_STORE: 's3', TESSERA_S3_BUCKET: 'b', TESSERA_S3_ENDPOINT: 'http://127.0.0.1:7480', TESSERA_S3_PREFIX: '/team-a', TESSERA_S3_ACCESS_KEY_ID: 'k', TESSERA_S3_SECRET_ACCESS_KEY: 's' });
  assert.equal(ceph.s3.forcePathStyle, true, 'path style with an endpoint');
  assert.equal(ceph.s3.prefix, 'team-a/');
  assert.equal(ceph.s3.region, 'us-east-1');
  assert.equal(loadConfig({ TESSERA_STORE: 's3', TESSERA_S3_BUCKET: 'b', TESSERA_S3_ENDPOINT: 'http://x:1', TESSERA_S3_FORCE_PATH_STYLE: 'false' }).s3.forcePathStyle, false);
  for (const [env, name] of [
    [{ TESSERA_STORE: 'ipfs' }, 'TESSERA_STORE'],
    [{ TESSERA_STORE: 's3' }, 'TESSERA_S3_BUCKET'],
    [{ TESSERA_STORE: 's3', TESSERA_S3_BUCKET: 'b', TESSERA_S3_ACCESS_KEY_ID: 'k' }, 'TESSERA_S3_SECRET_ACCESS_KEY'],
    [{ TESSERA_STORE: 's3', TESSERA_S3_BUCKET: 'b', TESSERA_S3_ENDPOINT: 'ftp://x' }, 'TESSERA_S3_ENDPOINT'],
    [{ TESSERA_S3_PART_BYTES: '1024' }, 'TESSERA_S3_PART_BYTES'],
  ] as const) {
    assert.throws(() => loadConfig(env), (error: Error) => error instanceof ConfigError && error.message.includes(name), name);
  }
});

test('the Walrus engine: private by default, so a master key is required; settings validated', () => {
  const urls = { TESSERA_STORE: 'walrus', TESSERA_WALRUS_PUBLISHER_URL: 'http://127.0.0.1:31415/', TESSERA_WALRUS_AGGREGATOR_URL: 'http://127.0.0.1:31416' };
  const key = Buffer.alloc(32, 7);
  const config = loadConfig({ ...urls, TESSERA_WALRUS_MASTER_KEY: key.toString('base64') });
  assert.equal(config.walrus.publisherUrl, 'http://127.0.0.1:31415');
  assert.deepEqual(config.walrus.masterKey, key);
  assert.equal(config.walrus.encrypt, true);
  assert.equal(config.walrus.epochs, 5);
  assert.equal(config.walrus.maxQuiltPatches, 666);
  assert.deepEqual(loadConfig({ ...urls, TESSERA_WALRUS_MASTER_KEY: key.toString('hex') }).walrus.masterKey, key, 'hex works too');
  assert.equal(loadConfig({ ...urls, TESSERA_WALRUS_ENCRYPT: 'false' }).walrus.masterKey, undefined, 'plaintext needs no key');
  for (const [env, name] of [
    [{ TESSERA_STORE: 'walrus' }, 'TESSERA_WALRUS_PUBLISHER_URL'],
    [urls, 'TESSERA_WALRUS_MASTER_KEY'],
    [{ ...urls, TESSERA_WALRUS_MASTER_KEY: 'c2hvcnQ=' }, 'TESSERA_WALRUS_MASTER_KEY'],
    [{ ...urls, TESSERA_WALRUS_MASTER_KEY: key.toString('base64'), TESSERA_WALRUS_PREVIOUS_MASTER_KEYS: 'nope' }, 'TESSERA_WALRUS_PREVIOUS_MASTER_KEYS'],
    [{ ...urls, TESSERA_WALRUS_MASTER_KEY: key.toString('base64'), TESSERA_WALRUS_EPOCHS: '54' }, 'TESSERA_WALRUS_EPOCHS'],
    [{ ...urls, TESSERA_WALRUS_MASTER_KEY: key.toString('base64'), TESSERA_WALRUS_MAX_QUILT_PATCHES: '667' }, 'TESSERA_WALRUS_MAX_QUILT_PATCHES'],
  ] as const) {
    assert.throws(() => loadConfig(env), (error: Error) => error instanceof ConfigError && error.message.includes(name), name);
  }
  // A key is a secret: never echoed.
  assert.throws(() => loadConfig({ ...urls, TESSERA_WALRUS_MASTER_KEY: 'c2VjcmV0LXNob3J0' }), (error: Error) => !error.message.includes('c2VjcmV0LXNob3J0'));
});

test('Idempotency-Keys: kept a day by default, purged in batches; the old millisecond name is refused', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.idempotencyTtlSeconds, 86_400);
  assert.equal(defaults.idempotencyPurgeBatch, 1000);
  assert.equal(loadConfig({ TESSERA_IDEMPOTENCY_TTL_SECONDS: '3600' }).idempotencyTtlSeconds, 3600);
  assert.throws(() => loadConfig({ TESSERA_IDEMPOTENCY_TTL_SECONDS: '10' }), /TESSERA_IDEMPOTENCY_TTL_SECONDS/);
  assert.throws(() => loadConfig({ TESSERA_IDEMPOTENCY_TTL_MS: '60000' }), /TESSERA_IDEMPOTENCY_TTL_MS is now TESSERA_IDEMPOTENCY_TTL_SECONDS/);
});

test('open quilt files: a quarter of the open-file limit by default (64-4096), or as set', async () => {
  const { readFileSync } = await import('node:fs');
  const soft = Number(readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'))!.split(/\s+/)[3]);
  assert.equal(loadConfig({}).openQuiltFiles, Math.min(4096, Math.max(64, Math.floor(soft / 4))));
  assert.equal(loadConfig({ TESSERA_OPEN_QUILT_FILES: '32' }).openQuiltFiles, 32);
  assert.throws(() => loadConfig({ TESSERA_OPEN_QUILT_FILES: '0' }), ConfigError);
});
