import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `npm exec -- node bench/start.ts [--runs 3] [--entry src/main.ts] [--side plain|tsx|cache …]`:
 * how long a server process takes to start, from spawn to its "listening" line, and the CPU it
 * spent by then (from /proc/<pid>/stat, Linux), on a fresh SQLite data dir each time. A side:
 * `plain` (Node's own type stripping, no compile cache), `tsx` (through the tsx loader, as before
 * 2026-11-26), `cache` (Node's compile cache on, warmed by one start first). The sides alternate,
 * so none always gets the quieter moment; prints each side's medians.
 */
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    entry: { type: 'string', default: 'src/main.ts' },
    side: { type: 'string', multiple: true, default: ['plain', 'cache'] },
  },
});
const runs = Number(values.runs);
const sides = values.side;
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-start-cache-'));
const ticksMs = 10; // USER_HZ is 100 on Linux

async function startOnce(side: string): Promise<{ wallMs: number; cpuMs: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-start-'));
  const env: Record<string, string | undefined> = { ...process.env, PORT: '0', TESSERA_DATA_DIR: dataDir, TESSERA_LOG_LEVEL: 'info', TESSERA_API_KEY: 'bench-start-key-0123456789' };
  delete env.NODE_COMPILE_CACHE;
  if (side === 'cache') env.NODE_COMPILE_CACHE = cacheDir;
  else env.NODE_DISABLE_COMPILE_CACHE = '1';
  const args = side === 'tsx' ? ['--import', 'tsx', values.entry] : [values.entry];
  const started = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Tessera listening on/.test(output)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening:\n${output}`)));
  });
  const wallMs = performance.now() - started;
  const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const cpuMs = (Number(fields[11]) + Number(fields[12])) * ticksMs;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { wallMs, cpuMs };
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
if (sides.includes('cache')) await startOnce('cache'); // warms the cache
const results = new Map<string, Array<{ wallMs: number; cpuMs: number }>>(sides.map((side) => [side, []]));
for (let i = 0; i < runs; i++) for (const side of sides) results.get(side)!.push(await startOnce(side));
fs.rmSync(cacheDir, { recursive: true, force: true });
console.log(`${runs} starts per side, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const [side, list] of results) {
  console.log(`${side}: to listening ${median(list.map((r) => r.wallMs)).toFixed(0)} ms wall, ${median(list.map((r) => r.cpuMs)).toFixed(0)} ms CPU (median; CPU each: ${list.map((r) => r.cpuMs).join(', ')})`);
}
