import type { Transferable, Worker } from 'node:worker_threads';

/** Why a worker gave no answer: it ran past the time allowed, failed, or stopped. */
export type WorkerFailure = { kind: 'timeout' } | { kind: 'error'; error: Error } | { kind: 'exit'; code: number };

export class WorkerRequestError extends Error {
  readonly failure: WorkerFailure;

  constructor(failure: WorkerFailure) {
    super(failure.kind === 'timeout' ? 'the worker ran past its time' : failure.kind === 'error' ? failure.error.message : `the worker stopped (exit code ${failure.code})`);
    this.failure = failure;
  }
}

/**
 * One request to a worker thread and its answer, matched by id: the worker's first message with
 * the request's id, or a WorkerRequestError when it runs past `timeoutMs`, fails or stops first.
 * What becomes of the worker then is the caller's to decide (its state is unknown).
 */
export function askWorker<Response extends { id: number }>(worker: Worker, request: { id: number }, timeoutMs: number, transfer: Transferable[] = []): Promise<Response> {
  return new Promise((resolve, reject) => {
    const onMessage = (response: Response) => {
      if (response.id !== request.id) return;
      done();
      resolve(response);
    };
    const fail = (failure: WorkerFailure) => {
      done();
      reject(new WorkerRequestError(failure));
    };
    const onError = (error: Error) => fail({ kind: 'error', error });
    const onExit = (code: number) => fail({ kind: 'exit', code });
    const timer = setTimeout(() => fail({ kind: 'timeout' }), timeoutMs);
    const done = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(request, transfer);
  });
}
