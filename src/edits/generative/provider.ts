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

/** The same provider, its calls counted and timed. */
export function observed(provider: GenerativeProvider, observe: (outcome: 'answered' | ProviderError['kind'], seconds: number) => void): GenerativeProvider {
  return {
    name: provider.name,
    model: provider.model,
    async edit(request) {
      const started = performance.now();
      let outcome: 'answered' | ProviderError['kind'] = 'malformed';
      try {
        const answer = await provider.edit(request);
        outcome = 'answered';
        return answer;
      } catch (error) {
        if (error instanceof ProviderError) outcome = error.kind;
        throw error;
      } finally {
        observe(outcome, (performance.now() - started) / 1000);
      }
    },
  };
}

/**
 * Why a provider call gave no image. `unavailable`: rate-limited, failing or too slow (worth a
 * retry later). `refused`: its content policy said no (a retry will not help). `malformed`: it
 * answered something that is not a usable image.
 */
export class ProviderError extends Error {
  readonly kind: 'unavailable' | 'refused' | 'malformed';
  readonly retryAfterSeconds?: number;
  constructor(
    kind: 'unavailable' | 'refused' | 'malformed',
    message: string,
    retryAfterSeconds?: number,
  ) {
    super(message);
    this.kind = kind;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
