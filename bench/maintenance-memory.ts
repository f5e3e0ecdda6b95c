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
 * `npm exec -- node --import tsx bench/maintenance-memory.ts [--files 10000,1000000] [--dialect sqlite|postgres]`:
 * builds stores of that many small files (through the store itself, a quilt of --per-quilt
 * files at a time, and the rows in bulk), then runs `verify` and `gc` each in a process of its
 * own and reports that process's peak resident memory. Peak memory must not grow with files.
 */
const { values: options } = parseArgs({
  options: {
    files: { type: 'string', default: '10000,1000000' },
    'per-quilt': { type: 'string', default: '1000' },
    dialect: { type: 'string', default: 'sqlite' },
    child: { type: 'string' },
  },
});

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
      const blobs: BlobRow[] = locations.map((l) => ({ blob_id: blobKeyOf(accountId, l.blobId), size_bytes: l.sizeBytes, quilt_id: l.quiltId, quilt_patch_id: l.quiltPatchId, created_at: now }));
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

/** In a process of its own: one verify or gc, then its peak RSS. */
async function runChild(what: string): Promise<void> {
  const context = await createContext(loadConfig(process.env));
  try {
    const started = performance.now();
    const report = what === 'verify' ? await context.maintenance.verify() : await context.maintenance.gc({ threshold: 0.5 });
    const summary = 'problems' in report ? { blobs: report.blobs, patches: report.patches, problems: report.problems.length } : { quiltsExamined: report.quiltsExamined };
    console.log(JSON.stringify({ what, seconds: (performance.now() - started) / 1000, peakRssMiB: process.resourceUsage().maxRSS / 1024, ...summary }));
  } finally {
    await context.close();
  }
}

function measure(env: Record<string, string>, what: string): Promise<{ what: string; seconds: number; peakRssMiB: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', what], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`${what} exited with ${code}: ${out}`))));
  });
}

if (options.child) {
  await runChild(options.child);
} else if (import.meta.filename === process.argv[1]) {
  const perQuilt = Number(options['per-quilt']);
  console.log(`| files | dialect | build (s) | verify peak RSS (MiB) | verify (s) | gc peak RSS (MiB) | gc (s) |`);
  console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const files of options.files.split(',').map(Number)) {
    const database = await freshDatabase(options.dialect as 'sqlite' | 'postgres');
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-big-'));
    // No grace period: every quilt is old enough to be examined.
    const env = { TESSERA_DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl, TESSERA_GC_MIN_AGE_MS: '0', TESSERA_LOG_LEVEL: 'silent' };
    try {
      const started = performance.now();
      await buildStore(env, files, perQuilt);
      const build = (performance.now() - started) / 1000;
      const verify = await measure(env, 'verify');
      const gc = await measure(env, 'gc');
      console.log(`| ${files} | ${options.dialect} | ${build.toFixed(0)} | ${verify.peakRssMiB.toFixed(0)} | ${verify.seconds.toFixed(1)} | ${gc.peakRssMiB.toFixed(0)} | ${gc.seconds.toFixed(1)} |`);
    } finally {
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }
}
