// Small requests over real HTTP, checkouts of several commits against each other in one run (each
// round measures every side, in turn), with fastify's hello world as the floor in the same rounds.
//   npm exec -- node bench/compare-http.ts --side before=<checkout> [--side name=<checkout> …]
//     [--rounds 3] [--files 2000] [--clients 32] [--database-url postgres://…] [--log-level warn]
//     [--env '{"K":"V"}'] [--side-env name='{"K":"V"}' …] [--paths download,list]
// --paths measures only those paths (the files to download are then 300 uploads, not measured).
// The first side is the baseline; this checkout is the last side unless named. A checkout needs
// node_modules (a symlink to this one's will do). Prints, per path (upload, raw upload when the
// checkout has it, download, list of 100), each side's median rate and server CPU per request, and
// its ratios to the baseline and to hello world (medians of the per-round ratios).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { client, cpuSeconds } from './http-client.ts';
import { startBenchServer } from './server.ts';
import { benchArguments } from './sides.ts';
import { distinct, multipartOne, smallFiles } from './upload-bodies.ts';
import { helloWorld } from './transfer.ts';

const args = process.argv.slice(2);
const { sides, arg, sideEnv } = benchArguments(args);
const rounds = Number(arg('--rounds') ?? 3);
const files = Number(arg('--files') ?? 2000);
const clients = Number(arg('--clients') ?? 32);
const databaseUrl = arg('--database-url');
const logLevel = arg('--log-level') ?? 'warn';
const extraEnv = JSON.parse(arg('--env') ?? '{}') as Record<string, string>;
const only = arg('--paths')?.split(',');
const measured = (name: string) => !only || only.includes(name);
const KEY = 'bench-compare-key';

type Path = 'upload' | 'raw upload' | 'download' | 'list';
interface Measure {
  perSecond: number;
  cpuMicros: number;
}

const contents = smallFiles(256);
const multiparts = contents.map((content) => multipartOne(content, 'cmp'));

async function freshPostgres(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const pg = (await import('pg')).default;
  const name = `bench_cmp_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    drop: async () => {
      const again = new pg.Client({ connectionString: url });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

/** One server of a checkout: uploads, downloads and lists, each `files` requests from `clients` at once. */
async function measure(checkout: string, sideSettings: Record<string, string> = {}): Promise<Partial<Record<Path, Measure>>> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-cmp-'));
  const database = databaseUrl ? await freshPostgres(databaseUrl) : undefined;
  const env: Record<string, string> = { TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: KEY, TESSERA_LOG_LEVEL: logLevel, ...extraEnv, ...sideSettings };
  if (database) env.DATABASE_URL = database.url;
  // Every side through tsx: an older checkout may predate erasable-only TypeScript (which Node
  // strips by itself), and all sides start the same way.
  const server = await startBenchServer(env, path.resolve(checkout, 'src/main.ts'), ['--import', 'tsx']);
  const c = client(server.url, clients);
  const result: Partial<Record<Path, Measure>> = {};
  const run = async (name: Path, count: number, one: (i: number) => Promise<{ status: number }>) => {
    let next = 0;
    const cpu = await cpuSeconds(server.pid);
    const started = performance.now();
    await Promise.all(Array.from({ length: clients }, async () => {
      while (next < count) {
        const answer = await one(next++);
        if (answer.status >= 300) throw new Error(`${checkout} ${name}: answered ${answer.status}`);
      }
    }));
    const seconds = (performance.now() - started) / 1000;
    result[name] = { perSecond: count / seconds, cpuMicros: (((await cpuSeconds(server.pid)) - cpu) / count) * 1e6 };
  };
  try {
    const upload = (i: number) => {
      const { body, type, contentAt } = multiparts[i % multiparts.length]!;
      return c.request('POST', '/v1/storage/files', { 'x-api-key': KEY, 'content-type': type }, distinct(body, contentAt));
    };
    await run('upload', measured('upload') ? 200 : 300, upload); // warm-up (or the files to download)
    if (measured('upload')) await run('upload', files, upload);
    else delete result.upload;
    const raw = await c.request('POST', '/v1/storage/files/raw?name=probe.bin', { 'x-api-key': KEY, 'content-type': 'application/octet-stream' }, contents[0]);
    if (raw.status === 201 && measured('raw upload')) {
      await run('raw upload', files, (i) => c.request('POST', `/v1/storage/files/raw?name=s${i}.bin`, { 'x-api-key': KEY, 'content-type': 'application/octet-stream' }, distinct(contents[i % contents.length]!)));
    }
    const list = (await (await fetch(`${server.url}/v1/storage/files?limit=1000`, { headers: { 'x-api-key': KEY } })).json()) as { files: { fileId: string }[] };
    const ids = list.files.map((f) => f.fileId);
    const download = (i: number) => c.request('GET', `/v1/storage/files/${ids[i % ids.length]}/content`, { 'x-api-key': KEY });
    if (measured('download')) {
      await run('download', 200, download);
      await run('download', files, download);
    }
    const page = () => c.request('GET', '/v1/storage/files?limit=100', { 'x-api-key': KEY });
    if (measured('list')) {
      await run('list', 200, page);
      await run('list', files, page);
    }
    return result;
  } finally {
    c.close();
    await server.stop();
    await database?.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const hello: number[] = [];
const samples = sides.map(() => [] as Array<Partial<Record<Path, Measure>>>);
for (let round = 0; round < rounds; round++) {
  hello.push(await helloWorld(files * 4, clients));
  // Each round starts at another side, so none always gets the quieter minute.
  for (let k = 0; k < sides.length; k++) {
    const i = (round + k) % sides.length;
    samples[i]!.push(await measure(sides[i]![1], sideEnv.get(sides[i]![0])));
  }
  process.stderr.write(`round ${round + 1}/${rounds} done\n`);
}

console.log(`\n${new Date().toISOString()}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${process.version}`);
console.log(`${rounds} rounds, ${files} requests per path, ${clients} clients, ${databaseUrl ? 'PostgreSQL' : 'SQLite'}, log level ${logLevel}; hello world median ${median(hello).toFixed(0)} req/s; baseline: ${sides[0]![0]}\n`);
console.log('| path | side | req/s | vs baseline | vs hello world | server CPU µs/req | CPU vs baseline |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const name of ['upload', 'raw upload', 'download', 'list'] as Path[]) {
  sides.forEach(([sideName], i) => {
    const rate = samples[i]!.map((s) => s[name]?.perSecond);
    if (rate.every((r) => r === undefined)) return;
    // The raw upload's baseline is the baseline's multipart upload, of the same round.
    const baseName: Path = name === 'raw upload' && samples[0]!.every((s) => s[name] === undefined) ? 'upload' : name;
    const baseRate = samples[0]!.map((s) => s[baseName]?.perSecond ?? NaN);
    const baseCpu = samples[0]!.map((s) => s[baseName]?.cpuMicros ?? NaN);
    const cpu = samples[i]!.map((s) => s[name]?.cpuMicros ?? NaN);
    const r = rate.map((v) => v ?? NaN);
    console.log(
      `| ${name}${baseName !== name ? ' (baseline: its multipart upload)' : ''} | ${sideName} | ${median(r).toFixed(0)} | ${median(r.map((v, k) => v / baseRate[k]!)).toFixed(2)}x | ${median(r.map((v, k) => v / hello[k]!)).toFixed(2)}x | ${median(cpu).toFixed(0)} | ${median(cpu.map((v, k) => v / baseCpu[k]!)).toFixed(2)}x |`,
    );
  });
}
