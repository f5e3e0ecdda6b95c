import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { tessera } from '../helpers/cli.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { statusAfterRevocation } from '../helpers/revocation.ts';
import { startServers } from '../helpers/server.ts';

async function cli(env: Record<string, string>, args: string[]) {
  const result = await tessera(env, ...args);
  assert.equal(result.status, 0, result.stderr);
  return result;
}

interface FileRec {
  fileId: string;
  createdAt: string;
  metadata: { blobId: string };
}

if ((await dialects()).includes('postgres')) {
  test('two replicas on one PostgreSQL and one data dir: no file lost or duplicated', async () => {
    const database = await freshDatabase('postgres');
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-replicas-'));
    const key = `replica-key-${randomBytes(8).toString('hex')}`;
    const env = { DATABASE_URL: database.databaseUrl, TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: key };
    // Both start at once: migrations must serialise on the advisory lock.
    const [a, b] = await startServers(2, env);
    const api = (base: string, url: string, init: RequestInit = {}) =>
      fetch(`${base}${url}`, { ...init, headers: { 'x-api-key': key, ...(init.headers as Record<string, string> | undefined) } });
    const upload = async (base: string, bytes: Buffer, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([bytes]), name);
      const res = await api(base, '/v1/storage/files', { method: 'POST', body: form });
      assert.equal(res.status, 201, await res.clone().text());
      return ((await res.json()) as { files: FileRec[] }).files[0]!;
    };
    const listAll = async (base: string, limit: number) => {
      const seen: FileRec[] = [];
      let cursor = '';
      for (;;) {
        const res = await api(base, `/v1/storage/files?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        assert.equal(res.status, 200);
        const body = (await res.json()) as { files: FileRec[]; pagination: { hasMore: boolean; cursor: string } };
        seen.push(...body.files);
        if (!body.pagination.hasMore) return seen;
        cursor = body.pagination.cursor;
      }
    };
    try {
      // Written through one, read and deleted through the other.
      const bytes = randomBytes(3000);
      const file = await upload(a.url, bytes, 'cross.bin');
      const listed = await listAll(b.url, 100);
      assert.ok(listed.some((f) => f.fileId === file.fileId));
      const content = Buffer.from(await (await api(b.url, `/v1/storage/files/${file.fileId}/content`)).arrayBuffer());
      assert.deepEqual(content, bytes);
      // A signed link made by one replica works on the other (they share the generated secret)...
      const made = await api(a.url, `/v1/storage/files/${file.fileId}/links`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ expires_in: 600 }) });
      const link = new URL(((await made.json()) as { url: string }).url);
      const viaB = await fetch(`${b.url}${link.pathname}${link.search}`);
      assert.equal(viaB.status, 200, 'a link from replica A verifies on replica B');
      assert.deepEqual(Buffer.from(await viaB.arrayBuffer()), bytes);
      assert.equal((await api(b.url, `/v1/storage/files/${file.fileId}`, { method: 'DELETE' })).status, 204);
      assert.equal((await api(a.url, `/v1/storage/files/${file.fileId}`)).status, 404);
      // ...and stops on both once the file is deleted through either.
      assert.equal((await fetch(`${a.url}${link.pathname}${link.search}`)).status, 404);

      // Some files exist; then both replicas take concurrent uploads while we page through B.
      const before = await Promise.all(Array.from({ length: 30 }, (_, i) => upload(i % 2 ? a.url : b.url, randomBytes(500 + i), `pre${i}`)));
      let uploading = true;
      const written: FileRec[] = [];
      const writers = [a.url, b.url, a.url, b.url].map(async (base, w) => {
        for (let i = 0; uploading && i < 40; i++) written.push(await upload(base, randomBytes(200 + i), `live-${w}-${i}`));
      });
      const pages = await listAll(b.url, 7);
      uploading = false;
      await Promise.all(writers);
      const ids = pages.map((f) => f.fileId);
      assert.equal(new Set(ids).size, ids.length, 'no file listed twice');
      for (const f of before) assert.ok(ids.includes(f.fileId), `pre-existing ${f.fileId} listed`);
      for (let i = 1; i < pages.length; i++) {
        const [p, q] = [pages[i - 1]!, pages[i]!];
        assert.ok(p.createdAt > q.createdAt || (p.createdAt === q.createdAt && p.fileId > q.fileId), 'newest first');
      }
      // Afterwards both replicas see the same complete set.
      const [fromA, fromB] = await Promise.all([listAll(a.url, 1000), listAll(b.url, 1000)]);
      assert.deepEqual(fromA.map((f) => f.fileId), fromB.map((f) => f.fileId));
      assert.equal(fromA.length, before.length + written.length);
      // A key created and revoked out of band is honoured, then refused, by both replicas.
      const created = await cli(env, ['keys', 'create', '--account', 'roaming']);
      const roaming = created.stdout.trim().split('\n').pop()!;
      const keyId = /created (key_[0-9A-Z]{26})/.exec(created.stdout)![1]!;
      for (const base of [a.url, b.url]) assert.equal((await fetch(`${base}/v1/spaces`, { headers: { 'x-api-key': roaming } })).status, 200);
      assert.equal((await cli(env, ['keys', 'revoke', keyId])).status, 0);
      for (const base of [a.url, b.url]) assert.equal(await statusAfterRevocation('postgres', async () => (await fetch(`${base}/v1/spaces`, { headers: { 'x-api-key': roaming } })).status), 401);
      // Every file's bytes are readable from the replica that did not write them.
      for (const f of written.slice(0, 20)) {
        const body = Buffer.from(await (await api(a.url, `/v1/storage/files/${f.fileId}/content`)).arrayBuffer());
        assert.equal(createHash('sha256').update(body).digest('base64url'), f.metadata.blobId);
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
