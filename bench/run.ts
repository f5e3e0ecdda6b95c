import fs from 'node:fs/promises';
import os from 'node:os';
import { dialects } from '../test/helpers/databases.ts';
import { EDIT_PROMPT, benchEdits } from './edits.ts';
import { benchList, type ListBenchResult } from './list.ts';
import { findNginx, nginxPeer, type NginxPeerResult } from './nginx.ts';
import { benchMasks } from './masks.ts';
import { benchPlanner, benchPlannerThread } from './planner.ts';
import { benchStore, type StoreBenchResult } from './store.ts';
import { benchThumbnails } from './thumbnails.ts';
import { s3LargeFile, s3SmallFiles, type S3LargeResult, type S3SmallResult } from './s3.ts';
import { S3_TEST, s3Available } from '../test/helpers/s3.ts';
import { walrusSmallFiles, walrusStorageCost, type WalrusSmallResult } from './walrus.ts';
import { bytesFloor, helloWorld, largeFile, smallFilesEndToEnd, smallReads, type SmallFilesResult } from './transfer.ts';

/**
 * `npm run bench [-- --quick]`: every figure is a median of several runs and is set against a
 * raw baseline measured in the same run, because this machine's absolute speed varies. Prints a
 * table and writes .bench/results.json; docs/benchmarks.md explains each row.
 */
const quick = process.argv.includes('--quick');
const runs = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const x = (ratio: number) => `${ratio.toFixed(2)}x`;
const ms = (value: number) => `${value.toFixed(2)} ms`;
const MiB = 2 ** 20;
const progress = (label: string) => process.stdout.write(`${label}… `);

const rows: string[][] = [['', 'measured (median)', 'baseline in the same run', 'ratio']];
const section = (title: string) => rows.push([`— ${title}`, '', '', '']);

// Store layer: small-file writes.
progress('store');
const store: StoreBenchResult[] = [];
for (let i = 0; i < runs; i++) store.push(await benchStore(quick ? 2000 : 10_000));
section('small-file writes, store layer (4-64 KiB, 100 writers)');
rows.push(['quilt store, files/s', median(store.map((r) => r.quiltStore)).toFixed(0), `pack + fsync/100: ${median(store.map((r) => r.packBatchedFsync)).toFixed(0)}`, x(median(store.map((r) => r.quiltStore / r.packBatchedFsync)))]);
rows.push(['', '', `pack + SHA-256 + fsync/100: ${median(store.map((r) => r.packHashedBatchedFsync)).toFixed(0)}`, x(median(store.map((r) => r.quiltStore / r.packHashedBatchedFsync)))]);
rows.push(['', '', `file per blob + fsync: ${median(store.map((r) => r.filePerBlobFsync)).toFixed(0)}`, x(median(store.map((r) => r.quiltStore / r.filePerBlobFsync)))]);

// Small-file reads by patch.
progress('reads');
const reads = [];
for (let i = 0; i < runs; i++) reads.push(await smallReads(quick ? 1000 : 5000));
section('small-file reads, store layer (100 readers)');
rows.push(['read by patch, files/s', median(reads.map((r) => r.patchReadsPerSecond)).toFixed(0), `one file per blob: ${median(reads.map((r) => r.fileReadsPerSecond)).toFixed(0)}`, x(median(reads.map((r) => r.patchReadsPerSecond / r.fileReadsPerSecond)))]);

// Small files end to end over HTTP, against fastify's hello world.
progress('http');
const hello: number[] = [];
const floor: Array<{ servedPerSecond: number; takenPerSecond: number }> = [];
const small: SmallFilesResult[] = [];
for (let i = 0; i < runs; i++) {
  hello.push(await helloWorld(quick ? 3000 : 20_000, 100));
  floor.push(await bytesFloor(quick ? 3000 : 20_000, 100));
  small.push(await smallFilesEndToEnd(quick ? 500 : 3000, 100));
}
const againstHello = (of: (r: SmallFilesResult) => number) => x(median(small.map((r, i) => of(r) / hello[i]!)));
section('small files end to end (HTTP, 100 clients, keep-alive)');
rows.push(['uploads/s (one file per request, multipart)', median(small.map((r) => r.uploadsPerSecond)).toFixed(0), `fastify hello world req/s: ${median(hello).toFixed(0)}`, againstHello((r) => r.uploadsPerSecond)]);
rows.push(['server CPU per upload', `${median(small.map((r) => r.uploadCpuMicros)).toFixed(0)} µs`, '', '']);
rows.push(['uploads/s (the file as the body, /raw)', median(small.map((r) => r.rawUploadsPerSecond)).toFixed(0), `hello world: ${median(hello).toFixed(0)}`, againstHello((r) => r.rawUploadsPerSecond)]);
rows.push(['', '', `fastify taking the same bytes: ${median(floor.map((f) => f.takenPerSecond)).toFixed(0)}`, x(median(small.map((r, i) => r.rawUploadsPerSecond / floor[i]!.takenPerSecond)))]);
rows.push(['server CPU per upload (/raw)', `${median(small.map((r) => r.rawUploadCpuMicros)).toFixed(0)} µs`, '', '']);
rows.push(['downloads/s', median(small.map((r) => r.downloadsPerSecond)).toFixed(0), `hello world: ${median(hello).toFixed(0)}`, againstHello((r) => r.downloadsPerSecond)]);
rows.push(['', '', `fastify serving the same bytes from memory: ${median(floor.map((f) => f.servedPerSecond)).toFixed(0)}`, x(median(small.map((r, i) => r.downloadsPerSecond / floor[i]!.servedPerSecond)))]);
rows.push(['fastify serving / taking the same bytes, against hello world', '', '', `${x(median(floor.map((f, i) => f.servedPerSecond / hello[i]!)))} / ${x(median(floor.map((f, i) => f.takenPerSecond / hello[i]!)))}`]);
rows.push(['server RSS after the upload runs', `${(median(small.map((r) => r.serverRssAfterUploads)) / MiB).toFixed(0)} MiB`, '', '']);

// The peer: nginx serving the same small files from a directory (Debian's nginx-light).
const nginx = await findNginx();
const peer: NginxPeerResult[] = [];
if (nginx) {
  progress('nginx');
  for (let i = 0; i < runs; i++) peer.push(await nginxPeer(nginx, quick ? 200 : 1000, quick ? 2000 : 10_000, 16));
  section('small downloads against a plain file server: nginx, one worker, the same files from a directory (16 clients)');
  rows.push(['downloads/s', median(peer.map((r) => r.tesseraDownloadsPerSecond)).toFixed(0), `nginx: ${median(peer.map((r) => r.nginxDownloadsPerSecond)).toFixed(0)}`, x(median(peer.map((r) => r.tesseraDownloadsPerSecond / r.nginxDownloadsPerSecond)))]);
} else {
  section('nginx peer: skipped, no nginx found (apt-get install nginx-light)');
}

// One large file.
progress('large');
const large = await largeFile((quick ? 256 : 1024) * MiB);
section(`one ${large.bytes / MiB} MiB file over HTTP`);
rows.push(['upload MB/s', large.uploadMBps.toFixed(0), `raw write + fsync: ${large.rawWriteMBps.toFixed(0)}`, x(large.uploadMBps / large.rawWriteMBps)]);
rows.push(['download MB/s', large.downloadMBps.toFixed(0), `raw read: ${large.rawReadMBps.toFixed(0)}`, x(large.downloadMBps / large.rawReadMBps)]);
rows.push(['server peak RSS', `${(large.serverPeakRssBytes / MiB).toFixed(0)} MiB`, '', '']);
rows.push(['server CPU, full GCs', `${large.serverCpuSeconds.toFixed(2)} s, ${large.serverFullGcs}`, 'up and down together', '']);

// The S3 engine, against the same gateway used plainly (scripts/s3-gateway.sh start runs one).
const s3Small: S3SmallResult[] = [];
let s3Large: S3LargeResult | undefined;
if (await s3Available()) {
  progress('s3');
  for (let i = 0; i < (quick ? 1 : runs); i++) s3Small.push(await s3SmallFiles(quick ? 600 : 2000, 16));
  section(`S3 engine (gateway at ${S3_TEST.endpoint}), small files 4-64 KiB, 16 clients`);
  rows.push(['uploads/s end to end (one file per request)', median(s3Small.map((r) => r.uploadsPerSecond)).toFixed(0), `PutObject per file: ${median(s3Small.map((r) => r.putObjectsPerSecond)).toFixed(0)}`, x(median(s3Small.map((r) => r.uploadsPerSecond / r.putObjectsPerSecond)))]);
  rows.push(['reads by patch (ranged GET), files/s', median(s3Small.map((r) => r.patchReadsPerSecond)).toFixed(0), `GetObject per file: ${median(s3Small.map((r) => r.getObjectsPerSecond)).toFixed(0)}`, x(median(s3Small.map((r) => r.patchReadsPerSecond / r.getObjectsPerSecond)))]);
  s3Large = await s3LargeFile((quick ? 256 : 1024) * MiB);
  section(`S3 engine: one ${s3Large.bytes / MiB} MiB file over HTTP`);
  rows.push(['upload MB/s', s3Large.uploadMBps.toFixed(0), `multipart upload straight to the gateway: ${s3Large.rawUploadMBps.toFixed(0)}`, x(s3Large.uploadMBps / s3Large.rawUploadMBps)]);
  rows.push(['download MB/s', s3Large.downloadMBps.toFixed(0), `GetObject straight from the gateway: ${s3Large.rawDownloadMBps.toFixed(0)}`, x(s3Large.downloadMBps / s3Large.rawDownloadMBps)]);
  rows.push(['server peak RSS', `${(s3Large.serverPeakRssBytes / MiB).toFixed(0)} MiB`, '', '']);
} else {
  section('S3 engine: skipped, no gateway answered (scripts/s3-gateway.sh start)');
}

// The Walrus engine, against the stand-in publisher and aggregator (test/helpers/walrus.ts).
progress('walrus');
const walrusSmall: WalrusSmallResult[] = [];
for (let i = 0; i < (quick ? 1 : runs); i++) walrusSmall.push(await walrusSmallFiles(quick ? 200 : 400, 16));
section('Walrus engine (stand-in publisher and aggregator), small files 4-64 KiB, 16 writers, encrypted');
rows.push(['stores through quilts, files/s', median(walrusSmall.map((r) => r.quiltFilesPerSecond)).toFixed(0), `PUT /v1/blobs per file: ${median(walrusSmall.map((r) => r.blobFilesPerSecond)).toFixed(0)}`, x(median(walrusSmall.map((r) => r.quiltFilesPerSecond / r.blobFilesPerSecond)))]);
rows.push(['publisher calls per file', median(walrusSmall.map((r) => r.quiltCallsPerFile)).toFixed(3), `per-file blobs: ${median(walrusSmall.map((r) => r.blobCallsPerFile)).toFixed(3)}`, x(median(walrusSmall.map((r) => r.quiltCallsPerFile / r.blobCallsPerFile)))]);
rows.push(['bytes on the wire per file', median(walrusSmall.map((r) => r.quiltWireBytesPerFile)).toFixed(0), `per-file blobs: ${median(walrusSmall.map((r) => r.blobWireBytesPerFile)).toFixed(0)}`, x(median(walrusSmall.map((r) => r.quiltWireBytesPerFile / r.blobWireBytesPerFile)))]);
rows.push(['reads, warm cache, files/s', median(walrusSmall.map((r) => r.warmReadsPerSecond)).toFixed(0), `cold cache (aggregator): ${median(walrusSmall.map((r) => r.coldReadsPerSecond)).toFixed(0)}`, x(median(walrusSmall.map((r) => r.warmReadsPerSecond / r.coldReadsPerSecond)))]);
const walrusCost = walrusStorageCost(10_000);
section(`Walrus storage bought for 10,000 files of 4-64 KiB (${walrusCost.shards} shards, cost model of the protocol)`);
rows.push([`as ${walrusCost.quilts} quilts, MiB-epochs per epoch`, String(walrusCost.quiltUnits), `one blob per file: ${walrusCost.blobUnits}`, x(walrusCost.quiltUnits / walrusCost.blobUnits)]);

// The list at depth, on each database.
const lists: ListBenchResult[] = [];
for (const dialect of await dialects()) {
  progress(`list ${dialect}`);
  const list = await benchList(dialect, quick ? 100_000 : 1_000_000, quick ? 200 : 1000);
  lists.push(list);
  section(`list, ${dialect}, ${list.files.toLocaleString('en')} files in the account, limit 100 (seeded in ${list.seedSeconds.toFixed(0)} s)`);
  rows.push(['first page p50 / p99 (HTTP)', `${ms(list.firstPage.p50)} / ${ms(list.firstPage.p99)}`, '', '']);
  rows.push([`page ${Math.floor(list.files * 0.9).toLocaleString('en')} deep p50 / p99`, `${ms(list.deepPage.p50)} / ${ms(list.deepPage.p99)}`, `first page: ${ms(list.firstPage.p50)} / ${ms(list.firstPage.p99)}`, `${x(list.deepPage.p50 / list.firstPage.p50)} / ${x(list.deepPage.p99 / list.firstPage.p99)}`]);
  rows.push(['deep page in the server (Server-Timing) p99', ms(list.deepPage.serverP99!), `raw keyset query p99: ${ms(list.rawDeep.p99)}`, x(list.deepPage.serverP99! / list.rawDeep.p99)]);
  rows.push(['server CPU per list request (8 clients)', `${list.cpuMicrosPerRequest.toFixed(0)} µs`, `${list.requestsPerSecond.toFixed(0)} req/s`, '']);
  rows.push(['server RSS after the list runs', `${(list.serverRssBytes / MiB).toFixed(0)} MiB`, '', '']);
}

// Prompt edits.
progress('edits');
const edits = await benchEdits(quick ? 3 : 9, quick ? 10 : 30);
section('prompt edit (seed prompt, 1600x1200 JPEG, at TESSERA_EDIT_CONCURRENCY)');
rows.push(['POST /v1/images/edits, edits/s', median(edits.map((r) => r.endToEndPerSecond)).toFixed(1), `same sharp chain in-process: ${median(edits.map((r) => r.rawPerSecond)).toFixed(1)}`, x(median(edits.map((r) => r.endToEndPerSecond / r.rawPerSecond)))]);
rows.push(['CPU per edit', `${median(edits.map((r) => r.endToEndCpuMsPerEdit)).toFixed(0)} ms`, `raw: ${median(edits.map((r) => r.rawCpuMsPerEdit)).toFixed(0)} ms`, '']);

// Planning, on the event loop: the worst of hostile prompts at the length limit.
progress('planner');
const planner = benchPlanner(quick ? 7 : 21);
section(`prompt planning, ${planner.perPrompt.length} hostile prompts of 4,000 characters, CPU of one planning (goal: worst ≤ 10 ms)`);
for (const { mode, worst } of planner.perMode) rows.push([`worst, ${mode}: ${worst.name}`, ms(worst.ms), `the seed prompt: ${ms(planner.seedPromptMs)}`, x(worst.ms / planner.seedPromptMs)]);
// With a provider the planner runs on a thread of its own: what that costs a plan, and spares the event loop.
const plannerThread = await benchPlannerThread(quick ? 300 : 2000);
rows.push(['seed prompt on the planner\'s thread (latency)', ms(plannerThread.threadMs), `on the event loop: ${ms(plannerThread.loopMs)}`, x(plannerThread.loopMs / plannerThread.threadMs)]);
rows.push(['  the event loop\'s CPU per plan', ms(plannerThread.threadLoopCpuMs), `planned on the event loop: ${ms(plannerThread.loopCpuMs)}`, x(plannerThread.loopCpuMs / plannerThread.threadLoopCpuMs)]);

// Thumbnails, as the web console asks for them.
progress('thumbnails');
const thumbnails = await benchThumbnails(quick ? 5 : 15);
section('thumbnail of a 4000x3000 JPEG, 320 px wide (the web console\'s grid)');
rows.push(['first request (rendered)', ms(thumbnails.renderedMs), `same resize with sharp in-process: ${ms(thumbnails.rawSharpMs)}`, x(thumbnails.rawSharpMs / thumbnails.renderedMs)]);
rows.push(['repeated request (cached)', ms(thumbnails.cachedMs), `the original over /content: ${ms(thumbnails.originalMs)}`, '']);

// Region masks, each model in a process of its own (its peak RSS is its own).
progress('masks');
const masks = await benchMasks(quick ? 3 : 7);
section('region masks of a 1600x1600 JPEG (one worker thread; models load on first use)');
for (const mask of masks) {
  rows.push([`${mask.label}: ${mask.region}, median`, ms(mask.medianMs), `sharp decode of the same JPEG: ${ms(mask.decodeMs)}`, x(mask.medianMs / mask.decodeMs)]);
  rows.push(['  first mask (loads the model) / peak RSS', `${ms(mask.firstMs)} / ${(mask.peakRssBytes / MiB).toFixed(0)} MiB`, '', '']);
}
process.stdout.write('\n\n');

const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd());

const report = {
  date: new Date().toISOString(),
  quick,
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
  store,
  reads,
  http: { hello, floor, small },
  nginx: peer,
  large,
  s3: { small: s3Small, large: s3Large },
  walrus: { small: walrusSmall, cost: walrusCost },
  lists,
  edits: { prompt: EDIT_PROMPT, rounds: edits },
  planner: { ...planner, thread: plannerThread },
  thumbnails,
  masks,
  table: rows,
};
await fs.mkdir('.bench', { recursive: true });
await fs.writeFile('.bench/results.json', `${JSON.stringify(report, null, 2)}\n`);
console.log('\nwrote .bench/results.json');
