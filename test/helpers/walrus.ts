import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { BlobEncoder } from '@mysten/walrus-wasm';
import type { BlobStore } from '../../src/storage/blob-store.ts';
import { PatchCache } from '../../src/storage/walrus-cache.ts';
import { WalrusClient } from '../../src/storage/walrus-client.ts';
import { WalrusQuiltStore } from '../../src/storage/walrus-quilt-store.ts';
import { MasterKeys } from '../../src/storage/walrus-sealing.ts';
import { encodeQuilt, encodeQuiltPatchId, encodedBlobLength, readPatch, sourceSymbols, type QuiltPatchPlace } from './walrus-quilt.ts';

/**
 * A stand-in Walrus publisher and aggregator on 127.0.0.1 (one server answers both APIs), for
 * tests: no Walrus network is reachable from here and none runs from npm. It speaks the
 * documented HTTP protocol of `walrus-service` (publisher_openapi.yaml, aggregator_openapi.yaml,
 * daemon routes): `PUT /v1/quilts`, `PUT /v1/blobs`, `GET /v1/blobs/by-quilt-patch-id/…`,
 * `GET /v1/blobs/{id}` (one closed Range), `GET /v1/blobs/{id}/byte-range`, `GET /v1/quilts/{id}/patches`,
 * errors in the daemon's JSON shape, 413 and 429 as plain text, unknown query parameters refused.
 * Ids are real: blobIds come from Mysten's encoder (@mysten/walrus-wasm) over the quilt laid out
 * as the network lays it out, for a small shard count (the network has 1000: same ids, slower).
 * Bytes are kept in memory; epochs advance when a test says so.
 */
export interface WalrusStandInOptions {
  nShards?: number;
  /** Publisher body limits (the daemon's defaults: 10 MiB for blobs, 100 MiB for quilts). */
  maxBlobBodyBytes?: number;
  maxQuiltBodyBytes?: number;
}

export interface StoredWalrusBlob {
  bytes: Buffer;
  endEpoch: number;
  patches?: QuiltPatchPlace[];
}

export type WalrusRoute = 'store' | 'read';

export interface WalrusFault {
  /** The answer instead of the route's; absent with `stallMs`: the route answers, late. */
  status?: number;
  /** The daemon's machine-readable reason, e.g. BLOB_UNAVAILABLE; absent for 413/429 (plain text). */
  reason?: string;
  /** Milliseconds before anything is answered (to provoke a client's timeout). */
  stallMs?: number;
  /** The route answers its headers and half its body, then waits this long before the rest (a body that stalls). */
  stallBodyMs?: number;
}

const STORE_QUERY = new Set(['epochs', 'deletable', 'permanent', 'send_object_to', 'force', 'encoding_type']);
const STATUS_NAMES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 404: 'NOT_FOUND', 416: 'OUT_OF_RANGE', 500: 'INTERNAL', 503: 'UNAVAILABLE' };
const MAX_EPOCHS_AHEAD = 53;
/** Shards of the stand-in's encoding: 67 columns (so 65 patches a quilt), ids in tens of milliseconds. */
const DEFAULT_SHARDS = 100;
/** The stand-in's price list, in FROST: per MiB of encoded size and epoch, plus a write fee per MiB. */
const STORAGE_PRICE_PER_MIB_EPOCH = 100_000;
const WRITE_PRICE_PER_MIB = 20_000;

export class WalrusStandIn {
  readonly nShards: number;
  readonly maxBlobBodyBytes: number;
  readonly maxQuiltBodyBytes: number;
  readonly blobs = new Map<string, StoredWalrusBlob>();
  currentEpoch = 1;
  /** Requests by route kind, and the query strings of the stores. */
  readonly calls = { store: 0, read: 0 };
  readonly storeQueries: URLSearchParams[] = [];
  bytesReceived = 0;
  bytesSent = 0;
  /** Milliseconds every answer waits (to provoke timeouts). */
  delayMs = 0;
  private readonly faults: Record<WalrusRoute, WalrusFault[]> = { store: [], read: [] };
  /** Answers whose body is to stall half-way, and for how long (stallBodyMs). */
  private readonly bodyStalls = new WeakMap<http.ServerResponse, number>();
  private readonly sockets = new Set<Socket>();
  private offline = false;
  private readonly encoder: BlobEncoder;

  private readonly server: http.Server;

  private constructor(options: WalrusStandInOptions) {
    this.nShards = options.nShards ?? DEFAULT_SHARDS;
    this.maxBlobBodyBytes = options.maxBlobBodyBytes ?? 10 * 1024 * 1024;
    this.maxQuiltBodyBytes = options.maxQuiltBodyBytes ?? 100 * 1024 * 1024;
    this.encoder = new BlobEncoder(this.nShards);
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) this.error(res, 500, 'INTERNAL_ERROR', String(error));
        else res.destroy();
      });
    });
    this.server.on('connection', (socket) => {
      if (this.offline) return socket.destroy();
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(options: WalrusStandInOptions = {}): Promise<WalrusStandIn> {
    const standIn = new WalrusStandIn(options);
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', () => resolve()));
    return standIn;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The blobId Walrus gives these bytes with this stand-in's shard count (or another). */
  blobIdOf(bytes: Uint8Array, nShards = this.nShards): string {
    const encoder = nShards === this.nShards ? this.encoder : new BlobEncoder(nShards);
    const [id] = encoder.compute_metadata(bytes) as [number[]];
    return Buffer.from(id).toString('base64url');
  }

  /** The next `count` requests of this kind are answered with the fault instead. */
  failNext(route: WalrusRoute, count: number, fault: WalrusFault): void {
    for (let i = 0; i < count; i++) this.faults[route].push(fault);
  }

  /** Offline: every connection is cut at once (a publisher or aggregator outage). */
  setOffline(offline: boolean): void {
    this.offline = offline;
    if (offline) for (const s of this.sockets) s.destroy();
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    // Both daemons answer /status while they run (readiness).
    if (req.method === 'GET' && url.pathname === '/status') return this.plain(res, 200, 'OK');
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (req.method === 'PUT' && parts.length === 2 && parts[0] === 'v1' && (parts[1] === 'quilts' || parts[1] === 'blobs')) {
      this.calls.store++;
      const fault = this.faults.store.shift();
      if (fault && (await this.fault(req, res, fault))) return;
      return this.store(req, res, url, parts[1] === 'quilts');
    }
    if (req.method === 'GET' && parts[0] === 'v1') {
      this.calls.read++;
      const fault = this.faults.read.shift();
      if (fault && (await this.fault(req, res, fault))) return;
      if (parts[1] === 'blobs' && parts[2] === 'by-quilt-patch-id' && parts.length === 4) return this.readPatch(res, parts[3]!);
      if (parts[1] === 'blobs' && parts.length === 3) return this.readBlob(req, res, parts[2]!);
      if (parts[1] === 'blobs' && parts.length === 4 && parts[3] === 'byte-range') return this.readByteRange(res, parts[2]!, url);
      if (parts[1] === 'quilts' && parts.length === 4 && parts[3] === 'patches') return this.listPatches(res, parts[2]!);
    }
    this.error(res, 404, 'NOT_FOUND', `no route ${req.method} ${url.pathname}`);
  }

  private async store(req: http.IncomingMessage, res: http.ServerResponse, url: URL, quilt: boolean): Promise<void> {
    const unknown = [...url.searchParams.keys()].filter((k) => !STORE_QUERY.has(k));
    if (unknown.length > 0) {
      req.resume();
      return this.error(res, 400, 'INVALID_QUERY', `Failed to deserialize query string: unknown field \`${unknown[0]}\``);
    }
    const epochs = Number(url.searchParams.get('epochs') ?? '1');
    if (!Number.isInteger(epochs) || epochs < 1 || epochs > MAX_EPOCHS_AHEAD) {
      req.resume();
      return this.error(res, 400, 'INVALID_EPOCHS', `epochs must be between 1 and ${MAX_EPOCHS_AHEAD}`);
    }
    this.storeQueries.push(url.searchParams);
    const limit = quilt ? this.maxQuiltBodyBytes : this.maxBlobBodyBytes;
    const body = await this.readBody(req, limit);
    if (!body) return this.plain(res, 413, 'Failed to buffer the request body: length limit exceeded');
    if (!quilt) {
      return this.json(res, 200, this.keep(body, epochs).answer);
    }
    const form = await new Response(body, { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData().catch(() => undefined);
    if (!form) return this.error(res, 400, 'INVALID_MULTIPART', 'the body is not multipart/form-data');
    const tagsOf = new Map<string, Record<string, string>>();
    const metadata = form.get('_metadata');
    if (typeof metadata === 'string') {
      for (const entry of JSON.parse(metadata) as Array<{ identifier: string; tags?: Record<string, string> }>) tagsOf.set(entry.identifier, entry.tags ?? {});
    }
    const patches: Array<{ identifier: string; bytes: Buffer; tags?: Record<string, string> }> = [];
    for (const [identifier, value] of form.entries()) {
      if (identifier === '_metadata') continue;
      if (!/^[A-Za-z0-9]/.test(identifier) || /\p{Cc}/u.test(identifier)) return this.error(res, 400, 'INVALID_IDENTIFIER', `invalid identifier "${identifier}"`);
      if (patches.some((p) => p.identifier === identifier)) return this.error(res, 400, 'DUPLICATE_IDENTIFIER', `duplicate identifier "${identifier}"`);
      const bytes = typeof value === 'string' ? Buffer.from(value) : Buffer.from(await value.arrayBuffer());
      patches.push({ identifier, bytes, tags: tagsOf.get(identifier) });
    }
    if (patches.length === 0) return this.error(res, 400, 'EMPTY_QUILT', 'a quilt needs at least one blob');
    const max = sourceSymbols(this.nShards).columns - 1;
    if (patches.length > max) return this.error(res, 400, 'TOO_MANY_BLOBS', `at most ${max} blobs fit in a quilt`);
    const { quilt: bytes, places } = encodeQuilt(patches, this.nShards);
    const result = this.keep(bytes, epochs, places);
    const quiltId = Buffer.from(result.blobId, 'base64url');
    this.json(res, 200, {
      blobStoreResult: result.answer,
      storedQuiltBlobs: places.map((p) => ({ identifier: p.identifier, quiltPatchId: encodeQuiltPatchId(quiltId, p.startColumn, p.endColumn) })),
    });
  }

  /** Stores a blob (or finds it stored) and answers the publisher's blobStoreResult. */
  private keep(bytes: Buffer, epochs: number, patches?: QuiltPatchPlace[]): { blobId: string; answer: unknown } {
    const blobId = this.blobIdOf(bytes);
    const endEpoch = this.currentEpoch + epochs;
    const known = this.blobs.get(blobId);
    if (known && known.endEpoch >= endEpoch) {
      return { blobId, answer: { alreadyCertified: { blobId, event: { txDigest: randomBytes(32).toString('base64url'), eventSeq: '0' }, endEpoch: known.endEpoch } } };
    }
    // Stored again for longer (a renewal): the same blob, its storage extended; a quilt stays a quilt.
    this.blobs.set(blobId, { bytes, endEpoch, patches: patches ?? known?.patches });
    const encodedLength = this.encodedLength(bytes.length);
    const units = Math.ceil(encodedLength / (1024 * 1024));
    return {
      blobId,
      answer: {
        newlyCreated: {
          blobObject: {
            id: `0x${randomBytes(32).toString('hex')}`,
            registeredEpoch: this.currentEpoch,
            blobId,
            size: bytes.length,
            encodingType: 'RS2',
            certifiedEpoch: this.currentEpoch,
            storage: { id: `0x${randomBytes(32).toString('hex')}`, startEpoch: this.currentEpoch, endEpoch, storageSize: encodedLength },
            deletable: false,
          },
          resourceOperation: { registerFromScratch: { encodedLength, epochsAhead: epochs } },
          cost: units * (STORAGE_PRICE_PER_MIB_EPOCH * epochs + WRITE_PRICE_PER_MIB),
        },
      },
    };
  }

  encodedLength(unencoded: number): number {
    return encodedBlobLength(unencoded, this.nShards);
  }

  private live(blobId: string): StoredWalrusBlob | undefined {
    const blob = this.blobs.get(blobId);
    // A blob expires at the start of its end epoch.
    return blob && blob.endEpoch > this.currentEpoch ? blob : undefined;
  }

  private readPatch(res: http.ServerResponse, patchId: string): void {
    const raw = /^[A-Za-z0-9_-]{50}$/.test(patchId) ? Buffer.from(patchId, 'base64url') : undefined;
    if (!raw || raw.length !== 37 || raw[32] !== 1) return this.error(res, 400, 'INVALID_QUILT_PATCH_ID', `invalid quilt patch id ${patchId}`);
    const quiltId = raw.subarray(0, 32).toString('base64url');
    const start = raw.readUInt16LE(33);
    const end = raw.readUInt16LE(35);
    const quilt = this.live(quiltId);
    if (!quilt) return this.error(res, 404, 'BLOB_NOT_FOUND', 'the requested blob has not been found');
    if (!quilt.patches?.some((p) => p.startColumn === start && p.endColumn === end)) return this.error(res, 404, 'QUILT_PATCH_NOT_FOUND', 'the requested quilt patch does not exist');
    const patch = readPatch(quilt.bytes, this.nShards, start, end);
    this.send(res, 200, patch.bytes, { 'x-quilt-patch-identifier': patch.identifier, etag: `"${patchId}"` });
  }

  private readBlob(req: http.IncomingMessage, res: http.ServerResponse, blobId: string): void {
    const blob = this.live(blobId);
    if (!blob) return this.error(res, 404, 'BLOB_NOT_FOUND', 'the requested blob has not been found');
    const range = req.headers.range;
    if (range === undefined) return this.send(res, 200, blob.bytes, { etag: `"${blobId}"` });
    const closed = /^bytes=(\d+)-(\d+)$/.exec(range);
    if (!closed) return this.error(res, 400, 'INVALID_RANGE', 'only one closed range (bytes=a-b) is supported');
    const [start, end] = [Number(closed[1]), Number(closed[2])];
    if (start > end || start >= blob.bytes.length) return this.error(res, 416, 'INVALID_RANGE', 'the range is outside the blob');
    const last = Math.min(end, blob.bytes.length - 1);
    this.send(res, 206, blob.bytes.subarray(start, last + 1), { 'content-range': `bytes ${start}-${last}/${blob.bytes.length}`, etag: `"${blobId}"` });
  }

  private readByteRange(res: http.ServerResponse, blobId: string, url: URL): void {
    const unknown = [...url.searchParams.keys()].filter((k) => k !== 'start' && k !== 'length');
    if (unknown.length > 0) return this.error(res, 400, 'INVALID_QUERY', `Failed to deserialize query string: unknown field \`${unknown[0]}\``);
    const start = Number(url.searchParams.get('start'));
    const length = Number(url.searchParams.get('length'));
    if (!Number.isInteger(start) || !Number.isInteger(length) || start < 0 || length < 1) return this.error(res, 400, 'INVALID_BYTE_RANGE', 'start and length must be integers, length at least 1');
    const blob = this.live(blobId);
    if (!blob) return this.error(res, 404, 'BLOB_NOT_FOUND', 'the requested blob has not been found');
    if (start + length > blob.bytes.length) return this.error(res, 416, 'INVALID_BYTE_RANGE', 'the range is outside the blob');
    this.send(res, 206, blob.bytes.subarray(start, start + length), { 'content-range': `bytes ${start}-${start + length - 1}/${blob.bytes.length}` });
  }

  private listPatches(res: http.ServerResponse, quiltId: string): void {
    const quilt = this.live(quiltId);
    if (!quilt?.patches) return this.error(res, 404, 'BLOB_NOT_FOUND', 'the requested quilt has not been found');
    const raw = Buffer.from(quiltId, 'base64url');
    // The one snake_case answer of the API.
    this.json(res, 200, quilt.patches.map((p) => ({ identifier: p.identifier, patch_id: encodeQuiltPatchId(raw, p.startColumn, p.endColumn), tags: p.tags })));
  }

  /** Answers the fault; false if the route is to answer after all (a stall alone). */
  private async fault(req: http.IncomingMessage, res: http.ServerResponse, fault: WalrusFault): Promise<boolean> {
    if (fault.stallMs) await new Promise((resolve) => setTimeout(resolve, fault.stallMs));
    if (fault.stallBodyMs) this.bodyStalls.set(res, fault.stallBodyMs);
    if (fault.status === undefined) return false;
    req.resume();
    await new Promise((resolve) => req.on('end', resolve));
    if (!fault.reason) this.plain(res, fault.status, fault.status === 429 ? 'Too Many Requests' : 'Payload Too Large');
    else this.error(res, fault.status, fault.reason, 'injected by the test');
    return true;
  }

  private async readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | undefined> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      this.bytesReceived += (chunk as Buffer).length;
      if (size > limit) {
        req.resume();
        return undefined;
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  private error(res: http.ServerResponse, status: number, reason: string, message: string): void {
    this.json(res, status, {
      error: { status: STATUS_NAMES[status] ?? 'UNKNOWN', code: status, message, details: [{ '@type': 'ErrorInfo', reason, domain: 'daemon.walrus.space', metadata: {} }] },
    });
  }

  private plain(res: http.ServerResponse, status: number, text: string): void {
    this.send(res, status, Buffer.from(text), { 'content-type': 'text/plain; charset=utf-8' });
  }

  private json(res: http.ServerResponse, status: number, value: unknown): void {
    this.send(res, status, Buffer.from(JSON.stringify(value)), { 'content-type': 'application/json' });
  }

  private send(res: http.ServerResponse, status: number, body: Buffer, headers: Record<string, string>): void {
    this.bytesSent += body.length;
    res.writeHead(status, { 'content-type': 'application/octet-stream', ...headers, 'content-length': String(body.length) });
    const stallMs = this.bodyStalls.get(res);
    if (stallMs === undefined) return void res.end(body);
    const half = Math.floor(body.length / 2);
    res.write(body.subarray(0, half));
    setTimeout(() => res.end(body.subarray(half)), stallMs).unref();
  }
}

export interface TestWalrusOptions {
  batchWindowMs: number;
  batchMaxBytes: number;
  inlineMaxBytes: number;
  encrypt?: boolean;
  masterKey?: Buffer;
  previousMasterKeys?: Buffer[];
  cacheBytes?: number;
  maxQuiltBytes?: number;
  timeoutMs?: number;
  maxAttempts?: number;
  sendObjectTo?: string;
}

/** A BlobStore that also says what the database would hold for each patch it stored. */
export interface TestWalrusStore extends BlobStore {
  /** Patch id → the row's blob and wrapped key (what `blobs` keeps); delete() removes the row, as FilesService does first. */
  readonly rows: Map<string, { blobId: string; sealedKey: string | null }>;
  readonly inner: WalrusQuiltStore;
}

/**
 * The Walrus engine over a stand-in, as the server opens it, but with its rows kept in a Map
 * instead of the database (the store suite runs without one).
 */
export async function openTestWalrusStore(standIn: WalrusStandIn, dir: string, options: TestWalrusOptions): Promise<TestWalrusStore> {
  const rows = new Map<string, { blobId: string; sealedKey: string | null }>();
  const maxQuiltBytes = options.maxQuiltBytes ?? standIn.maxQuiltBodyBytes;
  const encrypt = options.encrypt ?? true;
  const masterKey = options.masterKey ?? randomBytes(32);
  const inner = await WalrusQuiltStore.open({
    batchWindowMs: options.batchWindowMs,
    batchMaxBytes: options.batchMaxBytes,
    batchMaxPatches: sourceSymbols(standIn.nShards).columns - 2,
    maxConcurrentSeals: 2,
    client: new WalrusClient({
      publisherUrl: standIn.url,
      aggregatorUrl: standIn.url,
      epochs: 2,
      sendObjectTo: options.sendObjectTo,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxAttempts: options.maxAttempts ?? 3,
      maxQuiltBytes,
    }),
    keys: new MasterKeys(masterKey, options.previousMasterKeys),
    encrypt,
    cache: await PatchCache.open(path.join(dir, 'walrus-cache'), options.cacheBytes ?? 64 * 1024 * 1024),
    tmpDir: path.join(dir, 'walrus-staging'),
    inlineMaxBytes: options.inlineMaxBytes,
    maxQuiltBytes,
    checkTimeoutMs: 3000,
    blobOfPatch: async (quiltPatchId) => rows.get(quiltPatchId),
  });
  return {
    kind: inner.kind,
    rows,
    inner,
    stage: (source, limits) => inner.stage(source, limits),
    seals: inner.seals,
    async persist(blobs, options) {
      const locations = await inner.persist(blobs, options);
      for (const l of locations) rows.set(l.quiltPatchId, { blobId: l.blobId, sealedKey: l.sealedKey ?? null });
      return locations;
    },
    read: (quiltPatchId, range) => inner.read(quiltPatchId, range),
    async delete(quiltPatchId) {
      rows.delete(quiltPatchId);
      await inner.delete(quiltPatchId);
    },
    check: () => inner.check(),
    close: () => inner.close(),
  };
}

/** The server's settings for the Walrus engine on this stand-in (private by default, with a fresh master key). */
export function walrusEnv(standIn: { url: string; nShards?: number }, masterKey: Buffer = randomBytes(32)): Record<string, string> {
  return {
    TESSERA_STORE: 'walrus',
    TESSERA_WALRUS_PUBLISHER_URL: standIn.url,
    TESSERA_WALRUS_AGGREGATOR_URL: standIn.url,
    TESSERA_WALRUS_MASTER_KEY: masterKey.toString('base64'),
    TESSERA_WALRUS_MAX_QUILT_PATCHES: String(sourceSymbols(standIn.nShards ?? DEFAULT_SHARDS).columns - 2),
    TESSERA_WALRUS_MAX_ATTEMPTS: '2',
    TESSERA_WALRUS_TIMEOUT_MS: '3000',
  };
}
