import { Worker } from 'node:worker_threads';
import { AppError } from '../../errors.ts';
import { WorkLimiter } from '../limiter.ts';
import { askWorker, WorkerRequestError } from '../worker-request.ts';
import type { EditPlan } from '../plan.ts';
import type { PlanRequest, PlanResponse } from './planner-thread.ts';
import { PromptError, type Planner, type RulePlannerOptions } from './rule-planner.ts';

export interface ThreadedPlannerLimits {
  /** Planning one prompt, once the thread is ready; past it the thread is stopped and the prompt answered 503. */
  timeoutMs: number;
  /** How long a prompt may wait for the thread while others are planned; then 503. */
  queueTimeoutMs: number;
}

/** A thread, and its readiness: it has read the planner's tables (most of a second), or failed to. */
interface PlannerThread {
  worker: Worker;
  ready: Promise<void>;
}

/**
 * The rule planner on a thread of its own, so that no prompt holds up the event loop: the planner
 * is bounded (PLANNER_LIMITS) but a prompt at the length limit still takes tens of milliseconds of
 * CPU with a generative provider on, and that time would be every other request's wait. One prompt
 * is planned at a time (a typical one takes about a millisecond); the others wait their turn, up
 * to `queueTimeoutMs`. A planning that runs past `timeoutMs` stops the thread and is answered 503
 * (no prompt within the limits comes near it, so it says the machine is overloaded or the planner
 * is at fault, not the prompt); the next prompt gets a fresh thread. The time limit starts when
 * the thread is ready, never while it reads its tables. The thread starts with the first prompt,
 * or `start()`, and, idle, does not keep the process alive.
 */
export class ThreadedPlanner implements Planner {
  readonly name = 'rules';
  private readonly options: RulePlannerOptions;
  private readonly limits: ThreadedPlannerLimits;
  private readonly limiter: WorkLimiter;
  private thread: PlannerThread | undefined;
  private nextId = 1;

  constructor(options: RulePlannerOptions, limits: ThreadedPlannerLimits) {
    this.options = options;
    this.limits = limits;
    this.limiter = new WorkLimiter(1, limits.queueTimeoutMs, 'planning prompts');
  }

  plan(prompt: string): Promise<EditPlan> {
    return this.limiter.run(() => this.onReadyThread((worker) => this.ask(worker, { id: this.nextId++, prompt })));
  }

  /** The thread started and ready to plan, or why it is not: `npm start` waits for it before listening. */
  async start(): Promise<void> {
    await this.onReadyThread(async () => {});
  }

  /** `work` on the thread once it is ready, the thread started if need be and kept alive meanwhile. */
  private async onReadyThread<T>(work: (worker: Worker) => Promise<T>): Promise<T> {
    const { worker, ready } = (this.thread ??= this.spawn());
    worker.ref();
    try {
      await ready;
      return await work(worker);
    } finally {
      // An idle thread must not keep the process alive (tests, the CLI).
      worker.unref();
    }
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.worker.terminate();
  }

  private spawn(): PlannerThread {
    const worker = new Worker(new URL('./planner-thread.ts', import.meta.url), { workerData: this.options });
    // An error while idle (none is expected: the thread does nothing between prompts) must not be
    // the process's uncaught exception: the thread is let go, and the next prompt gets another.
    worker.on('error', () => this.discard(worker));
    worker.on('exit', () => {
      if (this.thread?.worker === worker) this.thread = undefined;
    });
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if (message !== null && typeof message === 'object' && (message as { ready?: unknown }).ready === true) done(resolve);
      };
      const onError = (error: Error) => done(() => reject(new Error(`the planning thread did not start: ${error.message}`)));
      const onExit = (code: number) => done(() => reject(new Error(`the planning thread did not start (exit code ${code})`)));
      const done = (settle: () => void) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        settle();
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    // Waited for by whoever plans; unobserved (a thread closed while starting), it is no unhandled rejection.
    ready.catch(() => {});
    return { worker, ready };
  }

  /** Stops a thread whose state is unknown (it failed, or is still planning): the next prompt gets a fresh one. */
  private discard(worker: Worker): void {
    if (this.thread?.worker === worker) this.thread = undefined;
    void worker.terminate();
  }

  private async ask(worker: Worker, request: PlanRequest): Promise<EditPlan> {
    let response: PlanResponse;
    try {
      response = await askWorker<PlanResponse>(worker, request, this.limits.timeoutMs);
    } catch (error) {
      if (!(error instanceof WorkerRequestError)) throw error;
      const { failure } = error;
      if (failure.kind === 'exit') throw new Error(`the planning thread stopped (exit code ${failure.code})`);
      // Failed, or still planning: its state is unknown, and the next prompt gets a fresh one.
      this.discard(worker);
      if (failure.kind === 'error') throw new Error(`the planning thread failed: ${failure.error.message}`);
      throw new AppError('provider_unavailable', `planning the prompt took over ${this.limits.timeoutMs} ms; retry shortly`, { headers: { 'retry-after': '1' } });
    }
    if (response.ok) return response.plan;
    if ('refusal' in response) {
      const { reason, clause, message, suggestions } = response.refusal;
      throw new PromptError(reason, clause, message, suggestions);
    }
    throw new Error(`planning failed: ${response.error}`);
  }
}
