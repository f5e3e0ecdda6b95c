// Where the store layer's time goes under the store bench's load (100 writers, quilts of about
// 100 blobs of 4-64 KiB): the whole run, the time spent sealing quilts (write + syncs, from the
// store's onSeal), SHA-256 of every blob alone, and the raw pack of `npm run bench` — 3 rounds.
//   npm exec -- node bench/store-parts.ts [blobs]   (docs/benchmarks.md, "Fourth pass")
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LocalQuiltStore } from '../src/storage/local-quilt-store.ts';
import { packBatched } from './store.ts';

const count = Number(process.argv[2] ?? 6000);
const blobs = Array.from({ length: count }, () => randomBytes(4096 + Math.floor(Math.random() * 60 * 1024)));
for (let round = 0; round < 3; round++) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-store-parts-'));
  let sealingSeconds = 0;
  let seals = 0;
  const store = await LocalQuiltStore.open({
    dir,
    batchWindowMs: 2,
    batchMaxBytes: 16 * 1024 * 1024,
    inlineMaxBytes: 1024 * 1024,
    onSeal: (seal) => {
      seals++;
      sealingSeconds += seal.seconds;
    },
  });
  let started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 100 }, async () => {
      while (next < count) await store.persist([await store.stage([blobs[next++]!], { maxBytes: Infinity })]);
    }),
  );
  const storeMs = performance.now() - started;
  await store.close();
  await fs.rm(dir, { recursive: true, force: true });

  started = performance.now();
  for (const blob of blobs) createHash('sha256').update(blob).digest();
  const hashMs = performance.now() - started;

  const packDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-store-parts-pack-'));
  const packMs = (count / (await packBatched(packDir, blobs))) * 1000;
  await fs.rm(packDir, { recursive: true, force: true });
  const rest = storeMs - sealingSeconds * 1000 - hashMs;
  console.log(
    `store ${storeMs.toFixed(0)} ms (${(count / storeMs * 1000).toFixed(0)} files/s, ${seals} quilts): sealing ${(sealingSeconds * 1000).toFixed(0)} ms, ` +
      `SHA-256 ${hashMs.toFixed(0)} ms, the rest ${rest.toFixed(0)} ms; raw pack ${packMs.toFixed(0)} ms (store / pack ${(packMs / storeMs).toFixed(2)}x, sealing / pack ${(packMs / (sealingSeconds * 1000)).toFixed(2)}x)`,
  );
}
