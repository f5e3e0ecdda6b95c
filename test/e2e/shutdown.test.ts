import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer } from '../helpers/server.ts';

const KEY = 'shutdown-test-key';

/** An upload whose body trickles in: `chunks` pieces, `gapMs` apart. Answers the status and the Connection header. */
function slowUpload(url: string, chunks: number, gapMs: number): { started: Promise<void>; done: Promise<number>; connection: Promise<string | undefined> } {
  const boundary = 'slowboundary';
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  let connection!: (value: string | undefined) => void;
  const connectionHeader = new Promise<string | undefined>((resolve) => (connection = resolve));
  const done = new Promise<number>((resolve, reject) => {
    const request = http.request(`${url}/v1/storage/files`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': `multipart/form-data; boundary=${boundary}` } }, (response) => {
      connection(response.headers.connection);
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    request.on('error', reject);
    void (async () => {
      request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      markStarted();
      // Not past the request's end: a trickle left writing into a closed connection kept the test
      // process alive for its remaining seconds.
      for (let i = 0; i < chunks && !request.destroyed; i++) {
        request.write(Buffer.alloc(1024, i));
        await sleep(gapMs);
      }
      request.end(`\r\n--${boundary}--\r\n`);
    })();
  });
  return { started, done, connection: connectionHeader };
}

async function tempDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'tessera-shutdown-'));
}

test('SIGTERM: new connections are refused, the request in flight completes, exit 0', async () => {
  const dataDir = await tempDir();
  const server = await startServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: KEY, TESSERA_SHUTDOWN_TIMEOUT_MS: '10000' });
  try {
    const upload = slowUpload(server.url, 10, 100);
    await upload.started;
    await sleep(150);
    const exit = server.stop('SIGTERM');
    await sleep(200);
    await assert.rejects(fetch(`${server.url}/healthz`), 'no new connections once stopping');
    assert.equal(await upload.done, 201, 'the upload in flight was finished');
    // Its connection is not kept alive, which would hold the exit until the keep-alive timeout.
    assert.equal(await upload.connection, 'close');
    assert.equal(await exit, 0);
    assert.match(server.output(), /SIGTERM: finishing in-flight requests/);
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

test('a request that outlives TESSERA_SHUTDOWN_TIMEOUT_MS does not hold the exit', async () => {
  const dataDir = await tempDir();
  const server = await startServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: KEY, TESSERA_SHUTDOWN_TIMEOUT_MS: '500' });
  try {
    const upload = slowUpload(server.url, 100, 100); // ten seconds of trickle
    upload.done.catch(() => undefined);
    await upload.started;
    await sleep(150); // the server has the request by now
    const started = Date.now();
    const code = await server.stop('SIGTERM');
    assert.equal(code, 1, 'a shutdown that timed out says so in its exit code');
    assert.ok(Date.now() - started < 5000, 'it exits after the timeout, not after the request');
    assert.match(server.output(), /shutdown timed out/);
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
