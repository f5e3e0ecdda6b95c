import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_STATUS, type ErrorCode } from '../errors.ts';
import { BlobStoreUnavailableError, BlobTooLargeError } from '../storage/blob-store.ts';

/** Seconds a client is asked to wait when the blob store (S3) does not answer. */
export const STORE_RETRY_AFTER_S = 2;

/** Framework and plugin error codes, mapped onto the contract's catalogue. */
const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_REQ_FILE_TOO_LARGE: 'payload_too_large',
  FST_FILES_LIMIT: 'payload_too_large',
  FST_PARTS_LIMIT: 'payload_too_large',
  FST_FIELDS_LIMIT: 'payload_too_large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_request',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
  FST_PROTO_VIOLATION: 'invalid_request',
  FST_MP_PREMATURE_CLOSE: 'invalid_request',
  FST_INVALID_JSON_FIELD_ERROR: 'invalid_request',
  FST_ERR_BAD_URL: 'invalid_request',
  FST_ERR_MAX_PARAM_LENGTH: 'invalid_request',
  FST_ERR_ASYNC_CONSTRAINT: 'invalid_request',
};

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'invalid_request',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

interface ApiError {
  status: number;
  code: ErrorCode;
  message: string;
  headers: Record<string, string>;
  details?: Record<string, unknown>;
}

/** The limits a refusal names, so a 413 says which one was hit and how big it is. */
export interface RequestLimits {
  maxFileBytes: number;
  maxFilesPerUpload: number;
  maxJsonBytes: number;
}

export function toApiError(error: unknown, limits?: RequestLimits): ApiError {
  if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message, headers: error.headers, details: error.details };
  if (error instanceof BlobTooLargeError) return apiError('payload_too_large', error.detail ?? `file is larger than the limit of ${error.maxBytes} bytes`);
  if (error instanceof BlobStoreUnavailableError) {
    return { ...apiError('provider_unavailable', 'the blob store is unavailable; retry shortly'), headers: { 'retry-after': String(STORE_RETRY_AFTER_S) } };
  }
  const e = error as Partial<FastifyError> & { validation?: unknown };
  if (e.validation) return apiError('invalid_request', e.message ?? 'invalid request');
  const mapped = e.code ? FRAMEWORK_CODES[e.code] : undefined;
  // An over-long path parameter keeps its 414 (URI Too Long), in the contract's shape.
  if (mapped) return { ...apiError(mapped, describe(mapped, e, limits)), ...(e.code === 'FST_ERR_MAX_PARAM_LENGTH' ? { status: 414 } : {}) };
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    const code = BY_STATUS[e.statusCode] ?? 'invalid_request';
    return { ...apiError(code, e.message ?? code), status: e.statusCode };
  }
  // PostgreSQL refuses text holding a NUL character (SQLite stores it): a bad value, not a fault.
  if (e.code === '22021' || e.code === '22P05') return apiError('invalid_request', 'a value holds a character that is not allowed (NUL)');
  if (isDatabaseUnavailable(e)) {
    return { ...apiError('provider_unavailable', 'the database is unavailable; retry shortly'), headers: { 'retry-after': '1' } };
  }
  // Malformed multipart bodies surface as plain errors from the parser.
  if (e.message && /multipart|Unexpected end of form|Malformed part header/i.test(e.message)) return apiError('invalid_request', `malformed multipart body: ${e.message}`);
  return apiError('internal', 'internal error');
}

/** Connection-level failures of either database: the request may succeed when retried. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '53300', '08000', '08003', '08006', 'SQLITE_BUSY']);

function isDatabaseUnavailable(e: { code?: string; message?: string }): boolean {
  if (e.code && UNAVAILABLE_CODES.has(e.code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e.message ?? '');
}

function apiError(code: ErrorCode, message: string): ApiError {
  return { status: ERROR_STATUS[code], code, message, headers: {} };
}

function describe(code: ErrorCode, e: Partial<FastifyError>, limits?: RequestLimits): string {
  switch (code) {
    case 'unsupported_media_type':
      return e.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' ? 'upload as multipart/form-data with one or more parts named "file"' : 'send the body as application/json';
    case 'payload_too_large':
      if (limits && e.code === 'FST_REQ_FILE_TOO_LARGE') return `the file is larger than this server's limit of ${formatBytes(limits.maxFileBytes)} per file`;
      if (limits && e.code === 'FST_FILES_LIMIT') return `more than ${limits.maxFilesPerUpload} files in one upload; send them in several requests`;
      if (limits && e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return `the JSON body is larger than the limit of ${formatBytes(limits.maxJsonBytes)}`;
      return `request is over a limit: ${e.message ?? 'too large'}`;
    default:
      if (e.code === 'FST_ERR_MAX_PARAM_LENGTH') return 'a path parameter is longer than any id (100 characters at most)';
      if (e.code === 'FST_ERR_BAD_URL') return 'the URL is not valid (bad percent-encoding)';
      return e.message ?? code;
  }
}

/** Answers an error in the contract's shape: `{ error: { code, message } }`. */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply, limits?: RequestLimits): void {
  const apiError = toApiError(error, limits);
  if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
  const message = apiError.status >= 500 && apiError.code === 'internal' ? `internal error (request ${request.id})` : apiError.message;
  void reply
    .status(apiError.status)
    .headers(apiError.headers)
    .send({ error: { ...apiError.details, code: apiError.code, message } });
}

/**
 * An error on the OpenAI Images API form of an edit, in OpenAI's shape, so its clients (the
 * official SDKs) read it: `{ error: { message, type, param, code, reason } }`, with the status and
 * `code` of our contract's table. `type` is `invalid_request_error` for a refusal (4xx) and
 * `server_error` for our failures (5xx); `param` names the form field at fault, when one is.
 */
export function sendImagesApiError(error: unknown, request: FastifyRequest, reply: FastifyReply, limits?: RequestLimits): void {
  const apiError = toApiError(error, limits);
  if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
  const message = apiError.status >= 500 && apiError.code === 'internal' ? `internal error (request ${request.id})` : apiError.message;
  const { param, reason, ...details } = apiError.details ?? {};
  void reply
    .status(apiError.status)
    .headers(apiError.headers)
    .send({
      error: {
        ...details,
        message,
        type: apiError.status >= 500 ? 'server_error' : 'invalid_request_error',
        param: typeof param === 'string' ? param : null,
        code: apiError.code,
        reason: typeof reason === 'string' ? reason : null,
      },
    });
}

/** The one error handler: every non-2xx answer is `{ error: { code, message } }`. */
export function installErrorHandling(app: FastifyInstance, limits?: RequestLimits): void {
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply, limits));
  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({ error: { code: 'not_found', message: `no route ${request.method} ${request.url.split('?')[0]}` } });
  });
}

function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1 && value % 1024 === 0) {
    value /= 1024;
    unit++;
  }
  return `${value} ${units[unit]}`;
}
