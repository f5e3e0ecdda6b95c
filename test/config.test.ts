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
  assert.equal(on.planner.model, 'qwen2.5:7b');
  for (const [env, name] of [
    [{ TESSERA_GENERATIVE_PROVIDER: 'dalle' }, 'TESSERA_GENERATIVE_PROVIDER'],
    [{ TESSERA_GENERATIVE_PROVIDER: 'openai' }, 'TESSERA_GENERATIVE_API_KEY'],
    [{ TESSERA_GENERATIVE_BASE_URL: 'ftp://x' }, 'TESSERA_GENERATIVE_BASE_URL'],
    [{ TESSERA_GENERATIVE_SIZE: 'big' }, 'TESSERA_GENERATIVE_SIZE'],
    [{ TESSERA_GENERATIVE_DAILY_BUDGET: '0' }, 'TESSERA_GENERATIVE_DAILY_BUDGET'],
    [{ TESSERA_PLANNER: 'model', TESSERA_PLANNER_BASE_URL: 'http://127.0.0.1:11434/v1' }, 'TESSERA_PLANNER_MODEL'],
  ] as const) {
    assert.throws(() => loadConfig(env), (error: Error) => error instanceof ConfigError && error.message.includes(name), name);
  }
});
