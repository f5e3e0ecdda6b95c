import type { ErrorBody, Operations } from './generated.ts';

/** Every answer that is not a success, as the contract shapes it: status, code, message. */
export class TesseraError extends Error {
  readonly status: number;
  readonly code: ErrorBody['error']['code'] | 'network_error';
  /** Extra fields of the error body, e.g. `clause` and `suggestions` of a prompt not understood. */
  readonly details: Record<string, unknown>;
  constructor(
    status: number,
    code: ErrorBody['error']['code'] | 'network_error',
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.name = 'TesseraError';
  }
}

/** What fetch may send as a body, without leaning on DOM typings. */
export type RawBody = string | Uint8Array | ReadableStream<Uint8Array>;

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  /** Retries after 429, 503 and (for idempotent calls) network errors. Default 3. */
  retries: number;
  /** Longest wait between attempts, whatever Retry-After says. Default 30 s. */
  maxRetryDelayMs: number;
  fetch: typeof fetch;
}

export interface Call<K extends keyof Operations> {
  path?: Operations[K]['path'];
  query?: Partial<Record<string, string | number | boolean | undefined>>;
  /** JSON (a plain object), raw bytes, or a function that makes a fresh body for each attempt. */
  body?: RawBody | Operations[K]['body'] | (() => RawBody);
  headers?: Record<string, string>;
  /** Safe to send again after a network error (GET, DELETE, or an edit with an Idempotency-Key). */
  idempotent: boolean;
  /** A body that cannot be sent twice (a stream): no retries at all. */
  once?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Http {
  private readonly options: HttpOptions;
  constructor(options: HttpOptions) {
    this.options = options;
  }

  /** Sends one operation; answers the raw Response of a success, throws TesseraError otherwise. */
  async send<K extends keyof Operations>(operation: K, call: Call<K>): Promise<Response> {
    const [method, template] = (operation as string).split(' ') as [string, string];
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + fillPath(template, (call.path ?? {}) as Record<string, string>));
    for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const json = call.body !== undefined && isPlainObject(call.body);
    const headers = { 'x-api-key': this.options.apiKey, ...(json ? { 'content-type': 'application/json' } : {}), ...call.headers };
    const makeBody = typeof call.body === 'function' ? (call.body as () => RawBody) : () => (json ? JSON.stringify(call.body) : (call.body as RawBody | undefined));
    for (let attempt = 0; ; attempt++) {
      const canRetry = !call.once && attempt < this.options.retries;
      let response: Response;
      const body = makeBody();
      try {
        response = await this.options.fetch(url, { method, headers, body, ...(isStream(body) ? { duplex: 'half' } : {}) } as RequestInit);
      } catch (error) {
        if (canRetry && call.idempotent) {
          await sleep(this.backoff(attempt));
          continue;
        }
        throw networkError(this.options.baseUrl, error as Error, body !== undefined);
      }
      // A conditional request's "not modified" is an answer, not a failure.
      if (response.ok || (response.status === 304 && call.headers?.['if-none-match'] !== undefined)) return response;
      if (canRetry && (response.status === 429 || response.status === 503)) {
        await response.arrayBuffer().catch(() => undefined);
        await sleep(this.retryDelay(response, attempt));
        continue;
      }
      throw await toError(response);
    }
  }

  async json<K extends keyof Operations>(operation: K, call: Call<K>): Promise<Operations[K]['response']> {
    const response = await this.send(operation, call);
    if (response.status === 204) return undefined as Operations[K]['response'];
    return (await response.json()) as Operations[K]['response'];
  }

  private retryDelay(response: Response, attempt: number): number {
    const header = response.headers.get('retry-after');
    const seconds = header === null ? Number.NaN : Number(header);
    const asked = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header ?? '') - Date.now();
    return Math.min(this.options.maxRetryDelayMs, Number.isFinite(asked) && asked >= 0 ? asked : this.backoff(attempt));
  }

  private backoff(attempt: number): number {
    return Math.min(this.options.maxRetryDelayMs, 200 * 2 ** attempt + Math.random() * 100);
  }
}

/**
 * A request that got no answer. `details.reached`: the connection was made and broke while the
 * request was sent, as when a server refuses a large upload part way (over a size limit or a
 * quota) and closes the connection rather than read the rest; else the server was not reached.
 */
function networkError(baseUrl: string, error: Error, hadBody: boolean): TesseraError {
  const cause = error.cause as (Error & { code?: string }) | undefined;
  const reached = cause?.code === 'EPIPE' || cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET';
  const message = reached
    ? `the connection to ${baseUrl} broke (${cause.code}) before an answer${hadBody ? ': a server that refuses a large upload part way, over a size limit or a quota, closes it so' : ''}`
    : `could not reach ${baseUrl}: ${cause ?? error.message}`;
  return new TesseraError(0, 'network_error', message, { reached });
}

async function toError(response: Response): Promise<TesseraError> {
  const text = await response.text().catch(() => '');
  try {
    const { error } = JSON.parse(text) as ErrorBody;
    const { code, message, ...details } = error;
    return new TesseraError(response.status, code, message, details);
  } catch {
    return new TesseraError(response.status, response.status >= 500 ? 'internal' : 'invalid_request', text.slice(0, 200) || response.statusText);
  }
}

function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TypeError(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function isStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as ReadableStream).getReader === 'function';
}
