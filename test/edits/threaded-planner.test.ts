import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { PromptError, RulePlanner, type RulePlannerOptions } from '../../src/edits/planner/rule-planner.ts';
import { ThreadedPlanner } from '../../src/edits/planner/threaded-planner.ts';
import { AppError } from '../../src/errors.ts';
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

  test('the time limit starts once the thread has read its tables: a limit shorter than its start still plans', async () => {
    // Starting takes most of a second here (more under load); a typical plan about a millisecond.
    const quick = threaded({}, { timeoutMs: 500, queueTimeoutMs: 30_000 });
    assert.deepEqual(await answerOf(quick.plan('brighten it')), await answerOf(new RulePlanner().plan('brighten it')));
  });

  test('a planning past the time limit stops the thread and is answered 503 (the machine or the planner is at fault, not the prompt); the next prompt gets a fresh thread', async () => {
    const prompt = hostilePrompts().find(({ name }) => name === 'things replaced one after another')!.prompt;
    // Tens of milliseconds of planning cannot fit in 1.
    const hurried = threaded({ generative: true }, { timeoutMs: 1, queueTimeoutMs: 30_000 });
    await hurried.start();
    await assert.rejects(hurried.plan(prompt), (error: unknown) => error instanceof AppError && error.code === 'provider_unavailable' && /took over 1 ms; retry shortly/.test(error.message));
    const patient = threaded({ generative: true });
    assert.deepEqual(await answerOf(patient.plan(prompt)), await answerOf(new RulePlanner({ generative: true }).plan(prompt)));
  });

  test('prompts past the wait for the thread are answered 503 with Retry-After', async () => {
    const prompt = hostilePrompts().find(({ name }) => name === 'things replaced one after another')!.prompt;
    const busy = threaded({ generative: true }, { timeoutMs: 30_000, queueTimeoutMs: 1 });
    await busy.start();
    const answers = await Promise.allSettled([busy.plan(prompt), busy.plan('brighten it')]);
    assert.equal(answers[0]!.status, 'rejected'); // the edits' limit: a refusal
    assert.ok(answers[1]!.status === 'rejected' && answers[1]!.reason instanceof AppError && answers[1]!.reason.code === 'provider_unavailable');
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
