#!/usr/bin/env node
// `npm test`: every test file under test/, in two tiers, with one summary at the end.
//
//   fast:   units, routes through app.inject, repositories on both dialects, the CLI in-process.
//           Several files at once (TESSERA_TEST_CONCURRENCY, default: the cores, at least 2).
//   serial: end-to-end, crash, load and soak tests and the browser: they start and kill
//           servers and measure throughput, so they run one at a time, after the fast tier.
//
// `npm test -- test/cli test/db/reconnect.test.ts` runs only the files under those paths (in
// their tiers). Every file still runs alone too: `node --test test/x.test.ts` (Node 24 strips the
// types itself; no loader).
import { glob } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

/** Files (or folders, ending in /) of the serial tier; everything else is fast. */
const SERIAL = ['test/e2e/', 'test/web/console.browser.test.ts'];
/**
 * End-to-end files that run in the fast tier all the same: they start real servers, but kill
 * none mid-work, time nothing, measure no memory and share nothing (own data dir, database and
 * port), so other files beside them change only how long they take.
 */
const FAST_ANYWAY = ['test/e2e/generative.test.ts', 'test/e2e/replicas.test.ts'];

const isSerial = (file) => !FAST_ANYWAY.includes(file) && SERIAL.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));

const concurrency = Number(process.env.TESSERA_TEST_CONCURRENCY ?? Math.max(2, os.availableParallelism()));
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`TESSERA_TEST_CONCURRENCY must be a whole number of at least 1, not ${JSON.stringify(process.env.TESSERA_TEST_CONCURRENCY)}`);
  process.exit(2);
}

// Node's compile cache, for every test process and every server or CLI process they start (they
// inherit the environment): each keeps the code it compiled, and the TypeScript it stripped, on
// disk, keyed by the files' contents, so the ~100 processes of a run after the first compile
// each module once. Importing the service took 1.1 s of CPU without it, 0.6 s with it.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), 'node-compile-cache');

const wanted = process.argv.slice(2).map((arg) => path.relative(process.cwd(), path.resolve(arg)));
const chosen = (file) => wanted.length === 0 || wanted.some((w) => file === w || file.startsWith(`${w}/`));
const files = (await Array.fromAsync(glob('test/**/*.test.ts'))).filter(chosen).sort();
if (files.length === 0) {
  console.error(`no test files under ${wanted.join(', ')}`);
  process.exit(2);
}

const tiers = [
  { name: 'fast', files: files.filter((f) => !isSerial(f)), concurrency },
  { name: 'serial', files: files.filter(isSerial), concurrency: 1 },
].filter((tier) => tier.files.length > 0);

const total = { tests: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 };
const lines = [];
let success = true;
/** Under CI, where PostgreSQL, the S3 gateway and Chromium are all there, a skip is a failure. */
const skipped = [];
for (const tier of tiers) {
  const started = performance.now();
  const stream = run({ files: tier.files, concurrency: tier.concurrency });
  stream.on('test:summary', (summary) => {
    if (summary.file !== undefined) return; // one per file; the run's own comes last, without a file
    for (const key of Object.keys(total)) total[key] += summary.counts[key] ?? 0;
    success &&= summary.success;
  });
  // Time per file (its top-level tests), to show which files a tier waits for.
  const perFile = new Map();
  const timeFile = ({ nesting, file, details }) => {
    if (nesting === 0 && file) perFile.set(file, (perFile.get(file) ?? 0) + (details.duration_ms ?? 0));
  };
  stream.on('test:pass', timeFile).on('test:fail', timeFile);
  stream.on('test:pass', ({ name, file, skip }) => {
    if (skip !== undefined) skipped.push(`${name}${file ? ` (${path.relative(process.cwd(), file)})` : ''}: ${skip === true ? 'skipped' : skip}`);
  });
  const output = stream.compose(spec);
  output.pipe(process.stdout, { end: false });
  await finished(output);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const slowest = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([file, ms]) => `${path.relative(process.cwd(), file)} ${(ms / 1000).toFixed(0)} s`);
  lines.push(`${tier.name} tier: ${tier.files.length} files, ${tier.concurrency} at a time, ${seconds} s; slowest: ${slowest.join(', ')}`);
}

const counts = Object.entries(total).map(([key, n]) => `${key} ${n}`).join(', ');
process.stdout.write(`\n== all tiers ==\n${lines.join('\n')}\n${counts}\n`);
if (process.env.CI && skipped.length > 0) {
  process.stdout.write(`\nunder CI nothing may be skipped (PostgreSQL, the S3 gateway and Chromium are there), but these were:\n${skipped.map((line) => `  ${line}`).join('\n')}\n`);
  success = false;
}
// The plain closing line a CI reads for the count, whatever runner printed above it.
process.stdout.write(`tests: ${total.passed} passed, ${total.failed + total.cancelled} failed, ${total.skipped} skipped\n`);
process.exitCode = success ? 0 : 1;
