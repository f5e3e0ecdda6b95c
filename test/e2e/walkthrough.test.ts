import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import sharp from 'sharp';
import { startServer, type ServerProcess } from '../helpers/server.ts';

interface FileRec {
  fileId: string;
  sizeBytes: string;
  mimeType: string;
  name: string;
  createdAt: string;
  workspaceId: string;
  metadata: { blobId: string; quiltId: string; quiltPatchId: string };
}

const KEY_PATTERN = /tsk_[A-Za-z0-9_-]{43}/;
const dirs: string[] = [];
const servers: ServerProcess[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-e2e-'));
  dirs.push(dir);
  return dir;
}

test('a newcomer: npm start, the printed key, Spaces, upload, pages, download, delete, restart', async () => {
  const dataDir = await tempDir();
  const first = await startServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: '' }, { viaNpm: true });
  servers.push(first);
  const key = KEY_PATTERN.exec(first.output())?.[0];
  assert.ok(key, `a generated key is printed:\n${first.output()}`);
  const api = (url: string, init: RequestInit = {}) => fetch(`${first.url}${url}`, { ...init, headers: { 'x-api-key': key, ...(init.headers as Record<string, string>) } });

  assert.deepEqual(await (await fetch(`${first.url}/healthz`)).json(), { status: 'ok' });
  assert.equal((await fetch(`${first.url}/readyz`)).status, 200);

  const spaceRes = await api('/v1/spaces', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'holiday' }) });
  assert.equal(spaceRes.status, 201);
  const space = (await spaceRes.json()) as { id: string };
  assert.match(space.id, /^spc_/);

  const contents = new Map<string, Buffer>();
  const form = new FormData();
  form.append('workspace_id', space.id);
  for (const name of ['a.txt', 'b.txt', 'c.txt']) {
    const bytes = Buffer.from(`${name} ${Math.random()}`);
    form.append('file', new Blob([bytes], { type: 'text/plain' }), name);
    contents.set(name, bytes);
  }
  const uploaded = await api('/v1/storage/files', { method: 'POST', body: form });
  assert.equal(uploaded.status, 201);
  const batch = ((await uploaded.json()) as { files: FileRec[] }).files;
  assert.equal(batch.length, 3);
  for (const f of batch) {
    assert.match(f.sizeBytes, /^\d+$/);
    assert.match(f.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(f.metadata.blobId && f.metadata.quiltId && f.metadata.quiltPatchId);
  }
  for (let i = 0; i < 5; i++) {
    const one = new FormData();
    const bytes = Buffer.from(`single ${i} ${Math.random()}`);
    one.append('file', new Blob([bytes]), `s${i}.bin`);
    assert.equal((await api('/v1/storage/files', { method: 'POST', body: one })).status, 201);
  }

  const seen: FileRec[] = [];
  let cursor = '';
  for (;;) {
    const page = (await (await api(`/v1/storage/files?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json()) as {
      files: FileRec[];
      pagination: { hasMore: boolean; cursor: string };
    };
    assert.ok(page.files.length <= 3);
    seen.push(...page.files);
    if (!page.pagination.hasMore) {
      assert.equal(page.pagination.cursor, '');
      break;
    }
    cursor = page.pagination.cursor;
  }
  assert.equal(seen.length, 8);
  assert.equal(new Set(seen.map((f) => f.fileId)).size, 8);
  for (let i = 1; i < seen.length; i++) {
    const [p, q] = [seen[i - 1]!, seen[i]!];
    assert.ok(p.createdAt > q.createdAt || (p.createdAt === q.createdAt && p.fileId > q.fileId));
  }
  const inSpace = (await (await api(`/v1/storage/files?workspace_id=${space.id}`)).json()) as { files: FileRec[] };
  assert.deepEqual(inSpace.files.map((f) => f.name).sort(), ['a.txt', 'b.txt', 'c.txt']);

  const a = batch.find((f) => f.name === 'a.txt')!;
  const download = await api(`/v1/storage/files/${a.fileId}/content`);
  assert.deepEqual(Buffer.from(await download.arrayBuffer()), contents.get('a.txt'));
  assert.equal(download.headers.get('content-type'), 'text/plain');
  assert.equal(download.headers.get('etag'), `"${a.metadata.blobId}"`);
  assert.equal(a.metadata.blobId, createHash('sha256').update(contents.get('a.txt')!).digest('base64url'));
  const partial = await api(`/v1/storage/files/${a.fileId}/content`, { headers: { range: 'bytes=0-1' } });
  assert.equal(partial.status, 206);
  assert.equal(await partial.text(), 'a.');

  assert.equal((await api(`/v1/storage/files/${a.fileId}`, { method: 'DELETE' })).status, 204);
  const gone = await api(`/v1/storage/files/${a.fileId}`);
  assert.equal(gone.status, 404);
  assert.equal(((await gone.json()) as { error: { code: string } }).error.code, 'not_found');

  // The seed's second operation, as the README shows it: a prompt edits an image into the Space.
  const picture = new FormData();
  picture.append('workspace_id', space.id);
  picture.append('file', new Blob([await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3366cc' } }).jpeg().toBuffer()], { type: 'image/jpeg' }), 'beach.jpg');
  const source = ((await (await api('/v1/storage/files', { method: 'POST', body: picture })).json()) as { files: FileRec[] }).files[0]!;
  const editBody = JSON.stringify({ prompt: 'rotate 90 degrees, make it black and white and add a red 10px border', workspace_id: space.id, file_id: source.fileId });
  const edited = await api('/v1/images/edits', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': '7f1c2e' }, body: editBody });
  assert.equal(edited.status, 200);
  const result = (await edited.json()) as { file_id: string; name: string; mime_type: string; width: number; height: number };
  assert.deepEqual([result.name, result.mime_type, result.width, result.height], ['beach-edited.jpg', 'image/jpeg', 60, 80]);
  const pixels = await sharp(Buffer.from(await (await api(`/v1/storage/files/${result.file_id}/content`)).arrayBuffer())).raw().toBuffer();
  assert.ok(pixels[0]! > 200 && pixels[1]! < 60, 'a red border');
  const again = await api('/v1/images/edits', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': '7f1c2e' }, body: editBody });
  assert.equal(((await again.json()) as { file_id: string }).file_id, result.file_id, 'a retry answers the first result');
  const plan = await api('/v1/images/edits', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'crop to 16:9 and convert to webp', workspace_id: space.id, file_id: source.fileId, dry_run: true }) });
  assert.deepEqual(((await plan.json()) as { operations: { op: string }[] }).operations.map((o) => o.op), ['crop_aspect', 'format']);
  assert.ok(((await (await api('/v1/images/operations')).json()) as { operations: unknown[] }).operations.length >= 40);
  const spaceNow = (await (await api(`/v1/storage/files?workspace_id=${space.id}`)).json()) as { files: FileRec[] };
  assert.equal(spaceNow.files[0]!.fileId, result.file_id, 'the result is listed first in its Space');

  const openapi = (await (await fetch(`${first.url}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
  assert.match(openapi.openapi, /^3\.1\./);
  assert.ok(openapi.paths['/v1/storage/files']);
  assert.match((await fetch(`${first.url}/docs/`)).headers.get('content-type') ?? '', /html/);
  // npm start built the console (prestart) and the start line points at it.
  assert.match(first.output(), /web console at http:\/\/[^\s]+\//);
  const consolePage = await fetch(`${first.url}/`);
  assert.equal(consolePage.status, 200);
  assert.match(consolePage.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(await consolePage.text())?.[1];
  assert.ok(script, 'the page loads its bundle');
  assert.equal((await fetch(`${first.url}${script}`)).status, 200);

  // npm itself dies of the signal; the server's own clean exit is checked in the next test.
  await first.stop('SIGTERM');
  assert.match(first.output(), /SIGTERM: finishing in-flight requests/);
  assert.doesNotMatch(first.output(), /shutdown (timed out|failed)/);

  const second = await startServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: '' }, { viaNpm: true });
  servers.push(second);
  assert.doesNotMatch(second.output(), KEY_PATTERN, 'no second key is generated');
  const relisted = (await (await fetch(`${second.url}/v1/storage/files?limit=100`, { headers: { 'x-api-key': key } })).json()) as { files: FileRec[] };
  assert.equal(relisted.files.length, 9, "7 uploads left, a picture and its edit");
  await second.stop('SIGTERM');
});

test('TESSERA_API_KEY on a fresh data dir is the first key, and nothing is generated', async () => {
  const server = await startServer({ TESSERA_DATA_DIR: await tempDir(), TESSERA_API_KEY: 'my-own-secret-key-123' });
  servers.push(server);
  assert.doesNotMatch(server.output(), KEY_PATTERN);
  assert.doesNotMatch(server.output(), /my-own-secret-key-123/, 'the configured key is never logged');
  assert.equal((await fetch(`${server.url}/v1/spaces`, { headers: { 'x-api-key': 'my-own-secret-key-123' } })).status, 200);
  assert.equal((await fetch(`${server.url}/v1/spaces`, { headers: { 'x-api-key': 'my-own-secret-key-124' } })).status, 401);
  assert.equal((await fetch(`${server.url}/v1/spaces`, { headers: { authorization: 'Bearer my-own-secret-key-123' } })).status, 200);
  assert.equal((await fetch(`${server.url}/v1/spaces`, { headers: { authorization: 'Bearer my-own-secret-key-124' } })).status, 401);
  assert.equal((await fetch(`${server.url}/v1/spaces`, { headers: { 'x-api-key': 'my-own-secret-key-123', authorization: 'Bearer my-own-secret-key-124' } })).status, 401);
  assert.doesNotMatch(server.output(), /my-own-secret-key-12[34]/, 'presented keys are never logged');
  assert.equal(await server.stop('SIGTERM'), 0, 'SIGTERM is a clean exit');
});

test('a bad setting stops the start with a message naming it', async () => {
  await assert.rejects(startServer({ TESSERA_DATA_DIR: await tempDir(), TESSERA_MAX_FILE_BYTES: 'lots' }), /TESSERA_MAX_FILE_BYTES/);
});
