import fs from 'node:fs/promises';
import os from 'node:os';
import { EDIT_PROMPT, benchEdits } from './edits.ts';
import { benchStore, type StoreBenchResult } from './store.ts';

/**
 * `npm run bench [-- --quick]`: every figure is a median of several runs and is set against a
 * raw baseline measured in the same run, because this machine's absolute speed varies.
 */
const quick = process.argv.includes('--quick');
const runs = quick ? 3 : 5;
const blobs = quick ? 2000 : 10_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const results: StoreBenchResult[] = [];
for (let i = 0; i < runs; i++) {
  results.push(await benchStore(blobs));
  process.stdout.write('.');
}
process.stdout.write('\n');

const files = median(results.map((r) => r.filePerBlobFsync));
const pack = median(results.map((r) => r.packBatchedFsync));
const quilt = median(results.map((r) => r.quiltStore));
const ratioPack = median(results.map((r) => r.quiltStore / r.packBatchedFsync));
const ratioFiles = median(results.map((r) => r.quiltStore / r.filePerBlobFsync));

const rows = [
  ['small-file writes (4-64 KiB)', 'files/s (median)', 'vs baseline'],
  ['raw: one file per blob + fsync', files.toFixed(0), '1.00x'],
  ['raw: pack, one fsync per 100', pack.toFixed(0), '1.00x'],
  ['quilt store, 100 writers', quilt.toFixed(0), `${ratioPack.toFixed(2)}x pack, ${ratioFiles.toFixed(2)}x file-per-blob`],
];
const editRounds = await benchEdits(quick ? 3 : 9, quick ? 10 : 30);
const editRaw = median(editRounds.map((r) => r.rawPerSecond));
const editE2e = median(editRounds.map((r) => r.endToEndPerSecond));
const editRatio = median(editRounds.map((r) => r.endToEndPerSecond / r.rawPerSecond));
const editRawCpu = median(editRounds.map((r) => r.rawCpuMsPerEdit));
const editE2eCpu = median(editRounds.map((r) => r.endToEndCpuMsPerEdit));
rows.push(
  ['prompt edit, 1600x1200 JPEG', 'edits/s (median)', 'CPU ms/edit'],
  ['raw: the same sharp chain in-process', editRaw.toFixed(1), editRawCpu.toFixed(0)],
  ['POST /v1/images/edits end to end', editE2e.toFixed(1), `${editE2eCpu.toFixed(0)}  (${editRatio.toFixed(2)}x raw throughput)`],
);

const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));

const report = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
  runs,
  blobsPerRun: blobs,
  store: { filePerBlobFsync: files, packBatchedFsync: pack, quiltStore: quilt, ratioVsPack: ratioPack, ratioVsFilePerBlob: ratioFiles, raw: results },
  edits: { prompt: EDIT_PROMPT, rawPerSecond: editRaw, endToEndPerSecond: editE2e, ratio: editRatio, rawCpuMsPerEdit: editRawCpu, endToEndCpuMsPerEdit: editE2eCpu, rounds: editRounds },
};
await fs.mkdir('.bench', { recursive: true });
await fs.writeFile('.bench/results.json', `${JSON.stringify(report, null, 2)}\n`);
console.log('wrote .bench/results.json');
