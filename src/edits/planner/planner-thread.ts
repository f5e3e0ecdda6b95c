import { parentPort, workerData } from 'node:worker_threads';
import type { EditPlan } from '../plan.ts';
import type { RefusalReason } from '../refusal-reasons.ts';
import { PromptError, RulePlanner, type RulePlannerOptions, type Suggestion } from './rule-planner.ts';

/**
 * The thread the rule planner runs on (threaded-planner.ts): a prompt at the length limit can take
 * tens of milliseconds of CPU to read, which on the event loop would hold up every other request.
 * One prompt at a time; the answer is the plan, or the refusal with everything the API says of it.
 */
export interface PlanRequest {
  id: number;
  prompt: string;
}

export interface Refusal {
  reason: RefusalReason;
  clause: string;
  message: string;
  suggestions: Suggestion[];
}

export type PlanResponse = { id: number; ok: true; plan: EditPlan } | { id: number; ok: false; refusal: Refusal } | { id: number; ok: false; error: string };

/** Prompts planned once before READY: whole-image edits, a region's, content, a question. */
const WARM_UP = ['rotate 90 degrees, make it black and white and add a red 10px border', 'blur the background and brighten her face', 'remove the man and add a hat', 'is it too dark?'];

/** Sent once, when the planner's tables are read: a plan's time limit starts only after it. */
export const READY = { id: 0, ready: true } as const;

const planner = new RulePlanner(workerData as RulePlannerOptions);
// A first planning in a fresh thread compiles the readers it runs (a hundred milliseconds and more
// under load): done here, before READY, so that a prompt's time limit counts planning only.
for (const prompt of WARM_UP) {
  try {
    planner.planSync(prompt);
  } catch {
    // A refusal warms the readers as well as a plan does.
  }
}
parentPort!.postMessage(READY);

parentPort!.on('message', ({ id, prompt }: PlanRequest) => {
  let response: PlanResponse;
  try {
    response = { id, ok: true, plan: planner.planSync(prompt) };
  } catch (error) {
    response =
      error instanceof PromptError
        ? { id, ok: false, refusal: { reason: error.reason, clause: error.clause, message: error.message, suggestions: error.suggestions } }
        : { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(response);
});
