import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { buildStore } from '../../bench/maintenance-memory.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { startTestApp, upload, type TestApp } from '../helpers/app.ts';

interface Rec {
  fileId: string;
  metadata: { blobId: string; quiltId: string; quiltPatchId: string };
}

for (const dialect of await dialects()) {
  describe(`verify and gc on ${dialect}`, () => {
    let t: TestApp;
    const quiltsDir = () => path.join(t.dataDir, 'quilts');
    const quiltFile = (quiltId: string) => path.join(quiltsDir(), quiltId.slice(0, 2), `${quiltId}.quilt`);
    const content = async (fileId: string) => (await t.app.inject({ method: 'GET', url: `/v1/storage/files/${fileId}/content`, headers: { 'x-api-key': t.key } })).rawPayload;
    const record = async (fileId: string) => (await t.app.inject({ method: 'GET', url: `/v1/storage/files/${fileId}`, headers: { 'x-api-key': t.key } })).json() as Rec;
    const remove = (fileId: string) => t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${fileId}`, headers: { 'x-api-key': t.key } });

    before(async () => {
      t = await startTestApp(dialect, { TESSERA_GC_MIN_AGE_MS: '0' });
    });
    after(() => t.close());

    test('a clean store verifies clean; deleted files show as reclaimable garbage', async () => {
      const files = Array.from({ length: 10 }, (_, i) => ({ name: `f${i}.txt`, content: `file ${i} `.repeat(200 + i) }));
      const stored = (await upload(t, files)).json().files as Rec[];
      assert.equal(new Set(stored.map((f) => f.metadata.quiltId)).size, 1, 'one request, one quilt');
      const clean = await t.context.maintenance.verify();
      assert.deepEqual(clean.problems, []);
      assert.equal(clean.blobs, clean.patches);
      assert.ok(clean.blobs >= 10);
      for (const f of stored.slice(0, 7)) assert.equal((await remove(f.fileId)).statusCode, 204);
      const garbage = await t.context.maintenance.verify();
      assert.deepEqual(garbage.problems, []);
      assert.equal(garbage.unreferencedPatches, 7);
      assert.ok(garbage.reclaimableBytes > 7 * 1400);
    });

    test('gc rewrites a mostly dead quilt: same blobIds, new quilt, the old one gone, reads never fail', async () => {
      const stored = (await upload(t, Array.from({ length: 8 }, (_, i) => ({ name: `g${i}.txt`, content: `gc ${i} `.repeat(300 + i) })))).json().files as Rec[];
      const oldQuilt = stored[0]!.metadata.quiltId;
      const keep = stored.slice(0, 2);
      for (const f of stored.slice(2)) await remove(f.fileId);
      const before = await Promise.all(keep.map((f) => content(f.fileId)));
      const staleRecord = await t.context.files.get((await accountId(t)), keep[0]!.fileId);

      const dry = await t.context.maintenance.gc({ threshold: 0.5, dryRun: true });
      assert.ok(dry.quiltsRewritten >= 1);
      await fs.access(quiltFile(oldQuilt));

      const report = await t.context.maintenance.gc({ threshold: 0.5 });
      assert.ok(report.quiltsRewritten >= 1);
      assert.ok(report.blobsMoved >= 2);
      await assert.rejects(fs.access(quiltFile(oldQuilt)), 'the old quilt is removed');
      for (const [i, f] of keep.entries()) {
        const now = await record(f.fileId);
        assert.equal(now.metadata.blobId, f.metadata.blobId);
        assert.notEqual(now.metadata.quiltId, oldQuilt);
        assert.deepEqual(await content(f.fileId), before[i]);
      }
      // A reader that looked up the file before gc still gets its bytes.
      const stream = await t.context.files.open(staleRecord);
      assert.deepEqual(Buffer.concat(await stream.toArray()), before[0]);
      const after = await t.context.maintenance.verify();
      assert.deepEqual(after.problems, []);
      assert.equal(after.unreferencedPatches, 0, 'every dead patch reclaimed');
    });

    test("gc keeps two accounts' identical bytes apart: after a rewrite, one's delete leaves the other's file", async () => {
      // The batch cap seals as soon as both uploads are queued: alice's and bob's bytes share one quilt.
      const both = await startTestApp(dialect, { TESSERA_GC_MIN_AGE_MS: '0', TESSERA_QUILT_BATCH_WINDOW_MS: '1000', TESSERA_QUILT_BATCH_MAX_BYTES: String(16_000) });
      try {
        const as = (key: string) => ({
          store: async (files: Array<{ name: string; content: Buffer }>) => (await upload(both, files, { key })).json().files as Rec[],
          read: async (fileId: string) => both.app.inject({ url: `/v1/storage/files/${fileId}/content`, headers: { 'x-api-key': key } }),
          remove: (fileId: string) => both.app.inject({ method: 'DELETE', url: `/v1/storage/files/${fileId}`, headers: { 'x-api-key': key } }),
        });
        const [alice, bob] = [as(both.key), as(both.otherKey)];
        const same = randomBytes(4000);
        const [[aliceSame, filler], [bobSame]] = await Promise.all([
          alice.store([{ name: 'same.bin', content: same }, { name: 'filler.bin', content: randomBytes(8000) }]),
          bob.store([{ name: 'same.bin', content: same }]),
        ]);
        assert.equal(aliceSame!.metadata.quiltId, bobSame!.metadata.quiltId, 'one batch, one quilt');
        assert.equal((await alice.remove(filler!.fileId)).statusCode, 204);
        const report = await both.context.maintenance.gc({ threshold: 0.6 });
        assert.equal(report.quiltsRewritten, 1);
        assert.equal((await alice.remove(aliceSame!.fileId)).statusCode, 204);
        const back = await bob.read(bobSame!.fileId);
        assert.equal(back.statusCode, 200, back.body);
        assert.deepEqual(back.rawPayload, same);
        assert.deepEqual((await both.context.maintenance.verify()).problems, []);
      } finally {
        await both.close();
      }
    });

    test('gc removes quilts no row points at', async () => {
      const staged = await t.context.store.stage(Readable.from([Buffer.from('orphaned bytes')]), { maxBytes: 1000 });
      const [location] = await t.context.store.persist([staged]);
      await staged.discard();
      assert.equal((await t.context.maintenance.verify()).unreferencedQuilts, 1);
      const report = await t.context.maintenance.gc({ threshold: 0.5 });
      assert.equal(report.quiltsRemoved, 1);
      await assert.rejects(fs.access(quiltFile(location!.quiltId)));
    });

    test('corrupt and missing bytes are problems; --repair only removes stale temp files', async () => {
      const [a, b] = (await upload(t, [{ name: 'a.bin', content: 'A'.repeat(5000) }, { name: 'b.bin', content: 'B'.repeat(5000) }])).json().files as Rec[];
      const [c] = (await upload(t, [{ name: 'c.bin', content: 'C'.repeat(5000) }])).json().files as Rec[];
      const file = quiltFile(a!.metadata.quiltId);
      const bytes = await fs.readFile(file);
      bytes[100] ^= 0xff;
      await fs.writeFile(file, bytes);
      await fs.rm(quiltFile(c!.metadata.quiltId));
      await fs.writeFile(path.join(quiltsDir(), 'tmp', 'stale.part'), 'left by a crash');
      // Left a minute ago: stale whatever the clocks' granularity (a file written in the same
      // millisecond as the verify began could otherwise count as in flight).
      const aMinuteAgo = new Date(Date.now() - 60_000);
      await fs.utimes(path.join(quiltsDir(), 'tmp', 'stale.part'), aMinuteAgo, aMinuteAgo);

      const report = await t.context.maintenance.verify({ repair: true });
      assert.ok(report.problems.some((p) => p.includes(a!.metadata.quiltId) && p.includes('does not match its hash')), report.problems.join('\n'));
      assert.ok(report.problems.some((p) => p.includes(`blob ${c!.metadata.blobId}: its quilt ${c!.metadata.quiltId} is missing`)), report.problems.join('\n'));
      assert.deepEqual(report.repaired, ['removed the stale temp file stale.part (15 bytes)']);
      await assert.rejects(fs.access(path.join(quiltsDir(), 'tmp', 'stale.part')));
      assert.equal((await fs.readFile(file))[100], bytes[100], 'verify never rewrites data');
      // Put things back for the remaining tests on this store.
      for (const f of [a!, b!, c!]) await remove(f.fileId);
      await t.context.maintenance.gc({ threshold: 1 });
      assert.deepEqual((await t.context.maintenance.verify()).problems, []);
    });
  });
}

async function accountId(t: TestApp): Promise<string> {
  return (await t.context.database.db.selectFrom('accounts').select('id').where('name', '=', 'alice').executeTakeFirstOrThrow()).id;
}

/** verify in a process of its own that collects garbage every 250 ms: the most heap it really held. */
function retainedHeapOfVerify(env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', 'bench/maintenance-memory.ts', '--child', 'verify'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`verify exited with ${code}`));
      const result = JSON.parse(out.trim().split('\n').pop()!) as { retainedHeapMiB: number; problems: number; blobs: number };
      assert.equal(result.problems, 0);
      resolve(result.retainedHeapMiB);
    });
  });
}

for (const dialect of await dialects()) {
  test(`verify holds no more memory for ten times the files on ${dialect}`, async () => {
    const retained: number[] = [];
    for (const files of [2000, 20_000]) {
      const database = await freshDatabase(dialect);
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-verify-memory-'));
      const env = { TESSERA_DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl };
      try {
        await buildStore(env, files, 1000);
        retained.push(await retainedHeapOfVerify(env));
      } finally {
        await database.drop();
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    }
    // Holding every patch costs some 300 bytes each: 18,000 more files would be over 5 MiB more.
    assert.ok(retained[1]! - retained[0]! < 2, `retained heap ${retained[0]!.toFixed(1)} MiB for 2,000 files, ${retained[1]!.toFixed(1)} MiB for 20,000`);
  });
}
