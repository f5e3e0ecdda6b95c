import type { FileRecord, Operations, Space } from '../../client/src/generated.ts';
import { Http, TesseraError } from '../../client/src/http.ts';

export { TesseraError };
export type { FileRecord, Space };
export type FilePage = Operations['GET /v1/storage/files']['response'];
export type EditRequest = Operations['POST /v1/images/edits']['body'];
export type EditResult = Operations['POST /v1/images/edits']['response'];
export type PlanStep = EditResult['operations'][number];
export type OperationInfo = Operations['GET /v1/images/operations']['response']['operations'][number];
export type FileDetail = Operations['GET /v1/storage/files/{fileId}']['response'];
export type SignedLink = Operations['POST /v1/storage/files/{fileId}/links']['response'];
export type AccountInfo = Operations['GET /v1/account']['response'];

/** The typed client's transport (retries on 429/503, one error type), bound to this origin. */
export class ConsoleApi {
  private readonly http: Http;

  /** `onUnauthorized`: the key stopped being accepted (revoked) while the console was open. */
  constructor(
    readonly apiKey: string,
    private readonly onUnauthorized: () => void = () => {},
  ) {
    const watchedFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (response.status === 401) this.onUnauthorized();
      return response;
    };
    this.http = new Http({ baseUrl: location.origin, apiKey, retries: 2, maxRetryDelayMs: 5000, fetch: watchedFetch as typeof fetch });
  }

  spaces(): Promise<Space[]> {
    return this.http.json('GET /v1/spaces', { idempotent: true }).then((r) => r.spaces);
  }

  createSpace(name: string, encryption: Space['encryption'] = 'sealed'): Promise<Space> {
    return this.http.json('POST /v1/spaces', { body: { name, encryption }, idempotent: false });
  }

  deleteSpace(id: string): Promise<void> {
    return this.http.json('DELETE /v1/spaces/{id}', { path: { id }, idempotent: true }).then(() => undefined);
  }

  files(options: { spaceId?: string; cursor?: string; limit: number }): Promise<FilePage> {
    return this.http.json('GET /v1/storage/files', { query: { limit: options.limit, cursor: options.cursor, workspace_id: options.spaceId }, idempotent: true });
  }

  file(fileId: string): Promise<FileDetail> {
    return this.http.json('GET /v1/storage/files/{fileId}', { path: { fileId }, idempotent: true });
  }

  deleteFile(fileId: string): Promise<void> {
    return this.http.json('DELETE /v1/storage/files/{fileId}', { path: { fileId }, idempotent: true }).then(() => undefined);
  }

  /**
   * A signed link to the file's bytes or a thumbnail: an URL an <img> or <a> can use without the
   * key, so the browser fetches, caches and streams it itself.
   */
  link(fileId: string, options: { expiresIn: number; thumbnailWidth?: number; download?: boolean }): Promise<SignedLink> {
    return this.http.json('POST /v1/storage/files/{fileId}/links', {
      path: { fileId },
      body: { expires_in: options.expiresIn, thumbnail_width: options.thumbnailWidth, download: options.download },
      idempotent: true,
    });
  }

  account(): Promise<AccountInfo> {
    return this.http.json('GET /v1/account', { idempotent: true });
  }

  operations(): Promise<OperationInfo[]> {
    return this.http.json('GET /v1/images/operations', { idempotent: true }).then((r) => r.operations);
  }

  edit(request: EditRequest): Promise<EditResult> {
    // One key per edit: when the transport retries it (429, 503, network), the edit is stored once.
    return this.http.json('POST /v1/images/edits', { body: request, headers: { 'idempotency-key': crypto.randomUUID() }, idempotent: true });
  }

  /**
   * One file per request, through XMLHttpRequest: fetch cannot report upload progress. The
   * answer and its errors take the same shapes as the rest of the API.
   */
  upload(file: File, spaceId: string | undefined, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<FileRecord> {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open('POST', '/v1/storage/files');
      request.setRequestHeader('x-api-key', this.apiKey);
      request.responseType = 'text';
      request.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded / event.total);
      };
      request.onload = () => {
        const body = parseJson(request.responseText);
        if (request.status === 201) return resolve((body as { files: FileRecord[] }).files[0]!);
        if (request.status === 401) this.onUnauthorized();
        reject(errorOf(request.status, body, request.statusText));
      };
      request.onerror = () => reject(new TesseraError(0, 'network_error', 'the upload did not reach the server; check the connection and try again'));
      request.onabort = () => reject(new TesseraError(0, 'network_error', 'upload cancelled'));
      signal?.addEventListener('abort', () => request.abort());
      const form = new FormData();
      if (spaceId) form.append('workspace_id', spaceId);
      form.append('file', file, file.name);
      request.send(form);
    });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorOf(status: number, body: unknown, statusText: string): TesseraError {
  const error = (body as { error?: { code: string; message: string } } | undefined)?.error;
  if (error) {
    const { code, message, ...details } = error;
    return new TesseraError(status, code as TesseraError['code'], message, details);
  }
  return new TesseraError(status, status >= 500 ? 'internal' : 'invalid_request', statusText || `HTTP ${status}`);
}

/** What to tell a person about a failure, in one sentence. */
export function describeError(error: unknown): string {
  if (error instanceof TesseraError) {
    if (error.code === 'network_error') return 'The server could not be reached. Is Tessera still running?';
    if (error.status === 413) return `Too large: ${error.message}`;
    if (error.status === 429) return 'Too many requests at once; wait a moment and try again.';
    return error.message.charAt(0).toUpperCase() + error.message.slice(1);
  }
  return error instanceof Error ? error.message : String(error);
}
