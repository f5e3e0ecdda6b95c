import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ModelPlanner } from '../../src/edits/model-planner.ts';
import { planProblems } from '../../src/edits/plan-schema.ts';
import { PromptError, RulePlanner, type Planner } from '../../src/edits/planner/rule-planner.ts';
import { AppError } from '../../src/errors.ts';
import { OPERATION_CATALOGUE } from '../../src/edits/catalogue.ts';
import { OpenAiTestServer } from '../helpers/openai-server.ts';

const refusalOf = async (promise: Promise<unknown>): Promise<PromptError> => {
  const error = await promise.then(
    () => assert.fail('expected the prompt to be refused'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof PromptError, String(error));
  return error;
};

describe('the model-backed planner, against a local Chat Completions server', () => {
  let server: OpenAiTestServer;
  const rejections: string[] = [];
  const plannerWith = (generative: boolean, timeoutMs = 2000) =>
    new ModelPlanner(new RulePlanner({ generative }), { baseUrl: server.url, apiKey: 'sk-planner', model: 'test-model', timeoutMs, generative, onRejected: (reason) => rejections.push(reason) });

  before(async () => {
    server = await new OpenAiTestServer().start();
  });
  after(() => server.close());
  beforeEach(() => {
    rejections.length = 0;
  });

  test('a rule planner that cannot answer the check of a generate step fails the request (503), never counts against the model', async () => {
    server.chatAnswer = () => JSON.stringify({ operations: [{ op: 'generate', instruction: 'remove the dog' }] });
    const rules = new RulePlanner({ generative: true });
    let asked = 0;
    // Its first answer (the prompt refused) as the rules give it; then busy, as a planner thread at capacity is.
    const busyAfterOne: Planner = {
      name: 'rules',
      plan: async (prompt) => {
        if (asked++ > 0) throw new AppError('provider_unavailable', 'planning prompts is at capacity (1 at a time); retry shortly');
        return rules.plan(prompt);
      },
    };
    const planner = new ModelPlanner(busyAfterOne, { baseUrl: server.url, apiKey: 'sk-planner', model: 'test-model', timeoutMs: 2000, generative: true, onRejected: (reason) => rejections.push(reason) });
    await assert.rejects(planner.plan('qwerty the thing please'), (error: unknown) => error instanceof AppError && error.code === 'provider_unavailable');
    assert.deepEqual(rejections, []);
    // Not busy, the same answer is checked and used.
    assert.deepEqual((await plannerWith(true).plan('qwerty the thing please')).operations, [{ op: 'generate', instruction: 'remove the dog' }]);
  });

  test('the rule planner answers first when it understands the whole prompt: no model call', async () => {
    const calls = server.chatRequests.length;
    const plan = await plannerWith(false).plan('rotate 90 degrees and make it black and white');
    assert.deepEqual(plan.operations.map((o) => o.op), ['rotate', 'grayscale']);
    // With a provider, a content clause is understood by the rules too.
    const mixed = await plannerWith(true).plan('increase the contrast and remove the people in the background');
    assert.deepEqual(mixed.operations.map((o) => o.op), ['contrast', 'generate']);
    assert.equal(server.chatRequests.length, calls);
  });

  test('a prompt the rules refuse as over a limit is not sent to the model', async () => {
    const calls = server.chatRequests.length;
    server.chatAnswer = () => JSON.stringify({ operations: [{ op: 'invert' }] });
    const capped = new ModelPlanner(new RulePlanner({ generative: true, maxGenerateSteps: 1 }), { baseUrl: server.url, apiKey: 'sk-planner', model: 'test-model', timeoutMs: 2000, generative: true });
    const refusal = await refusalOf(capped.plan('remove the man, brighten it, add a dog'));
    assert.deepEqual([refusal.reason, refusal.clause], ['limit', 'add a dog']);
    const tooMany = await refusalOf(plannerWith(false).plan(Array.from({ length: 31 }, () => 'rotate 90').join(', ')));
    assert.equal(tooMany.reason, 'limit');
    assert.equal(server.chatRequests.length, calls);
    // Any other refusal is still the model's to read.
    assert.deepEqual((await plannerWith(false).plan('qwerty the thing please')).operations, [{ op: 'invert' }]);
    assert.equal(server.chatRequests.length, calls + 1);
  });

  test('otherwise it asks the model with a JSON schema of the plan, and uses a valid answer', async () => {
    server.chatAnswer = () => JSON.stringify({ operations: [{ op: 'saturation', factor: 1.6 }, { op: 'vignette', strength: 0.5 }] });
    const plan = await plannerWith(false).plan('give it a moody retro film look');
    assert.deepEqual(plan.operations, [{ op: 'saturation', factor: 1.6 }, { op: 'vignette', strength: 0.5 }]);
    const request = server.chatRequests.at(-1)! as { model: string; response_format: { type: string; json_schema: { name: string; schema: { properties: { operations: unknown } } } }; messages: Array<{ role: string; content: string }> };
    assert.equal(request.model, 'test-model');
    assert.equal(request.response_format.type, 'json_schema');
    assert.ok(request.response_format.json_schema.schema.properties.operations, 'the schema describes the operations');
    assert.equal(request.messages.at(-1)!.content, 'give it a moody retro film look');
    assert.equal(server.authorizations.at(-1), 'Bearer sk-planner');
  });

  test('a step may name a region, as the schema and the instructions say', async () => {
    server.chatAnswer = () => JSON.stringify({ operations: [{ op: 'blur', sigma: 4, region: 'background' }] });
    const plan = await plannerWith(false).plan('give the backdrop a dreamy softness');
    assert.deepEqual(plan.operations, [{ op: 'blur', sigma: 4, region: 'background' }]);
    const request = server.chatRequests.at(-1)! as { messages: Array<{ role: string; content: string }>; response_format: { json_schema: { schema: unknown } } };
    assert.match(JSON.stringify(request.response_format.json_schema.schema), /"background"/);
    assert.match(request.messages[0]!.content, /"region" parameter \(background, subject or face\)/);
  });

  const hostile: Array<[string, string]> = [
    ['an unknown operation', JSON.stringify({ operations: [{ op: 'delete_all_files' }] })],
    ['an out-of-range parameter', JSON.stringify({ operations: [{ op: 'blur', sigma: 1e9 }] })],
    ['a negative size', JSON.stringify({ operations: [{ op: 'thumbnail', size: -5 }] })],
    ['an extra property', JSON.stringify({ operations: [{ op: 'invert', shell: 'rm -rf /' }] })],
    ['text around the JSON', `Sure! Here is the plan:\n${JSON.stringify({ operations: [{ op: 'invert' }] })}`],
    ['a fenced code block', '```json\n{"operations":[{"op":"invert"}]}\n```'],
    ['no operations', '{"operations":[]}'],
    ['not an object', '[{"op":"invert"}]'],
    ['a generate step with no provider configured', JSON.stringify({ operations: [{ op: 'generate', instruction: 'remove the people' }] })],
    ['a region no model finds', JSON.stringify({ operations: [{ op: 'blur', sigma: 3, region: 'sky' }] })],
    ['a region on an operation that takes none', JSON.stringify({ operations: [{ op: 'rotate', degrees: 90, background: { r: 0, g: 0, b: 0, alpha: 0 }, region: 'face' }] })],
    ['a generate step that names its own provider', JSON.stringify({ operations: [{ op: 'generate', instruction: 'remove the people', provider: 'evil' }] })],
  ];
  for (const [what, answer] of hostile) {
    test(`rejects ${what}, and the rule planner's refusal stands`, async () => {
      server.chatAnswer = () => answer;
      const error = await refusalOf(plannerWith(false).plan('make it fabulous'));
      assert.equal(error.kind, 'not_understood');
      assert.equal(error.clause, 'make it fabulous');
      assert.equal(rejections.length, 1, `rejected: ${rejections.join()}`);
    });
  }

  test('a generate step is accepted only for what the rules recognise as an edit of content: gibberish never reaches a paid call', async () => {
    server.chatAnswer = () => JSON.stringify({ operations: [{ op: 'generate', instruction: 'asdf qwer zxcv' }] });
    const error = await refusalOf(plannerWith(true).plan('asdf qwer zxcv'));
    assert.equal(error.kind, 'not_understood');
    assert.match(rejections[0]!, /not an edit of content/);
    // A content verb before letters that name nothing is no edit of content either.
    server.chatAnswer = () => JSON.stringify({ operations: [{ op: 'generate', instruction: 'remove the qzxv' }] });
    assert.equal((await refusalOf(plannerWith(true).plan('take the qzxv away please'))).kind, 'not_understood');
    assert.match(rejections.at(-1)!, /not an edit of content/);
    rejections.length = 1;
    server.chatAnswer = () => JSON.stringify({ operations: [{ op: 'generate', instruction: 'remove the sign', provider: 'elsewhere', model: 'free' }] });
    await refusalOf(plannerWith(true).plan('zhuzh it up'));
    assert.match(rejections[1]!, /invalid/, 'who paints is not the model\'s to say');
    server.chatAnswer = () => JSON.stringify({ operations: [{ op: 'brightness', factor: 1.2 }, { op: 'generate', instruction: 'remove the sign' }] });
    const plan = await plannerWith(true).plan('zhuzh it up a bit and remove the sign');
    assert.deepEqual(plan.operations, [{ op: 'brightness', factor: 1.2 }, { op: 'generate', instruction: 'remove the sign' }]);
  });

  test('a model slower than the timeout is abandoned; the rule planner answers', async () => {
    server.chatAnswer = () => new Promise((resolve) => setTimeout(() => resolve('{"operations":[{"op":"invert"}]}'), 1500));
    const started = Date.now();
    const error = await refusalOf(plannerWith(false, 300).plan('make it fabulous'));
    assert.equal(error.clause, 'make it fabulous');
    assert.ok(Date.now() - started < 1200, 'did not wait for the model');
    assert.match(rejections[0]!, /did not answer/);
  });

  test('an unreachable model falls back to the rules too', async () => {
    const planner = new ModelPlanner(new RulePlanner(), { baseUrl: 'http://127.0.0.1:9/v1', apiKey: '', model: 'm', timeoutMs: 1000, generative: false });
    assert.equal((await refusalOf(planner.plan('make it fabulous'))).kind, 'not_understood');
  });
});

describe('the plan schema', () => {
  test('accepts every catalogue example as the rule planner plans it', () => {
    const rules = new RulePlanner({ regions: true });
    for (const entry of OPERATION_CATALOGUE) {
      for (const example of entry.examples) {
        const plan = rules.planSync(example);
        assert.equal(planProblems(plan, { generative: false }), undefined, `"${example}" → ${JSON.stringify(plan)}`);
      }
    }
  });

  test('says what is wrong', () => {
    assert.equal(planProblems({ operations: [{ op: 'invert' }, { op: 'posterize', levels: 99 }] }, { generative: false }), 'step 2 (posterize): /levels must be <= 32');
    assert.equal(planProblems({ operations: [{ op: 'delete_all_files' }] }, { generative: false }), 'step 1: unknown operation "delete_all_files"');
    assert.equal(planProblems({ operations: [{ op: 'generate', instruction: 'remove the sign' }] }, { generative: false }), 'step 1: unknown operation "generate"');
    assert.equal(planProblems('{"operations":[]}', { generative: false }), 'not an object {"operations": […]}');
    assert.equal(planProblems({ operations: [{ op: 'generate', instruction: 'remove the sign' }] }, { generative: true }), undefined);
  });
});
