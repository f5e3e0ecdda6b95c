// Small downloads spread over many quilts (600 files uploaded one after another, a quilt each), read
// at random by 16 clients: TESSERA_OPEN_QUILT_FILES at 256 (the default where the open-file limit is
// 1024) against 1024, three rounds each, medians.
//   npm exec -- node bench/open-quilts.ts
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startBenchServer } from './server.ts';
import { client, cpuSeconds } from './http-client.ts';
const files = 600, requests = 6000, clients = 16;
async function run(openQuiltFiles: string) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'openq-'));
  const env: Record<string, string> = { TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: 'openq-key', TESSERA_OPEN_QUILT_FILES: openQuiltFiles };
  const server = await startBenchServer(env, 'src/main.ts');
  const c = client(server.url, clients);
  try {
    const ids: string[] = [];
    for (let i = 0; i < files; i++) { // one after another: a quilt each
      const body = randomBytes(4096 + (i % 16) * 1024);
      const a = await fetch(`${server.url}/v1/storage/files/raw?name=f${i}.bin`, { method: 'POST', headers: { 'x-api-key': 'openq-key', 'content-type': 'application/octet-stream' }, body });
      ids.push(((await a.json()) as { files: Array<{ fileId: string }> }).files[0]!.fileId);
    }
    let next = 0;
    const cpu0 = await cpuSeconds(server.pid); const t0 = performance.now();
    await Promise.all(Array.from({ length: clients }, async () => { while (next < requests) { const id = ids[(next++ * 7919) % files]!; const r = await c.request('GET', `/v1/storage/files/${id}/content`, { 'x-api-key': 'openq-key' }); if (r.status !== 200) throw new Error(String(r.status)); } }));
    const s = (performance.now() - t0) / 1000; const cpu = (await cpuSeconds(server.pid)) - cpu0;
    return { rate: requests / s, cpuMicros: (cpu / requests) * 1e6 };
  } finally { c.close(); await server.stop(); await fs.rm(dataDir, { recursive: true, force: true }); }
}
const out: Record<string, Array<{ rate: number; cpuMicros: number }>> = { '256': [], '1024': [] };
for (let round = 0; round < 3; round++) {
  out['256'].push(await run('256'));
  out['1024'].push(await run('1024'));
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[1]!;
for (const [k, v] of Object.entries(out)) console.log(`${k.padEnd(8)} ${med(v.map((x) => x.rate)).toFixed(0)} downloads/s, ${med(v.map((x) => x.cpuMicros)).toFixed(0)} µs CPU each (rounds: ${v.map((x) => x.rate.toFixed(0)).join(', ')})`);
