import { Worker } from 'node:worker_threads';
import { AppError } from '../../errors.ts';
import { WorkLimiter } from '../limiter.ts';
import { askWorker, WorkerRequestError } from '../worker-request.ts';
import type { InferenceRequest, InferenceResponse, InferenceTask } from './inference-worker.ts';
import type { ModelFiles } from './models.ts';

type Success = Extract<InferenceResponse, { ok: true }>;

/**
 * Up to `size` worker threads, started on first use, each running one inference at a time; more
 * requests wait for a free one (WorkLimiter: 503 after queueTimeoutMs). A worker that fails, crashes
 * or runs past timeoutMs is stopped, and the next request gets a fresh one.
 */
export class WorkerPool {
  private readonly files: ModelFiles;
  private readonly timeoutMs: number;
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly limiter: WorkLimiter;
  private nextId = 1;

  constructor(
    files: ModelFiles,
    size: number,
    queueTimeoutMs: number,
    timeoutMs: number,
  ) {
    this.files = files;
    this.timeoutMs = timeoutMs;
    this.limiter = new WorkLimiter(size, queueTimeoutMs, 'finding regions in images');
  }

  run(task: InferenceTask, rgb: Uint8Array, width: number, height: number): Promise<Success> {
    return this.limiter.run(async () => {
      const worker = this.idle.pop() ?? this.start();
      worker.ref();
      try {
        // A copy of its own to hand over: sharp's buffers cannot be transferred.
        const response = await this.ask(worker, { id: this.nextId++, task, rgb: new Uint8Array(rgb), width, height });
        this.idle.push(worker);
        return response;
      } catch (error) {
        // Its state is unknown after a failure: the next request gets a fresh worker.
        void worker.terminate();
        throw error;
      } finally {
        // An idle worker must not keep the process alive (tests, the CLI).
        worker.unref();
      }
    });
  }

  async close(): Promise<void> {
    const workers = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private start(): Worker {
    const worker = new Worker(new URL('./inference-worker.ts', import.meta.url), { workerData: this.files });
    this.all.add(worker);
    worker.on('exit', () => {
      this.all.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
    });
    return worker;
  }

  private async ask(worker: Worker, request: InferenceRequest): Promise<Success> {
    let response: InferenceResponse;
    try {
      response = await askWorker<InferenceResponse>(worker, request, this.timeoutMs, [request.rgb.buffer as ArrayBuffer]);
    } catch (error) {
      if (!(error instanceof WorkerRequestError)) throw error;
      const { failure } = error;
      if (failure.kind === 'timeout') throw new AppError('provider_unavailable', `finding the region took over ${this.timeoutMs} ms; retry shortly`, { headers: { 'retry-after': '5' } });
      throw new Error(failure.kind === 'error' ? `the segmentation worker failed: ${failure.error.message}` : `the segmentation worker stopped (exit code ${failure.code})`);
    }
    if (!response.ok) throw new Error(`segmentation failed: ${response.error}`);
    return response;
  }
}
