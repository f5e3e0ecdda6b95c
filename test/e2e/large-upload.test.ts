import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { freshBucket, s3Available } from '../helpers/s3.ts';
import { peakRss, startServer } from '../helpers/server.ts';

const MiB = 1024 * 1024;
const SIZE = 256 * MiB;

/** A multipart body generated on the fly: the test never holds the file either. */
function multipartStream(size: number, hash: ReturnType<typeof createHash>): { body: ReadableStream<Uint8Array>; type: string } {
  const boundary = 'tessera-large-upload';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  let sent = -1;
  const chunk = Buffer.alloc(MiB);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === -1) {
        controller.enqueue(head);
        sent = 0;
      } else if (sent < size) {
        chunk.fill(sent / MiB);
        hash.update(chunk);
        controller.enqueue(Buffer.from(chunk));
        sent += chunk.length;
      } else {
        controller.enqueue(tail);
        controller.close();
      }
    },
  });
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

test('a 256 MiB upload and download stream through without the server holding them', () => largeRoundTrip({}));

// On S3 the file goes up by multipart upload, a few parts at a time, and comes down by one GET.
if (await s3Available()) {
  test('on S3: a 256 MiB upload and download stream through without the server holding them', async () => {
    const bucket = await freshBucket();
    try {
      await largeRoundTrip(bucket.env);
    } finally {
      await bucket.drop();
    }
  });
}

async function largeRoundTrip(storeEnv: Record<string, string>): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-large-'));
  const key = 'large-upload-key-0123456789';
  const server = await startServer({ ...storeEnv, TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: key });
  try {
    const baseline = await peakRss(server.child.pid!);
    const hash = createHash('sha256');
    const { body, type } = multipartStream(SIZE, hash);
    const res = await fetch(`${server.url}/v1/storage/files`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': type },
      body,
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 201, await res.clone().text());
    const file = ((await res.json()) as { files: Array<{ fileId: string; sizeBytes: string; metadata: { blobId: string; quiltId: string } }> }).files[0]!;
    assert.equal(file.sizeBytes, String(SIZE));
    assert.equal(file.metadata.blobId, hash.digest('base64url'));

    const download = await fetch(`${server.url}/v1/storage/files/${file.fileId}/content`, { headers: { 'x-api-key': key } });
    assert.equal(download.headers.get('content-length'), String(SIZE));
    const readBack = createHash('sha256');
    for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) readBack.update(chunk);
    assert.equal(readBack.digest('base64url'), file.metadata.blobId);

    const growth = (await peakRss(server.child.pid!)) - baseline;
    console.log(`${storeEnv.TESSERA_STORE ?? 'local'} store: server peak RSS grew by ${(growth / MiB).toFixed(1)} MiB for a ${SIZE / MiB} MiB upload and download`);
    // Holding the file would grow the peak by its size or more; streaming it grows the peak by
    // what the garbage collector returns late, a fixed amount that depends on the machine's load:
    // 81-99 MiB, about 130 MiB once the server counted its buffers within V8's heap limit
    // (src/main.ts; the peak of a 768 MiB transfer is that of a 256 MiB one), and 165-192 MiB on
    // 2026-11-27 (three runs each of ce82d12 and 172b93b, alike; a CI run failed at 192.4 against
    // three quarters of the file). So the bound is the file's size: a server holding the file
    // would grow by the file and that fixed amount, over 400 MiB. On S3 each part of the multipart
    // upload is read from the staged file as it is sent, so the S3 engine holds no more than the
    // local store: 170-177 MiB on 2026-11-27, where lib-storage, cutting the file into part
    // buffers, had taken it to 218-295 MiB and twice past 320 MiB in CI runs (368 and 415).
    const allowed = SIZE;
    assert.ok(growth < allowed, `peak RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
