import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { LocalQuiltStore } from '../src/storage/local-quilt-store.ts';
import { client, cpuSeconds, rssBytes } from './http-client.ts';
import { startBenchServer } from './server.ts';
import { distinct, multipartOne, smallFiles } from './upload-bodies.ts';

const MiB = 2 ** 20;

/** fastify answering a constant, with keep-alive and `clients` at once: requests per second. */
export async function helloWorld(requests: number, clients: number): Promise<number> {
  const server = await startBenchServer({}, 'bench/hello-server.ts');
  const c = client(server.url, clients);
  try {
    // Warmed up first, as the servers set against it are (by their set-up): a cold server's first
    // thousands of requests run before its code is compiled.
    await rate(warmUp(requests), clients, () => c.request('GET', '/'));
    return await rate(requests, clients, () => c.request('GET', '/'));
  } finally {
    c.close();
    await server.stop();
  }
}

/** Requests run before a baseline is timed: a tenth of the timed ones, at most 2,000. */
const warmUp = (requests: number) => Math.min(2000, Math.ceil(requests / 10));

async function rate(total: number, clients: number, one: () => Promise<{ status: number }>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next++ < total) {
      const answer = await one();
      if (answer.status >= 300) throw new Error(`answered ${answer.status}`);
    }
  }));
  return total / ((performance.now() - started) / 1000);
}

/**
 * Fastify moving the bench's small files and nothing else (bench/bytes-server.ts): answering them
 * from memory, and taking them as a request's body. What a download or a raw upload would cost
 * with no key, database or store.
 */
export async function bytesFloor(requests: number, clients: number): Promise<{ servedPerSecond: number; takenPerSecond: number }> {
  const server = await startBenchServer({}, 'bench/bytes-server.ts');
  const c = client(server.url, clients);
  try {
    const bodies = smallFiles(256);
    let n = 0;
    const serve = () => c.request('GET', `/bytes/${n++}`);
    const take = () => c.request('POST', '/bytes', { 'content-type': 'application/octet-stream' }, bodies[n++ % bodies.length]);
    await rate(warmUp(requests), clients, serve);
    await rate(warmUp(requests), clients, take);
    const servedPerSecond = await rate(requests, clients, serve);
    const takenPerSecond = await rate(requests, clients, take);
    return { servedPerSecond, takenPerSecond };
  } finally {
    c.close();
    await server.stop();
  }
}

export interface SmallFilesResult {
  uploadsPerSecond: number;
  uploadCpuMicros: number;
  /** One file as the request's body (POST /v1/storage/files/raw), for clients that need no multipart. */
  rawUploadsPerSecond: number;
  rawUploadCpuMicros: number;
  downloadsPerSecond: number;
  serverRssAfterUploads: number;
}

/** Small files (4-64 KiB) uploaded, one per request, by `clients` at once (multipart, then as raw bodies); then downloaded. */
export async function smallFilesEndToEnd(files: number, clients: number, env: Record<string, string> = {}): Promise<SmallFilesResult> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-small-'));
  const server = await startBenchServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: 'bench-small-key', ...env });
  const c = client(server.url, clients);
  try {
    const raws = smallFiles(256);
    const bodies = raws.map((raw) => multipartOne(raw));
    const ids: string[] = [];
    const cpu = await cpuSeconds(server.pid);
    let n = 0;
    const uploadsPerSecond = await rate(files, clients, async () => {
      const { body, type, contentAt } = bodies[n++ % bodies.length]!;
      return c.request('POST', '/v1/storage/files', { 'x-api-key': 'bench-small-key', 'content-type': type }, distinct(body, contentAt));
    });
    const uploadCpuMicros = (((await cpuSeconds(server.pid)) - cpu) / files) * 1e6;
    const rawCpu = await cpuSeconds(server.pid);
    const rawUploadsPerSecond = await rate(files, clients, () =>
      c.request('POST', `/v1/storage/files/raw?name=r${n}.bin`, { 'x-api-key': 'bench-small-key', 'content-type': 'application/octet-stream' }, distinct(raws[n++ % raws.length]!)),
    );
    const rawUploadCpuMicros = (((await cpuSeconds(server.pid)) - rawCpu) / files) * 1e6;
    const serverRssAfterUploads = await rssBytes(server.pid);
    const list = (await (await fetch(`${server.url}/v1/storage/files?limit=1000`, { headers: { 'x-api-key': 'bench-small-key' } })).json()) as { files: { fileId: string }[] };
    ids.push(...list.files.map((f) => f.fileId));
    let d = 0;
    const downloadsPerSecond = await rate(files, clients, () => c.request('GET', `/v1/storage/files/${ids[d++ % ids.length]}/content`, { 'x-api-key': 'bench-small-key' }));
    return { uploadsPerSecond, uploadCpuMicros, rawUploadsPerSecond, rawUploadCpuMicros, downloadsPerSecond, serverRssAfterUploads };
  } finally {
    c.close();
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** Reading small blobs back: by patch from the quilt store, against one file per blob. */
export async function smallReads(count: number): Promise<{ patchReadsPerSecond: number; fileReadsPerSecond: number }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-reads-'));
  try {
    const store = await LocalQuiltStore.open({ dir: path.join(dir, 'quilts'), batchWindowMs: 2, batchMaxBytes: 16 * MiB, inlineMaxBytes: MiB });
    const blobs = smallFiles(count);
    const staged = await Promise.all(blobs.map((b) => store.stage([b], { maxBytes: MiB })));
    const patches = (await store.persist(staged)).map((l) => l.quiltPatchId);
    await fs.mkdir(path.join(dir, 'files'));
    await Promise.all(blobs.map((b, i) => fs.writeFile(path.join(dir, 'files', `${i}.blob`), b)));
    const drain = async (stream: Readable) => {
      for await (const chunk of stream) void chunk;
    };
    const time = async (one: (i: number) => Promise<unknown>) => {
      let next = 0;
      const started = performance.now();
      await Promise.all(Array.from({ length: 100 }, async () => {
        while (next < count) await one(next++);
      }));
      return count / ((performance.now() - started) / 1000);
    };
    await time(async (i) => drain(await store.read(patches[i]!)));
    await time((i) => fs.readFile(path.join(dir, 'files', `${i}.blob`)));
    const patchReadsPerSecond = await time(async (i) => drain(await store.read(patches[i]!)));
    const fileReadsPerSecond = await time((i) => fs.readFile(path.join(dir, 'files', `${i}.blob`)));
    await store.close();
    return { patchReadsPerSecond, fileReadsPerSecond };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Consumes a stream the way a client checking it would: hashing every byte. */
export function hashingSink(): Writable {
  const hash = createHash('sha256');
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done();
    },
  });
}

export interface LargeFileResult {
  bytes: number;
  uploadMBps: number;
  rawWriteMBps: number;
  downloadMBps: number;
  rawReadMBps: number;
  serverPeakRssBytes: number;
  /** The server's full (mark-compact) collections and CPU seconds for the upload and the download together. */
  serverFullGcs: number;
  serverCpuSeconds: number;
}

/** One large file streamed up and down over HTTP, against writing it with fsync and reading it back raw. */
export async function largeFile(bytes: number): Promise<LargeFileResult> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-large-'));
  const block = randomBytes(MiB);
  const source = () => Readable.from((function* () {
    for (let sent = 0; sent < bytes; sent += MiB) yield block.subarray(0, Math.min(MiB, bytes - sent));
  })());
  try {
    const { rawWriteMBps, rawReadMBps } = await rawLargeFile(dataDir, bytes, source);
    const server = await startBenchServer({ TESSERA_DATA_DIR: path.join(dataDir, 'tessera'), TESSERA_API_KEY: 'bench-large-key', TESSERA_MAX_FILE_BYTES: String(bytes * 2) });
    try {
      const { uploadMBps, downloadMBps, serverPeakRssBytes, serverFullGcs, serverCpuSeconds } = await largeFileOverHttp(server, bytes, source);
      return { bytes, uploadMBps, rawWriteMBps, downloadMBps, rawReadMBps, serverPeakRssBytes, serverFullGcs, serverCpuSeconds };
    } finally {
      await server.stop();
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The baseline of a large transfer: the same bytes written to a file with one sync at the end,
 * then read back and hashed as the client does, on the same disk (`dir`).
 */
export async function rawLargeFile(dir: string, bytes: number, source: () => AsyncIterable<Buffer>): Promise<{ rawWriteMBps: number; rawReadMBps: number }> {
  const rawPath = path.join(dir, 'raw.bin');
  let started = performance.now();
  const handle = await fs.open(rawPath, 'w');
  for await (const chunk of source()) await handle.write(chunk);
  await handle.sync();
  await handle.close();
  const rawWriteMBps = bytes / MiB / ((performance.now() - started) / 1000);
  started = performance.now();
  await pipeline((await fs.open(rawPath)).createReadStream(), hashingSink());
  const rawReadMBps = bytes / MiB / ((performance.now() - started) / 1000);
  await fs.rm(rawPath);
  return { rawWriteMBps, rawReadMBps };
}

/**
 * One large file up through the server and down again: MB/s each way and the server's peak RSS.
 * The server's key must be bench-large-key.
 */
export async function largeFileOverHttp(server: { url: string; pid: number }, bytes: number, source: () => AsyncIterable<Buffer>): Promise<{ uploadMBps: number; downloadMBps: number; serverPeakRssBytes: number; serverFullGcs: number; serverCpuSeconds: number }> {
  const boundary = 'benchlargeboundary';
  const [gcsBefore, cpuBefore] = [await fullCollections(server.url), await cpuSeconds(server.pid)];
  let started = performance.now();
  const fileId = await new Promise<string>((resolve, reject) => {
    const req = http.request(`${server.url}/v1/storage/files`, { method: 'POST', headers: { 'x-api-key': 'bench-large-key', 'content-type': `multipart/form-data; boundary=${boundary}` } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => (res.statusCode === 201 ? resolve((JSON.parse(text) as { files: { fileId: string }[] }).files[0]!.fileId) : reject(new Error(text))));
    });
    req.on('error', reject);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    void pipeline(source(), req, { end: false }).then(() => req.end(`\r\n--${boundary}--\r\n`), reject);
  });
  const uploadMBps = bytes / MiB / ((performance.now() - started) / 1000);
  started = performance.now();
  // node:http as the upload uses, not fetch: its web stream, turned back into a Node stream, held
  // the client to about half of what the server sends (docs/benchmarks.md, "Fourth pass").
  const body = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(`${server.url}/v1/storage/files/${fileId}/content`, { headers: { 'x-api-key': 'bench-large-key' } }, (res) => (res.statusCode === 200 ? resolve(res) : reject(new Error(`download answered ${res.statusCode}`)))).on('error', reject);
  });
  await pipeline(body, hashingSink());
  const downloadMBps = bytes / MiB / ((performance.now() - started) / 1000);
  const status = await fs.readFile(`/proc/${server.pid}/status`, 'utf8');
  const [serverFullGcs, serverCpuSeconds] = [(await fullCollections(server.url)) - gcsBefore, (await cpuSeconds(server.pid)) - cpuBefore];
  return { uploadMBps, downloadMBps, serverPeakRssBytes: Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024, serverFullGcs, serverCpuSeconds };
}

/** The server's full (major) garbage collections so far, from its own /metrics. */
async function fullCollections(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('tessera_nodejs_gc_duration_seconds_count{') && l.includes('kind="major"'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}
