import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { dialects } from '../helpers/databases.ts';
import { errorOf, startTestApp, type TestApp } from '../helpers/app.ts';

/** POST /v1/storage/files/raw: one file as the whole body, its name in the query. */
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('base64url');
const MAX = 64 * 1024;
/** The most of a refused body's rest the server reads and drops (TESSERA_UNREAD_BODY_DRAIN_BYTES). */
const DRAIN = 200_000;
/** …and for how long (TESSERA_UNREAD_BODY_DRAIN_MS). */
const DRAIN_MS = 1000;

/** 'closed', or 'open' if that did not happen within `ms` (a bound against a hang, not a timing). */
async function closedWithin(closed: Promise<void>, ms: number): Promise<'closed' | 'open'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'open'>((resolve) => (timer = setTimeout(() => resolve('open'), ms)));
  try {
    return await Promise.race([closed.then(() => 'closed' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A raw upload over a plain socket, chunked, whose first chunk passes the file limit: answered
 * 413 while the socket stays open for whatever the test sends next.
 */
async function refusedUpload(base: string, key: string) {
  const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => {}); // writes after the server's close fail; the close is what is checked
  // Not once(): it would reject on the reset that may come with the close.
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`POST /v1/storage/files/raw?name=rest.bin HTTP/1.1\r\nHost: tessera\r\nx-api-key: ${key}\r\ncontent-type: application/octet-stream\r\ntransfer-encoding: chunked\r\n\r\n`);
  socket.write(`${(MAX + 1000).toString(16)}\r\n${'a'.repeat(MAX + 1000)}\r\n`);
  for (let waited = 0; !answer.includes('\r\n\r\n') && waited < 10_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.match(answer, /^HTTP\/1\.1 413 /);
  return { socket, closed };
}

interface FileRec {
  fileId: string;
  sizeBytes: string;
  mimeType: string;
  name: string;
  workspaceId: string;
  metadata: { blobId: string };
}

/** Over real HTTP, the body sent chunked (no Content-Length) or with one, in pieces. */
function send(url: string, key: string, pieces: Buffer[], headers: Record<string, string> = {}, agent?: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'x-api-key': key, ...headers }, agent }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    // A server that refuses early may close before every piece was sent.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? resolve({ status: 0, body: error.code }) : reject(error)));
    const next = (i: number) => {
      if (i === pieces.length) return req.end();
      req.write(pieces[i], () => setImmediate(() => next(i + 1)));
    };
    next(0);
  });
}

for (const dialect of await dialects()) {
  describe(`raw-body upload on ${dialect}`, () => {
    let t: TestApp;
    let base: string;
    before(async () => {
      t = await startTestApp(dialect, { TESSERA_MAX_FILE_BYTES: String(MAX), TESSERA_UNREAD_BODY_DRAIN_BYTES: String(DRAIN), TESSERA_UNREAD_BODY_DRAIN_MS: String(DRAIN_MS) });
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    });
    after(() => t.close());

    const raw = (query: string, payload: Buffer | string, headers: Record<string, string> = {}, key = t.key) =>
      t.app.inject({ method: 'POST', url: `/v1/storage/files/raw${query}`, headers: { 'x-api-key': key, ...headers }, payload });
    const list = async (key = t.key) => ((await t.app.inject({ url: '/v1/storage/files', headers: { 'x-api-key': key } })).json() as { files: FileRec[] }).files;

    test('the body is the file: 201 with its record, the bytes read back, the type as declared or by the name', async () => {
      const bytes = randomBytes(20_000);
      const res = await raw('?name=photo.jpg', bytes, { 'content-type': 'image/jpeg' });
      assert.equal(res.statusCode, 201, res.body);
      const [file] = (res.json() as { files: FileRec[] }).files as [FileRec];
      assert.equal(file.name, 'photo.jpg');
      assert.equal(file.mimeType, 'image/jpeg');
      assert.equal(file.sizeBytes, '20000');
      assert.equal(file.metadata.blobId, sha(bytes));
      const back = await t.app.inject({ url: `/v1/storage/files/${file.fileId}/content`, headers: { 'x-api-key': t.key } });
      assert.equal(back.statusCode, 200);
      assert.deepEqual(back.rawPayload, bytes);

      const byName = await raw('?name=notes.txt', 'plain words', { 'content-type': 'application/octet-stream' });
      assert.equal((byName.json() as { files: FileRec[] }).files[0]!.mimeType, 'text/plain', 'octet-stream: the type follows the extension');
      const untyped = await raw('?name=..%2F..%2Fetc%2Fpasswd', 'x');
      assert.equal(untyped.statusCode, 201, untyped.body);
      assert.equal((untyped.json() as { files: FileRec[] }).files[0]!.name, 'passwd', 'the name is cleaned like a multipart file name');
      const empty = await raw('?name=empty.bin', Buffer.alloc(0), { 'content-type': 'application/octet-stream' });
      assert.equal(empty.statusCode, 201, empty.body);
      assert.equal((empty.json() as { files: FileRec[] }).files[0]!.sizeBytes, '0');
      const noBody = await t.app.inject({ method: 'POST', url: '/v1/storage/files/raw?name=nothing.bin', headers: { 'x-api-key': t.key } });
      assert.equal(noBody.statusCode, 201, `no body at all is an empty file, not a fault: ${noBody.body}`);
    });

    test('bad requests: no name, another account\'s Space, a read key, over the size limit; nothing stored', async () => {
      const { key: readKey } = await t.context.keys.create('reader', { scope: 'read' });
      const { key } = await t.context.keys.create('raw-limits');
      const other = (await t.app.inject({ url: '/v1/spaces', headers: { 'x-api-key': t.otherKey } })).json() as { spaces: Array<{ id: string }> };
      assert.equal(errorOf(await raw('', 'x', {}, key)).code, 'invalid_request');
      const foreign = await raw(`?name=a.txt&workspace_id=${other.spaces[0]!.id}`, 'x', {}, key);
      assert.equal(foreign.statusCode, 404, 'another account\'s Space is not found');
      assert.equal((await raw('?name=a.txt', 'x', {}, readKey)).statusCode, 403);
      const big = await raw('?name=big.bin', randomBytes(MAX + 1), {}, key);
      assert.equal(big.statusCode, 413);
      assert.equal(errorOf(big).code, 'payload_too_large');
      assert.deepEqual(await list(key), [], 'nothing was stored');
    });

    test('the quota: refused from the declared length, or as the bytes pass it; nothing stored', async () => {
      const { key } = await t.context.keys.create('raw-quota');
      await t.context.accounts.setQuota('raw-quota', { bytes: '30000', files: '2' });
      const over = await raw('?name=a.bin', randomBytes(30_001), {}, key);
      assert.equal(over.statusCode, 413);
      assert.equal(errorOf(over).code, 'quota_exceeded');
      // Sent chunked, without a length to refuse early: refused as the bytes pass the room left.
      const streamed = await send(`${base}/v1/storage/files/raw?name=b.bin`, key, [randomBytes(16_000), randomBytes(16_000)], { 'content-type': 'application/octet-stream' });
      assert.equal(streamed.status, 413, streamed.body);
      assert.equal((JSON.parse(streamed.body) as { error: { code: string } }).error.code, 'quota_exceeded');
      assert.deepEqual(await list(key), [], 'nothing was stored');
      assert.equal((await raw('?name=1.bin', 'one', {}, key)).statusCode, 201);
      assert.equal((await raw('?name=2.bin', 'two', {}, key)).statusCode, 201);
      const third = await raw('?name=3.bin', 'three', {}, key);
      assert.equal(errorOf(third).code, 'quota_exceeded', 'the file quota counts raw uploads');
      assert.equal((await list(key)).length, 2);
    });

    test('over real HTTP: a chunked body of many pieces is stored whole; one past the limit is 413', async () => {
      const pieces = Array.from({ length: 12 }, () => randomBytes(4000));
      const res = await send(`${base}/v1/storage/files/raw?name=pieces.bin`, t.key, pieces, { 'content-type': 'application/octet-stream' });
      assert.equal(res.status, 201, res.body);
      const [file] = (JSON.parse(res.body) as { files: FileRec[] }).files as [FileRec];
      assert.equal(file.metadata.blobId, sha(Buffer.concat(pieces)));
      const back = await fetch(`${base}/v1/storage/files/${file.fileId}/content`, { headers: { 'x-api-key': t.key } });
      assert.deepEqual(Buffer.from(await back.arrayBuffer()), Buffer.concat(pieces));

      const before = (await list()).length;
      const tooBig = await send(`${base}/v1/storage/files/raw?name=big.bin`, t.key, Array.from({ length: 20 }, () => randomBytes(4000)));
      assert.equal(tooBig.status, 413, tooBig.body);
      const declared = await send(`${base}/v1/storage/files/raw?name=big.bin`, t.key, [randomBytes(MAX + 1)], { 'content-length': String(MAX + 1) });
      assert.equal(declared.status, 413, declared.body);
      assert.equal((await list()).length, before, 'nothing was stored');
    });

    test('over real HTTP: an upload refused part way is answered; the rest of its body is read and dropped and the connection serves the next request, or, past TESSERA_UNREAD_BODY_DRAIN_BYTES, closed', async () => {
      const sockets: Socket[] = [];
      const onConnection = (socket: Socket) => sockets.push(socket);
      t.app.server.on('connection', onConnection);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        // Refused at 64 KiB of 80 KB: the client, still sending, gets the answer every time.
        for (let i = 0; i < 10; i++) {
          const tooBig = await send(`${base}/v1/storage/files/raw?name=big.bin`, t.key, Array.from({ length: 20 }, () => randomBytes(4000)), {}, agent);
          assert.equal(tooBig.status, 413, tooBig.body);
          assert.equal((JSON.parse(tooBig.body) as { error: { code: string } }).error.code, 'payload_too_large');
        }
        const next = await new Promise<number>((resolve, reject) => http.get(`${base}/v1/storage/files`, { headers: { 'x-api-key': t.key }, agent }, (res) => resolve(res.resume().statusCode!)).on('error', reject));
        assert.equal(next, 200);
        assert.equal(sockets.length, 1, 'one connection served them all: each refused body was read to its end');

        // 400 KB, more than the server reads to drop: the connection is closed, not left paused
        // mid-body until the keep-alive timeout (72 s), which held up the server's close.
        const longer = await send(`${base}/v1/storage/files/raw?name=big.bin`, t.key, Array.from({ length: 100 }, () => randomBytes(4000)), {}, agent);
        assert.ok(longer.status === 413 || longer.status === 0, `${longer.status} ${longer.body}`);
        const socket = sockets.at(-1)!;
        const closed = socket.destroyed ? Promise.resolve() : once(socket, 'close');
        // The bound is far above the few milliseconds a close takes, far below the keep-alive timeout.
        const bound = t.app.server.keepAliveTimeout / 4;
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'open'>((resolve) => (timer = setTimeout(() => resolve('open'), bound)));
        assert.notEqual(await Promise.race([closed, late]), 'open', `the refused upload's connection is still open after ${bound} ms`);
        clearTimeout(timer);
      } finally {
        agent.destroy();
        t.app.server.off('connection', onConnection);
      }
    });

    test('over real HTTP: the rest of a refused body sent slowly, or in chunks framed to count for little, is cut off by time or by its bytes on the wire', async () => {
      // One byte every 100 ms: closed about TESSERA_UNREAD_BODY_DRAIN_MS after the answer, not
      // held for as long as the client goes on (a generous bound catches a drain without end).
      const slow = await refusedUpload(base, t.key);
      const started = Date.now();
      const ticker = setInterval(() => slow.socket.write('1\r\na\r\n'), 100);
      const slowEnd = await closedWithin(slow.closed, 10 * DRAIN_MS);
      clearInterval(ticker);
      assert.equal(slowEnd, 'closed', `still open ${Date.now() - started} ms after the answer`);

      // Chunks of one byte, each with 16 KB of extension: a byte of body, 16 KB on the wire. The
      // rest is counted as it arrives on the wire, so the connection goes after about DRAIN
      // bytes; counted as body bytes, it would take 16,000 times as much.
      const framed = await refusedUpload(base, t.key);
      const piece = `1;e=${'x'.repeat(16_000)}\r\na\r\n`;
      let sent = 0;
      while (!framed.socket.destroyed && sent < 100 * DRAIN) {
        sent += piece.length;
        if (!framed.socket.write(piece)) await Promise.race([new Promise((resolve) => framed.socket.once('drain', resolve)), framed.closed]);
      }
      assert.ok(sent < 100 * DRAIN, `${sent} bytes were sent after the answer, and the connection was still open`);
      assert.equal(await closedWithin(framed.closed, 10 * DRAIN_MS), 'closed');
    });

    test('over real HTTP: a refused body still arriving does not hold up the server\'s close', async () => {
      const own = await startTestApp(dialect, { TESSERA_MAX_FILE_BYTES: String(MAX), TESSERA_UNREAD_BODY_DRAIN_MS: '600000' });
      try {
        const ownBase = await own.app.listen({ host: '127.0.0.1', port: 0 });
        const slow = await refusedUpload(ownBase, own.key);
        const ticker = setInterval(() => slow.socket.write('1\r\na\r\n'), 100);
        const started = Date.now();
        await own.app.close();
        clearInterval(ticker);
        // The drain would last ten minutes; the close ends it (a generous bound against a hang).
        assert.ok(Date.now() - started < 10_000, `the close took ${Date.now() - started} ms`);
        await slow.closed;
      } finally {
        await own.close();
      }
    });
  });
}
