import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import { BlobMissingError, BlobStoreUnavailableError, BlobTooLargeError } from './blob-store.ts';

/**
 * The HTTP API of a Walrus publisher and aggregator (MystenLabs/walrus, crates/walrus-service:
 * the daemon's routes and OpenAPI documents). Only what the engine needs: store a quilt, read a
 * patch, and each daemon's `/status`. Answers are camelCase JSON; errors are
 * `{error: {code, status, message, details: [{reason}]}}`, except 413 and 429, plain text.
 * Retries, with exponential backoff, what may pass on its own: timeouts, refused or cut
 * connections, 429, 503 (BLOB_UNAVAILABLE: not enough storage nodes answered yet) and 504.
 */
export interface WalrusClientOptions {
  publisherUrl: string;
  aggregatorUrl: string;
  epochs: number;
  sendObjectTo: string | undefined;
  /** Until the answer's headers arrive, per attempt. */
  timeoutMs: number;
  maxAttempts: number;
  /** The publisher's body limit for quilts, named in the error when it refuses one. */
  maxQuiltBytes: number;
}

/** One patch of a quilt to store: its identifier (the multipart field name) and its bytes, re-readable for a retry. */
export interface QuiltUpload {
  identifier: string;
  sizeBytes: number;
  open(): AsyncIterable<Buffer>;
}

export interface StoredQuilt {
  /** The quilt's Walrus blobId. */
  quiltId: string;
  endEpoch: number;
  /** What the publisher paid, in FROST; 0 when the quilt was already certified. */
  costFrost: number;
  /** The network's epoch when the storage was registered (unknown when it was already certified). */
  storedEpoch: number | undefined;
  /** identifier → QuiltPatchId. */
  patchIds: Map<string, string>;
}

/** A daemon's answer that retrying will not change (a bad request, a blocked blob). */
export class WalrusRequestError extends Error {
  readonly status: number;
  readonly reason: string | undefined;
  constructor(
    message: string,
    status: number,
    reason: string | undefined,
  ) {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const BACKOFF_BASE_MS = 200;
const BACKOFF_MAX_MS = 5000;

export class WalrusClient {
  private readonly options: WalrusClientOptions;
  constructor(options: WalrusClientOptions) {
    this.options = options;
  }

  /** `PUT /v1/quilts?epochs=N`, one multipart field per patch; answers the quilt's ids. */
  async storeQuilt(patches: readonly QuiltUpload[]): Promise<StoredQuilt> {
    const query = new URLSearchParams({ epochs: String(this.options.epochs) });
    if (this.options.sendObjectTo) query.set('send_object_to', this.options.sendObjectTo);
    const url = `${this.options.publisherUrl}/v1/quilts?${query}`;
    const answer = await this.call('PUT /v1/quilts', async (signal) => {
      const boundary = `tessera-${randomBytes(12).toString('hex')}`;
      const heads = patches.map((p) =>
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.identifier}"; filename="${p.identifier}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      );
      const tail = Buffer.from(`--${boundary}--\r\n`);
      const length = heads.reduce((n, h, i) => n + h.length + patches[i]!.sizeBytes + 2, tail.length);
      async function* body() {
        for (const [i, patch] of patches.entries()) {
          yield heads[i]!;
          yield* patch.open();
          yield Buffer.from('\r\n');
        }
        yield tail;
      }
      return fetch(url, {
        method: 'PUT',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) },
        body: Readable.toWeb(Readable.from(body())) as ReadableStream,
        duplex: 'half',
        signal,
      } as RequestInit);
    });
    const json = (await answer.json()) as QuiltAnswer;
    if (!Array.isArray(json.storedQuiltBlobs)) throw new Error(`the publisher's answer to PUT /v1/quilts lists no patches: ${JSON.stringify(json).slice(0, 300)}`);
    return { ...storedBlobOf(json.blobStoreResult, 'PUT /v1/quilts'), patchIds: new Map(json.storedQuiltBlobs.map((b) => [b.identifier, b.quiltPatchId])) };
  }

  /**
   * Renews a quilt: its bytes (`GET /v1/blobs/{id}`) are stored again for `epochs` from now
   * (`PUT /v1/blobs`). Same bytes, same blobId, so every QuiltPatchId stays valid; the publisher
   * reuses what is already stored and buys the storage that extends it.
   */
  async renewQuilt(quiltId: string): Promise<Omit<StoredQuilt, 'patchIds'>> {
    const query = new URLSearchParams({ epochs: String(this.options.epochs) });
    if (this.options.sendObjectTo) query.set('send_object_to', this.options.sendObjectTo);
    const answer = await this.call('PUT /v1/blobs (renewal)', async (signal) => {
      const current = await fetch(`${this.options.aggregatorUrl}/v1/blobs/${encodeURIComponent(quiltId)}`, { signal });
      if (!current.ok || !current.body) {
        // Answered as the publisher would have: our caller maps and retries it the same way.
        return new Response(await current.text(), { status: current.status, headers: current.headers });
      }
      const length = current.headers.get('content-length');
      return fetch(`${this.options.publisherUrl}/v1/blobs?${query}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', ...(length ? { 'content-length': length } : {}) },
        body: current.body,
        duplex: 'half',
        signal,
      } as RequestInit);
    });
    return storedBlobOf((await answer.json()) as BlobStoreResult, 'PUT /v1/blobs');
  }

  /** `GET /v1/blobs/by-quilt-patch-id/{id}`: the patch's bytes, streamed. */
  async readPatch(quiltPatchId: string): Promise<Readable> {
    try {
      const answer = await this.call('GET by-quilt-patch-id', (signal) => fetch(`${this.options.aggregatorUrl}/v1/blobs/by-quilt-patch-id/${encodeURIComponent(quiltPatchId)}`, { signal }));
      return Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>);
    } catch (error) {
      if (error instanceof WalrusRequestError && error.status === 404) throw new BlobMissingError(quiltPatchId);
      throw error;
    }
  }

  /** Both daemons answer `/status` (readiness). */
  async check(timeoutMs: number): Promise<void> {
    for (const [name, base] of [['publisher', this.options.publisherUrl], ['aggregator', this.options.aggregatorUrl]] as const) {
      try {
        const answer = await fetch(`${base}/status`, { signal: AbortSignal.timeout(timeoutMs) });
        await answer.body?.cancel();
        if (!answer.ok) throw new Error(`status ${answer.status}`);
      } catch (error) {
        throw new BlobStoreUnavailableError(`the Walrus ${name} at ${base} does not answer: ${(error as Error).message}`, { cause: error });
      }
    }
  }

  /**
   * Runs a request with a timeout for its headers, retrying with backoff while the daemon is
   * unreachable or asks to wait; answers the first 2xx, throws the rest as our errors. The 2xx's
   * body keeps the same timeout for each of its reads (stallGuarded): a daemon that stalls half-way
   * fails the read instead of holding it, and a download, open for ever.
   */
  private async call(what: string, send: (signal: AbortSignal) => Promise<Response>): Promise<Response> {
    let last: unknown;
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      if (attempt > 1) await sleep(Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempt - 2)) * (0.5 + Math.random() / 2));
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`no answer within ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
      let answer: Response;
      try {
        answer = await send(controller.signal);
      } catch (error) {
        last = error;
        continue; // refused, cut or timed out: the daemon may be back in a moment
      } finally {
        clearTimeout(timer);
      }
      if (answer.ok) return answer.body ? new Response(stallGuarded(answer.body, controller, this.options.timeoutMs, what), answer) : answer;
      const failure = await this.failureOf(what, answer);
      if (!RETRY_STATUSES.has(answer.status)) throw failure;
      last = failure;
    }
    throw new BlobStoreUnavailableError(`Walrus ${what} failed after ${this.options.maxAttempts} attempts: ${(last as Error)?.message ?? last}`, { cause: last });
  }

  private async failureOf(what: string, answer: Response): Promise<Error> {
    const text = await answer.text().catch(() => '');
    if (answer.status === 413) {
      return new BlobTooLargeError(this.options.maxQuiltBytes, `the Walrus publisher refused the body as too large (its limit may be below TESSERA_WALRUS_MAX_QUILT_BYTES=${this.options.maxQuiltBytes})`);
    }
    let reason: string | undefined;
    let message = text.slice(0, 300);
    try {
      const error = (JSON.parse(text) as DaemonError).error;
      reason = error?.details?.find((d) => typeof d.reason === 'string')?.reason;
      message = error?.message ?? message;
    } catch {
      // 429 and proxies answer plain text
    }
    return new WalrusRequestError(`Walrus ${what}: ${answer.status}${reason ? ` ${reason}` : ''}: ${message}`, answer.status, reason);
  }
}

/**
 * The body, with a timeout on each read from the daemon: only while a read waits, so a consumer
 * that reads slowly (a slow client downloading) is never taken for a stalled daemon. A stall
 * aborts the request; the read then fails with the reason (bytes already passed on cannot be
 * taken back, so it is not retried).
 */
function stallGuarded(body: ReadableStream<Uint8Array>, controller: AbortController, timeoutMs: number, what: string): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(out) {
        const timer = setTimeout(() => controller.abort(new BlobStoreUnavailableError(`Walrus ${what}: the body stalled for ${timeoutMs} ms`)), timeoutMs);
        try {
          const { done, value } = await reader.read();
          if (done) out.close();
          else out.enqueue(value);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

interface BlobStoreResult {
  newlyCreated?: { blobObject: { blobId: string; size: number; registeredEpoch?: number; storage: { startEpoch?: number; endEpoch: number } }; cost?: number };
  alreadyCertified?: { blobId: string; endEpoch: number };
}

interface QuiltAnswer {
  blobStoreResult?: BlobStoreResult;
  storedQuiltBlobs?: Array<{ identifier: string; quiltPatchId: string }>;
}

function storedBlobOf(result: BlobStoreResult | undefined, what: string): Omit<StoredQuilt, 'patchIds'> {
  const created = result?.newlyCreated;
  const quiltId = created?.blobObject.blobId ?? result?.alreadyCertified?.blobId;
  const endEpoch = created?.blobObject.storage.endEpoch ?? result?.alreadyCertified?.endEpoch;
  if (!quiltId || endEpoch === undefined) throw new Error(`the publisher's answer to ${what} is not a stored blob: ${JSON.stringify(result).slice(0, 300)}`);
  return { quiltId, endEpoch, costFrost: created?.cost ?? 0, storedEpoch: created?.blobObject.registeredEpoch ?? created?.blobObject.storage.startEpoch };
}

interface DaemonError {
  error?: { code?: number; status?: string; message?: string; details?: Array<{ reason?: string }> };
}
