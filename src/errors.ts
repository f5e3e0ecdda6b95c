import { REFUSAL_REASONS } from './edits/refusal-reasons.ts';

/** The one catalogue of errors the API answers with (CONTRACT.md, "Errors"). */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_cursor: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  quota_exceeded: 413,
  unsupported_media_type: 415,
  prompt_not_understood: 422,
  not_an_image: 422,
  unsupported_edit: 422,
  rate_limited: 429,
  internal: 500,
  provider_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The `reason` of a refused edit (422): the planner's reasons, the generative provider's
 * content policy, a region the models did not find in the image (or region edits are off), and a
 * step the OpenAI form's mask cannot confine.
 */
export const ERROR_REASONS = [...REFUSAL_REASONS, 'content_policy', 'region_not_found', 'not_confinable'] as const;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  constructor(
    code: ErrorCode,
    message: string,
    options: { status?: number; headers?: Record<string, string>; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.headers = options.headers ?? {};
    this.details = options.details ?? {};
  }
  /** Extra fields of the error body beside code and message (e.g. a prompt's suggestions). */
  readonly details: Record<string, unknown>;
  /** Sent with the error answer, e.g. Retry-After. */
  readonly headers: Record<string, string>;
}

export const notFound = (what: string, id: string) => new AppError('not_found', `${what} ${id} does not exist`);
export const invalidRequest = (message: string) => new AppError('invalid_request', message);
