// Small downloads over HTTP from the S3 engine with the read cache on (TESSERA_READ_CACHE_BYTES,
// its default) and off (0), the same checkout, the two servers in turn for 3 rounds:
//   npm exec -- node bench/s3-read-cache.ts   (needs the gateway of scripts/s3-gateway.sh and its env)
// 200 files of 4-64 KiB uploaded to each server, then 4,000 downloads by 16 clients spread over them.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freshBucket } from '../test/helpers/s3.ts';
import { client, cpuSeconds } from './http-client.ts';
import { startBenchServer } from './server.ts';

const FILES = 200;
const DOWNLOADS = 4000;
const CLIENTS = 16;
const bucket = await freshBucket();
const results: Record<'on' | 'off', Array<{ perSecond: number; cpuMicros: number }>> = { on: [], off: [] };
try {
  for (let round = 0; round < 3; round++) {
    for (const side of round % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-s3-cache-'));
      const server = await startBenchServer({ ...bucket.env, TESSERA_S3_PREFIX: `r${round}${side}/`, TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: 'bench-key', ...(side === 'off' ? { TESSERA_READ_CACHE_BYTES: '0' } : {}) });
      const http = client(server.url, CLIENTS);
      try {
        for (let i = 0; i < FILES; i++) {
          const body = randomBytes(4096 + Math.floor(Math.random() * 60 * 1024));
          const answer = await http.request('POST', `/v1/storage/files/raw?name=f${i}.bin`, { 'x-api-key': 'bench-key', 'content-type': 'application/octet-stream' }, body);
          if (answer.status !== 201) throw new Error(`upload answered ${answer.status}`);
        }
        const page = (await (await fetch(`${server.url}/v1/storage/files?limit=1000`, { headers: { 'x-api-key': 'bench-key' } })).json()) as { files: Array<{ fileId: string }> };
        const ids = page.files.map((f) => f.fileId);
        let next = 0;
        const cpuBefore = await cpuSeconds(server.pid);
        const started = performance.now();
        await Promise.all(
          Array.from({ length: CLIENTS }, async () => {
            while (next < DOWNLOADS) {
              const answer = await http.request('GET', `/v1/storage/files/${ids[next++ % ids.length]}/content`, { 'x-api-key': 'bench-key' });
              if (answer.status !== 200) throw new Error(`download answered ${answer.status}`);
            }
          }),
        );
        const seconds = (performance.now() - started) / 1000;
        results[side].push({ perSecond: DOWNLOADS / seconds, cpuMicros: (((await cpuSeconds(server.pid)) - cpuBefore) / DOWNLOADS) * 1e6 });
      } finally {
        http.close();
        await server.stop();
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    }
  }
} finally {
  await bucket.drop();
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
for (const side of ['on', 'off'] as const) {
  const runs = results[side];
  console.log(`read cache ${side}: ${runs.map((r) => `${r.perSecond.toFixed(0)}/s ${r.cpuMicros.toFixed(0)} µs`).join(', ')}; median ${median(runs.map((r) => r.perSecond)).toFixed(0)} downloads/s, ${median(runs.map((r) => r.cpuMicros)).toFixed(0)} µs of server CPU each`);
}
