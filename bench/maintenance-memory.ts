import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { blobKeyOf } from '../src/db/repositories/blobs.repository.ts';
import type { BlobRow, NewFileRow } from '../src/db/schema.ts';
import { newId } from '../src/ids.ts';
import { freshDatabase } from '../test/helpers/databases.ts';

/**
 * `npm exec -- node bench/maintenance-memory.ts [--files 10000,1000000] [--dialect sqlite|postgres] [--heap-mib 64]`:
 * builds stores of that many small files (through the store itself, a quilt of --per-quilt
 * files at a time, and the rows in bulk), then runs `verify` and `gc` each in a process of its
 * own and reports that process's peak resident memory. Peak memory must not grow with files.
 */
function parseOptions() {
  return parseArgs({
  options: {
    files: { type: 'string', default: '10000,1000000' },
    'per-quilt': { type: 'string', default: '1000' },
    dialect: { type: 'string', default: 'sqlite' },
    /** Also runs verify with the children's V8 heap capped: what it really keeps, not what V8 lets pile up. */
    'heap-mib': { type: 'string', default: '64' },
    /** Also runs verify and gc of another checkout (e.g. the code before a change) on the same stores. */
    'baseline-dir': { type: 'string' },
    child: { type: 'string' },
  },
  }).values;
}


const INSERT_ROWS = 500;

/** Fills an empty store with `files` small files of one account. */
export async function buildStore(env: Record<string, string>, files: number, perQuilt: number): Promise<void> {
  const context = await createContext(loadConfig(env));
  try {
    const { accountId } = await context.keys.create('bulk');
    const space = await context.files.resolveSpace(accountId, undefined);
    const { db } = context.database;
    for (let first = 0; first < files; first += perQuilt) {
      const count = Math.min(perQuilt, files - first);
      const staged = await Promise.all(Array.from({ length: count }, (_, i) => context.store.stage([Buffer.from(`file number ${first + i}`)], { maxBytes: 1024 })));
      const locations = await context.store.persist(staged);
      const now = Date.now();
      const blobs: BlobRow[] = locations.map((l) => ({ blob_id: blobKeyOf(accountId, l.blobId), size_bytes: l.sizeBytes, quilt_id: l.quiltId, quilt_patch_id: l.quiltPatchId, created_at: now, sealed_key: null }));
      const rows: NewFileRow[] = blobs.map((b, i) => ({ id: newId('file', now), account_id: accountId, space_id: space.id, blob_id: b.blob_id, name: `f${first + i}`, mime_type: 'text/plain', size_bytes: b.size_bytes, created_at: now }));
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < blobs.length; i += INSERT_ROWS) await trx.insertInto('blobs').values(blobs.slice(i, i + INSERT_ROWS)).execute();
        for (let i = 0; i < rows.length; i += INSERT_ROWS) await trx.insertInto('files').values(rows.slice(i, i + INSERT_ROWS)).execute();
      });
    }
  } finally {
    await context.close();
  }
}

/**
 * In a process of its own: one verify or gc, then its peak RSS. Run with --expose-gc, it also
 * collects garbage every 250 ms and reports the most heap that survived a collection: what the
 * command really holds, whatever V8 lets pile up between collections. A collection that took
 * longer than 250 ms (a loaded machine: some 300 ms at a load average of 9 on 2 cores) is
 * followed by as long a gap, so the command keeps half the time at least: at a fixed 250 ms the
 * collections ran back to back, and a verify of 20,000 files took 135 s there (37 s so, 16 s
 * without collections); the heap it reports is the same (29.8 MiB).
 */
async function runChild(what: string): Promise<void> {
  const context = await createContext(loadConfig(process.env));
  const collect = (globalThis as { gc?: () => void }).gc;
  let retained = 0;
  let sampler: NodeJS.Timeout | undefined;
  const sample = (collect: () => void) => {
    const started = performance.now();
    collect();
    retained = Math.max(retained, process.memoryUsage().heapUsed);
    const took = performance.now() - started;
    sampler = setTimeout(() => sample(collect), Math.max(250 - took, took));
  };
  if (collect) sampler = setTimeout(() => sample(collect), 250);
  try {
    const started = performance.now();
    const report = what === 'verify' ? await context.maintenance.verify() : await context.maintenance.gc({ threshold: 0.5 });
    // One collection at the end too: a command shorter than the first 250 ms took no sample and
    // reported 0 MiB, less than the process's own floor, which a longer run was then held against.
    if (collect) {
      clearTimeout(sampler);
      collect();
      retained = Math.max(retained, process.memoryUsage().heapUsed);
    }
    const summary = 'problems' in report ? { blobs: report.blobs, patches: report.patches, problems: report.problems.length } : { quiltsExamined: report.quiltsExamined };
    console.log(JSON.stringify({ what, seconds: (performance.now() - started) / 1000, peakRssMiB: process.resourceUsage().maxRSS / 1024, retainedHeapMiB: retained / 2 ** 20, ...summary }));
  } finally {
    clearTimeout(sampler);
    await context.close();
  }
}

interface Measured {
  what: string;
  seconds: number;
  peakRssMiB: number;
}

/** verify or gc in a child process of the checkout at `root`; a crash (out of memory) is answered, not thrown. */
function measure(env: Record<string, string>, what: string, { root = path.resolve(import.meta.dirname, '..'), heapMib, loader = [] }: { root?: string; heapMib?: string; loader?: string[] } = {}): Promise<Measured | string> {
  return new Promise((resolve) => {
    const heap = heapMib ? [`--max-old-space-size=${heapMib}`] : [];
    const child = spawn(process.execPath, [...heap, ...loader, path.join(root, 'bench/maintenance-memory.ts'), '--child', what], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => resolve(code === 0 ? (JSON.parse(out.trim().split('\n').pop()!) as Measured) : /heap out of memory/i.test(err) ? 'out of memory' : `exit ${code}`));
  });
}

const cell = (m: Measured | string) => (typeof m === 'string' ? `${m} |` : `${m.peakRssMiB.toFixed(0)} | ${m.seconds.toFixed(1)}`);

const options = import.meta.filename === process.argv[1] ? parseOptions() : undefined;
if (options?.child) {
  await runChild(options.child);
} else if (options) {
  const perQuilt = Number(options['per-quilt']);
  const heapMib = options['heap-mib'];
  const baseline = options['baseline-dir'];
  const columns = ['files', 'dialect', 'build (s)', 'verify peak RSS (MiB)', 'verify (s)', `verify, heap ≤ ${heapMib} MiB: peak RSS`, '(s)', 'gc peak RSS (MiB)', 'gc (s)'];
  if (baseline) columns.push('before: verify peak RSS (MiB)', '(s)', `before, heap ≤ ${heapMib} MiB`, '(s)', 'before: gc peak RSS (MiB)', '(s)');
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${columns.map(() => ' ---: |').join('')}`);
  for (const files of options.files.split(',').map(Number)) {
    const database = await freshDatabase(options.dialect as 'sqlite' | 'postgres');
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-big-'));
    // No grace period: every quilt is old enough to be examined.
    const env = { TESSERA_DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl, TESSERA_GC_MIN_AGE_MS: '0', TESSERA_LOG_LEVEL: 'silent' };
    try {
      const started = performance.now();
      await buildStore(env, files, perQuilt);
      const cells = [String(files), options.dialect, ((performance.now() - started) / 1000).toFixed(0)];
      // Against a baseline, both checkouts run through tsx (an older one may predate erasable-only
      // TypeScript, which Node strips by itself), so the loader's memory is in both columns alike.
      const loader = baseline ? ['--import', 'tsx'] : [];
      cells.push(cell(await measure(env, 'verify', { loader })), cell(await measure(env, 'verify', { heapMib, loader })), cell(await measure(env, 'gc', { loader })));
      if (baseline) cells.push(cell(await measure(env, 'verify', { root: baseline, loader })), cell(await measure(env, 'verify', { root: baseline, heapMib, loader })), cell(await measure(env, 'gc', { root: baseline, loader })));
      console.log(`| ${cells.join(' | ')} |`);
    } finally {
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }
}
