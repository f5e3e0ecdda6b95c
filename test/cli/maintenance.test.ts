import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { commandConfig } from '../../src/cli/main.ts';
import { openMigratedDatabase } from '../../src/db/database.ts';
import { tessera } from '../helpers/cli.ts';
import { startServer } from '../helpers/server.ts';

test("a command opens the database without SQLite's checkpoint thread: beside a server, it would copy the server's log holding only its own writers", async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-cli-checkpoint-'));
  try {
    const config = commandConfig({ TESSERA_DATA_DIR: dataDir });
    assert.equal(config.sqliteCheckpointIntervalMs, 0);
    const database = await openMigratedDatabase(config);
    assert.equal(database.checkpointer, undefined);
    await database.close();
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});


test('npx tessera verify and gc beside a running server', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-cli-maint-'));
  const env = { TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: 'maint-key', TESSERA_GC_MIN_AGE_MS: '0' };
  const server = await startServer(env);
  try {
    const form = new FormData();
    for (const n of ['a', 'b', 'c', 'd']) form.append('file', new Blob([`${n} `.repeat(3000)]), `${n}.txt`);
    const files = ((await (await fetch(`${server.url}/v1/storage/files`, { method: 'POST', body: form, headers: { 'x-api-key': 'maint-key' } })).json()) as { files: { fileId: string; metadata: { quiltId: string } }[] }).files;
    for (const f of files.slice(1)) await fetch(`${server.url}/v1/storage/files/${f.fileId}`, { method: 'DELETE', headers: { 'x-api-key': 'maint-key' } });

    const clean = await tessera(env, 'verify');
    assert.equal(clean.status, 0, clean.stderr);
    assert.match(clean.stdout, /checked 1 quilts, 4 patches .* against 1 blobs of 1 files/);
    assert.match(clean.stdout, /no missing or corrupt data/);
    assert.match(clean.stdout, /3 dead patches in live quilts/);

    const dry = await tessera(env, 'gc', '--dry-run');
    assert.match(dry.stdout, /would rewrite 1 \(moving 1 blobs\)/);
    const gc = await tessera(env, 'gc');
    assert.equal(gc.status, 0, gc.stderr);
    assert.match(gc.stdout, /rewrite 1 \(moving 1 blobs\), remove 0/);
    assert.match((await tessera(env, 'verify')).stdout, /0 unreferenced quilts, 0 dead patches/);

    const record = (await (await fetch(`${server.url}/v1/storage/files/${files[0]!.fileId}`, { headers: { 'x-api-key': 'maint-key' } })).json()) as { metadata: { quiltId: string } };
    const quilt = path.join(dataDir, 'quilts', record.metadata.quiltId.slice(0, 2), `${record.metadata.quiltId}.quilt`);
    const bytes = await fs.readFile(quilt);
    bytes[40] ^= 1;
    await fs.writeFile(quilt, bytes);
    const broken = await tessera(env, 'verify');
    assert.equal(broken.status, 1);
    assert.match(broken.stdout, /PROBLEM blob .* are corrupt/);
    assert.match(broken.stdout, /2 problems: data is missing or corrupt/);
  } finally {
    await server.stop('SIGTERM');
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

test('TESSERA_GC_INTERVAL_MS runs gc inside the server', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-gc-interval-'));
  const server = await startServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: 'gc-interval-key', TESSERA_GC_MIN_AGE_MS: '0', TESSERA_GC_INTERVAL_MS: '200' });
  const api = (url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { ...init, headers: { 'x-api-key': 'gc-interval-key' } });
  try {
    const form = new FormData();
    for (const n of ['a', 'b', 'c', 'd']) form.append('file', new Blob([`${n} `.repeat(3000)]), `${n}.txt`);
    const files = ((await (await api('/v1/storage/files', { method: 'POST', body: form })).json()) as { files: { fileId: string; metadata: { quiltId: string } }[] }).files;
    for (const f of files.slice(1)) await api(`/v1/storage/files/${f.fileId}`, { method: 'DELETE' });
    const quiltNow = async () => ((await (await api(`/v1/storage/files/${files[0]!.fileId}`)).json()) as { metadata: { quiltId: string } }).metadata.quiltId;
    const deadline = Date.now() + 30_000;
    while (!/gc reclaimed space/.test(server.output()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.match(server.output(), /gc reclaimed space/);
    assert.notEqual(await quiltNow(), files[0]!.metadata.quiltId, 'the mostly dead quilt was rewritten');
    assert.equal(await (await api(`/v1/storage/files/${files[0]!.fileId}/content`)).text(), 'a '.repeat(3000));
  } finally {
    await server.stop('SIGTERM');
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
