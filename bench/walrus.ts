import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { encodeQuilt, encodedBlobLength } from '../test/helpers/walrus-quilt.ts';
import { WalrusStandIn, openTestWalrusStore } from '../test/helpers/walrus.ts';

/**
 * The Walrus engine against the stand-in publisher and aggregator, in the same run: small files
 * stored through quilts (group commit, one `PUT /v1/quilts` per batch) against one `PUT /v1/blobs`
 * per file, counting calls and bytes on the wire; reads with a warm and a cold cache; and the
 * storage bought for 10,000 files as quilts against one blob each, from the protocol's cost model
 * for the network's 1,000 shards (encoded size with every shard's metadata, paid per MiB and epoch).
 */
const MiB = 2 ** 20;
const smallSize = () => 4096 + Math.floor(Math.random() * 60 * 1024);

async function rate(total: number, clients: number, one: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) await one(next++);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

const drain = async (stream: AsyncIterable<unknown>) => {
  for await (const chunk of stream) void chunk;
};

export interface WalrusSmallResult {
  files: number;
  quiltFilesPerSecond: number;
  quiltCallsPerFile: number;
  quiltWireBytesPerFile: number;
  blobFilesPerSecond: number;
  blobCallsPerFile: number;
  blobWireBytesPerFile: number;
  warmReadsPerSecond: number;
  coldReadsPerSecond: number;
}

export async function walrusSmallFiles(files: number, clients: number): Promise<WalrusSmallResult> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-walrus-'));
  const standIn = await WalrusStandIn.start();
  try {
    const bodies = Array.from({ length: files }, () => randomBytes(smallSize()));
    // Baseline: one PUT /v1/blobs per file, as a client without quilts stores them.
    const blobStart = { calls: standIn.calls.store, bytes: standIn.bytesReceived };
    const blobFilesPerSecond = await rate(files, clients, async (i) => {
      const answer = await fetch(`${standIn.url}/v1/blobs?epochs=1`, { method: 'PUT', body: bodies[i]! });
      await answer.arrayBuffer();
    });
    const blobCalls = standIn.calls.store - blobStart.calls;
    const blobBytes = standIn.bytesReceived - blobStart.bytes;

    const store = await openTestWalrusStore(standIn, dir, { batchWindowMs: 2, batchMaxBytes: 16 * MiB, inlineMaxBytes: MiB, cacheBytes: 1024 * MiB });
    const quiltStart = { calls: standIn.calls.store, bytes: standIn.bytesReceived };
    const locations: string[] = [];
    const quiltFilesPerSecond = await rate(files, clients, async (i) => {
      const [location] = await store.persist([await store.stage([bodies[i]!], { maxBytes: Infinity })]);
      locations[i] = location!.quiltPatchId;
    });
    const quiltCalls = standIn.calls.store - quiltStart.calls;
    const quiltBytes = standIn.bytesReceived - quiltStart.bytes;

    // Cold: every read crosses to the aggregator (and fills the cache); warm: from the cache.
    const coldReadsPerSecond = await rate(files, clients, async (i) => drain(await store.read(locations[i]!)));
    const warmReadsPerSecond = await rate(files, clients, async (i) => drain(await store.read(locations[i]!)));
    await store.close();
    return {
      files,
      quiltFilesPerSecond,
      quiltCallsPerFile: quiltCalls / files,
      quiltWireBytesPerFile: quiltBytes / files,
      blobFilesPerSecond,
      blobCallsPerFile: blobCalls / files,
      blobWireBytesPerFile: blobBytes / files,
      warmReadsPerSecond,
      coldReadsPerSecond,
    };
  } finally {
    await standIn.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export interface WalrusCostResult {
  files: number;
  shards: number;
  quilts: number;
  /** Storage units (MiB of encoded size) bought per epoch. */
  quiltUnits: number;
  blobUnits: number;
}

/**
 * Storage units per epoch for `files` files of 4-64 KiB: packed into quilts of 666 (laid out as
 * the network lays them out, with 28 bytes of seal each) against one blob per file. Sources: the
 * encoded length and per-MiB pricing of Mysten's TypeScript SDK (`encodedBlobLength`,
 * `storageUnitsFromSize` in packages/walrus/src/utils/index.ts), the quilt layout of walrus-core.
 */
export function walrusStorageCost(files: number, shards = 1000): WalrusCostResult {
  const sizes = Array.from({ length: files }, smallSize);
  const units = (bytes: number) => Math.ceil(encodedBlobLength(bytes, shards) / MiB);
  const blobUnits = sizes.reduce((sum, size) => sum + units(size + 28), 0);
  let quiltUnits = 0;
  let quilts = 0;
  for (let i = 0; i < sizes.length; i += 666) {
    const patches = sizes.slice(i, i + 666).map((size, k) => ({ identifier: (i + k).toString(16).padStart(64, '0'), bytes: Buffer.alloc(size + 28) }));
    quiltUnits += units(encodeQuilt(patches, shards).quilt.length);
    quilts++;
  }
  return { files, shards, quilts, quiltUnits, blobUnits };
}
