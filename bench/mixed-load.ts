// Small downloads while small uploads run: what a write's commit does to everyone else's latency.
// Checkouts against each other, alternating (the order turns each round):
//   npm exec -- node bench/mixed-load.ts --side before=<checkout> [--side name=<checkout> …]
//     [--side-env name='{"K":"V"}' …] [--rounds 3] [--uploaders 8] [--downloads 2000]
// `uploaders` clients upload 4-64 KiB files (raw bodies) without pause while one client downloads
// 100 files one request at a time. Prints, per side and round, that client's latency p50 / p99 /
// p99.9 / max,
// the server's own time for it (Server-Timing) at p99, the server's event loop delay (p99 and max,
// from its metrics) over the same window, and the uploads' rate meanwhile (which is
// not comparable between sides whose downloads ran for different times). A disk with slow syncs
// can be imitated with bench/slow-sync.c.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { client, percentile } from './http-client.ts';
import { startBenchServer } from './server.ts';
import { benchArguments, inRotatedRounds } from './sides.ts';
import { distinct, smallFiles } from './upload-bodies.ts';

const args = process.argv.slice(2);
const { sides, arg, sideEnv } = benchArguments(args);
const rounds = Number(arg('--rounds') ?? 3);
const uploaders = Number(arg('--uploaders') ?? 8);
const downloads = Number(arg('--downloads') ?? 2000);
const KEY = 'bench-mixed-key';
const bodies = smallFiles(32);

async function measure(checkout: string, settings: Record<string, string> = {}) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-mixed-'));
  const server = await startBenchServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: KEY, ...settings }, path.resolve(checkout, 'src/main.ts'), ['--import', 'tsx']);
  const up = client(server.url, uploaders);
  const down = client(server.url, 1);
  const raw = (i: number) => up.request('POST', `/v1/storage/files/raw?name=m${i}.bin`, { 'x-api-key': KEY, 'content-type': 'application/octet-stream' }, distinct(bodies[i % bodies.length]!));
  try {
    for (let i = 0; i < 100; i++) await raw(i);
    const list = (await (await fetch(`${server.url}/v1/storage/files?limit=100`, { headers: { 'x-api-key': KEY } })).json()) as { files: { fileId: string }[] };
    const ids = list.files.map((f) => f.fileId);
    // The server's own event loop over the measured window, from its metrics (prom-client's
    // monitor of the loop's delay, read and started over at each scrape): the tails above are the
    // client's, whose own loop also drives the uploads.
    const loopLag = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      const value = (name: string) => Number(new RegExp(`^tessera_nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) * 1000;
      return { loopP99: value('p99'), loopMax: value('max') };
    };
    await loopLag();
    let stop = false;
    let uploads = 0;
    const started = performance.now();
    const uploading = Array.from({ length: uploaders }, async () => {
      while (!stop) {
        const answer = await raw(uploads++);
        if (answer.status !== 201) throw new Error(`upload answered ${answer.status}`);
      }
    });
    const ms: number[] = [];
    const serverMs: number[] = [];
    for (let i = 0; i < downloads; i++) {
      const answer = await down.request('GET', `/v1/storage/files/${ids[i % ids.length]}/content`, { 'x-api-key': KEY });
      if (answer.status !== 200) throw new Error(`download answered ${answer.status}`);
      ms.push(answer.ms);
      serverMs.push(answer.serverMs ?? Number.NaN);
    }
    const loop = await loopLag();
    stop = true;
    await Promise.all(uploading);
    const seconds = (performance.now() - started) / 1000;
    return { p50: percentile(ms, 50), p99: percentile(ms, 99), p999: percentile(ms, 99.9), max: Math.max(...ms), serverP99: percentile(serverMs, 99), ...loop, uploadsPerSecond: uploads / seconds };
  } finally {
    up.close();
    down.close();
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const results = await inRotatedRounds(sides, rounds, async ([name, dir], round) => {
  const result = await measure(dir, sideEnv.get(name));
  process.stderr.write(`round ${round + 1}/${rounds} ${name}: download p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, p99.9 ${result.p999.toFixed(2)} ms, max ${result.max.toFixed(2)} ms\n`);
  return result;
});
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`\n${new Date().toISOString()}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${process.version}`);
console.log(`${rounds} rounds; ${uploaders} clients uploading while one downloads ${downloads} times, one request at a time; SQLite\n`);
console.log('| side | download p50 (ms) | download p99 (ms) | p99.9 (ms) | max (ms) | in the server p99 (ms) | event loop delay in the server, p99 / max (ms) | uploads/s meanwhile |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const [name, runs] of results) {
  console.log(`| ${name} | ${median(runs.map((r) => r.p50)).toFixed(2)} | ${median(runs.map((r) => r.p99)).toFixed(2)} | ${median(runs.map((r) => r.p999)).toFixed(2)} | ${median(runs.map((r) => r.max)).toFixed(2)} | ${median(runs.map((r) => r.serverP99)).toFixed(2)} | ${median(runs.map((r) => r.loopP99)).toFixed(2)} / ${median(runs.map((r) => r.loopMax)).toFixed(2)} | ${median(runs.map((r) => r.uploadsPerSecond)).toFixed(0)} |`);
}
