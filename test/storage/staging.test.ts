import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { BlobTooLargeError } from '../../src/storage/blob-store.ts';
import { HashThreads } from '../../src/storage/hash-threads.ts';
import { HEADER_BYTES } from '../../src/storage/quilt-format.ts';
import { SPILL_FLUSH_BYTES, SpillFile, SpilledBlob, stageBlob } from '../../src/storage/staging.ts';

const MiB = 1024 * 1024;

/**
 * Counts the data syncs issued on real file handles (and how many overlapped), and can make the
 * next one fail as a full or failing disk would. The syncs themselves still run.
 */
function watchDataSyncs() {
  const proto = Object.getPrototypeOf(fsHandle!) as FileHandle;
  const original = proto.datasync;
  const seen = { calls: 0, inFlight: 0, maxInFlight: 0, failNext: false };
  proto.datasync = async function (this: FileHandle) {
    seen.calls++;
    seen.inFlight++;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
    try {
      if (seen.failNext) {
        seen.failNext = false;
        throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      }
      return await original.call(this);
    } finally {
      seen.inFlight--;
    }
  };
  return { seen, restore: () => (proto.datasync = original) };
}

let dir: string;
let fsHandle: FileHandle | undefined;
let watch: ReturnType<typeof watchDataSyncs> | undefined;

before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-staging-'));
  fsHandle = await fs.open(path.join(dir, 'probe'), 'w');
  await fsHandle.close();
});
afterEach(() => watch?.restore());
after(() => fs.rm(dir, { recursive: true, force: true }));

describe('spill files of large uploads', () => {
  test('a spill that will be synced is flushed in the background as it grows, one sync at a time', async () => {
    watch = watchDataSyncs();
    const spill = await SpillFile.create(dir, undefined, { flushEveryBytes: MiB });
    const parts = Array.from({ length: 8 }, () => randomBytes(MiB));
    const syncEnded = async () => {
      while (watch!.seen.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    };
    // A megabyte appended starts a sync when none runs.
    for (let round = 0; round < 4; round++) {
      await spill.append([parts[round]!]);
      await syncEnded();
      assert.equal(watch.seen.calls, round + 1, `one background sync in round ${round + 1}`);
    }
    // Appended faster than the disk syncs: never two at once (the first always starts one).
    for (let i = 4; i < 8; i++) await spill.append([parts[i]!]);
    assert.equal(watch.seen.maxInFlight, 1);
    const background = watch.seen.calls;
    assert.ok(background >= 5 && background <= 8);
    const file = await spill.seal();
    assert.equal(watch.seen.calls, background + 1, 'the seal waits for the running sync, then syncs once more');
    const written = await fs.readFile(file);
    assert.deepEqual(written.subarray(HEADER_BYTES), Buffer.concat(parts));
  });

  test('a spill that will be uploaded elsewhere is never synced', async () => {
    watch = watchDataSyncs();
    const spill = await SpillFile.create(dir);
    for (let i = 0; i < 4; i++) await spill.append([randomBytes(MiB)]);
    await spill.seal({ sync: false });
    assert.equal(watch.seen.calls, 0);
  });

  test('a background sync that fails fails the seal, and the spill can still be discarded', async () => {
    watch = watchDataSyncs();
    watch.seen.failNext = true;
    const spill = await SpillFile.create(dir, undefined, { flushEveryBytes: MiB });
    await spill.append([randomBytes(2 * MiB)]);
    await assert.rejects(spill.seal(), /EIO/);
    await spill.discard();
    await assert.rejects(fs.stat(spill.path), { code: 'ENOENT' });
  });

  test('an upload that breaks off while a write is in flight leaves no spill behind', async () => {
    const tmpDir = await fs.mkdtemp(path.join(dir, 'broken-'));
    async function* source() {
      // Past the inline size and through several 1 MiB writes, then the client goes away.
      for (let i = 0; i < 12; i++) yield randomBytes(256 * 1024);
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    }
    await assert.rejects(stageBlob(source(), { maxBytes: Infinity, inlineMaxBytes: MiB, tmpDir, durable: true }), /aborted/);
    assert.deepEqual(await fs.readdir(tmpDir), []);
  });

  test('stageBlob writes every byte in order with a write in flight, and hashes them all', async () => {
    const bytes = randomBytes(9 * MiB + 12345);
    async function* source() {
      // Uneven chunks, as a parser hands them over.
      for (let i = 0, n = 1; i < bytes.length; i += n, n = (n * 7919) % 300_000 || 1) yield bytes.subarray(i, i + n);
    }
    const staged = await stageBlob(source(), { maxBytes: Infinity, inlineMaxBytes: MiB, tmpDir: dir });
    assert.ok(staged instanceof SpilledBlob);
    assert.equal(staged.sizeBytes, bytes.length);
    assert.equal(staged.digest.toString('hex'), createHash('sha256').update(bytes).digest('hex'));
    const file = await staged.spill.seal({ sync: false });
    assert.ok((await fs.readFile(file)).subarray(HEADER_BYTES).equals(bytes));
    await fs.rm(file);
  });

  test('stageBlob flushes only for a durable store, and only past the flush size', async () => {
    watch = watchDataSyncs();
    const bytes = randomBytes(SPILL_FLUSH_BYTES + 2 * MiB);
    async function* source() {
      for (let i = 0; i < bytes.length; i += 256 * 1024) yield bytes.subarray(i, i + 256 * 1024);
    }
    const plain = await stageBlob(source(), { maxBytes: Infinity, inlineMaxBytes: MiB, tmpDir: dir });
    assert.equal(watch.seen.calls, 0);
    await plain.discard();
    const durable = await stageBlob(source(), { maxBytes: Infinity, inlineMaxBytes: MiB, tmpDir: dir, durable: true });
    assert.ok(durable instanceof SpilledBlob);
    assert.equal(durable.digest.toString('hex'), createHash('sha256').update(bytes).digest('hex'));
    assert.ok(watch.seen.calls >= 1, 'a durable spill past the flush size is flushed before it is sealed');
    await durable.discard();
  });
});

describe('hash threads: large uploads hashed off the event loop', () => {
  /** Uneven chunks of `bytes`, as a parser hands them over, each after a turn of the event loop. */
  async function* unevenly(bytes: Buffer) {
    for (let i = 0, n = 1; i < bytes.length; i += n, n = (n * 7919) % 300_000 || 1) {
      await new Promise((resolve) => setImmediate(resolve));
      yield bytes.subarray(i, i + n);
    }
  }
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  test('a blob that spills gets the digest of its bytes, from one thread or several, many at once', async () => {
    for (const size of [1, 2]) {
      const threads = new HashThreads(size);
      try {
        // Just past the inline size, several megabytes, and five at once on `size` threads.
        const blobs = [randomBytes(MiB + 1), randomBytes(7 * MiB + 4321), ...Array.from({ length: 5 }, (_, i) => randomBytes(2 * MiB + i * 99_991))];
        const staged = await Promise.all(blobs.map((bytes) => stageBlob(unevenly(bytes), { maxBytes: Infinity, inlineMaxBytes: MiB, tmpDir: dir, hashThreads: threads })));
        staged.forEach((blob, i) => {
          assert.ok(blob instanceof SpilledBlob);
          assert.equal(blob.digest.toString('hex'), sha256(blobs[i]!), `blob ${i} on ${size} thread(s)`);
        });
        for (const blob of staged) await blob.discard();
        // A blob held in memory is hashed where it arrives, as before.
        const small = randomBytes(MiB);
        const inline = await stageBlob(unevenly(small), { maxBytes: Infinity, inlineMaxBytes: MiB, tmpDir: dir, hashThreads: threads });
        assert.ok(!(inline instanceof SpilledBlob));
        assert.equal(inline.digest.toString('hex'), sha256(small));
      } finally {
        await threads.close();
      }
    }
  });

  test('a blob refused part way (too large) stops its hashing, leaves no spill, and the threads go on', async () => {
    const threads = new HashThreads(1);
    const tmpDir = await fs.mkdtemp(path.join(dir, 'too-large-'));
    try {
      await assert.rejects(stageBlob(unevenly(randomBytes(5 * MiB)), { maxBytes: 3 * MiB, inlineMaxBytes: MiB, tmpDir, hashThreads: threads }), BlobTooLargeError);
      assert.deepEqual(await fs.readdir(tmpDir), []);
      const bytes = randomBytes(3 * MiB);
      const staged = await stageBlob(unevenly(bytes), { maxBytes: Infinity, inlineMaxBytes: MiB, tmpDir, hashThreads: threads });
      assert.equal(staged.digest.toString('hex'), sha256(bytes));
      await staged.discard();
    } finally {
      await threads.close();
    }
  });

  test('a hashing thread that dies fails its uploads (no spill left), and the next upload gets a new thread', async () => {
    const threads = new HashThreads(1);
    const tmpDir = await fs.mkdtemp(path.join(dir, 'thread-dies-'));
    try {
      const bytes = randomBytes(6 * MiB);
      async function* dyingMidway() {
        let sent = 0;
        for await (const chunk of unevenly(bytes)) {
          sent += chunk.length;
          // Past the spill, the thread that hashes it stops as in a crash.
          if (sent > 3 * MiB && sent - chunk.length <= 3 * MiB) for (const thread of (threads as unknown as { threads: Map<Worker, unknown> }).threads.keys()) await thread.terminate();
          yield chunk;
        }
      }
      await assert.rejects(stageBlob(dyingMidway(), { maxBytes: Infinity, inlineMaxBytes: MiB, tmpDir, hashThreads: threads }), /hashing thread stopped/);
      assert.deepEqual(await fs.readdir(tmpDir), []);
      const again = await stageBlob(unevenly(bytes), { maxBytes: Infinity, inlineMaxBytes: MiB, tmpDir, hashThreads: threads });
      assert.equal(again.digest.toString('hex'), sha256(bytes));
      await again.discard();
    } finally {
      await threads.close();
    }
  });

  test('closing the threads fails a blob still being hashed', async () => {
    const threads = new HashThreads(1);
    const file = path.join(dir, 'growing');
    await fs.writeFile(file, randomBytes(1000));
    const digest = threads.begin(file, 0);
    digest.written(1000);
    const finished = digest.finish(2000);
    await threads.close();
    await assert.rejects(finished, /hashing stopped|ends at byte/);
  });

  test('a file the thread cannot read fails the digest, and told of bytes not in the file it fails rather than hash less', async () => {
    const threads = new HashThreads(1);
    try {
      await assert.rejects(threads.begin(path.join(dir, 'no-such-file'), 0).finish(10), /ENOENT/);
      const file = path.join(dir, 'short');
      await fs.writeFile(file, randomBytes(1000));
      const digest = threads.begin(file, 0);
      digest.written(2000);
      await assert.rejects(digest.finish(2000), /ends at byte 1000/);
    } finally {
      await threads.close();
    }
  });
});
