import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { buildApp } from '../src/http/app.ts';

/**
 * What a signed link costs against the keyed route it stands for: `node
 * bench/links.ts [requests]`. In-process (app.inject, SQLite), a 4 KiB file: the keyed download
 * (key digest + lookup), the same through a link (HMAC check + lookup), and making a link.
 */
const requests = Number(process.argv[2] ?? 3000);
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-links-'));
const context = await createContext(loadConfig({ TESSERA_DATA_DIR: dataDir, TESSERA_CONSOLE_DIR: 'off', TESSERA_RATE_LIMIT_MAX: '100000000' }));
const app = await buildApp(context);
try {
  const { key } = await context.keys.create('bench');
  const boundary = 'b0undary';
  const body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`), Buffer.alloc(4096, 7), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const fileId = (await app.inject({ method: 'POST', url: '/v1/storage/files', headers: { 'x-api-key': key, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body })).json().files[0].fileId as string;
  const makeLink = () => app.inject({ method: 'POST', url: `/v1/storage/files/${fileId}/links`, headers: { 'x-api-key': key }, payload: { expires_in: 3600 } });
  const link = new URL((await makeLink()).json().url);
  const linkPath = link.pathname + link.search;

  const median = async (label: string, call: () => Promise<{ statusCode: number }>) => {
    for (let i = 0; i < 200; i++) await call();
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const start = process.hrtime.bigint();
      const res = await call();
      times.push(Number(process.hrtime.bigint() - start) / 1000);
      if (res.statusCode >= 300) throw new Error(`${label}: ${res.statusCode}`);
    }
    times.sort((a, b) => a - b);
    const value = times[Math.floor(times.length / 2)]!;
    console.log(`${label.padEnd(34)} median ${value.toFixed(0)} µs (p90 ${times[Math.floor(times.length * 0.9)]!.toFixed(0)} µs, ${requests} requests)`);
    return value;
  };
  const keyed = await median('download with the key', () => app.inject({ method: 'GET', url: `/v1/storage/files/${fileId}/content`, headers: { 'x-api-key': key } }));
  const viaLink = await median('download through a signed link', () => app.inject({ method: 'GET', url: linkPath }));
  await median('make a signed link', makeLink);
  console.log(`link / keyed: ${(viaLink / keyed).toFixed(2)}x`);
} finally {
  await app.close();
  await context.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}
