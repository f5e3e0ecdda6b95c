import { AppError } from '../errors.ts';

/**
 * Caps concurrent image work. Excess requests wait up to `queueTimeoutMs` for a slot, then get
 * 503 with Retry-After: a burst slows down instead of exhausting memory and CPU.
 */
export class WorkLimiter {
  private readonly maxConcurrent: number;
  private readonly queueTimeoutMs: number;
  /** What is at capacity, for the 503's message. */
  private readonly what: string;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    maxConcurrent: number,
    queueTimeoutMs: number,
    what = 'image processing',
  ) {
    this.maxConcurrent = maxConcurrent;
    this.queueTimeoutMs = queueTimeoutMs;
    this.what = what;
  }

  get active(): number {
    return this.running;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.maxConcurrent) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        this.running++;
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(grant), 1);
        reject(
          new AppError('provider_unavailable', `${this.what} is at capacity (${this.maxConcurrent} at a time); retry shortly`, {
            headers: { 'retry-after': '1' },
          }),
        );
      }, this.queueTimeoutMs);
      this.waiting.push(grant);
    });
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}
