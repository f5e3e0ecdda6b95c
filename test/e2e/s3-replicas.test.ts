import assert from 'node:assert/strict';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { tessera } from '../helpers/cli.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { redBlue } from '../helpers/images.ts';
import { freshBucket, s3Available } from '../helpers/s3.ts';
import { startServer, type ServerProcess } from '../helpers/server.ts';
import { walrusEnv } from '../helpers/walrus.ts';
import { startWalrusProcess } from '../helpers/walrus-process.ts';

interface FileRec {
  fileId: string;
  workspaceId: string;
  metadata: { blobId: string };
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64url');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Stateless replicas: two processes with private data dirs on one PostgreSQL and one bucket, no
 * shared directory. Uploads, edits, downloads and deletes go through both at once; then one is
 * SIGKILLed under load. Every acknowledged file is listed once and reads back through either
 * replica, acknowledged deletes stay deleted, and `tessera verify` is clean.
 */
if ((await dialects()).includes('postgres')) {
  if (await s3Available()) {
    test('two replicas on PostgreSQL and S3 with private data dirs: any replica answers, a SIGKILL loses nothing', async () => {
      const bucket = await freshBucket();
      try {
        await replicas('S3', bucket.env);
      } finally {
        await bucket.drop();
      }
    });
  }
  test('two replicas on PostgreSQL and Walrus (the stand-in) with private data dirs and caches: any replica answers, a SIGKILL loses nothing', async () => {
    const walrus = await startWalrusProcess();
    try {
      await replicas('Walrus', walrusEnv(walrus));
    } finally {
      await walrus.close();
    }
  });
}

async function replicas(engine: string, storeEnv: Record<string, string>): Promise<void> {
  const database = await freshDatabase('postgres');
  const dirs = await Promise.all(['a', 'b', 'c'].map((n) => fs.mkdtemp(path.join(os.tmpdir(), `tessera-replica-${n}-`))));
  const key = `replica-key-${randomBytes(8).toString('hex')}`;
  const shared = { ...storeEnv, DATABASE_URL: database.databaseUrl, TESSERA_API_KEY: key, TESSERA_QUILT_INLINE_MAX_BYTES: String(64 * 1024) };
  const servers: ServerProcess[] = [];
  try {
    // Started together: migrations serialise on PostgreSQL's advisory lock.
    const [a, b] = await Promise.all(dirs.slice(0, 2).map((dir) => startServer({ ...shared, TESSERA_DATA_DIR: dir! })));
    servers.push(a!, b!);
    const replicas = [a!, b!];
    const api = (server: ServerProcess, url: string, init: RequestInit = {}) =>
      fetch(`${server.url}${url}`, { ...init, headers: { 'x-api-key': key, ...(init.headers as Record<string, string> | undefined) } });
    const pick = () => replicas[randomInt(replicas.length)]!;

    const acknowledged = new Map<string, string>(); // fileId → blobId
    const deleted = new Set<string>();
    const uncertain = new Set<string>(); // a delete cut off by the kill: either outcome is right
    const inDeletion = new Set<string>();
    let edits = 0;
    let reads = 0;
    let crossReads = 0;

    const form = new FormData();
    form.append('file', new Blob([await redBlue()]), 'source.png');
    const source = ((await (await api(a!, '/v1/storage/files', { method: 'POST', body: form })).json()) as { files: FileRec[] }).files[0]!;
    acknowledged.set(source.fileId, source.metadata.blobId);

    let running = true;
    const loop = (work: () => Promise<void>) =>
      (async () => {
        while (running) {
          try {
            await work();
          } catch (error) {
            if (error instanceof assert.AssertionError) throw error;
            await sleep(10); // the replica it asked was killed: try again (another one)
          }
        }
      })();
    const uploaders = Array.from({ length: 6 }, () =>
      loop(async () => {
        const files = Array.from({ length: randomInt(1, 4) }, () => (randomInt(10) === 0 ? randomBytes(randomInt(100_000, 300_000)) : randomBytes(randomInt(100, 32 * 1024))));
        const body = new FormData();
        for (const [i, bytes] of files.entries()) body.append('file', new Blob([bytes]), `f${i}.bin`);
        const res = await api(pick(), '/v1/storage/files', { method: 'POST', body });
        if (res.status !== 201) return;
        for (const [i, file] of ((await res.json()) as { files: FileRec[] }).files.entries()) {
          assert.equal(file.metadata.blobId, sha(files[i]!));
          acknowledged.set(file.fileId, file.metadata.blobId);
        }
      }),
    );
    const editor = loop(async () => {
      const res = await api(pick(), '/v1/images/edits', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: randomInt(2) ? 'invert' : 'rotate 90 degrees', workspace_id: source.workspaceId, file_id: source.fileId }),
      });
      if (res.status !== 200) return;
      const edit = (await res.json()) as { file_id: string };
      const record = (await (await api(pick(), `/v1/storage/files/${edit.file_id}`)).json()) as FileRec;
      acknowledged.set(record.fileId, record.metadata.blobId);
      edits++;
    });
    const candidates = () => [...acknowledged.keys()].filter((id) => id !== source.fileId && !deleted.has(id) && !uncertain.has(id) && !inDeletion.has(id));
    const deleter = loop(async () => {
      const ids = candidates();
      if (ids.length < 10) return sleep(20);
      const victim = ids[randomInt(ids.length)]!;
      inDeletion.add(victim);
      uncertain.add(victim);
      const res = await api(pick(), `/v1/storage/files/${victim}`, { method: 'DELETE' });
      if (res.status === 204) {
        deleted.add(victim);
        uncertain.delete(victim);
      }
    });
    const readers = Array.from({ length: 3 }, () =>
      loop(async () => {
        const ids = candidates();
        if (ids.length === 0) return sleep(20);
        const id = ids[randomInt(ids.length)]!;
        const res = await api(pick(), `/v1/storage/files/${id}/content`);
        if (res.status === 404 && (inDeletion.has(id) || deleted.has(id))) return;
        assert.equal(res.status, 200, `read ${id}`);
        assert.equal(sha(new Uint8Array(await res.arrayBuffer())), acknowledged.get(id));
        reads++;
        if (replicas.length === 2) crossReads++;
      }),
    );

    // The load runs until it has done what the checks below need (not for a fixed time), within a
    // bound that catches a hang; a loop that failed an assertion ends the wait at once.
    const failed = Promise.all([...uploaders, editor, deleter, ...readers]);
    const until = async (ready: () => boolean, boundMs: number) => {
      const deadline = Date.now() + boundMs;
      while (!ready() && Date.now() < deadline) await Promise.race([sleep(50), failed]);
    };
    const loaded = () => acknowledged.size > 50 && edits > 0 && deleted.size > 0 && crossReads > 0;
    await until(loaded, 60_000);
    assert.ok(loaded(), `${acknowledged.size} files, ${edits} edits, ${deleted.size} deletes, ${crossReads} reads`);
    // One replica dies under load; the other carries on alone.
    replicas.splice(replicas.indexOf(a!), 1);
    await a!.stop('SIGKILL');
    const [filesAtKill, readsAtKill] = [acknowledged.size, reads];
    const carriedOn = () => acknowledged.size >= filesAtKill + 20 && reads >= readsAtKill + 20;
    await until(carriedOn, 60_000);
    running = false;
    await failed;
    assert.ok(carriedOn(), `after the kill the survivor acknowledged ${acknowledged.size - filesAtKill} files and answered ${reads - readsAtKill} reads`);

    // A fresh replica with an empty data dir of its own sees everything too.
    const c = await startServer({ ...shared, TESSERA_DATA_DIR: dirs[2]! });
    servers.push(c);
    const listAll = async (server: ServerProcess) => {
      const seen = new Map<string, string>();
      let cursor = '';
      for (;;) {
        const res = await api(server, `/v1/storage/files?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        const page = (await res.json()) as { files: FileRec[]; pagination: { hasMore: boolean; cursor: string } };
        for (const f of page.files) {
          assert.ok(!seen.has(f.fileId), `${f.fileId} listed twice`);
          seen.set(f.fileId, f.metadata.blobId);
        }
        if (!page.pagination.hasMore) return seen;
        cursor = page.pagination.cursor;
      }
    };
    const [fromB, fromC] = await Promise.all([listAll(b!), listAll(c)]);
    assert.deepEqual([...fromB.keys()], [...fromC.keys()]);
    for (const [fileId, blobId] of acknowledged) {
      if (uncertain.has(fileId)) continue;
      if (deleted.has(fileId)) assert.ok(!fromB.has(fileId), `deleted ${fileId} stayed deleted`);
      else assert.equal(fromB.get(fileId), blobId, `acknowledged ${fileId} is listed`);
    }
    for (const [i, [fileId, blobId]] of [...fromB].entries()) {
      const res = await api(i % 2 ? b! : c, `/v1/storage/files/${fileId}/content`);
      assert.equal(res.status, 200);
      assert.equal(sha(new Uint8Array(await res.arrayBuffer())), blobId, `${fileId} bytes`);
    }

    const verify = await tessera({ ...shared, TESSERA_DATA_DIR: dirs[2]! }, 'verify', '--json');
    assert.equal(verify.status, 0, verify.stdout + verify.stderr);
    const report = JSON.parse(verify.stdout) as { problems: string[]; blobs: number };
    assert.deepEqual(report.problems, []);
    console.log(`replicas on ${engine}: ${fromB.size} files (${edits} edits) listed once and intact through both survivors after a SIGKILL; ${deleted.size} deletes held; ${reads} reads (${crossReads} while both ran); verify clean over ${report.blobs} blobs`);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await database.drop();
    await Promise.all(dirs.map((dir) => fs.rm(dir!, { recursive: true, force: true })));
  }
}
