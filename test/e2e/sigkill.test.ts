import assert from 'node:assert/strict';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { startServer } from '../helpers/server.ts';

const ROUNDS = 4;
const WRITERS = 16;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64url');

interface FileRec {
  fileId: string;
  metadata: { blobId: string };
}

/**
 * Uploads hammer the server, which is killed with SIGKILL at a random moment. After each restart,
 * every upload that had been acknowledged (201) must be listed exactly once and read back intact.
 */
test('SIGKILL during concurrent uploads loses no acknowledged file', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-kill-'));
  const key = 'sigkill-test-key-0123456789';
  const env = { TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: key };
  const acknowledged = new Map<string, string>(); // fileId → blobId
  const shared = randomBytes(2048); // some uploads repeat content, exercising dedup
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const server = await startServer(env);
      let alive = true;
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
      await new Promise((resolve) => setTimeout(resolve, randomInt(200, 800)));
      await server.stop('SIGKILL');
      alive = false;
      await Promise.all(writers);

      const check = await startServer(env);
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
        for (const [fileId, blobId] of acknowledged) assert.equal(listed.get(fileId), blobId, `acknowledged ${fileId} survived round ${round}`);
        // Every listed file, acknowledged or not, reads back intact.
        for (const [fileId, blobId] of listed) {
          const res = await fetch(`${check.url}/v1/storage/files/${fileId}/content`, { headers: { 'x-api-key': key } });
          assert.equal(res.status, 200);
          assert.equal(sha(new Uint8Array(await res.arrayBuffer())), blobId, `${fileId} bytes`);
        }
      } finally {
        await check.stop();
      }
    }
    assert.ok(acknowledged.size > 0, 'uploads were acknowledged before the kills');
    console.log(`${acknowledged.size} acknowledged uploads survived ${ROUNDS} SIGKILLs`);
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
