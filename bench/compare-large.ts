// One large file up and down through the server, checkouts of several commits against each other
// in one run (each round measures every side, in turn): MB/s each way, the server's CPU seconds,
// its full (mark-compact) garbage collections and its peak RSS, medians over the rounds. Each round
// also times the raw baseline of `npm run bench` (the bytes written with one sync, read back), and
// every side's rates are given as ratios to it too.
//   npm exec -- node bench/compare-large.ts --side before=<checkout> [--side name=<checkout> …]
//     [--rounds 3] [--mib 256] [--node-flags '--flag …']
// The first side is the baseline; this checkout is the last side unless named. A checkout needs
// node_modules (a symlink to this one's will do). Where the load of the machine varies, the CPU
// seconds and the collections (counted by the server's own /metrics) say more than the rates.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { startBenchServer } from './server.ts';
import { benchArguments } from './sides.ts';
import { largeFileOverHttp, rawLargeFile } from './transfer.ts';

const { sides, arg } = benchArguments(process.argv.slice(2));
const rounds = Number(arg('--rounds') ?? 3);
const MiB = 2 ** 20;
const bytes = Number(arg('--mib') ?? 256) * MiB;
const nodeFlags = (arg('--node-flags') ?? '').split(' ').filter(Boolean);
const block = randomBytes(MiB);
const source = () => Readable.from((function* () {
  for (let sent = 0; sent < bytes; sent += MiB) yield block.subarray(0, Math.min(MiB, bytes - sent));
})());

type Sample = { uploadMBps: number; downloadMBps: number; serverCpuSeconds: number; serverFullGcs: number; serverPeakRssBytes: number };
const samples = new Map<string, Sample[]>(sides.map(([name]) => [name, []]));
const raw: Array<{ rawWriteMBps: number; rawReadMBps: number }> = [];
for (let round = 0; round < rounds; round++) {
  const rawDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-compare-large-raw-'));
  try {
    raw.push(await rawLargeFile(rawDir, bytes, source));
  } finally {
    await fs.rm(rawDir, { recursive: true, force: true });
  }
  for (const [name, dir] of sides) {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-compare-large-'));
    const server = await startBenchServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: 'bench-large-key', TESSERA_MAX_FILE_BYTES: String(bytes * 2) }, path.resolve(dir, 'src/main.ts'), nodeFlags);
    try {
      samples.get(name)!.push(await largeFileOverHttp(server, bytes, source));
    } finally {
      await server.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
    process.stderr.write('.');
  }
}
process.stderr.write('\n');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const base = samples.get(sides[0]![0])!;
const rawWrite = median(raw.map((x) => x.rawWriteMBps));
const rawRead = median(raw.map((x) => x.rawReadMBps));
console.log(`${bytes / MiB} MiB up and down, ${rounds} rounds, medians (ratio to ${sides[0]![0]}; to raw)`);
console.log(`${'raw'.padEnd(14)} write + fsync ${rawWrite.toFixed(0)} MB/s, read ${rawRead.toFixed(0)} MB/s (each round: ${raw.map((x) => `${x.rawWriteMBps.toFixed(0)}/${x.rawReadMBps.toFixed(0)}`).join(', ')})`);
for (const [name] of sides) {
  const s = samples.get(name)!;
  const m = (key: keyof Sample) => median(s.map((x) => x[key]));
  const r = (key: keyof Sample) => (m(key) / median(base.map((x) => x[key]))).toFixed(2);
  console.log(`${name.padEnd(14)} upload ${m('uploadMBps').toFixed(0)} MB/s (${r('uploadMBps')}x; ${(m('uploadMBps') / rawWrite).toFixed(2)}x raw), download ${m('downloadMBps').toFixed(0)} MB/s (${r('downloadMBps')}x; ${(m('downloadMBps') / rawRead).toFixed(2)}x raw), server CPU ${m('serverCpuSeconds').toFixed(2)} s (${r('serverCpuSeconds')}x), full GCs ${m('serverFullGcs')}, peak RSS ${(m('serverPeakRssBytes') / MiB).toFixed(0)} MiB`);
}
