import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { encodeCursor } from '../src/services/files.service.ts';
import { freshDatabase } from '../test/helpers/databases.ts';
import { client, cpuSeconds, percentile, rssBytes } from './http-client.ts';
import { startBenchServer } from './server.ts';

/**
 * GET /v1/storage/files with `files` rows in one account (over 10 Spaces, with another account's
 * rows beside them): the first page and a page `deep` files down, over HTTP against the server in
 * a child process, set against the same keyset query run directly on the database.
 */
export interface ListBenchResult {
  dialect: 'sqlite' | 'postgres';
  files: number;
  seedSeconds: number;
  firstPage: Latency;
  deepPage: Latency;
  rawFirst: Latency;
  rawDeep: Latency;
  /** Server CPU per list request under 8 concurrent clients. */
  cpuMicrosPerRequest: number;
  requestsPerSecond: number;
  serverRssBytes: number;
}

export interface Latency {
  p50: number;
  p99: number;
  /** Server-Timing of the HTTP runs (time inside the server). */
  serverP50?: number;
  serverP99?: number;
}

const SPACES = 10;
const LIMIT = 100;

export async function benchList(dialect: 'sqlite' | 'postgres', files: number, samples: number): Promise<ListBenchResult> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-list-'));
  const database = await freshDatabase(dialect);
  const env = { TESSERA_DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl };
  try {
    const context = await createContext(loadConfig(env));
    const { key } = await context.keys.create('bench');
    await context.keys.create('neighbour');
    const account = (await context.database.db.selectFrom('accounts').select('id').where('name', '=', 'bench').executeTakeFirstOrThrow()).id;
    const neighbour = (await context.database.db.selectFrom('accounts').select('id').where('name', '=', 'neighbour').executeTakeFirstOrThrow()).id;
    const spaces = [(await context.spaces.list(account))[0]!.id];
    for (let i = 1; i < SPACES; i++) spaces.push((await context.spaces.create(account, `space-${i}`)).id);
    const neighbourSpace = (await context.spaces.list(neighbour))[0]!.id;
    await context.close();

    const base = Date.UTC(2026, 0, 1);
    const id = (i: number) => `file_${String(i).padStart(26, '0')}`;
    const seedStarted = performance.now();
    const raw = dialect === 'sqlite' ? sqliteSeed(path.join(dataDir, 'tessera.sqlite'), { account, neighbour, spaces, neighbourSpace, files, base, id }) : await pgSeed(database.databaseUrl, { account, neighbour, spaces, neighbourSpace, files, base });
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    // Newest first: the file `deep` places down is number files - deep.
    const deep = Math.floor(files * 0.9);
    const deepCursor = encodeCursor({ createdAt: base + (files - deep), id: id(files - deep) });
    const rawFirst = await timeRaw(samples, () => raw.page(base + files + 1, id(files + 1)));
    const rawDeep = await timeRaw(samples, () => raw.page(base + (files - deep), id(files - deep)));
    await raw.close();

    const server = await startBenchServer(env);
    const http = client(server.url, 8);
    try {
      const get = (query: string) => http.request('GET', `/v1/storage/files?limit=${LIMIT}${query}`, { 'x-api-key': key });
      for (let i = 0; i < 50; i++) await get(`&cursor=${deepCursor}`); // warm-up
      const firstPage = await timeHttp(samples, () => get(''));
      const deepPage = await timeHttp(samples, () => get(`&cursor=${deepCursor}`));
      const cpuBefore = await cpuSeconds(server.pid);
      const started = performance.now();
      const total = samples * 4;
      let next = 0;
      await Promise.all(Array.from({ length: 8 }, async () => {
        while (next++ < total) await get(next % 2 ? '' : `&cursor=${deepCursor}`);
      }));
      const seconds = (performance.now() - started) / 1000;
      const cpu = (await cpuSeconds(server.pid)) - cpuBefore;
      return { dialect, files, seedSeconds, firstPage, deepPage, rawFirst, rawDeep, cpuMicrosPerRequest: (cpu / total) * 1e6, requestsPerSecond: total / seconds, serverRssBytes: await rssBytes(server.pid) };
    } finally {
      http.close();
      await server.stop();
    }
  } finally {
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

interface Seed {
  account: string;
  neighbour: string;
  spaces: string[];
  neighbourSpace: string;
  files: number;
  base: number;
}

interface RawList {
  page(beforeCreatedAt: number, beforeId: string): Promise<unknown[]>;
  close(): Promise<void>;
}

/** The list's keyset query, written by hand: the floor the server's list is measured against. */
const KEYSET = (p: (n: number) => string) =>
  `select files.*, blobs.quilt_id, blobs.quilt_patch_id from files inner join blobs on blobs.blob_id = files.blob_id
   where files.account_id = ${p(1)} and (files.created_at, files.id) < (${p(2)}, ${p(3)})
   order by files.created_at desc, files.id desc limit ${LIMIT + 1}`;

function sqliteSeed(file: string, seed: Seed & { id: (i: number) => string }): RawList {
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.prepare('insert into blobs (blob_id, size_bytes, quilt_id, quilt_patch_id, created_at) values (?, 100, ?, ?, ?)').run('bench-blob', 'bench-quilt', 'bench-patch', seed.base);
  const insert = db.prepare('insert into files (id, account_id, space_id, blob_id, name, mime_type, size_bytes, created_at) values (?, ?, ?, ?, ?, ?, 100, ?)');
  db.transaction(() => {
    for (let i = 1; i <= seed.files; i++) insert.run(seed.id(i), seed.account, seed.spaces[i % seed.spaces.length], 'bench-blob', `f${i}.txt`, 'text/plain', seed.base + i);
    // The neighbour's files interleave in time with ours.
    for (let i = 1; i <= seed.files / 10; i++) insert.run(`file_N${String(i).padStart(25, '0')}`, seed.neighbour, seed.neighbourSpace, 'bench-blob', `n${i}.txt`, 'text/plain', seed.base + i * 10);
  })();
  db.exec('analyze');
  const page = db.prepare(KEYSET(() => '?'));
  return { page: async (createdAt, id) => page.all(seed.account, createdAt, id), close: async () => void db.close() };
}

async function pgSeed(url: string, seed: Seed): Promise<RawList> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await pool.query(`insert into blobs (blob_id, size_bytes, quilt_id, quilt_patch_id, created_at) values ('bench-blob', 100, 'bench-quilt', 'bench-patch', $1)`, [seed.base]);
  await pool.query(
    `insert into files (id, account_id, space_id, blob_id, name, mime_type, size_bytes, created_at)
     select 'file_' || lpad(g::text, 26, '0'), $1, ($2::text[])[g % $3 + 1], 'bench-blob', 'f' || g || '.txt', 'text/plain', 100, $4::bigint + g
     from generate_series(1, $5::int) g`,
    [seed.account, seed.spaces, seed.spaces.length, seed.base, seed.files],
  );
  await pool.query(
    `insert into files (id, account_id, space_id, blob_id, name, mime_type, size_bytes, created_at)
     select 'file_N' || lpad(g::text, 25, '0'), $1, $2, 'bench-blob', 'n' || g || '.txt', 'text/plain', 100, $3::bigint + g * 10
     from generate_series(1, $4::int) g`,
    [seed.neighbour, seed.neighbourSpace, seed.base, Math.floor(seed.files / 10)],
  );
  await pool.query('analyze');
  const sql = KEYSET((n) => `$${n}`);
  return { page: async (createdAt, id) => (await pool.query({ name: 'bench-keyset', text: sql, values: [seed.account, createdAt, id] })).rows, close: () => pool.end() };
}

async function timeRaw(samples: number, run: () => Promise<unknown[]>): Promise<Latency> {
  for (let i = 0; i < 20; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = process.hrtime.bigint();
    const rows = await run();
    ms.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (rows.length !== LIMIT + 1) throw new Error(`the raw query returned ${rows.length} rows`);
  }
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

async function timeHttp(samples: number, run: () => Promise<{ status: number; ms: number; serverMs?: number }>): Promise<Latency> {
  const ms: number[] = [];
  const server: number[] = [];
  for (let i = 0; i < samples; i++) {
    const answer = await run();
    if (answer.status !== 200) throw new Error(`list answered ${answer.status}`);
    ms.push(answer.ms);
    if (answer.serverMs !== undefined) server.push(answer.serverMs);
  }
  return { p50: percentile(ms, 50), p99: percentile(ms, 99), serverP50: percentile(server, 50), serverP99: percentile(server, 99) };
}
