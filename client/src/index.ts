import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import type { FileRecord, Operations, Space } from './generated.ts';
import { Http, TesseraError } from './http.ts';
import { multipartBody, type UploadProgress, type UploadSource } from './upload.ts';

export { TesseraError } from './http.ts';
export type { ErrorBody, FileMetadata, FileRecord, Operations, Space } from './generated.ts';
export type { UploadProgress, UploadSource } from './upload.ts';

export type FilePage = Operations['GET /v1/storage/files']['response'];
export type EditRequest = Operations['POST /v1/images/edits']['body'];
export type EditResult = Operations['POST /v1/images/edits']['response'];
export type OperationInfo = Operations['GET /v1/images/operations']['response']['operations'][number];
export type SignedLink = Operations['POST /v1/storage/files/{fileId}/links']['response'];
export type AccountInfo = Operations['GET /v1/account']['response'];
export type KeyScope = NonNullable<Operations['POST /v1/keys']['body']['scope']>;
export type CreatedKey = Operations['POST /v1/keys']['response'];
export type KeyRecord = Operations['GET /v1/keys']['response']['keys'][number];

export interface ClientOptions {
  /** e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  apiKey: string;
  /** Retries after 429 and 503 (honouring Retry-After) and after network errors on calls that are safe to repeat. Default 3. */
  retries?: number;
  /** Longest wait between two attempts. Default 30 000 ms. */
  maxRetryDelayMs?: number;
  /** Another fetch implementation (tests, proxies). */
  fetch?: typeof fetch;
}

export interface Download {
  /** The bytes, streamed. */
  stream: Readable;
  name: string | undefined;
  mimeType: string;
  sizeBytes: number | undefined;
  /** "<blobId>" */
  etag: string | undefined;
}

/**
 * A typed client for every route of Tessera. Errors are TesseraError (status, code, message);
 * 429 and 503 answers are retried after their Retry-After; network errors are retried for calls
 * that can be repeated safely. Edits get an Idempotency-Key, so they are among those.
 */
export class TesseraClient {
  readonly files: FilesApi;
  readonly spaces: SpacesApi;
  readonly images: ImagesApi;
  readonly account: AccountApi;

  constructor(options: ClientOptions) {
    const http = new Http({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      retries: options.retries ?? 3,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
      fetch: options.fetch ?? globalThis.fetch,
    });
    this.files = new FilesApi(http);
    this.spaces = new SpacesApi(http);
    this.images = new ImagesApi(http);
    this.account = new AccountApi(http);
  }
}

export class AccountApi {
  private readonly http: Http;
  constructor(http: Http) {
    this.http = http;
  }

  /** Usage and limits of the key's account, and the key's own scope and Space. */
  get(): Promise<AccountInfo> {
    return this.http.json('GET /v1/account', { idempotent: true });
  }

  /** Admin keys: a new key of this account (the key is in the answer only). Default scope: read. */
  createKey(options: { scope?: KeyScope; workspaceId?: string; name?: string } = {}): Promise<CreatedKey> {
    return this.http.json('POST /v1/keys', { body: { scope: options.scope, workspace_id: options.workspaceId, name: options.name }, idempotent: false });
  }

  async listKeys(): Promise<KeyRecord[]> {
    return (await this.http.json('GET /v1/keys', { idempotent: true })).keys;
  }

  async revokeKey(keyId: string): Promise<void> {
    await this.http.json('DELETE /v1/keys/{keyId}', { path: { keyId }, idempotent: true });
  }
}

export class FilesApi {
  private readonly http: Http;
  constructor(http: Http) {
    this.http = http;
  }

  /** One page, newest first. */
  list(options: { limit?: number; cursor?: string; workspaceId?: string } = {}): Promise<FilePage> {
    return this.http.json('GET /v1/storage/files', { query: { limit: options.limit, cursor: options.cursor || undefined, workspace_id: options.workspaceId }, idempotent: true });
  }

  /**
   * The page again only if it changed since `etag` (the one an earlier answer of this method gave):
   * `undefined` while it is unchanged, which the server answers without reading the page and
   * without a body. A page that holds no files has no tag (`etag` undefined).
   */
  async listIfChanged(etag: string | undefined, options: { limit?: number; cursor?: string; workspaceId?: string } = {}): Promise<{ page: FilePage; etag: string | undefined } | undefined> {
    const response = await this.http.send('GET /v1/storage/files', {
      query: { limit: options.limit, cursor: options.cursor || undefined, workspace_id: options.workspaceId },
      headers: etag === undefined ? {} : { 'if-none-match': etag },
      idempotent: true,
    });
    if (response.status === 304) return undefined;
    return { page: (await response.json()) as FilePage, etag: response.headers.get('etag') ?? undefined };
  }

  /** Every file, newest first, following the cursor page by page. */
  async *listAll(options: { pageSize?: number; workspaceId?: string } = {}): AsyncGenerator<FileRecord> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ limit: options.pageSize ?? 1000, cursor, workspaceId: options.workspaceId });
      yield* page.files;
      cursor = page.pagination.hasMore ? page.pagination.cursor : undefined;
    } while (cursor);
  }

  /**
   * Uploads files from paths, buffers or streams in one request (all stored, or none). Paths and
   * buffers are retried after 429/503; a stream can be sent only once.
   */
  async upload(sources: UploadSource | UploadSource[], options: { workspaceId?: string; onProgress?: (progress: UploadProgress) => void } = {}): Promise<FileRecord[]> {
    const list = Array.isArray(sources) ? sources : [sources];
    if (list.length === 0) throw new TypeError('nothing to upload');
    const body = multipartBody(list, options.workspaceId ? { workspace_id: options.workspaceId } : {}, options.onProgress);
    const answer = await this.http.json('POST /v1/storage/files', {
      body: () => body.stream(),
      headers: { 'content-type': body.contentType },
      idempotent: false,
      once: !body.replayable,
    });
    return answer.files;
  }

  get(fileId: string): Promise<FileRecord> {
    return this.http.json('GET /v1/storage/files/{fileId}', { path: { fileId }, idempotent: true });
  }

  /** The bytes as a stream (optionally a byte range, inclusive). */
  async download(fileId: string, options: { range?: { start: number; end?: number } } = {}): Promise<Download> {
    const headers: Record<string, string> = options.range ? { range: `bytes=${options.range.start}-${options.range.end ?? ''}` } : {};
    const response = await this.http.send('GET /v1/storage/files/{fileId}/content', { path: { fileId }, headers, idempotent: true });
    const length = response.headers.get('content-length');
    const disposition = response.headers.get('content-disposition') ?? '';
    const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
    return {
      stream: response.body ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>) : Readable.from([]),
      name: encoded ? decodeURIComponent(encoded) : /filename="([^"]*)"/i.exec(disposition)?.[1],
      mimeType: response.headers.get('content-type') ?? 'application/octet-stream',
      sizeBytes: length === null ? undefined : Number(length),
      etag: response.headers.get('etag') ?? undefined,
    };
  }

  /** Streams the bytes into a file; answers the number of bytes written. */
  async downloadTo(fileId: string, destination: string): Promise<number> {
    const { stream } = await this.download(fileId);
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
    await pipeline(stream, fs.createWriteStream(destination));
    return bytes;
  }

  /** A WebP rendition of an image file, `width` pixels wide at most (default 320). */
  async thumbnail(fileId: string, options: { width?: number } = {}): Promise<Uint8Array> {
    const response = await this.http.send('GET /v1/storage/files/{fileId}/thumbnail', { path: { fileId }, query: { width: options.width }, idempotent: true });
    return new Uint8Array(await response.arrayBuffer());
  }

  /**
   * A URL that serves the file (or, with `thumbnailWidth`, a WebP thumbnail) without a key until
   * it expires: for an <img src>, a browser download, or another service.
   */
  link(fileId: string, options: { expiresIn: number; thumbnailWidth?: number; download?: boolean }): Promise<SignedLink> {
    return this.http.json('POST /v1/storage/files/{fileId}/links', {
      path: { fileId },
      body: { expires_in: options.expiresIn, thumbnail_width: options.thumbnailWidth, download: options.download },
      idempotent: true,
    });
  }

  async delete(fileId: string): Promise<void> {
    await this.http.send('DELETE /v1/storage/files/{fileId}', { path: { fileId }, idempotent: true });
  }
}

export class SpacesApi {
  private readonly http: Http;
  constructor(http: Http) {
    this.http = http;
  }

  async list(): Promise<Space[]> {
    return (await this.http.json('GET /v1/spaces', { idempotent: true })).spaces;
  }

  /** `encryption: 'none'`: a public Space, whose files the Walrus engine stores unencrypted (docs/walrus.md). */
  create(name: string, options: { encryption?: Space['encryption'] } = {}): Promise<Space> {
    return this.http.json('POST /v1/spaces', { body: { name, ...(options.encryption ? { encryption: options.encryption } : {}) }, idempotent: false });
  }

  /** Changes the Space's encryption for files stored from now on. */
  update(id: string, changes: { encryption: Space['encryption'] }): Promise<Space> {
    return this.http.json('PATCH /v1/spaces/{id}', { path: { id }, body: changes, idempotent: true });
  }

  get(id: string): Promise<Space> {
    return this.http.json('GET /v1/spaces/{id}', { path: { id }, idempotent: true });
  }

  /** `force` also deletes the files it holds. */
  async delete(id: string, options: { force?: boolean } = {}): Promise<void> {
    await this.http.send('DELETE /v1/spaces/{id}', { path: { id }, query: { force: options.force }, idempotent: true });
  }
}

export class ImagesApi {
  private readonly http: Http;
  constructor(http: Http) {
    this.http = http;
  }

  /**
   * Edits an image with a prompt. An Idempotency-Key is sent (a new one unless given), so a
   * retry after a lost answer returns the first result instead of a second file.
   */
  edit(request: { prompt: string; fileId: string; workspaceId: string; outputFormat?: EditRequest['output_format']; name?: string; dryRun?: boolean }, options: { idempotencyKey?: string } = {}): Promise<EditResult> {
    const body: EditRequest = { prompt: request.prompt, file_id: request.fileId, workspace_id: request.workspaceId };
    if (request.outputFormat !== undefined) body.output_format = request.outputFormat;
    if (request.name !== undefined) body.name = request.name;
    if (request.dryRun !== undefined) body.dry_run = request.dryRun;
    return this.http.json('POST /v1/images/edits', { body, headers: { 'idempotency-key': options.idempotencyKey ?? randomUUID() }, idempotent: true });
  }

  async operations(): Promise<OperationInfo[]> {
    return (await this.http.json('GET /v1/images/operations', { idempotent: true })).operations;
  }
}

export function isTesseraError(error: unknown): error is TesseraError {
  return error instanceof TesseraError;
}
