// What webhooks cost the upload path, and how fast the deliverer sends:
//   node bench/webhooks.ts                 (SQLite)
//   DATABASE_URL=postgres://… node bench/webhooks.ts
// Small uploads through the app (in process, app.inject) with no endpoint registered and with one
// (each upload then writes an outbox row in its transaction), alternated in the same run; then
// the deliverer sends the rows to a receiver on 127.0.0.1. Medians of 5 rounds.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { buildApp } from '../src/http/app.ts';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 1000);
const CLIENTS = 32;
const ROUNDS = 5;

const receiver = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => response.end('ok'));
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;

function multipartOne(content: Buffer): { body: Buffer; type: string } {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`), content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

async function round(withEndpoint: boolean): Promise<{ uploadsPerSecond: number; deliveriesPerSecond: number | undefined }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-webhooks-'));
  const context = await createContext(loadConfig({ ...process.env, TESSERA_DATA_DIR: dataDir, TESSERA_WEBHOOK_ALLOW_PRIVATE: 'true', TESSERA_CONSOLE_DIR: 'off' }));
  const app = await buildApp(context);
  try {
    const { key } = await context.keys.create(`bench${randomBytes(4).toString('hex')}`);
    if (withEndpoint) {
      const res = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: { 'x-api-key': key }, payload: { url: receiverUrl, events: ['file.created'] } });
      if (res.statusCode !== 201) throw new Error(res.body);
    }
    const bodies = Array.from({ length: 64 }, () => multipartOne(randomBytes(4096)));
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < UPLOADS) {
          const { body, type } = bodies[next++ % bodies.length]!;
          const res = await app.inject({ method: 'POST', url: '/v1/storage/files', headers: { 'x-api-key': key, 'content-type': type }, payload: body });
          if (res.statusCode !== 201) throw new Error(res.body);
        }
      }),
    );
    const uploadsPerSecond = UPLOADS / ((performance.now() - started) / 1000);
    if (!withEndpoint) return { uploadsPerSecond, deliveriesPerSecond: undefined };
    const sending = performance.now();
    let delivered = 0;
    while (delivered < UPLOADS) {
      const report = await context.webhooks.deliverDue();
      if (report.retrying + report.failed > 0) throw new Error(`deliveries failed: ${JSON.stringify(report)}`);
      delivered += report.delivered;
    }
    return { uploadsPerSecond, deliveriesPerSecond: delivered / ((performance.now() - sending) / 1000) };
  } finally {
    await app.close();
    await context.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const without: number[] = [];
const withOne: number[] = [];
const ratios: number[] = [];
const deliveries: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  // Which goes first alternates, so warming up favours neither.
  let a, b;
  if (r % 2 === 0) {
    a = await round(false);
    b = await round(true);
  } else {
    b = await round(true);
    a = await round(false);
  }
  without.push(a.uploadsPerSecond);
  withOne.push(b.uploadsPerSecond);
  ratios.push(b.uploadsPerSecond / a.uploadsPerSecond);
  deliveries.push(b.deliveriesPerSecond!);
  console.log(`round ${r + 1}: uploads/s ${a.uploadsPerSecond.toFixed(0)} without an endpoint, ${b.uploadsPerSecond.toFixed(0)} with one (${(b.uploadsPerSecond / a.uploadsPerSecond).toFixed(3)}x); deliveries/s ${b.deliveriesPerSecond!.toFixed(0)}`);
}
console.log(`median: uploads/s ${median(without).toFixed(0)} without, ${median(withOne).toFixed(0)} with one endpoint, ratio ${median(ratios).toFixed(3)}x; deliveries/s ${median(deliveries).toFixed(0)} (TESSERA_WEBHOOK_BATCH ${loadConfig({}).webhooks.batch})`);
receiver.close();
