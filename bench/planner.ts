import { RulePlanner } from '../src/edits/planner/rule-planner.ts';
import { threadCpuMs } from '../test/helpers/cpu-time.ts';
import { hostilePrompts } from '../test/helpers/hostile-prompts.ts';

/**
 * Planning time of prompts made to be expensive (test/helpers/hostile-prompts.ts), each at the
 * 4,000-character limit: the median of several runs per prompt, and the worst of those medians,
 * against the median of the seed prompt in the same run. Planning runs on the event loop, so the
 * worst case is how long one request can hold up every other. Timed in the event loop's CPU time,
 * which other processes on a loaded machine cannot stretch (the wall clock counts their turns too).
 */
export interface PlannerBenchResult {
  worst: { name: string; ms: number };
  seedPromptMs: number;
  perPrompt: Array<{ name: string; ms: number }>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The median over runs of the CPU time of one planning, each run timing `batch` plannings in a
 * row: a short prompt whose clauses are cached plans in microseconds, below what the thread's
 * CPU clock can tell apart in one call (it read 0.00 ms), so it is timed in batches.
 */
function time(planner: RulePlanner, prompt: string, runs: number, batch = 1): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = threadCpuMs();
    for (let j = 0; j < batch; j++) {
      try {
        planner.planSync(prompt);
      } catch {
        // Refusals are answers too: their time counts the same.
      }
    }
    samples.push((threadCpuMs() - started) / batch);
  }
  return median(samples);
}

export function benchPlanner(runs: number): PlannerBenchResult {
  const planner = new RulePlanner();
  const seedPromptMs = time(planner, 'rotate 90 degrees, make it black and white and add a red 10px border', runs, 200);
  const perPrompt = hostilePrompts().map(({ name, prompt }) => ({ name, ms: time(planner, prompt, runs) }));
  const worst = perPrompt.reduce((a, b) => (b.ms > a.ms ? b : a));
  return { worst, seedPromptMs, perPrompt };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = benchPlanner(15);
  for (const { name, ms } of result.perPrompt) console.log(`${ms.toFixed(2).padStart(8)} ms  ${name}`);
  console.log(`worst: ${result.worst.name} ${result.worst.ms.toFixed(2)} ms of CPU; seed prompt ${result.seedPromptMs.toFixed(3)} ms`);
}
