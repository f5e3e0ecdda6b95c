import assert from 'node:assert/strict';
import { PromptError, type RulePlanner } from '../../src/edits/planner/rule-planner.ts';

/** The refusal a prompt gets; fails the test if it is planned. */
export function refusal(planner: RulePlanner, prompt: string): PromptError {
  try {
    planner.planSync(prompt);
  } catch (error) {
    if (error instanceof PromptError) return error;
    throw error;
  }
  assert.fail(`"${prompt}" was planned`);
}
