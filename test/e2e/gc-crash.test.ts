import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { run, tessera } from '../helpers/cli.ts';
import { startServer } from '../helpers/server.ts';

/** Deterministic pseudo-random numbers, so a failing run can be repeated. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

/** The binary, which can be SIGKILLed mid-way; the checks between kills run the CLI in-process. */
const binary = (env: Record<string, string>, args: string[], killWhen?: { line: RegExp; afterMs: number }) => run(process.execPath, ['bin/tessera.mjs', ...args], env, killWhen);

test('gc killed with SIGKILL at random moments, while the server serves reads and uploads: nothing lost, verify clean', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-gc-crash-'));
  // The grace period protects quilts of uploads in flight; the old quilts are older than it.
  const env = { TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: 'gc-crash-key', TESSERA_GC_MIN_AGE_MS: '1500', TESSERA_RATE_LIMIT_MAX: '100000000' };
  const server = await startServer(env);
  const api = (url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { ...init, headers: { 'x-api-key': 'gc-crash-key' } });
  const next = random(20261122);
  let reading = false;
  try {
    // 40 quilts of 10 small files; 8 of each 10 deleted, so every quilt is worth rewriting.
    // The uploads one after another (each its own quilt), then the deletes all at once.
    const kept = new Map<string, string>();
    const doomed: string[] = [];
    for (let q = 0; q < 40; q++) {
      const form = new FormData();
      for (let i = 0; i < 10; i++) form.append('file', new Blob([`quilt ${q} file ${i} `.repeat(100 + i)]), `q${q}-${i}.txt`);
      const files = ((await (await api('/v1/storage/files', { method: 'POST', body: form })).json()) as { files: { fileId: string; name: string }[] }).files;
      for (const [i, file] of files.entries()) {
        if (i < 2) kept.set(file.fileId, `quilt ${q} file ${i} `.repeat(100 + i));
        else doomed.push(file.fileId);
      }
    }
    const lastQuiltAt = Date.now();
    for (let i = 0; i < doomed.length; i += 16) {
      const statuses = await Promise.all(doomed.slice(i, i + 16).map(async (id) => (await api(`/v1/storage/files/${id}`, { method: 'DELETE' })).status));
      assert.deepEqual(statuses, statuses.map(() => 204));
    }
    // Every old quilt is past the grace period before gc first runs (the deletes took part of it).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastQuiltAt + 1600 - Date.now())));
    reading = true;
    let reads = 0;
    const uploaded = new Map<string, string>();
    const writer = (async () => {
      for (let i = 0; reading; i++) {
        const text = `written during gc ${i} `.repeat(50 + (i % 20));
        const form = new FormData();
        form.append('file', new Blob([text]), `w${i}.txt`);
        const res = await api('/v1/storage/files', { method: 'POST', body: form });
        assert.equal(res.status, 201);
        uploaded.set(((await res.json()) as { files: { fileId: string }[] }).files[0]!.fileId, text);
      }
    })();
    const reader = (async () => {
      const ids = [...kept.keys()];
      while (reading) {
        const id = ids[reads++ % ids.length]!;
        const res = await api(`/v1/storage/files/${id}/content`);
        assert.equal(res.status, 200, `read ${id} during gc`);
        assert.equal(await res.text(), kept.get(id));
      }
    })();

    let kills = 0;
    for (let round = 0; round < 5; round++) {
      const run = await binary(env, ['gc', '--verbose'], { line: /rewrote/, afterMs: Math.floor(next() * 40) });
      if (run.signal === 'SIGKILL') kills++;
      const verify = await tessera(env, 'verify', '--json');
      assert.equal(verify.status, 0, verify.stdout + verify.stderr);
      assert.deepEqual((JSON.parse(verify.stdout) as { problems: string[] }).problems, []);
    }
    const final = await tessera(env, 'gc');
    assert.equal(final.status, 0, final.stderr);
    reading = false;
    await Promise.all([reader, writer]);
    for (const [id, text] of uploaded) kept.set(id, text);

    const report = JSON.parse((await tessera(env, 'verify', '--json')).stdout) as { problems: string[]; unreferencedPatches: number; unreferencedQuilts: number; files: number };
    assert.deepEqual(report.problems, []);
    assert.equal(report.unreferencedPatches, 0);
    assert.equal(report.unreferencedQuilts, 0);
    assert.equal(report.files, kept.size);
    for (const [id, text] of kept) assert.equal(await (await api(`/v1/storage/files/${id}/content`)).text(), text);
    console.log(`${kills} of 5 gc runs killed mid-way; ${reads} reads and ${uploaded.size} uploads during gc all answered; ${kept.size} files intact`);
    assert.ok(kills >= 3, 'the kills landed while gc was working');
  } finally {
    reading = false; // a failed assertion must not leave the loops running against a stopped server
    await server.stop('SIGTERM');
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
