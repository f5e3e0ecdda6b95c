/**
 * A generative provider paints new pixels from an image and an instruction ("remove the people
 * in the background"). It is called for the plan's `generate` steps only, and only when an
 * operator configured one (TESSERA_GENERATIVE_PROVIDER); every call may cost money.
 */
export interface GenerativeProvider {
  /** Recorded in answers and lineage, e.g. "openai". */
  readonly name: string;
  readonly model: string;
  edit(request: GenerativeRequest): Promise<Buffer>;
}

export interface GenerativeRequest {
  /** PNG, already within the provider's size limit. */
  image: Buffer;
  instruction: string;
  /** PNG of the same size; transparent where the provider may paint. */
  mask?: Buffer;
}

/**
 * Why a provider call gave no image. `unavailable`: rate-limited, failing or too slow (worth a
 * retry later). `refused`: its content policy said no (a retry will not help). `malformed`: it
 * answered something that is not a usable image.
 */
export class ProviderError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'refused' | 'malformed',
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
