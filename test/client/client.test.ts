import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { generateTypes } from '../../client/scripts/openapi-to-ts.ts';
import { DOCUMENT_PATH, TYPES_PATH, serverDocument } from '../../client/scripts/server-document.ts';
import { TesseraClient, TesseraError, type FileRecord } from '../../client/src/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { run } from '../helpers/cli.ts';
import { redBlue } from '../helpers/images.ts';

describe('typed client against a real server', () => {
  let t: TestApp;
  let client: TesseraClient;
  let dir: string;

  before(async () => {
    t = await startTestApp('sqlite');
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    client = new TesseraClient({ baseUrl: address, apiKey: t.key });
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-client-'));
  });
  after(async () => {
    await t.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  test("a newcomer's path: Space, upload a picture, list, edit, download the result, delete", async () => {
    const space = await client.spaces.create('holiday');
    assert.ok((await client.spaces.list()).some((s) => s.id === space.id));
    assert.equal(space.encryption, 'sealed');
    const open = await client.spaces.create('open', { encryption: 'none' });
    assert.equal(open.encryption, 'none');
    assert.equal((await client.spaces.update(open.id, { encryption: 'sealed' })).encryption, 'sealed');
    assert.equal((await client.spaces.get(open.id)).encryption, 'sealed');
    const picture = path.join(dir, 'beach.png');
    await fs.writeFile(picture, await redBlue());
    let progressed = 0;
    const [file] = await client.files.upload(picture, { workspaceId: space.id, onProgress: (p) => (progressed = p.sentBytes) });
    assert.equal(file!.name, 'beach.png');
    assert.equal(file!.mimeType, 'image/png');
    assert.equal(progressed, (await fs.stat(picture)).size);

    const page = await client.files.list({ workspaceId: space.id });
    assert.deepEqual(page.files.map((f) => f.fileId), [file!.fileId]);
    // A page held: undefined while unchanged, the page and a new tag once it changes.
    const held = await client.files.listIfChanged(undefined, { workspaceId: space.id });
    assert.deepEqual(held?.page, page);
    assert.equal(await client.files.listIfChanged(held!.etag, { workspaceId: space.id }), undefined);

    const edit = await client.images.edit({ prompt: 'rotate 90 degrees, make it black and white and add a red 10px border', fileId: file!.fileId, workspaceId: space.id });
    assert.deepEqual([edit.name, edit.width, edit.height], ['beach-edited.png', 120, 220]);
    const target = path.join(dir, 'result.png');
    assert.equal(await client.files.downloadTo(edit.file_id!, target), edit.size_bytes);
    const { data } = await sharp(target).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([...data.subarray(0, 3)], [255, 0, 0], 'a red border');
    const thumb = await sharp(await client.files.thumbnail(edit.file_id!, { width: 60 })).metadata();
    assert.deepEqual([thumb.format, thumb.width, thumb.height], ['webp', 60, 110]);

    const download = await client.files.download(file!.fileId, { range: { start: 0, end: 7 } });
    const head = Buffer.concat(await download.stream.toArray());
    assert.deepEqual([...head], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

    const changed = await client.files.listIfChanged(held!.etag, { workspaceId: space.id });
    assert.deepEqual(changed?.page.files.map((f) => f.fileId), [edit.file_id, file!.fileId], 'the edit is listed');
    assert.notEqual(changed!.etag, held!.etag);
    await client.files.delete(edit.file_id!);
    await assert.rejects(client.files.get(edit.file_id!), (e: TesseraError) => e instanceof TesseraError && e.status === 404 && e.code === 'not_found');
  });

  test('uploads from buffers and streams, several per request; listAll follows the cursor', async () => {
    const space = await client.spaces.create('many');
    const stream = Readable.from([Buffer.from('streamed '), Buffer.from('bytes')]);
    const stored = await client.files.upload(
      [
        { name: 'a.txt', data: 'first' },
        { name: 'b.bin', data: new Uint8Array([1, 2, 3]) },
        { name: 'c.txt', data: stream },
      ],
      { workspaceId: space.id },
    );
    assert.deepEqual(stored.map((f) => [f.name, f.sizeBytes]), [['a.txt', '5'], ['b.bin', '3'], ['c.txt', '14']]);
    for (let i = 0; i < 4; i++) await client.files.upload({ name: `n${i}.txt`, data: `n${i}` }, { workspaceId: space.id });
    const all: FileRecord[] = [];
    for await (const f of client.files.listAll({ workspaceId: space.id, pageSize: 2 })) all.push(f);
    assert.equal(all.length, 7);
    assert.equal(new Set(all.map((f) => f.fileId)).size, 7);
    assert.equal((await Buffer.concat(await (await client.files.download(stored[2]!.fileId)).stream.toArray())).toString(), 'streamed bytes');
  });

  test('errors carry status, code and message; a prompt not understood its clause and suggestions', async () => {
    const [file] = await client.files.upload({ name: 'p.png', data: await redBlue() });
    const error = await client.images.edit({ prompt: 'make it fabulous', fileId: file!.fileId, workspaceId: file!.workspaceId }).catch((e: unknown) => e as TesseraError);
    assert.ok(error instanceof TesseraError);
    assert.equal(error.status, 422);
    assert.equal(error.code, 'prompt_not_understood');
    assert.equal(error.details.clause, 'make it fabulous');
    const stranger = new TesseraClient({ baseUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, apiKey: 'tsk_wrong' });
    await assert.rejects(stranger.spaces.list(), (e: TesseraError) => e.status === 401 && e.code === 'unauthorized');
    const unreachable = new TesseraClient({ baseUrl: 'http://127.0.0.1:9', apiKey: t.key, retries: 1, maxRetryDelayMs: 10 });
    await assert.rejects(unreachable.spaces.list(), (e: TesseraError) => e.status === 0 && e.code === 'network_error' && e.details.reached === false && /^could not reach/.test(e.message));
    // A server that drops the connection while the body is sent (as one refusing a large upload
    // part way does): reached, and said so, not "could not reach".
    const dropper = http.createServer((request) => request.socket.destroy());
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    try {
      const dropped = new TesseraClient({ baseUrl: `http://127.0.0.1:${(dropper.address() as AddressInfo).port}`, apiKey: t.key, retries: 0 });
      const error = (await dropped.files.upload({ name: 'big.bin', data: Buffer.alloc(4 << 20) }).catch((e: unknown) => e)) as TesseraError;
      assert.equal(error.code, 'network_error');
      assert.equal(error.details.reached, true, error.message);
      assert.match(error.message, /broke \((EPIPE|ECONNRESET|UND_ERR_SOCKET)\) before an answer: a server that refuses a large upload part way/);
    } finally {
      dropper.close();
    }
  });

  test('signed links, the account and keys: a read key made by the client links but cannot upload', async () => {
    const [file] = await client.files.upload({ name: 'linked.png', data: await redBlue() });
    const link = await client.files.link(file!.fileId, { expiresIn: 600, thumbnailWidth: 50 });
    const thumbnail = await fetch(link.url);
    assert.equal(thumbnail.status, 200, 'no key needed');
    assert.equal((await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).width, 50);
    assert.ok(Date.parse(link.expires_at) > Date.now());
    const account = await client.account.get();
    assert.equal(account.key.scope, 'admin');
    assert.ok(Number(account.usage.bytes) > 0);
    const created = await client.account.createKey({ scope: 'read', workspaceId: file!.workspaceId, name: 'viewer' });
    assert.deepEqual([created.scope, created.workspace_id, created.name], ['read', file!.workspaceId, 'viewer']);
    const viewer = new TesseraClient({ baseUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, apiKey: created.key });
    assert.equal((await viewer.files.get(file!.fileId)).name, 'linked.png');
    await assert.rejects(viewer.files.upload({ name: 'no.txt', data: Buffer.from('no') }), (e: TesseraError) => e.status === 403 && e.code === 'forbidden');
    assert.ok((await client.account.listKeys()).some((k) => k.id === created.id));
    await client.account.revokeKey(created.id);
    await assert.rejects(viewer.files.get(file!.fileId), (e: TesseraError) => e.status === 401);
  });

  test('the same edit retried with its key gives one file', async () => {
    const [file] = await client.files.upload({ name: 'q.png', data: await redBlue() });
    const request = { prompt: 'invert', fileId: file!.fileId, workspaceId: file!.workspaceId };
    const first = await client.images.edit(request, { idempotencyKey: 'client-retry-1' });
    const second = await client.images.edit(request, { idempotencyKey: 'client-retry-1' });
    assert.equal(second.file_id, first.file_id);
    assert.ok((await client.images.operations()).some((o) => o.op === 'invert'));
  });
});

describe('client retries', () => {
  test('429 and 503 are retried after Retry-After; other errors are not', async () => {
    const seen: string[] = [];
    const answers = [
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 200, headers: {} },
      { status: 404, headers: {} },
    ];
    const server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers['x-api-key']}`);
      const answer = answers.shift()!;
      const body = answer.status === 200 ? { spaces: [] } : { error: { code: answer.status === 404 ? 'not_found' : 'provider_unavailable', message: 'no' } };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new TesseraClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: 'k' });
      assert.deepEqual(await client.spaces.list(), []);
      assert.equal(seen.length, 3);
      assert.deepEqual(new Set(seen), new Set(['GET /v1/spaces k']));
      await assert.rejects(client.spaces.get('spc_x'), (e: TesseraError) => e.status === 404);
      assert.equal(seen.length, 4, 'a 404 is not retried');
    } finally {
      server.close();
    }
  });
});

test('the client types are generated from the OpenAPI document the server serves', async () => {
  const served = await serverDocument();
  const committed = JSON.parse(await fs.readFile(DOCUMENT_PATH, 'utf8'));
  assert.deepEqual(committed, served, 'client/openapi.json is out of date: run `npm run client:generate`');
  assert.equal(await fs.readFile(TYPES_PATH, 'utf8'), generateTypes(served), 'client/src/generated.ts is out of date: run `npm run client:generate`');
});

test('the example runs against a real server, and the package builds into plain JavaScript', async () => {
  const t = await startTestApp('sqlite');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-example-'));
  try {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    await fs.writeFile(path.join(dir, 'beach.png'), await redBlue());
    const example = await run(process.execPath, ['client/examples/edit-a-picture.ts', path.join(dir, 'beach.png'), path.join(dir, 'edited.png')], { TESSERA_URL: address, TESSERA_API_KEY: t.key });
    assert.equal(example.status, 0, example.stderr);
    assert.match(example.stdout, /applied rotate, grayscale, border → file_\w+ \(120x220\)/);
    assert.deepEqual([(await sharp(path.join(dir, 'edited.png')).metadata()).width], [120]);

    const build = await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'client/tsconfig.build.json', '--outDir', path.join(dir, 'dist')], {});
    assert.equal(build.status, 0, build.stdout + build.stderr);
    const plain = await run(process.execPath, ['-e', `import(${JSON.stringify(path.join(dir, 'dist', 'index.js'))}).then(async (m) => { const c = new m.TesseraClient({ baseUrl: ${JSON.stringify(address)}, apiKey: ${JSON.stringify(t.key)} }); console.log((await c.spaces.list()).map((s) => s.name).join()); })`], {});
    assert.equal(plain.stdout.trim(), 'default', plain.stderr);
  } finally {
    await t.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

