import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import sharp from 'sharp';
import { renderEdits } from '../../src/edits/render/index.ts';
import { dialects } from '../helpers/databases.ts';
import { errorOf, startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { OpenAiTestServer } from '../helpers/openai-server.ts';

const NEWCOMER = 'increase the contrast and remove the people in the background';

/** A photo-ish source: four colour blocks, so an inversion and a contrast change both show. */
async function blocks(): Promise<Buffer> {
  const block = (background: string) => sharp({ create: { width: 40, height: 40, channels: 3, background } }).png().toBuffer();
  return sharp({ create: { width: 80, height: 80, channels: 3, background: '#204060' } })
    .composite([
      { input: await block('#c08040'), left: 0, top: 0 },
      { input: await block('#60a0e0'), left: 40, top: 40 },
    ])
    .png()
    .toBuffer();
}

const rgb = async (bytes: Buffer) => (await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })).data;

function generativeEnv(server: OpenAiTestServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    TESSERA_GENERATIVE_PROVIDER: 'openai',
    TESSERA_GENERATIVE_BASE_URL: server.url,
    TESSERA_GENERATIVE_API_KEY: 'sk-test',
    TESSERA_GENERATIVE_MODEL: 'gpt-image-1',
    TESSERA_GENERATIVE_TIMEOUT_MS: '1000',
    TESSERA_GENERATIVE_CONCURRENCY: '2',
    ...extra,
  };
}

for (const dialect of await dialects()) {
  describe(`generative edits on ${dialect}, against a local Images API server`, () => {
    let server: OpenAiTestServer;
    let t: TestApp;
    let space: string;
    let source: string;
    let sourceBytes: Buffer;

    before(async () => {
      server = await new OpenAiTestServer().start();
      t = await startTestApp(dialect, {
        ...generativeEnv(server),
        TESSERA_PLANNER: 'model',
        TESSERA_PLANNER_BASE_URL: server.url,
        TESSERA_PLANNER_MODEL: 'test-planner',
        TESSERA_PLANNER_TIMEOUT_MS: '2000',
        TESSERA_GENERATIVE_MAX_CALLS_PER_EDIT: '2',
      });
      space = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json().spaces[0].id;
      sourceBytes = await blocks();
      source = (await upload(t, [{ name: 'street.png', content: sourceBytes, type: 'image/png' }])).json().files[0].fileId;
    });
    after(async () => {
      await t.close();
      await server.close();
    });
    beforeEach(() => {
      server.imageMode = 'invert';
      server.gate = undefined;
    });

    const edit = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key, ...headers }, payload: { workspace_id: space, file_id: source, ...body } });
    const fileCount = async () => (await t.app.inject({ method: 'GET', url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': t.key } })).json().files.length as number;
    const download = async (fileId: string) => (await t.app.inject({ method: 'GET', url: `/v1/storage/files/${fileId}/content`, headers: { 'x-api-key': t.key } })).rawPayload;

    test("a newcomer's prompt: contrast, then the provider; stored, listed, with lineage naming provider and model", async () => {
      const calls = server.imageCalls.length;
      const res = await edit({ prompt: NEWCOMER });
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json();
      const generate = { op: 'generate', instruction: 'remove the people in the background', provider: 'openai', model: 'gpt-image-1' };
      assert.deepEqual(answer.operations, [{ op: 'contrast', factor: 1.35 }, generate]);
      assert.equal(server.imageCalls.length, calls + 1);
      assert.equal(server.imageCalls.at(-1)!.prompt, 'remove the people in the background');

      // Pixels: the source with contrast applied, then inverted by the test server.
      const contrasted = await renderEdits(sourceBytes, { operations: [{ op: 'contrast', factor: 1.35 }] }, { maxPixels: 1e7, timeoutSeconds: 10, loadImage: async () => Buffer.alloc(0) });
      const expected = (await rgb(contrasted.data)).map((v) => 255 - v);
      assert.deepEqual([...(await rgb(await download(answer.file_id)))], [...expected]);

      const record = (await t.app.inject({ method: 'GET', url: `/v1/storage/files/${answer.file_id}`, headers: { 'x-api-key': t.key } })).json();
      assert.equal(record.edit.sourceFileId, source);
      assert.equal(record.edit.prompt, NEWCOMER);
      assert.deepEqual(record.edit.operations[1], generate);
      const listed = (await t.app.inject({ method: 'GET', url: '/v1/storage/files?limit=1', headers: { 'x-api-key': t.key } })).json().files;
      assert.equal(listed[0].fileId, answer.file_id);
    });

    test('clauses of content one after another are one provider call with the whole of them', async () => {
      const calls = server.imageCalls.length;
      const res = await edit({ prompt: 'remove the man on the left, and his hat' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().operations.map((o: { op: string; instruction?: string }) => o.instruction ?? o.op), ['remove the man on the left; his hat']);
      assert.equal(server.imageCalls.length, calls + 1);
      assert.equal(server.imageCalls.at(-1)!.prompt, 'remove the man on the left; his hat');
    });

    test('mixed prompts keep their order: contrast → generate → format', async () => {
      const res = await edit({ prompt: 'increase the contrast, remove the person on the left and convert to webp' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().operations.map((o: { op: string }) => o.op), ['contrast', 'generate', 'format']);
      assert.equal(res.json().mime_type, 'image/webp');
      assert.equal((await download(res.json().file_id)).subarray(8, 12).toString(), 'WEBP');
    });

    test('the pixels show the order: brighter then the provider is not the provider then brighter', async () => {
      const res = await edit({ prompt: 'make it a bit brighter and remove the sign' });
      assert.equal(res.statusCode, 200, res.body);
      const [brighten, generate] = res.json().operations;
      assert.equal(brighten.op, 'brightness');
      assert.equal(generate.op, 'generate');
      const options = { maxPixels: 1e7, timeoutSeconds: 10, loadImage: async () => Buffer.alloc(0) };
      const brightened = await renderEdits(sourceBytes, { operations: [brighten] }, options);
      const inPlanOrder = (await rgb(brightened.data)).map((v) => 255 - v);
      const inverted = await sharp(sourceBytes).negate().png().toBuffer();
      const otherOrder = await rgb((await renderEdits(inverted, { operations: [brighten] }, options)).data);
      const stored = await rgb(await download(res.json().file_id));
      assert.deepEqual([...stored], [...inPlanOrder]);
      assert.notDeepEqual([...stored], [...otherOrder]);
    });

    test('a dry run shows the generative step and calls nothing', async () => {
      const [calls, files] = [server.imageCalls.length, await fileCount()];
      const res = await edit({ prompt: NEWCOMER, dry_run: true });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().dry_run, true);
      assert.deepEqual(res.json().operations[1], { op: 'generate', instruction: 'remove the people in the background', provider: 'openai', model: 'gpt-image-1' });
      assert.equal(server.imageCalls.length, calls);
      assert.equal(await fileCount(), files);
    });

    test('an Idempotency-Key retry, later or concurrent, never calls the provider twice', async () => {
      const calls = server.imageCalls.length;
      const first = await edit({ prompt: NEWCOMER }, { 'idempotency-key': 'gen-later' });
      assert.equal(first.statusCode, 200, first.body);
      const again = await edit({ prompt: NEWCOMER }, { 'idempotency-key': 'gen-later' });
      assert.deepEqual(again.json(), first.json());
      assert.equal(server.imageCalls.length, calls + 1);
      assert.equal(errorOf(await edit({ prompt: 'remove the sign' }, { 'idempotency-key': 'gen-later' })).code, 'conflict');

      // Concurrent: held at the provider so all four are in flight together.
      const files = await fileCount();
      let release!: () => void;
      server.gate = new Promise((resolve) => (release = resolve));
      const racing = [1, 2, 3, 4].map(() => edit({ prompt: NEWCOMER }, { 'idempotency-key': 'gen-racing' }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      const answers = await Promise.all(racing);
      assert.deepEqual(answers.map((a) => a.statusCode), [200, 200, 200, 200], answers.map((a) => a.body).join('\n'));
      assert.equal(new Set(answers.map((a) => a.json().file_id)).size, 1);
      assert.equal(server.imageCalls.length, calls + 2, 'one call for the four');
      assert.equal(await fileCount(), files + 1);
    });

    test('provider outages answer 503 with Retry-After and store nothing; a content-policy refusal is 422 with its reason', async () => {
      const files = await fileCount();
      const cases: Array<[typeof server.imageMode, number, string, RegExp]> = [
        ['rate_limited', 503, 'provider_unavailable', /rate-limiting/],
        ['fail', 503, 'provider_unavailable', /failed \(500\)/],
        ['slow', 503, 'provider_unavailable', /in time/],
        ['no_data', 503, 'provider_unavailable', /unusable/],
        ['not_an_image', 503, 'provider_unavailable', /not a usable image/],
        ['truncated', 503, 'provider_unavailable', /not a usable image/],
        ['oversized', 503, 'provider_unavailable', /pixels/],
        ['refuse', 422, 'unsupported_edit', /safety system/],
      ];
      for (const [mode, status, code, message] of cases) {
        server.imageMode = mode;
        const res = await edit({ prompt: NEWCOMER }, { 'idempotency-key': `outage-${mode}` });
        assert.equal(res.statusCode, status, `${mode}: ${res.body}`);
        assert.equal(errorOf(res).code, code, mode);
        assert.match(errorOf(res).message, message, mode);
        if (status === 503) assert.ok(Number(res.headers['retry-after']) > 0, `${mode}: Retry-After`);
        if (mode === 'rate_limited') assert.equal(res.headers['retry-after'], '7', "the provider's own Retry-After");
        if (mode === 'refuse') {
          assert.equal(res.json().error.reason, 'content_policy');
          assert.match(res.json().error.provider_message, /safety system/);
        }
      }
      assert.equal(await fileCount(), files, 'nothing stored');
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.match(metrics, /tessera_generative_calls_total\{outcome="refused"\} 1/);
      assert.match(metrics, /tessera_generative_calls_total\{outcome="unavailable"\} 3/);
      // The failed request let go of its key: once the provider is back, the retry succeeds.
      server.imageMode = 'invert';
      const retry = await edit({ prompt: NEWCOMER }, { 'idempotency-key': 'outage-fail' });
      assert.equal(retry.statusCode, 200, retry.body);
    });

    test('the provider cap: at most TESSERA_GENERATIVE_CONCURRENCY calls in flight', async () => {
      // The slow call of an earlier test may still be sleeping at the server after we gave up on it.
      while (server.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      let release!: () => void;
      server.gate = new Promise((resolve) => (release = resolve));
      server.maxInFlight = 0;
      const runs = [1, 2, 3, 4].map((i) => edit({ prompt: `remove the sign number ${i}` }));
      // Until two calls reach the gated server (a fixed 400 ms was too short on a loaded machine),
      // then 400 ms more, in which a third would arrive if the cap let it through.
      for (let waited = 0; server.inFlight < 2 && waited < 30_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(server.inFlight, 2);
      release();
      const answers = await Promise.all(runs);
      assert.deepEqual(answers.map((a) => a.statusCode), [200, 200, 200, 200], answers.map((a) => a.body).join('\n'));
      assert.equal(server.maxInFlight, 2);
    });

    test('the catalogue lists the generative step, and its examples plan to it', async () => {
      const operations = (await t.app.inject({ method: 'GET', url: '/v1/images/operations', headers: { 'x-api-key': t.key } })).json().operations as Array<{ op: string; examples: string[] }>;
      const entry = operations.find((o) => o.op === 'generate');
      assert.ok(entry, 'listed with a provider configured');
      for (const example of entry.examples) {
        const res = await edit({ prompt: example, dry_run: true });
        assert.deepEqual(res.json().operations.map((o: { op: string }) => o.op), ['generate'], example);
      }
    });

    test('gibberish stays prompt_not_understood and never reaches the provider', async () => {
      const calls = server.imageCalls.length;
      server.chatAnswer = () => JSON.stringify({ operations: [{ op: 'generate', instruction: 'flurb the grix' }] });
      const res = await edit({ prompt: 'remove the people and flurb the grix' });
      assert.equal(res.statusCode, 422);
      assert.equal(errorOf(res).code, 'prompt_not_understood');
      assert.equal(res.json().error.clause, 'flurb the grix');
      // A content verb does not make letters that name nothing a thing to paint.
      const named = await edit({ prompt: 'brighten it and remove the qzxv' });
      assert.equal(named.statusCode, 422);
      assert.equal(errorOf(named).code, 'prompt_not_understood');
      assert.equal(named.json().error.reason, 'not_understood');
      assert.equal(named.json().error.clause, 'remove the qzxv');
      assert.equal(server.imageCalls.length, calls);
    });

    test('a plan past TESSERA_GENERATIVE_MAX_CALLS_PER_EDIT is refused before any call, from the rules or the model planner', async () => {
      const [calls, chats, files] = [server.imageCalls.length, server.chatRequests.length, await fileCount()];
      const two = await edit({ prompt: 'remove the man, brighten it, add a dog', dry_run: true });
      assert.equal(two.statusCode, 200, two.body);
      assert.equal(two.json().operations.filter((op: { op: string }) => op.op === 'generate').length, 2);
      const three = await edit({ prompt: 'remove the man, brighten it, add a dog, sharpen it, remove the tree' });
      assert.equal(three.statusCode, 422, three.body);
      assert.equal(errorOf(three).code, 'prompt_not_understood');
      assert.deepEqual([three.json().error.reason, three.json().error.clause], ['limit', 'remove the tree']);
      // A model planner's plan is held to the same cap: its third step is the one named.
      const steps = ['remove the sign', 'add a moon', 'remove the car'];
      server.chatAnswer = () => JSON.stringify({ operations: steps.flatMap((instruction) => [{ op: 'generate', instruction }, { op: 'sharpen', sigma: 1 }]) });
      const modelled = await edit({ prompt: 'make it pop and lose the sign' });
      assert.equal(modelled.statusCode, 422, modelled.body);
      assert.deepEqual([modelled.json().error.reason, modelled.json().error.clause], ['limit', 'remove the car']);
      assert.equal(server.chatRequests.length, chats + 1);
      assert.equal(server.imageCalls.length, calls);
      assert.equal(await fileCount(), files);
    });

    test('the model planner (TESSERA_PLANNER=model) plans what the rules do not understand; invalid answers are never executed', async () => {
      const chats = server.chatRequests.length;
      server.chatAnswer = () => JSON.stringify({ operations: [{ op: 'saturation', factor: 1.5 }, { op: 'generate', instruction: 'remove the sign' }] });
      const res = await edit({ prompt: 'make it pop and lose the sign', dry_run: true });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().operations, [{ op: 'saturation', factor: 1.5 }, { op: 'generate', instruction: 'remove the sign', provider: 'openai', model: 'gpt-image-1' }]);
      assert.equal(server.chatRequests.length, chats + 1);
      server.chatAnswer = () => JSON.stringify({ operations: [{ op: 'blur', sigma: -4 }] });
      const hostile = await edit({ prompt: 'give it some pizzazz' });
      assert.equal(hostile.statusCode, 422);
      assert.equal(errorOf(hostile).code, 'prompt_not_understood');
      // The rules understood this one: the model is not asked.
      assert.equal((await edit({ prompt: NEWCOMER, dry_run: true })).statusCode, 200);
      assert.equal(server.chatRequests.length, chats + 2);
    });
  });

  describe(`the daily budget of generative calls on ${dialect}`, () => {
    let server: OpenAiTestServer;
    let t: TestApp;

    before(async () => {
      server = await new OpenAiTestServer().start();
      t = await startTestApp(dialect, generativeEnv(server, { TESSERA_GENERATIVE_DAILY_BUDGET: '3', TESSERA_GENERATIVE_CONCURRENCY: '8' }));
    });
    after(async () => {
      await t.close();
      await server.close();
    });

    const setUp = async (key: string) => {
      const space = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': key } })).json().spaces[0].id;
      const file = (await upload(t, [{ name: 'a.png', content: await blocks() }], { key })).json().files[0].fileId;
      return (prompt: string) => t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': key }, payload: { prompt, workspace_id: space, file_id: file } });
    };

    test('concurrent requests cannot overshoot it; over it is 429 naming the budget; other accounts keep theirs', async () => {
      const aliceEdit = await setUp(t.key);
      const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => aliceEdit(`remove the sign number ${i}`)));
      const statuses = answers.map((a) => a.statusCode).sort();
      assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429], answers.map((a) => a.body).join('\n'));
      assert.equal(server.imageCalls.length, 3);
      const refused = answers.find((a) => a.statusCode === 429)!;
      assert.equal(errorOf(refused).code, 'rate_limited');
      assert.match(errorOf(refused).message, /daily budget of generative edits.*3 of 3.*TESSERA_GENERATIVE_DAILY_BUDGET/);
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(retryAfter > 0 && retryAfter <= 86_400, `Retry-After ${retryAfter} is the time to midnight UTC`);
      // A classic edit is not counted against it.
      assert.equal((await aliceEdit('invert')).statusCode, 200);
      assert.equal((await aliceEdit('remove the sign again')).statusCode, 429);
      const bobEdit = await setUp(t.otherKey);
      assert.equal((await bobEdit('remove the sign')).statusCode, 200);
      assert.equal(server.imageCalls.length, 4);
    });
  });

  describe(`with no provider configured on ${dialect}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    test('content edits are 422 unsupported_edit, as before', async () => {
      const space = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json().spaces[0].id;
      const file = (await upload(t, [{ name: 'a.png', content: await blocks() }])).json().files[0].fileId;
      const res = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key }, payload: { prompt: NEWCOMER, workspace_id: space, file_id: file } });
      assert.equal(res.statusCode, 422);
      assert.equal(errorOf(res).code, 'unsupported_edit');
      assert.equal(res.json().error.clause, 'remove the people in the background');
      const operations = (await t.app.inject({ method: 'GET', url: '/v1/images/operations', headers: { 'x-api-key': t.key } })).json().operations as Array<{ op: string }>;
      assert.ok(!operations.some((o) => o.op === 'generate'), 'not listed without a provider');
    });
  });
}
