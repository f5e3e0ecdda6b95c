// Where a list request's CPU goes, part by part, in-process on SQLite with 20,000 files (page of
// 100, averages of 3,000 calls each) — docs/benchmarks.md, "list CPU":
//   node bench/list-parts.ts
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { FilesRepository } from '../src/db/repositories/files.repository.ts';
import { buildApp } from '../src/http/app.ts';
import { toFileRecord } from '../src/http/records.ts';

const CALLS = 3000;
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-list-parts-'));
const context = await createContext(loadConfig({ TESSERA_DATA_DIR: dir, TESSERA_RATE_LIMIT_MAX: '100000000', TESSERA_CONSOLE_DIR: 'off' }));
const { key } = await context.keys.create('p');
const account = (await context.database.db.selectFrom('accounts').select('id').where('name', '=', 'p').executeTakeFirstOrThrow()).id;
const space = (await context.spaces.list(account))[0]!.id;
const raw = new SqliteDatabase(path.join(dir, 'tessera.sqlite'));
raw.prepare("insert into blobs (blob_id, size_bytes, quilt_id, quilt_patch_id, created_at) values ('b', 100, 'q', 'p', 1)").run();
const insert = raw.prepare("insert into files (id, account_id, space_id, blob_id, name, mime_type, size_bytes, created_at) values (?, ?, ?, 'b', ?, 'text/plain', 100, ?)");
raw.transaction(() => {
  for (let i = 1; i <= 20_000; i++) insert.run(`file_${String(i).padStart(26, '0')}`, account, space, `f${i}.txt`, 1e12 + i);
})();

/** CPU microseconds per call, after a warm-up. */
async function cpu(work: () => unknown): Promise<number> {
  for (let i = 0; i < 300; i++) await work();
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

const repository = new FilesRepository(context.database.db);
const { sql: text, parameters } = repository.listQuery({ accountId: account }, 101).compile();
const statement = raw.prepare(text);
const page = await context.files.list(account, { limit: 100 });
const app = await buildApp(context);
// The same data through a second context without the list cache: every list reads its page.
const uncached = await createContext(loadConfig({ TESSERA_DATA_DIR: dir, TESSERA_RATE_LIMIT_MAX: '100000000', TESSERA_CONSOLE_DIR: 'off', TESSERA_LIST_CACHE_BYTES: '0' }));
const uncachedApp = await buildApp(uncached);
const parts: Array<[string, () => unknown]> = [
  ['the list query on better-sqlite3 (row objects)', () => statement.all(...parameters)],
  ['the same query, rows as arrays (.raw())', () => statement.raw(true).all(...parameters)],
  ['the repository (Kysely)', () => repository.list({ accountId: account }, 101)],
  ['the list version (one indexed row; read by every list while the cache is on)', () => repository.listVersion(account)],
  ['the service, list cache off (cursor, slicing)', () => uncached.files.list(account, { limit: 100 })],
  ['the service, the page kept (list cache hit: the version, then the page)', () => context.files.list(account, { limit: 100 })],
  ['authentication (digest and look-up)', () => context.keys.authenticate(key)],
  ['100 FileRecords', () => page.files.map(toFileRecord)],
  ['JSON of 100 records', () => JSON.stringify({ files: page.files.map(toFileRecord) })],
  ['an empty request through fastify (GET /healthz)', () => app.inject({ url: '/healthz' })],
  ['the whole list request, list cache off (GET /v1/storage/files?limit=100)', () => uncachedApp.inject({ url: '/v1/storage/files?limit=100', headers: { 'x-api-key': key } })],
  ['the whole list request, the page kept', () => app.inject({ url: '/v1/storage/files?limit=100', headers: { 'x-api-key': key } })],
];
for (const [name, work] of parts) {
  console.log(`${(await cpu(work)).toFixed(0).padStart(6)} µs  ${name}`);
  if (name.includes('.raw()')) statement.raw(false);
}
await app.close();
await uncachedApp.close();
await uncached.close();
await context.close();
raw.close();
await fs.rm(dir, { recursive: true, force: true });
