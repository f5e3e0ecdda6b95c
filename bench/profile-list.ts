// Where a list request's CPU goes: 3,000 in-process GET /v1/storage/files?limit=100 on SQLite.
//   node --cpu-prof --cpu-prof-dir=.bench/profile bench/profile-list.ts
// then open the .cpuprofile in Chrome DevTools (or sum self time per function).
import fs from 'node:fs/promises'; import os from 'node:os'; import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { loadConfig } from '../src/config.ts'; import { createContext } from '../src/context.ts'; import { buildApp } from '../src/http/app.ts';
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-profile-'));
const ctx = await createContext(loadConfig({ TESSERA_DATA_DIR: dir, TESSERA_RATE_LIMIT_MAX: '100000000' }));
const { key } = await ctx.keys.create('p');
const acct = (await ctx.database.db.selectFrom('accounts').select('id').where('name', '=', 'p').executeTakeFirstOrThrow()).id;
const space = (await ctx.spaces.list(acct))[0]!.id;
const db = new SqliteDatabase(path.join(dir, 'tessera.sqlite'));
db.prepare("insert into blobs values ('b', 100, 'q', 'p', 1)").run();
const ins = db.prepare("insert into files (id, account_id, space_id, blob_id, name, mime_type, size_bytes, created_at) values (?, ?, ?, 'b', ?, 'text/plain', 100, ?)");
db.transaction(() => { for (let i = 1; i <= 20000; i++) ins.run(`file_${String(i).padStart(26, '0')}`, acct, space, `f${i}.txt`, 1e12 + i); })();
const app = await buildApp(ctx);
for (let i = 0; i < 300; i++) await app.inject({ url: '/v1/storage/files?limit=100', headers: { 'x-api-key': key } });
const t = performance.now(); const c = process.cpuUsage();
for (let i = 0; i < 3000; i++) await app.inject({ url: '/v1/storage/files?limit=100', headers: { 'x-api-key': key } });
const u = process.cpuUsage(c);
console.log('per request', ((performance.now() - t) / 3000 * 1000).toFixed(0), 'µs wall', ((u.user + u.system) / 3000).toFixed(0), 'µs cpu');
await app.close(); await ctx.close(); db.close(); await fs.rm(dir, { recursive: true, force: true });
