import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createS3Client } from '../src/storage/s3-client.ts';
import { S3QuiltStore } from '../src/storage/s3-quilt-store.ts';
import { freshBucket } from '../test/helpers/s3.ts';
import { client } from './http-client.ts';
import { hashingSink, largeFileOverHttp } from './transfer.ts';
import { startBenchServer } from './server.ts';
import { distinct, multipartOne, smallFiles } from './upload-bodies.ts';

/**
 * The S3 engine against the same gateway used plainly, in the same run: small uploads end to end
 * (HTTP, group commit into quilt objects) against one PutObject per file; small reads by patch
 * (a ranged GET into a quilt) against one GetObject per file; a large file up and down over HTTP
 * against a multipart upload and a GetObject straight to the gateway, with the server's peak RSS.
 */
const MiB = 2 ** 20;

async function rate(total: number, clients: number, one: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < total) await one(next++);
  }));
  return total / ((performance.now() - started) / 1000);
}

const drain = async (stream: AsyncIterable<unknown>) => {
  for await (const chunk of stream) void chunk;
};

export interface S3SmallResult {
  uploadsPerSecond: number;
  putObjectsPerSecond: number;
  patchReadsPerSecond: number;
  getObjectsPerSecond: number;
}

/** Small files (4-64 KiB) by `clients` at once: through Tessera on S3, and straight to the gateway. */
export async function s3SmallFiles(files: number, clients: number): Promise<S3SmallResult> {
  const bucket = await freshBucket();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-s3-'));
  try {
    // Baseline: one PutObject per file, then one GetObject per file.
    const bodies = smallFiles(256);
    const putObjectsPerSecond = await rate(files, clients, (i) =>
      bucket.client.send(new PutObjectCommand({ Bucket: bucket.name, Key: `plain/${i}`, Body: bodies[i % bodies.length]!, ContentLength: bodies[i % bodies.length]!.length })),
    );
    const getObjectsPerSecond = await rate(files, clients, async (i) => drain((await bucket.client.send(new GetObjectCommand({ Bucket: bucket.name, Key: `plain/${i}` }))).Body as Readable));

    // Tessera end to end: one file per request.
    const server = await startBenchServer({ ...bucket.env, TESSERA_S3_PREFIX: 'tessera', TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: 'bench-s3-key' });
    const c = client(server.url, clients);
    let uploadsPerSecond: number;
    try {
      const forms = bodies.map((body) => multipartOne(body));
      uploadsPerSecond = await rate(files, clients, async (i) => {
        const { body, type, contentAt } = forms[i % forms.length]!;
        const answer = await c.request('POST', '/v1/storage/files', { 'x-api-key': 'bench-s3-key', 'content-type': type }, distinct(body, contentAt));
        if (answer.status !== 201) throw new Error(`upload answered ${answer.status}`);
      });
    } finally {
      c.close();
      await server.stop();
    }

    // Reads by patch at the store layer, the blobs packed as the server packs them.
    const store = await S3QuiltStore.open({
      client: createS3Client(bucket.settings),
      bucket: bucket.name,
      prefix: 'reads/',
      tmpDir: path.join(dataDir, 'staging'),
      batchWindowMs: 2,
      batchMaxBytes: 16 * MiB,
      inlineMaxBytes: MiB,
      maxConcurrentSeals: 4,
      partBytes: 8 * MiB,
      partsInFlight: 4,
      checkTimeoutMs: 5000,
    });
    try {
      const patches: string[] = [];
      await rate(files, clients, async (i) => {
        const [location] = await store.persist([await store.stage([bodies[i % bodies.length]!], { maxBytes: MiB })]);
        patches[i] = location!.quiltPatchId;
      });
      const patchReadsPerSecond = await rate(files, clients, async (i) => drain(await store.read(patches[i]!)));
      return { uploadsPerSecond, putObjectsPerSecond, patchReadsPerSecond, getObjectsPerSecond };
    } finally {
      await store.close();
    }
  } finally {
    await bucket.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}


export interface S3LargeResult {
  bytes: number;
  uploadMBps: number;
  rawUploadMBps: number;
  downloadMBps: number;
  rawDownloadMBps: number;
  serverPeakRssBytes: number;
}

/** One large file over HTTP into the S3 engine and back, against the SDK straight to the gateway. */
export async function s3LargeFile(bytes: number): Promise<S3LargeResult> {
  const bucket = await freshBucket();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-s3-large-'));
  const block = randomBytes(MiB);
  const source = () => Readable.from((function* () {
    for (let sent = 0; sent < bytes; sent += MiB) yield block.subarray(0, Math.min(MiB, bytes - sent));
  })());
  try {
    let started = performance.now();
    await new Upload({ client: bucket.client, params: { Bucket: bucket.name, Key: 'plain/large', Body: source() }, partSize: 8 * MiB, queueSize: 4 }).done();
    const rawUploadMBps = bytes / MiB / ((performance.now() - started) / 1000);
    started = performance.now();
    await pipeline((await bucket.client.send(new GetObjectCommand({ Bucket: bucket.name, Key: 'plain/large' }))).Body as Readable, hashingSink());
    const rawDownloadMBps = bytes / MiB / ((performance.now() - started) / 1000);

    const server = await startBenchServer({ ...bucket.env, TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: 'bench-large-key', TESSERA_MAX_FILE_BYTES: String(bytes * 2) });
    try {
      const { uploadMBps, downloadMBps, serverPeakRssBytes } = await largeFileOverHttp(server, bytes, source);
      return { bytes, uploadMBps, rawUploadMBps, downloadMBps, rawDownloadMBps, serverPeakRssBytes };
    } finally {
      await server.stop();
    }
  } finally {
    await bucket.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
