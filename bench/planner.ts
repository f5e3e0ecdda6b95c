import path from 'node:path';
import { DEFAULT_MAX_CALLS_PER_EDIT } from '../src/config.ts';
import { RulePlanner } from '../src/edits/planner/rule-planner.ts';
import { ThreadedPlanner } from '../src/edits/planner/threaded-planner.ts';
import { threadCpuMs } from '../test/helpers/cpu-time.ts';
import { hostilePrompts } from '../test/helpers/hostile-prompts.ts';
import { benchArguments } from './sides.ts';

/**
 * Planning time of prompts made to be expensive (test/helpers/hostile-prompts.ts), each at the
 * 4,000-character limit: the median of several runs per prompt, and the worst of those medians,
 * against the median of the seed prompt in the same run, for each way the server may plan (with
 * regions, with a generative provider). Planning runs on a thread of its own in the server
 * (threaded-planner.ts), so the worst case is how long one prompt holds that thread, and the
 * prompts behind it. Timed in the thread's CPU time, which other processes on a loaded machine
 * cannot stretch (the wall clock counts their turns too).
 */
export interface PlannerBenchResult {
  worst: { name: string; ms: number; mode: string };
  seedPromptMs: number;
  perPrompt: Array<{ name: string; ms: number }>;
  /** The worst prompt of each way the server may plan (the server's default is regions on, no provider). */
  perMode: Array<{ mode: string; worst: { name: string; ms: number } }>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The median over runs of the CPU time of one planning, each run timing `batch` plannings in a
 * row: the thread's CPU clock moves in steps of a few milliseconds here (it read 0.00 ms for a
 * short prompt, 4.00 or 8.00 ms for a long one), so each run times several.
 */
function time(planner: RulePlanner, prompt: string, runs: number, batch: number): number {
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

const MODES = [
  { mode: 'rules alone', options: {} },
  { mode: 'regions (the default)', options: { regions: true } },
  { mode: 'generative provider', options: { generative: true, maxGenerateSteps: DEFAULT_MAX_CALLS_PER_EDIT } },
  { mode: 'regions and provider', options: { generative: true, maxGenerateSteps: DEFAULT_MAX_CALLS_PER_EDIT, regions: true } },
] as const;

export function benchPlanner(runs: number): PlannerBenchResult {
  const seedPromptMs = time(new RulePlanner(), 'rotate 90 degrees, make it black and white and add a red 10px border', runs, 200);
  const perMode = MODES.map(({ mode, options }) => {
    const planner = new RulePlanner(options);
    // Each prompt planned once first: the first mode timed otherwise paid for compiling the paths
    // the hostile prompts take (rules alone read 5.6–11.1 ms in three runs, against 3–5 after).
    for (const { prompt } of hostilePrompts()) time(planner, prompt, 1, 2);
    const perPrompt = hostilePrompts().map(({ name, prompt }) => ({ name, ms: time(planner, prompt, Math.max(3, Math.ceil(runs / 3)), 5) }));
    return { mode, perPrompt, worst: perPrompt.reduce((a, b) => (b.ms > a.ms ? b : a)) };
  });
  const worstMode = perMode.reduce((a, b) => (b.worst.ms > a.worst.ms ? b : a));
  return {
    worst: { ...worstMode.worst, mode: worstMode.mode },
    seedPromptMs,
    perPrompt: perMode[1]!.perPrompt,
    perMode: perMode.map(({ mode, worst }) => ({ mode, worst })),
  };
}

/**
 * What the planner's thread costs a plan (threaded-planner.ts): the seed prompt planned `count`
 * times in a row on the thread and on the event loop, alternately. Medians of the latency, and the
 * event loop's CPU per plan (on the thread: posting the prompt and taking the answer).
 */
export async function benchPlannerThread(count: number): Promise<{ threadMs: number; loopMs: number; threadLoopCpuMs: number; loopCpuMs: number }> {
  const prompt = 'rotate 90 degrees, make it black and white and add a red 10px border';
  const onLoop = new RulePlanner({ regions: true });
  const onThread = new ThreadedPlanner({ regions: true }, { timeoutMs: 10_000, queueTimeoutMs: 10_000 });
  try {
    await onThread.start();
    const [thread, loop]: number[][] = [[], []];
    for (let i = 0; i < count; i++) {
      for (const [planner, times] of [[onThread, thread], [onLoop, loop]] as const) {
        const started = performance.now();
        await planner.plan(prompt);
        times.push(performance.now() - started);
      }
    }
    const cpuPerPlan = async (planner: RulePlanner | ThreadedPlanner) => {
      const started = threadCpuMs();
      for (let i = 0; i < count; i++) await planner.plan(prompt);
      return (threadCpuMs() - started) / count;
    };
    return { threadMs: median(thread!), loopMs: median(loop!), threadLoopCpuMs: await cpuPerPlan(onThread), loopCpuMs: await cpuPerPlan(onLoop) };
  } finally {
    await onThread.close();
  }
}

/**
 * The hostile prompts planned by the planners of several checkouts in one process, in turn (each
 * round times every side), with a provider and regions on, the way that plans the most: the median
 * CPU per prompt and side, its ratio to the first side, and each side's worst. One process and
 * alternating rounds keep this machine's drift out of the ratios.
 */
async function comparePlanners(sides: Array<[name: string, dir: string]>, rounds: number): Promise<void> {
  const planners = await Promise.all(
    sides.map(async ([name, dir]) => {
      const { RulePlanner: Planner } = (await import(path.join(dir, 'src/edits/planner/rule-planner.ts'))) as { RulePlanner: typeof RulePlanner };
      return { name, planner: new Planner({ generative: true, maxGenerateSteps: DEFAULT_MAX_CALLS_PER_EDIT, regions: true }) };
    }),
  );
  const worst = planners.map(() => ({ name: '', ms: 0 }));
  console.log(`CPU of one planning, ms (medians of ${rounds} rounds), regions and provider: ${planners.map(({ name }) => name).join(' | ')}`);
  for (const { name, prompt } of hostilePrompts()) {
    for (const { planner } of planners) time(planner, prompt, 2, 3);
    const samples = planners.map(() => [] as number[]);
    for (let round = 0; round < rounds; round++) planners.forEach(({ planner }, i) => samples[i]!.push(time(planner, prompt, 1, 5)));
    const ms = samples.map(median);
    ms.forEach((value, i) => (worst[i] = value > worst[i]!.ms ? { name, ms: value } : worst[i]!));
    console.log(`${ms.map((value) => value.toFixed(2).padStart(7)).join(' ')}  ${ms.slice(1).map((value) => `${(ms[0]! / value).toFixed(2)}x`).join(' ')}  ${name}`);
  }
  planners.forEach(({ name }, i) => console.log(`worst of ${name}: ${worst[i]!.name} ${worst[i]!.ms.toFixed(2)} ms`));
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--side')) {
  const { sides, arg } = benchArguments(process.argv.slice(2));
  await comparePlanners(sides, Number(arg('--rounds') ?? 11));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const result = benchPlanner(15);
  for (const { name, ms } of result.perPrompt) console.log(`${ms.toFixed(2).padStart(8)} ms  ${name} (regions, the default)`);
  for (const { mode, worst } of result.perMode) console.log(`worst with ${mode}: ${worst.name} ${worst.ms.toFixed(2)} ms of CPU`);
  console.log(`seed prompt ${result.seedPromptMs.toFixed(3)} ms`);
  const thread = await benchPlannerThread(2000);
  console.log(
    `the seed prompt on the planner's thread: ${thread.threadMs.toFixed(2)} ms (on the event loop ${thread.loopMs.toFixed(2)} ms); the event loop's CPU per plan ${(thread.threadLoopCpuMs * 1000).toFixed(0)} µs (on the event loop ${(thread.loopCpuMs * 1000).toFixed(0)} µs)`,
  );
}
