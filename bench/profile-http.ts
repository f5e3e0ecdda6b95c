// Where a small request's time goes: the real server under load, profiled with --cpu-prof, one
// server per path (upload, raw-upload, download, list), and each profile's self time summed by layer.
//   npm exec -- node bench/profile-http.ts [--requests 4000] [--keep] [--paths raw-upload,download]
// Prints a table per path (share of the server's sampled CPU per layer, then the top frames) and
// leaves the .cpuprofile files in .bench/profile-http/ with --keep (open them in Chrome DevTools),
// each with a <path>.window.json: the measured run's span on the profile's clock.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { client } from './http-client.ts';
import { startBenchServer } from './server.ts';
import { distinct, multipartOne, smallFiles } from './upload-bodies.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const requests = Number(args[args.indexOf('--requests') + 1]) || 4000;
const keep = args.includes('--keep');
// µs between samples (V8's default is 1,000: a few hundred samples for a few thousand small requests).
const interval = Number(args[args.indexOf('--interval') + 1]) || 1000;
const clients = 32;
const KEY = 'bench-profile-key';
const outDir = path.resolve('.bench/profile-http');

/** The layer a frame belongs to, by where its code lives: first match wins. */
const LAYERS: Array<[layer: string, test: (url: string, name: string) => boolean]> = [
  ['idle', (_u, n) => n === '(idle)'],
  ['garbage collection', (_u, n) => n === '(garbage collector)'],
  ['logging', (u) => /\/(pino|pino-std-serializers|sonic-boom|thread-stream)\//.test(u)],
  ['multipart parsing', (u) => /\/(@fastify\/multipart|@fastify\/busboy|busboy)\//.test(u)],
  ['serialisation', (u) => /\/(fast-json-stringify|fast-uri|json-schema-ref-resolver)\//.test(u)],
  ['rate limit', (u) => /\/@fastify\/rate-limit\//.test(u)],
  ['fastify', (u) => /\/(fastify|find-my-way|avvio|light-my-request|@fastify\/[^/]+|fast-querystring|toad-cache|process-warning|abstract-logging|rfdc|secure-json-parse)\//.test(u)],
  ['database', (u) => /\/(kysely|better-sqlite3|pg|pg-protocol|pg-pool)\//.test(u) || /\/src\/db\//.test(u)],
  ['tessera http', (u) => /\/src\/http\//.test(u)],
  ['tessera services', (u) => /\/src\/services\//.test(u)],
  ['tessera store', (u) => /\/src\/storage\//.test(u)],
  ['tessera other', (u) => /\/src\//.test(u)],
  ['node http', (u) => /node:(_http_|http|net|internal\/http|internal\/stream_base|internal\/streams)/.test(u) || /^node:internal\/(url|querystring)/.test(u)],
  ['node crypto', (u) => /node:(crypto|internal\/crypto)/.test(u)],
  ['node fs', (u) => /node:(fs|internal\/fs)/.test(u)],
  ['node other', (u) => u.startsWith('node:')],
  ['native / VM', (u, n) => u === '' && n.startsWith('(')],
  ['native / VM', (u) => u === ''],
  ['other modules', () => true],
];

/** Self time per frame and layer, of the samples taken in [from, to] (µs on the monotonic clock the server's profiler and this process share). */
function summarise(profile: CpuProfile, from: number, to: number): { total: number; layers: Map<string, number>; frames: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= from && at <= to) self.set(id, (self.get(id) ?? 0) + delta);
  });
  const layers = new Map<string, number>();
  const frames = new Map<string, number>();
  let total = 0;
  for (const [id, micros] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const layer = LAYERS.find(([, test]) => test(url, functionName))![0];
    if (layer === 'idle') continue;
    total += micros;
    layers.set(layer, (layers.get(layer) ?? 0) + micros);
    const where = url ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(src|bench)\//, '$1/')}:${lineNumber + 1}` : '';
    const frame = `${functionName || '(anonymous)'} ${where}`.trim();
    frames.set(frame, (frames.get(frame) ?? 0) + micros);
  }
  return { total, layers, frames };
}

const PATHS = ['upload', 'raw-upload', 'download', 'list'] as const;
type PathName = (typeof PATHS)[number];

async function profilePath(name: PathName): Promise<{ profile: CpuProfile; from: number; to: number }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `tessera-prof-${name}-`));
  const profDir = path.join(dataDir, 'prof');
  const server = await startBenchServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: KEY }, 'src/main.ts', ['--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-interval=${interval}`]);
  const c = client(server.url, clients);
  const bodies = smallFiles(64).map((raw) => ({ ...multipartOne(raw, 'prof'), raw }));
  let n = 0;
  const upload = () => {
    const { body, type, contentAt } = bodies[n++ % bodies.length]!;
    return c.request('POST', '/v1/storage/files', { 'x-api-key': KEY, 'content-type': type }, distinct(body, contentAt));
  };
  const run = async (count: number, one: () => Promise<{ status: number }>) => {
    let next = 0;
    await Promise.all(Array.from({ length: clients }, async () => {
      while (next++ < count) {
        const answer = await one();
        if (answer.status >= 300) throw new Error(`${name}: answered ${answer.status}`);
      }
    }));
  };
  const now = () => Number(process.hrtime.bigint() / 1000n);
  let from = 0;
  let to = 0;
  try {
    // Set-up (1,000 uploads) and a warm-up of the measured path first; only the samples of the
    // measured run count, so start-up, module loading and compilation are left out.
    await run(1000, upload);
    const list = (await (await fetch(`${server.url}/v1/storage/files?limit=1000`, { headers: { 'x-api-key': KEY } })).json()) as { files: { fileId: string }[] };
    const ids = list.files.map((f) => f.fileId);
    let d = 0;
    const measured = {
      upload,
      'raw-upload': () => {
        const { raw } = bodies[n++ % bodies.length]!;
        return c.request('POST', `/v1/storage/files/raw?name=s${n}.bin`, { 'x-api-key': KEY, 'content-type': 'application/octet-stream' }, distinct(raw));
      },
      download: () => c.request('GET', `/v1/storage/files/${ids[d++ % ids.length]}/content`, { 'x-api-key': KEY }),
      list: () => c.request('GET', '/v1/storage/files?limit=100', { 'x-api-key': KEY }),
    }[name];
    await run(500, measured);
    from = now();
    await run(requests, measured);
    to = now();
  } finally {
    c.close();
    await server.stop();
  }
  const [file] = (await fs.readdir(profDir)).filter((f) => f.endsWith('.cpuprofile'));
  const profile = JSON.parse(await fs.readFile(path.join(profDir, file!), 'utf8')) as CpuProfile;
  if (keep) {
    await fs.mkdir(outDir, { recursive: true });
    await fs.copyFile(path.join(profDir, file!), path.join(outDir, `${name}.cpuprofile`));
    // The measured run's window (µs on the profile's clock), for tools that read the kept profile.
    await fs.writeFile(path.join(outDir, `${name}.window.json`), JSON.stringify({ from, to, requests }));
  }
  await fs.rm(dataDir, { recursive: true, force: true });
  return { profile, from, to };
}

const pct = (part: number, total: number) => `${((100 * part) / total).toFixed(1)}%`;
const only = args.includes('--paths') ? args[args.indexOf('--paths') + 1]!.split(',') : undefined;
for (const name of PATHS.filter((p) => !only || only.includes(p))) {
  const { profile, from, to } = await profilePath(name);
  const { total, layers, frames } = summarise(profile, from, to);
  console.log(`\n## ${name}: ${requests} requests, ${(total / requests).toFixed(0)} µs of sampled server CPU each\n`);
  console.log('| layer | share |\n| --- | --- |');
  for (const [layer, micros] of [...layers].sort((a, b) => b[1] - a[1])) console.log(`| ${layer} | ${pct(micros, total)} |`);
  console.log('\n| top frames (self time) | share |\n| --- | --- |');
  for (const [frame, micros] of [...frames].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`| \`${frame}\` | ${pct(micros, total)} |`);
}
