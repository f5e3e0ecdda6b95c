import assert from 'node:assert/strict';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { tessera } from '../helpers/cli.ts';
import { redBlue } from '../helpers/images.ts';
import { freshBucket, s3Available } from '../helpers/s3.ts';
import { startServer, type ServerProcess } from '../helpers/server.ts';
import { walrusEnv } from '../helpers/walrus.ts';
import { startWalrusProcess } from '../helpers/walrus-process.ts';

const ROUNDS = 4;
const S3_ROUNDS = 3;
const WALRUS_ROUNDS = 3;
const WRITERS = 16;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64url');

/** Waits until `ready()` holds, for at most a minute (the assertions after it say what was missing). */
async function until(ready: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!ready() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

interface FileRec {
  fileId: string;
  metadata: { blobId: string };
}

/**
 * Uploads, edits and deletes hammer the server, which is killed with SIGKILL at a random moment.
 * After each restart `tessera verify` finds nothing missing or corrupt, every upload or edit that
 * had been acknowledged (and not deleted since) is listed exactly once and reads back intact, and
 * every acknowledged delete stayed deleted.
 */
test('SIGKILL during concurrent uploads, edits and deletes loses no acknowledged file', () => killRounds({}, ROUNDS));

// The same on the S3 engine: the bytes live in a bucket, the data dir holds only SQLite and staging.
if (await s3Available()) {
  test('on S3: SIGKILL during concurrent uploads, edits and deletes loses no acknowledged file', async () => {
    const bucket = await freshBucket();
    try {
      await killRounds(bucket.env, S3_ROUNDS);
    } finally {
      await bucket.drop();
    }
  });
}

// The same on the Walrus engine, against the stand-in publisher and aggregator (in a process of its own).
test('on Walrus: SIGKILL during concurrent uploads, edits and deletes loses no acknowledged file', async () => {
  const walrus = await startWalrusProcess();
  try {
    await killRounds(walrusEnv(walrus), WALRUS_ROUNDS);
  } finally {
    await walrus.close();
  }
});

/** `loadMs`: how long each round's load runs, from the server's first acknowledged write, before the kill. */
async function killRounds(storeEnv: Record<string, string>, rounds: number, loadMs: [number, number] = [200, 800]): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-kill-'));
  const key = 'sigkill-test-key-0123456789';
  const env = { ...storeEnv, TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: key };
  const acknowledged = new Map<string, string>(); // fileId → blobId
  const deleted = new Set<string>(); // acknowledged deletes
  const uncertain = new Set<string>(); // deletes cut off by the kill: either outcome is right
  const shared = randomBytes(2048); // some uploads repeat content, exercising dedup
  let edits = 0;
  const picture = await redBlue();
  // The server that checks a round's survivors carries the next round's load and is killed in
  // turn: every round after the first kills a server that itself started on a crashed data dir,
  // and each round starts one server instead of two.
  let next: ServerProcess | undefined;
  try {
    for (let round = 0; round < rounds; round++) {
      const server = next ?? (await startServer(env));
      next = undefined;
      let alive = true;
      const api = (url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { ...init, headers: { 'x-api-key': key, ...(init.headers as Record<string, string>) } });
      const form = new FormData();
      form.append('file', new Blob([picture]), 'source.png');
      const source = ((await (await api('/v1/storage/files', { method: 'POST', body: form })).json()) as { files: (FileRec & { workspaceId: string })[] }).files[0]!;
      acknowledged.set(source.fileId, source.metadata.blobId);
      const editors = Array.from({ length: 2 }, async () => {
        while (alive) {
          try {
            const res = await api('/v1/images/edits', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: randomInt(2) ? 'invert' : 'rotate 90 degrees', workspace_id: source.workspaceId, file_id: source.fileId }) });
            if (res.status !== 200) continue;
            const edit = (await res.json()) as { file_id: string };
            const record = (await (await api(`/v1/storage/files/${edit.file_id}`)).json()) as FileRec;
            acknowledged.set(record.fileId, record.metadata.blobId);
            edits++;
          } catch {
            return;
          }
        }
      });
      const deleters = Array.from({ length: 2 }, async () => {
        while (alive) {
          const candidates = [...acknowledged.keys()].filter((id) => id !== source.fileId && !deleted.has(id) && !uncertain.has(id));
          if (candidates.length < 5) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            continue;
          }
          const victim = candidates[randomInt(candidates.length)]!;
          uncertain.add(victim);
          try {
            const res = await api(`/v1/storage/files/${victim}`, { method: 'DELETE' });
            if (res.status === 204) {
              deleted.add(victim);
              uncertain.delete(victim);
            }
          } catch {
            return;
          }
        }
      });
      const writers = Array.from({ length: WRITERS }, async () => {
        while (alive) {
          const bytes = randomInt(4) === 0 ? shared : randomBytes(randomInt(1024, 64 * 1024));
          const form = new FormData();
          form.append('file', new Blob([bytes]), 'k.bin');
          try {
            const res = await fetch(`${server.url}/v1/storage/files`, { method: 'POST', body: form, headers: { 'x-api-key': key } });
            if (res.status !== 201) continue;
            const file = ((await res.json()) as { files: FileRec[] }).files[0]!;
            assert.equal(file.metadata.blobId, sha(bytes));
            acknowledged.set(file.fileId, file.metadata.blobId);
          } catch {
            return; // the server is gone
          }
        }
      });
      // The kill lands a random moment into the load, counted from when the server first answered
      // a write this round (not from its start, which a loaded machine stretches). The first round
      // also waits for an edit and a delete to be acknowledged, so every kind of write is one the
      // kills must not lose, however slow the machine.
      const since = acknowledged.size;
      await until(() => acknowledged.size > since && (round > 0 || (edits > 0 && deleted.size > 0)));
      await new Promise((resolve) => setTimeout(resolve, randomInt(loadMs[0], loadMs[1])));
      await server.stop('SIGKILL');
      alive = false;
      await Promise.all([...writers, ...editors, ...deleters]);

      const verify = await tessera(env, 'verify', '--json');
      assert.equal(verify.status, 0, verify.stdout + verify.stderr);
      assert.deepEqual((JSON.parse(verify.stdout) as { problems: string[] }).problems, [], `verify after round ${round}`);

      const check = await startServer(env);
      let handedOn = false;
      try {
        const listed = new Map<string, string>();
        let cursor = '';
        for (;;) {
          const res = await fetch(`${check.url}/v1/storage/files?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { 'x-api-key': key } });
          const page = (await res.json()) as { files: FileRec[]; pagination: { hasMore: boolean; cursor: string } };
          for (const f of page.files) {
            assert.ok(!listed.has(f.fileId), `${f.fileId} listed twice`);
            listed.set(f.fileId, f.metadata.blobId);
          }
          if (!page.pagination.hasMore) break;
          cursor = page.pagination.cursor;
        }
        for (const [fileId, blobId] of acknowledged) {
          if (uncertain.has(fileId)) continue;
          if (deleted.has(fileId)) assert.ok(!listed.has(fileId), `deleted ${fileId} stayed deleted after round ${round}`);
          else assert.equal(listed.get(fileId), blobId, `acknowledged ${fileId} survived round ${round}`);
        }
        // Every listed file, acknowledged or not, reads back intact.
        for (const [fileId, blobId] of listed) {
          const res = await fetch(`${check.url}/v1/storage/files/${fileId}/content`, { headers: { 'x-api-key': key } });
          assert.equal(res.status, 200);
          assert.equal(sha(new Uint8Array(await res.arrayBuffer())), blobId, `${fileId} bytes`);
        }
        if (round + 1 < rounds) {
          next = check;
          handedOn = true;
        }
      } finally {
        if (!handedOn) await check.stop();
      }
    }
    assert.ok(acknowledged.size > 0, 'uploads were acknowledged before the kills');
    assert.ok(edits > 0 && deleted.size > 0, 'edits and deletes were acknowledged too');
    console.log(`${storeEnv.TESSERA_STORE ?? 'local'} store: ${acknowledged.size - deleted.size - uncertain.size} acknowledged files (${edits} of them edits) survived ${rounds} SIGKILLs; ${deleted.size} acknowledged deletes stayed deleted; verify clean after each`);
  } finally {
    await next?.stop('SIGKILL');
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
