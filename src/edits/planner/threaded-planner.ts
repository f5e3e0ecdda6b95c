import { Worker } from 'node:worker_threads';
import { WorkLimiter } from '../limiter.ts';
import { askWorker, WorkerRequestError } from '../worker-request.ts';
import type { EditPlan } from '../plan.ts';
import type { PlanRequest, PlanResponse } from './planner-thread.ts';
import { PromptError, type Planner, type RulePlannerOptions } from './rule-planner.ts';

export interface ThreadedPlannerLimits {
  /** Planning one prompt; past it the thread is stopped and the prompt refused (`limit`). */
  timeoutMs: number;
  /** How long a prompt may wait for the thread while others are planned; then 503. */
  queueTimeoutMs: number;
}

/**
 * The rule planner on a thread of its own, so that no prompt holds up the event loop: the planner
 * is bounded (PLANNER_LIMITS) but a prompt at the length limit still takes tens of milliseconds of
 * CPU with a generative provider on, and that time would be every other request's wait. One prompt
 * is planned at a time (a typical one takes about a millisecond); the others wait their turn. A
 * planning that runs past `timeoutMs` (no prompt within the limits comes near it) stops the thread
 * and is refused; the next prompt gets a fresh one. The thread starts with the first prompt, or
 * `start()` (it reads the planner's tables and word list: most of a second) and, idle, does not
 * keep the process alive.
 */
export class ThreadedPlanner implements Planner {
  readonly name = 'rules';
  private readonly options: RulePlannerOptions;
  private readonly limits: ThreadedPlannerLimits;
  private readonly limiter: WorkLimiter;
  private worker: Worker | undefined;
  private nextId = 1;

  constructor(options: RulePlannerOptions, limits: ThreadedPlannerLimits) {
    this.options = options;
    this.limits = limits;
    this.limiter = new WorkLimiter(1, limits.queueTimeoutMs, 'planning prompts');
  }

  plan(prompt: string): Promise<EditPlan> {
    return this.limiter.run(async () => {
      const worker = (this.worker ??= this.spawn());
      worker.ref();
      try {
        return await this.ask(worker, { id: this.nextId++, prompt });
      } finally {
        // An idle thread must not keep the process alive (tests, the CLI).
        worker.unref();
      }
    });
  }

  /** The thread started and ready to plan: `npm start` asks for it once listening (reading its tables takes most of a second). */
  async start(): Promise<void> {
    await this.plan('').catch(() => {});
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private spawn(): Worker {
    const worker = new Worker(new URL('./planner-thread.ts', import.meta.url), { workerData: this.options });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
    });
    return worker;
  }

  /** Stops a thread whose state is unknown (it failed, or is still planning): the next prompt gets a fresh one. */
  private discard(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
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
      throw new PromptError('limit', request.prompt.slice(0, 80), `Planning the prompt took over ${this.limits.timeoutMs} ms; split it into several requests.`, []);
    }
    if (response.ok) return response.plan;
    if ('refusal' in response) {
      const { reason, clause, message, suggestions } = response.refusal;
      throw new PromptError(reason, clause, message, suggestions);
    }
    throw new Error(`planning failed: ${response.error}`);
  }
}
