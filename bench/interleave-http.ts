// Server CPU per request of small downloads and lists, checkouts against each other with their
// servers running side by side: batches of requests alternate between the servers, so that every
// side meets the same minutes of a shared machine (bench/compare-http.ts runs them one after the
// other, and a loaded machine moves more between its sides than the changes do).
//   npm exec -- node bench/interleave-http.ts --side before=<checkout> [--side name=<checkout> …]
//     [--side-env name='{"K":"V"}' …] [--rounds 3] [--batches 6] [--requests 800] [--clients 32]
//     [--files 300] [--paths download,list,list-held]
// `list-held` asks for the list page with the ETag of its first answer in If-None-Match (a client
// polling an unchanged page: 304 where the server knows the tag, the page itself where it does not).
// The first side is the baseline; this checkout is the last side unless named. A checkout needs
// node_modules. CPU is every thread of the server's, from /proc/<pid>/task/*/schedstat (ns), so a
// batch's figure is not rounded to the 10 ms ticks of /proc/<pid>/stat. Every round starts new
// servers: one server process keeps its own JIT and heap for all its batches, and two servers of the
// same code differed by up to 15 % within a round. Prints, per path and side, the median CPU µs per
// request and the median over rounds of the round's median ratio to the baseline's batch next to it.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { client } from './http-client.ts';
import { startBenchServer, type BenchServer } from './server.ts';
import { benchArguments } from './sides.ts';

const args = process.argv.slice(2);
const { sides, arg, sideEnv } = benchArguments(args);
const rounds = Number(arg('--rounds') ?? 3);
const batches = Number(arg('--batches') ?? 6);
const requests = Number(arg('--requests') ?? 800);
const clients = Number(arg('--clients') ?? 32);
const fileCount = Number(arg('--files') ?? 300);
const paths = (arg('--paths') ?? 'download,list').split(',') as Array<'download' | 'list' | 'list-held'>;
const KEY = 'bench-interleave-key';

/** CPU nanoseconds every thread of a process has used so far. */
async function cpuNanos(pid: number): Promise<number> {
  let total = 0;
  for (const task of await fs.readdir(`/proc/${pid}/task`)) {
    const stat = await fs.readFile(`/proc/${pid}/task/${task}/schedstat`, 'utf8').catch(() => '0');
    total += Number(stat.split(' ')[0]);
  }
  return total;
}

interface Side {
  name: string;
  server: BenchServer;
  dataDir: string;
  http: ReturnType<typeof client>;
  ids: string[];
  /** The ETag of the list page the list paths ask for ("none" where the server gives none). */
  etag: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const contents = Array.from({ length: 64 }, () => randomBytes(4096 + Math.floor(Math.random() * 60 * 1024)));

async function open([name, checkout]: [string, string]): Promise<Side> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-interleave-'));
  const server = await startBenchServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: KEY, ...sideEnv.get(name) }, path.resolve(checkout, 'src/main.ts'), ['--import', 'tsx']);
  const http = client(server.url, clients);
  // Uploaded by all clients at once, as the small files of compare-http are: they share quilts.
  let next = 0;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < fileCount) {
      const i = next++;
      const answer = await http.request('POST', `/v1/storage/files/raw?name=s${i}.bin`, { 'x-api-key': KEY, 'content-type': 'application/octet-stream' }, contents[i % contents.length]);
      if (answer.status !== 201) throw new Error(`${name}: a raw upload answered ${answer.status}`);
    }
  }));
  const list = (await (await fetch(`${server.url}/v1/storage/files?limit=1000`, { headers: { 'x-api-key': KEY } })).json()) as { files: { fileId: string }[] };
  const etag = (await fetch(`${server.url}/v1/storage/files?limit=100`, { headers: { 'x-api-key': KEY } })).headers.get('etag') ?? '"none"';
  return { name, server, dataDir, http, ids: list.files.map((f) => f.fileId), etag };
}

async function batch(side: Side, which: 'download' | 'list' | 'list-held', count: number): Promise<number> {
  const one = which === 'download'
    ? (i: number) => side.http.request('GET', `/v1/storage/files/${side.ids[i % side.ids.length]}/content`, { 'x-api-key': KEY })
    : which === 'list-held'
      ? () => side.http.request('GET', '/v1/storage/files?limit=100', { 'x-api-key': KEY, 'if-none-match': side.etag })
      : () => side.http.request('GET', '/v1/storage/files?limit=100', { 'x-api-key': KEY });
  let next = 0;
  const before = await cpuNanos(side.server.pid);
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < count) {
      const answer = await one(next++);
      if (answer.status !== 200 && !(which === 'list-held' && answer.status === 304)) throw new Error(`${side.name} ${which}: answered ${answer.status}`);
    }
  }));
  return ((await cpuNanos(side.server.pid)) - before) / count / 1000;
}

const cpu = new Map<string, number[][]>(); // path -> per side, every batch's µs per request
const ratios = new Map<string, number[][]>(); // path -> per side, each round's median ratio
for (let round = 0; round < rounds; round++) {
  const opened: Side[] = [];
  try {
    // Started in another order each round.
    for (let k = 0; k < sides.length; k++) opened.push(await open(sides[(round + k) % sides.length]!));
    opened.sort((a, b) => sides.findIndex(([n]) => n === a.name) - sides.findIndex(([n]) => n === b.name));
    for (const which of paths) {
      for (const side of opened) await batch(side, which, Math.min(requests, 400)); // warm-up
      const perSide = opened.map(() => [] as number[]);
      for (let b = 0; b < batches; b++) {
        // Each batch starts at another side, so none always goes first.
        for (let k = 0; k < opened.length; k++) {
          const i = (b + round + k) % opened.length;
          perSide[i]!.push(await batch(opened[i]!, which, requests));
        }
      }
      if (!cpu.has(which)) cpu.set(which, opened.map(() => []));
      if (!ratios.has(which)) ratios.set(which, opened.map(() => []));
      perSide.forEach((values, i) => {
        cpu.get(which)![i]!.push(...values);
        ratios.get(which)![i]!.push(median(values.map((v, b) => v / perSide[0]![b]!)));
      });
    }
  } finally {
    for (const side of opened) {
      side.http.close();
      await side.server.stop();
      await fs.rm(side.dataDir, { recursive: true, force: true });
    }
  }
  process.stderr.write(`round ${round + 1}/${rounds} done\n`);
}
console.log(`\n${new Date().toISOString()}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${process.version}`);
console.log(`${rounds} rounds (new servers each) of ${batches} batches of ${requests} requests per path and side, alternating; ${clients} clients, ${fileCount} files (4-64 KiB), SQLite, warn logs; baseline: ${sides[0]![0]}\n`);
console.log('| path | side | server CPU µs/req (median) | vs baseline (median of rounds) | each round |');
console.log('| --- | --- | ---: | ---: | --- |');
for (const which of paths) {
  sides.forEach(([name], i) => {
    const r = ratios.get(which)![i]!;
    console.log(`| ${which} | ${name} | ${median(cpu.get(which)![i]!).toFixed(0)} | ${median(r).toFixed(2)}x | ${r.map((x) => x.toFixed(2)).join(', ')} |`);
  });
}
