import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import sharp from 'sharp';
import { dialects, freshDatabase } from '../test/helpers/databases.ts';
import { startServer, type ServerProcess } from '../test/helpers/server.ts';

/**
 * `npm run soak [-- --minutes 20 --dialect sqlite|postgres|both]`: the real server under a mixed
 * load (uploads, downloads, lists, edits with Idempotency-Keys, deletes, background gc and
 * Idempotency-Key purge) for a while, sampling its resident memory, open descriptors, database
 * size and data directory size. The live set is held near `--live` files, so everything sampled
 * should stay flat once it is reached. At the end every answered write is read back: a file
 * still held must read its bytes, a deleted one must be gone. Not part of `npm test`.
 */
const { values: options } = parseArgs({
  options: {
    minutes: { type: 'string', default: '20' },
    dialect: { type: 'string', default: 'both' },
    'sample-seconds': { type: 'string', default: '60' },
    workers: { type: 'string', default: '4' },
    live: { type: 'string', default: '1500' },
    'pause-ms': { type: 'string', default: '5' },
    out: { type: 'string', default: '.bench/soak.json' },
  },
});
const minutes = Number(options.minutes);
const sampleMs = Number(options['sample-seconds']) * 1000;
const workerCount = Number(options.workers);
const liveTarget = Number(options.live);
const pauseMs = Number(options['pause-ms']);
const MiB = 2 ** 20;

interface Held {
  fileId: string;
  sha256: string | undefined;
  sizeBytes: number;
}

interface Sample {
  atSeconds: number;
  rssMiB: number;
  openFds: number;
  databaseMiB: number;
  dataDirMiB: number;
  liveFiles: number;
  idempotencyRows: number;
  operations: number;
}

interface SoakResult {
  dialect: string;
  minutes: number;
  operations: Record<string, number>;
  statuses: Record<string, number>;
  samples: Sample[];
  checked: { held: number; readBack: number; deleted: number; goneAsExpected: number; problems: string[] };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;

async function treeBytes(dir: string, skip: (name: string) => boolean): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (entry.isFile() && !skip(entry.name)) total += (await fs.stat(path.join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

async function processFigures(pid: number): Promise<{ rss: number; fds: number }> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
  return { rss, fds: (await fs.readdir(`/proc/${pid}/fd`)).length };
}

async function soak(dialect: 'sqlite' | 'postgres'): Promise<SoakResult> {
  const database = await freshDatabase(dialect);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `tessera-soak-${dialect}-`));
  const key = `soak-${randomBytes(12).toString('hex')}`;
  const server: ServerProcess = await startServer({
    DATABASE_URL: database.databaseUrl,
    TESSERA_DATA_DIR: dataDir,
    TESSERA_API_KEY: key,
    TESSERA_RATE_LIMIT_MAX: '1000000000',
    // Background work at a soak's pace: gc every minute on quilts older than 30 s, keys kept a minute.
    TESSERA_GC_INTERVAL_MS: '60000',
    TESSERA_GC_MIN_AGE_MS: '30000',
    TESSERA_IDEMPOTENCY_TTL_SECONDS: '60',
    TESSERA_IDEMPOTENCY_PURGE_INTERVAL_SECONDS: '30',
    TESSERA_LOG_LEVEL: 'warn',
  });
  const pgClient = dialect === 'postgres' ? new pg.Client({ connectionString: database.databaseUrl }) : undefined;
  await pgClient?.connect();
  const sqliteCount = () => {
    const sqlite = new SqliteDatabase(path.join(dataDir, 'tessera.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return (sqlite.prepare('select count(*) as n from idempotency_keys').get() as { n: number }).n;
    } finally {
      sqlite.close();
    }
  };
  const api = (url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { ...init, headers: { 'x-api-key': key, ...(init.headers as Record<string, string> | undefined) } });

  const held = new Map<string, Held>();
  const deleted = new Set<string>();
  const operations: Record<string, number> = {};
  const statuses: Record<string, number> = {};
  const count = (operation: string, status: number) => {
    operations[operation] = (operations[operation] ?? 0) + 1;
    statuses[`${operation} ${status}`] = (statuses[`${operation} ${status}`] ?? 0) + 1;
  };
  const source = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();

  const upload = async () => {
    // Mostly small files packed into shared quilts; now and then one large enough for a quilt of its own.
    const bytes = Math.random() < 0.02 ? randomBytes(1.5 * MiB) : randomBytes(1024 + Math.floor(Math.random() * 31 * 1024));
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'soak.bin');
    const res = await api('/v1/storage/files', { method: 'POST', body: form });
    count('upload', res.status);
    if (res.status !== 201) return void (await res.arrayBuffer());
    const file = ((await res.json()) as { files: Array<{ fileId: string }> }).files[0]!;
    held.set(file.fileId, { fileId: file.fileId, sha256: sha256(bytes), sizeBytes: bytes.length });
  };
  const download = async () => {
    if (held.size === 0) return;
    const file = pick([...held.values()]);
    const res = await api(`/v1/storage/files/${file.fileId}/content`);
    const body = Buffer.from(await res.arrayBuffer());
    count('download', res.status);
    // A concurrent delete by another worker may have taken it: only a held file must match.
    if (res.status === 200 && held.has(file.fileId) && file.sha256 && sha256(body) !== file.sha256) throw new Error(`${file.fileId} read back other bytes`);
  };
  const list = async () => {
    let cursor = '';
    for (let page = 0; page < 3; page++) {
      const res = await api(`/v1/storage/files?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      count('list', res.status);
      const body = (await res.json()) as { pagination?: { hasMore: boolean; cursor: string } };
      if (!body.pagination?.hasMore) return;
      cursor = body.pagination.cursor;
    }
  };
  let sourceId: string | undefined;
  let spaceId: string | undefined;
  const edit = async () => {
    if (!sourceId) {
      const form = new FormData();
      form.append('file', new Blob([source], { type: 'image/png' }), 'source.png');
      sourceId = ((await (await api('/v1/storage/files', { method: 'POST', body: form })).json()) as { files: Array<{ fileId: string }> }).files[0]!.fileId;
      spaceId = ((await (await api('/v1/spaces')).json()) as { spaces: Array<{ id: string }> }).spaces[0]!.id;
    }
    const prompt = pick(['rotate 90 degrees', 'make it black and white', 'add a red 4px border', 'flip it horizontally']);
    const res = await api('/v1/images/edits', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomBytes(8).toString('hex') },
      body: JSON.stringify({ prompt, workspace_id: spaceId, file_id: sourceId }),
    });
    count('edit', res.status);
    const body = (await res.json()) as { file_id?: string; size_bytes?: number };
    if (res.status === 200 && body.file_id) held.set(body.file_id, { fileId: body.file_id, sha256: undefined, sizeBytes: body.size_bytes ?? -1 });
  };
  const remove = async () => {
    if (held.size === 0) return;
    const file = pick([...held.values()]);
    held.delete(file.fileId);
    const res = await api(`/v1/storage/files/${file.fileId}`, { method: 'DELETE' });
    count('delete', res.status);
    if (res.status === 204) deleted.add(file.fileId);
    else held.set(file.fileId, file);
  };

  const samples: Sample[] = [];
  const started = Date.now();
  const sample = async () => {
    const { rss, fds } = await processFigures(server.child.pid!);
    const databaseBytes = pgClient
      ? Number((await pgClient.query<{ bytes: string }>("select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r'")).rows[0]!.bytes)
      : await treeBytes(dataDir, (name) => !name.startsWith('tessera.sqlite'));
    const idempotencyRows = pgClient
      ? Number((await pgClient.query<{ n: string }>('select count(*) as n from idempotency_keys')).rows[0]!.n)
      : sqliteCount();
    samples.push({
      atSeconds: Math.round((Date.now() - started) / 1000),
      rssMiB: +(rss / MiB).toFixed(1),
      openFds: fds,
      databaseMiB: +(databaseBytes / MiB).toFixed(2),
      dataDirMiB: +((await treeBytes(dataDir, (name) => name.startsWith('tessera.sqlite'))) / MiB).toFixed(2),
      liveFiles: held.size,
      idempotencyRows,
      operations: Object.values(operations).reduce((a, b) => a + b, 0),
    });
    console.log(`${dialect} ${JSON.stringify(samples[samples.length - 1])}`);
  };

  const deadline = started + minutes * 60_000;
  await sample();
  const sampler = setInterval(() => void sample(), sampleMs);
  const workers = Array.from({ length: workerCount }, async () => {
    while (Date.now() < deadline) {
      // Below the live target uploads lead; above it deletes do, so the live data stays level.
      const grow = held.size < liveTarget;
      const roll = Math.random();
      if (roll < (grow ? 0.4 : 0.2)) await upload();
      else if (roll < 0.6) await download();
      else if (roll < 0.7) await list();
      else if (roll < 0.75) await edit();
      else if (roll < (grow ? 0.85 : 1)) await remove();
      else await download();
      await sleep(pauseMs);
    }
  });
  await Promise.all(workers);
  clearInterval(sampler);
  await sample();

  // Every answered write: a held file reads its bytes, a deleted one is gone (by the workers at once).
  const problems: string[] = [];
  let readBack = 0;
  let goneAsExpected = 0;
  const checks = [
    ...[...held.values()].map((file) => async () => {
      const res = await api(`/v1/storage/files/${file.fileId}/content`);
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) problems.push(`${file.fileId}: ${res.status}`);
      else if (file.sha256 ? sha256(body) !== file.sha256 : body.length !== file.sizeBytes) problems.push(`${file.fileId}: other bytes`);
      else readBack++;
    }),
    ...[...deleted].map((fileId) => async () => {
      const res = await api(`/v1/storage/files/${fileId}`);
      await res.arrayBuffer();
      if (res.status === 404) goneAsExpected++;
      else problems.push(`${fileId} was deleted but answers ${res.status}`);
    }),
  ];
  await Promise.all(Array.from({ length: workerCount }, async () => {
    for (let check = checks.pop(); check; check = checks.pop()) await check();
  }));
  await pgClient?.end();
  await server.stop();
  await database.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
  return { dialect, minutes, operations, statuses, samples, checked: { held: held.size, readBack, deleted: deleted.size, goneAsExpected, problems: problems.slice(0, 20) } };
}

const wanted = options.dialect === 'both' ? await dialects() : [options.dialect as 'sqlite' | 'postgres'];
const results: SoakResult[] = [];
for (const dialect of wanted) results.push(await soak(dialect));
await fs.mkdir(path.dirname(options.out), { recursive: true });
await fs.writeFile(options.out, JSON.stringify(results, null, 2));

for (const result of results) {
  console.log(`\n## ${result.dialect}, ${result.minutes} min: ${JSON.stringify(result.operations)}`);
  console.log(`statuses: ${JSON.stringify(result.statuses)}`);
  console.log('| at (s) | RSS (MiB) | open fds | database (MiB) | data dir (MiB) | live files | idempotency rows | operations |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const s of result.samples) console.log(`| ${s.atSeconds} | ${s.rssMiB} | ${s.openFds} | ${s.databaseMiB} | ${s.dataDirMiB} | ${s.liveFiles} | ${s.idempotencyRows} | ${s.operations} |`);
  console.log(`read back: ${result.checked.readBack} of ${result.checked.held} held files; ${result.checked.goneAsExpected} of ${result.checked.deleted} deleted files gone`);
  for (const problem of result.checked.problems) console.log(`PROBLEM ${problem}`);
}
if (results.some((r) => r.checked.problems.length > 0 || Object.keys(r.statuses).some((s) => s.endsWith(' 500')))) process.exitCode = 1;
