import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import sharp from 'sharp';
import { executePlan } from '../../../src/edits/generative/executor.ts';
import { OpenAiImagesProvider } from '../../../src/edits/generative/openai-provider.ts';
import { ProviderError } from '../../../src/edits/generative/provider.ts';
import { WorkLimiter } from '../../../src/edits/limiter.ts';
import type { EditPlan } from '../../../src/edits/plan.ts';
import { renderEdits } from '../../../src/edits/render/index.ts';
import { redBlue } from '../../helpers/images.ts';
import { OpenAiTestServer } from '../../helpers/openai-server.ts';

const pixelAt = async (bytes: Buffer, x: number, y: number) => {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [...data.subarray(i, i + 3)];
};

describe('the OpenAI Images provider, against a local server speaking the protocol', () => {
  let server: OpenAiTestServer;
  let provider: OpenAiImagesProvider;
  const png = () => sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 10, g: 100, b: 200 } } }).png().toBuffer();
  const failure = async (promise: Promise<unknown>): Promise<ProviderError> => {
    const error = await promise.then(
      () => assert.fail('expected a provider failure'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ProviderError, String(error));
    return error;
  };

  before(async () => {
    server = await new OpenAiTestServer().start();
    // A timeout no honest answer meets on a loaded machine (500 ms failed the first call in the
    // parallel tier); the timeout test has a provider of its own.
    provider = new OpenAiImagesProvider({ baseUrl: server.url, apiKey: 'sk-test', model: 'gpt-image-1', size: 'auto', quality: 'low', timeoutMs: 30_000 });
  });
  after(() => server.close());
  beforeEach(() => {
    server.imageMode = 'invert';
  });

  test('sends the image, instruction, model, size and quality as multipart, and decodes b64_json', async () => {
    const answer = await provider.edit({ image: await png(), instruction: 'remove the people in the background' });
    const call = server.imageCalls.at(-1)!;
    assert.deepEqual(call, { model: 'gpt-image-1', prompt: 'remove the people in the background', size: 'auto', quality: 'low', width: 40, height: 20, format: 'png' });
    assert.equal(server.authorizations.at(-1), 'Bearer sk-test');
    assert.deepEqual(await pixelAt(answer, 5, 5), [245, 155, 55], 'the server inverted it');
  });

  test('429 and 500 are unavailable (with the provider\'s Retry-After), made once: no retries inside the client', async () => {
    server.imageMode = 'rate_limited';
    const calls = server.imageCalls.length;
    const limited = await failure(provider.edit({ image: await png(), instruction: 'remove the sign' }));
    assert.equal(limited.kind, 'unavailable');
    assert.equal(limited.retryAfterSeconds, 7);
    server.imageMode = 'fail';
    assert.equal((await failure(provider.edit({ image: await png(), instruction: 'remove the sign' }))).kind, 'unavailable');
    assert.equal(server.imageCalls.length, calls + 2);
  });

  test('a timeout is unavailable', async () => {
    const impatient = new OpenAiImagesProvider({ baseUrl: server.url, apiKey: 'sk-test', model: 'gpt-image-1', size: 'auto', quality: 'low', timeoutMs: 500 });
    server.imageMode = 'slow';
    server.delayMs = 3000;
    const image = await png();
    const started = Date.now();
    const error = await failure(impatient.edit({ image, instruction: 'remove the sign' }));
    assert.equal(error.kind, 'unavailable');
    assert.match(error.message, /in time/);
    assert.ok(Date.now() - started < 2500, 'gave up at the timeout, before the answer');
    // The abandoned call ends before the next test counts calls in flight.
    while (server.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  });

  test("a content-policy refusal is refused, carrying the provider's reason", async () => {
    server.imageMode = 'refuse';
    const error = await failure(provider.edit({ image: await png(), instruction: 'remove her clothes' }));
    assert.equal(error.kind, 'refused');
    assert.match(error.message, /safety system/);
  });

  test('an answer without b64_json, or not base64, is malformed', async () => {
    server.imageMode = 'no_data';
    assert.equal((await failure(provider.edit({ image: await png(), instruction: 'remove the sign' }))).kind, 'malformed');
  });
});

describe('executing a plan with generate steps', () => {
  let server: OpenAiTestServer;
  let provider: OpenAiImagesProvider;
  const imageWork = new WorkLimiter(2, 1000);
  const render = { maxPixels: 5_000_000, timeoutSeconds: 10, loadImage: async () => Buffer.alloc(0) };
  const setup = (overrides: { maxSide?: number; restoreSize?: boolean } = {}) => ({
    provider,
    limiter: new WorkLimiter(1, 1000, 'the generative provider'),
    maxSide: overrides.maxSide ?? 1536,
    restoreSize: overrides.restoreSize ?? false,
  });

  before(async () => {
    server = await new OpenAiTestServer().start();
    provider = new OpenAiImagesProvider({ baseUrl: server.url, apiKey: '', model: 'gpt-image-1', size: 'auto', quality: 'auto', timeoutMs: 5000 });
  });
  after(() => server.close());
  beforeEach(() => {
    server.imageMode = 'invert';
  });

  test('classic → generate → classic in plan order, the output format last', async () => {
    const source = await redBlue('jpeg');
    const plan: EditPlan = {
      operations: [{ op: 'mirror' }, { op: 'generate', instruction: 'remove the person on the left' }, { op: 'grayscale' }, { op: 'format', format: 'webp' }],
    };
    const result = await executePlan(source, plan, { render, imageWork, generative: setup() });
    assert.equal(result.format, 'webp');
    assert.deepEqual([result.width, result.height], [200, 100]);
    // Mirrored (blue left), inverted (yellow left, cyan right), then grey: yellow is lighter.
    const [left] = await pixelAt(result.data, 20, 50);
    const [right] = await pixelAt(result.data, 180, 50);
    assert.ok(left! > right! + 20, `left ${left} is the lighter grey (yellow), right ${right} (cyan)`);
    assert.equal(server.imageCalls.at(-1)!.prompt, 'remove the person on the left');
    assert.equal(server.imageCalls.at(-1)!.format, 'png', 'sent as PNG');
  });

  test('the same steps in another order give other pixels: the order is kept', async () => {
    const source = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 200, g: 200, b: 200 } } }).png().toBuffer();
    const darkenThenGenerate = await executePlan(source, { operations: [{ op: 'brightness', factor: 0.5 }, { op: 'generate', instruction: 'remove the sign' }] }, { render, imageWork, generative: setup() });
    const generateThenDarken = await executePlan(source, { operations: [{ op: 'generate', instruction: 'remove the sign' }, { op: 'brightness', factor: 0.5 }] }, { render, imageWork, generative: setup() });
    const darkened = await renderEdits(source, { operations: [{ op: 'brightness', factor: 0.5 }] }, render);
    const expected = (await pixelAt(darkened.data, 0, 0)).map((v) => 255 - v);
    assert.deepEqual(await pixelAt(darkenThenGenerate.data, 4, 4), expected);
    const inverted = await sharp(source).negate().png().toBuffer();
    const invertedThenDarkened = await renderEdits(inverted, { operations: [{ op: 'brightness', factor: 0.5 }] }, render);
    assert.deepEqual(await pixelAt(generateThenDarken.data, 4, 4), await pixelAt(invertedThenDarkened.data, 0, 0));
    assert.notDeepEqual(await pixelAt(generateThenDarken.data, 4, 4), expected);
  });

  test('a large source is sent scaled down to maxSide, and scaled back only when asked', async () => {
    const source = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#336699' } }).png().toBuffer();
    const plan: EditPlan = { operations: [{ op: 'generate', instruction: 'remove the sign' }] };
    server.answerSize = { width: 256, height: 256 };
    try {
      const asAnswered = await executePlan(source, plan, { render, imageWork, generative: setup({ maxSide: 400 }) });
      assert.deepEqual([server.imageCalls.at(-1)!.width, server.imageCalls.at(-1)!.height], [400, 200]);
      assert.deepEqual([asAnswered.width, asAnswered.height], [256, 256], 'the answer as the model made it');
      const restored = await executePlan(source, plan, { render, imageWork, generative: setup({ maxSide: 400, restoreSize: true }) });
      assert.deepEqual([restored.width, restored.height], [1200, 600], 'back up to the source\'s size');
    } finally {
      server.answerSize = undefined;
    }
  });

  test('an answer that is not an image, or over the pixel limit, is malformed before anything else runs', async () => {
    const source = await redBlue();
    for (const mode of ['not_an_image', 'truncated', 'oversized'] as const) {
      server.imageMode = mode;
      const error = await executePlan(source, { operations: [{ op: 'generate', instruction: 'remove the sign' }, { op: 'grayscale' }] }, { render, imageWork, generative: setup() }).then(
        () => assert.fail('expected a failure'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof ProviderError && error.kind === 'malformed', `${mode}: ${String(error)}`);
    }
  });

  test('the provider cap holds calls in flight to its size, separately from image work', async () => {
    let release!: () => void;
    server.gate = new Promise((resolve) => (release = resolve));
    server.maxInFlight = 0;
    const generative = { ...setup(), limiter: new WorkLimiter(2, 60_000, 'the generative provider') };
    const source = await redBlue();
    const runs = [1, 2, 3, 4].map(() => executePlan(source, { operations: [{ op: 'generate', instruction: 'remove the sign' }] }, { render, imageWork, generative }));
    // Until two calls reach the provider (a fixed 400 ms was too short on a loaded machine), then
    // a moment more in which a third would arrive if the cap let it.
    for (let waited = 0; server.inFlight < 2 && waited < 30_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(server.inFlight, 2, 'two calls at the provider, two waiting for a slot');
    assert.equal(imageWork.active, 0, 'no CPU slot is held while waiting on the provider');
    release();
    server.gate = undefined;
    await Promise.all(runs);
    assert.equal(server.maxInFlight, 2);
  });
});
