import OpenAI, { toFile } from 'openai';
import { ProviderError, type GenerativeProvider, type GenerativeRequest } from './provider.ts';

export interface OpenAiImagesOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** The Images API's `size` ("auto", "1024x1024", …) and `quality`. */
  size: string;
  quality: 'auto' | 'low' | 'medium' | 'high' | 'standard';
  timeoutMs: number;
}

/** Error codes the Images API gives when its content policy refuses a request. */
const REFUSAL_CODES = new Set(['moderation_blocked', 'content_policy_violation', 'content_filter']);

/**
 * The OpenAI Images API (`POST /v1/images/edits`), through the official client: OpenAI itself,
 * Azure OpenAI's compatible endpoint, or any gateway that speaks the protocol.
 */
export class OpenAiImagesProvider implements GenerativeProvider {
  private readonly options: OpenAiImagesOptions;
  readonly name = 'openai';
  readonly model: string;
  private readonly client: OpenAI;

  constructor(options: OpenAiImagesOptions) {
    this.options = options;
    this.model = options.model;
    // No retries inside the client: each attempt may be billed, and the caller gets 503 with
    // Retry-After and decides.
    this.client = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey || 'unused', timeout: options.timeoutMs, maxRetries: 0 });
  }

  async edit(request: GenerativeRequest): Promise<Buffer> {
    let answer: OpenAI.Images.ImagesResponse;
    try {
      answer = await this.client.images.edit({
        model: this.options.model,
        image: await toFile(request.image, 'image.png', { type: 'image/png' }),
        ...(request.mask ? { mask: await toFile(request.mask, 'mask.png', { type: 'image/png' }) } : {}),
        prompt: request.instruction,
        n: 1,
        size: this.options.size,
        quality: this.options.quality,
        // gpt-image models always answer in base64 and refuse the parameter; DALL·E needs it.
        ...(/^dall-e/i.test(this.options.model) ? { response_format: 'b64_json' as const } : {}),
        stream: false,
      });
    } catch (error) {
      throw describeFailure(error);
    }
    const encoded = answer?.data?.[0]?.b64_json;
    if (typeof encoded !== 'string' || encoded.length === 0) throw new ProviderError('malformed', 'the Images API answered without data[0].b64_json');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new ProviderError('malformed', 'the Images API answered with b64_json that is not base64');
    return Buffer.from(encoded, 'base64');
  }
}

function describeFailure(error: unknown): ProviderError {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new ProviderError('unavailable', 'the generative provider did not answer in time');
  if (error instanceof OpenAI.APIConnectionError) return new ProviderError('unavailable', `the generative provider could not be reached (${error.message})`);
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    const retryAfter = Number(error.headers?.get('retry-after'));
    const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : undefined;
    if (REFUSAL_CODES.has(String(error.code)) || /safety system|content policy/i.test(error.message)) {
      return new ProviderError('refused', reasonOf(error));
    }
    if (status === 429) return new ProviderError('unavailable', 'the generative provider is rate-limiting this server', wait);
    if (status >= 500) return new ProviderError('unavailable', `the generative provider failed (${status})`, wait);
    // 400/401/403/404 on our side of the protocol: misconfiguration, not the caller's fault.
    return new ProviderError('malformed', `the generative provider refused the request (${status}): ${reasonOf(error)}`);
  }
  return new ProviderError('malformed', `the generative provider's answer could not be read (${(error as Error).message})`);
}

function reasonOf(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : error.message;
}
