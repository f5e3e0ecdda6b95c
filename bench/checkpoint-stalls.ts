// What SQLite's checkpoint costs the event loop: small write transactions (as an upload's: a few
// rows and their indexes) committed one after another through the server's database layer, with
// SQLite's own checkpoint (inside the COMMIT that takes the log past 1,000 pages) against the
// checkpoint thread (TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS). Alternating, medians of the rounds:
//   npm exec -- node bench/checkpoint-stalls.ts [--rounds 5] [--writes 3000]
// Prints the event loop's longest delay in a round (monitorEventLoopDelay: how late its timers ran,
// so how long something held it), its 99.9th percentile, and the writes per second. Slow syncs (a network volume) can be
// imitated with bench/slow-sync.c: LD_PRELOAD=/tmp/slow-sync.so SLOW_SYNC_US=3000.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { openMigratedDatabase } from '../src/db/database.ts';
import { inRotatedRounds } from './sides.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const rounds = Number(arg('--rounds') ?? 5);
const writes = Number(arg('--writes') ?? 3000);

const sides: Array<[string, string]> = [
  ['SQLite checkpoint (on the loop)', '0'],
  ['checkpoint thread', process.env.TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS ?? '10'],
];

async function measure(intervalMs: string) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-checkpoint-'));
  const database = await openMigratedDatabase(loadConfig({ TESSERA_DATA_DIR: dataDir, TESSERA_SQLITE_CHECKPOINT_INTERVAL_MS: intervalMs }));
  try {
    await database.checkpointer?.ready;
    await sql`create table scratch (id integer primary key, account text, name text, body blob)`.execute(database.db);
    await sql`create index scratch_by_account on scratch (account, name)`.execute(database.db);
    // How late the loop's timers ran: a COMMIT that checkpoints holds the loop for its copy and syncs.
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const started = performance.now();
    for (let i = 0; i < writes; i++) {
      await database.db.transaction().execute(async (trx) => {
        for (let row = 0; row < 4; row++) {
          await sql`insert into scratch (id, account, name, body) values (${i * 4 + row}, ${`a${i % 50}`}, ${`file-${i}-${row}`}, ${Buffer.alloc(600, i)})`.execute(trx);
        }
      });
    }
    const seconds = (performance.now() - started) / 1000;
    delay.disable();
    const logBytes = (await fs.stat(path.join(dataDir, 'tessera.sqlite-wal'))).size;
    return { max: delay.max / 1e6, p999: delay.percentile(99.9) / 1e6, perSecond: writes / seconds, logMiB: logBytes / 2 ** 20 };
  } finally {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const results = await inRotatedRounds(sides, rounds, async ([name, interval], round) => {
  const result = await measure(interval);
  process.stderr.write(`round ${round + 1}/${rounds} ${name}: max ${result.max.toFixed(2)} ms, p99.9 ${result.p999.toFixed(3)} ms, ${result.perSecond.toFixed(0)} writes/s, log ${result.logMiB.toFixed(1)} MiB\n`);
  return result;
});
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`\n${new Date().toISOString()}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${process.version}, SLOW_SYNC_US=${process.env.SLOW_SYNC_US ?? 0}`);
console.log(`${rounds} rounds of ${writes} transactions of 4 rows\n`);
console.log('| checkpoint | longest delay of the event loop (ms) | its p99.9 (ms) | writes/s | log file at the end (MiB) |\n| --- | ---: | ---: | ---: | ---: |');
for (const [name, runs] of results) {
  console.log(`| ${name} | ${median(runs.map((r) => r.max)).toFixed(2)} | ${median(runs.map((r) => r.p999)).toFixed(3)} | ${median(runs.map((r) => r.perSecond)).toFixed(0)} | ${median(runs.map((r) => r.logMiB)).toFixed(1)} |`);
}
