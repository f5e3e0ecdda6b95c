import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { PromptError, RulePlanner, type RulePlannerOptions } from '../../src/edits/planner/rule-planner.ts';
import { ThreadedPlanner } from '../../src/edits/planner/threaded-planner.ts';
import { startTestApp } from '../helpers/app.ts';
import { hostilePrompts } from '../helpers/hostile-prompts.ts';

const corpus = JSON.parse(readFileSync(new URL('../fixtures/prompts.json', import.meta.url), 'utf8')) as {
  understood: { prompt: string }[];
  refused: { prompt: string }[];
};

/** What a planner answers, as the API would show it: the plan, or the refusal with all it says. */
async function answerOf(plan: Promise<unknown>): Promise<unknown> {
  try {
    return { plan: await plan };
  } catch (error) {
    assert.ok(error instanceof PromptError, String(error));
    return { reason: error.reason, kind: error.kind, clause: error.clause, message: error.message, suggestions: error.suggestions };
  }
}

/** Turns of the event loop taken while `start()`'s work is pending: none when the work holds the loop throughout. */
async function turnsWhile(start: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let pending = true;
  const turn = () => {
    if (!pending) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  await start().catch(() => {});
  pending = false;
  return turns;
}

const limits = { timeoutMs: 30_000, queueTimeoutMs: 30_000 };
const planners: ThreadedPlanner[] = [];
const threaded = (options: RulePlannerOptions, given = limits) => {
  const planner = new ThreadedPlanner(options, given);
  planners.push(planner);
  return planner;
};

describe('the rule planner on a thread of its own', () => {
  after(async () => {
    await Promise.all(planners.map((planner) => planner.close()));
  });

  test('answers every prompt of the fixtures as the planner on the event loop does: the same plans, the same refusals with their reason, clause, message and suggestions', async () => {
    const options = { generative: true, regions: true };
    const onThread = threaded(options);
    const onLoop = new RulePlanner(options);
    const prompts = [...corpus.understood, ...corpus.refused].map(({ prompt }) => prompt);
    // Sent all at once: they wait their turn for the one thread, and each gets its own answer.
    const answers = await Promise.all(prompts.map((prompt) => answerOf(onThread.plan(prompt))));
    for (const [i, prompt] of prompts.entries()) assert.deepEqual(answers[i], await answerOf(onLoop.plan(prompt)), prompt);
  });

  test('the event loop keeps turning while a prompt at the length limit is planned', async () => {
    const prompt = hostilePrompts().find(({ name }) => name === 'sixty lists of verbs')!.prompt;
    const onThread = threaded({ generative: true, regions: true });
    await answerOf(onThread.plan('brighten it')); // the thread started
    assert.ok((await turnsWhile(() => onThread.plan(prompt))) > 0);
    // On the event loop the whole planning is one turn's work: nothing else runs meanwhile.
    const onLoop = new RulePlanner({ generative: true, regions: true });
    assert.equal(await turnsWhile(() => onLoop.plan(prompt)), 0);
  });

  test('a planning past the time limit stops the thread and is refused as past a limit; the next prompt gets a fresh thread', async () => {
    // 1 ms is less than the thread takes to start, let alone to plan.
    const hurried = threaded({}, { timeoutMs: 1, queueTimeoutMs: 30_000 });
    const refused = await answerOf(hurried.plan('brighten it'));
    assert.equal((refused as { reason: string }).reason, 'limit');
    assert.match((refused as { message: string }).message, /took over 1 ms; split it/);
    const patient = threaded({});
    assert.deepEqual(await answerOf(patient.plan('brighten it')), await answerOf(new RulePlanner().plan('brighten it')));
  });

  test('closed, it stops its thread; asked again, it starts another', async () => {
    const planner = threaded({});
    const first = await answerOf(planner.plan('rotate 90 degrees'));
    await planner.close();
    assert.deepEqual(await answerOf(planner.plan('rotate 90 degrees')), first);
  });
});

describe('where the server plans (TESSERA_PLANNER_THREAD)', () => {
  const provider = { TESSERA_GENERATIVE_PROVIDER: 'openai', TESSERA_GENERATIVE_BASE_URL: 'http://127.0.0.1:9/v1', TESSERA_GENERATIVE_API_KEY: 'sk-unused', TESSERA_GENERATIVE_MODEL: 'gpt-image-1' };
  for (const [env, threadedExpected, why] of [
    [{}, false, 'no provider: on the event loop (the worst prompt takes under 10 ms)'],
    [provider, true, 'a provider: on a thread (every clause of content is read on)'],
    [{ TESSERA_PLANNER_THREAD: 'on' }, true, 'on: on a thread'],
    [{ ...provider, TESSERA_PLANNER_THREAD: 'off' }, false, 'off: on the event loop'],
  ] as const) {
    test(why, async () => {
      const t = await startTestApp('sqlite', env);
      try {
        assert.equal(t.context.planner instanceof ThreadedPlanner, threadedExpected);
        assert.equal(t.context.planner instanceof RulePlanner, !threadedExpected);
        assert.deepEqual((await t.context.planner.plan('rotate 90 degrees')).operations.map((op) => op.op), ['rotate']);
      } finally {
        await t.close();
      }
    });
  }
});
