import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import sharp from 'sharp';
import ts from 'typescript';
import { dialects } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { leftEditMask, redBlue } from '../helpers/images.ts';
import { OpenAiTestServer } from '../helpers/openai-server.ts';
import { changesByRegion, composite } from '../helpers/regions.ts';

/**
 * The official `openai` package, pointed at a running Tessera over real HTTP, as a user of the
 * SDK would: the three lines of the README. Region edits run with the people model
 * (TESSERA_SEGMENTER=people).
 */
for (const dialect of await dialects()) {
  describe(`the official OpenAI SDK against Tessera on ${dialect}`, () => {
    let t: TestApp;
    let baseURL: string;
    let client: OpenAI;

    before(async () => {
      t = await startTestApp(dialect, { TESSERA_SEGMENTER: 'people' });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      baseURL = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
      client = new OpenAI({ baseURL, apiKey: t.key, maxRetries: 0 });
    });
    after(() => t.close());

    const files = async (key = t.key) => (await t.app.inject({ url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': key } })).json().files as Array<{ fileId: string; workspaceId: string; name: string }>;

    test("the README's three lines, as written, edit a photo on disk", async () => {
      const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
      const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).find((code) => code.includes('new OpenAI('));
      assert.ok(block, 'the README shows the OpenAI client');
      assert.equal(block.trim().split('\n').length, 3, 'three lines');
      const defaultUrl = "'http://127.0.0.1:8080/v1'";
      assert.ok(block.includes(defaultUrl), 'the README points at the default address');
      const js = ts.transpileModule(block.replace(defaultUrl, JSON.stringify(baseURL)), { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-readme-'));
      const cwd = process.cwd();
      try {
        fs.writeFileSync(path.join(dir, 'beach.jpg'), await redBlue('jpeg'));
        process.chdir(dir);
        const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
        await new AsyncFunction('OpenAI', 'toFile', 'fs', 'process', js)(OpenAI, toFile, fs, { env: { TESSERA_API_KEY: t.key } });
        const edited = sharp(path.join(dir, 'edited.jpg'));
        assert.equal((await edited.metadata()).format, 'jpeg');
        const { data, info } = await edited.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
        assert.equal(info.channels, 3);
        for (let p = 0; p < data.length; p += info.channels * 97) assert.ok(Math.abs(data[p]! - data[p + 1]!) <= 2 && Math.abs(data[p]! - data[p + 2]!) <= 2, 'black and white');
      } finally {
        process.chdir(cwd);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    test('a classic edit: b64_json of the edited picture, source and result stored in the default Space', async () => {
      const before = await files();
      const result = await client.images.edit({ image: await toFile(await redBlue(), 'beach.png', { type: 'image/png' }), prompt: 'rotate 90 degrees and make it black and white' });
      assert.equal(typeof result.created, 'number');
      assert.equal(result.data?.length, 1);
      const datum = result.data![0]! as OpenAI.Images.Image & { file_id: string; source_file_id: string; workspace_id: string; operations: Array<{ op: string }> };
      const bytes = Buffer.from(datum.b64_json!, 'base64');
      const meta = await sharp(bytes).metadata();
      assert.deepEqual([meta.width, meta.height], [100, 200], 'rotated');
      const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
      assert.equal(data[0], data[1], 'grey');
      assert.deepEqual(datum.operations.map((o) => o.op), ['rotate', 'grayscale']);
      const defaultSpace = (await t.app.inject({ url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json().spaces.find((s: { name: string }) => s.name === 'default').id;
      assert.equal(datum.workspace_id, defaultSpace);
      const after = await files();
      assert.equal(after.length, before.length + 2, 'the source and the result');
      assert.ok(after.some((f) => f.fileId === datum.source_file_id && f.name === 'beach.png'));
      const stored = (await t.app.inject({ url: `/v1/storage/files/${datum.file_id}/content`, headers: { 'x-api-key': t.key } })).rawPayload;
      assert.ok(stored.equals(bytes), 'b64_json is the stored result');
      assert.equal((result as { size?: string }).size, '100x200');
    });

    test('a region edit: "blur the background" of a photo of a person blurs the background and leaves every pixel of the person as it was', async () => {
      const photo = (await composite('person', 256, 'png')).image;
      const result = await client.images.edit({ image: await toFile(photo, 'portrait.png', { type: 'image/png' }), prompt: 'blur the background' });
      assert.equal(result.data?.length, 1);
      const datum = result.data![0]! as { b64_json: string; mime_type: string; operations: Array<{ op: string; region?: string }> };
      assert.deepEqual(datum.operations.map((o) => [o.op, o.region]), [['blur', 'background']]);
      const bytes = Buffer.from(datum.b64_json, 'base64');
      const [before, after] = await Promise.all([sharp(photo).metadata(), sharp(bytes).metadata()]);
      assert.deepEqual([after.format, after.width, after.height], ['png', before.width, before.height]);
      const changes = await changesByRegion(photo, bytes, 'background');
      assert.deepEqual(changes.outsideChanged.slice(0, 10), [], `${changes.outsideChanged.length} pixels of the person changed`);
      assert.ok(changes.inside > 1000 && changes.insideChanged / changes.inside > 0.5, `${changes.insideChanged} of ${changes.inside} background pixels changed`);
    });

    test('a classic edit with a mask: pixels under its opaque part are the source\'s, bit for bit; under its transparent part edited; between, a blend', async () => {
      const before = await files();
      const source = await redBlue();
      // Editable: columns 0–59 (the left of the red half), a ramp over 60–69, opaque from 70 on.
      const mask = await leftEditMask(200, 100, 60, 10);
      const result = await client.images.edit({ image: await toFile(source, 'wall.png', { type: 'image/png' }), mask: await toFile(mask, 'mask.png', { type: 'image/png' }), prompt: 'make it black and white' });
      const datum = result.data![0]! as { b64_json: string; operations: Array<{ op: string }> };
      assert.deepEqual(datum.operations, [{ op: 'grayscale' }]);
      const out = await sharp(Buffer.from(datum.b64_json, 'base64')).raw().toBuffer({ resolveWithObject: true });
      const src = await sharp(source).raw().toBuffer({ resolveWithObject: true });
      assert.equal(out.info.channels, src.info.channels);
      const c = src.info.channels;
      let kept = 0;
      for (let y = 0; y < 100; y++) {
        for (let x = 0; x < 200; x++) {
          const i = (y * 200 + x) * c;
          const [r, g, b] = [out.data[i]!, out.data[i + 1]!, out.data[i + 2]!];
          if (x >= 70) {
            assert.deepEqual([...out.data.subarray(i, i + c)], [...src.data.subarray(i, i + c)], `pixel (${x}, ${y}) under the opaque mask changed`);
            kept++;
          } else if (x < 60) {
            assert.ok(r === g && g === b && r < 255, `pixel (${x}, ${y}) under the transparent mask is grey, not red`);
          } else {
            assert.ok(g > 0 && g < r, `pixel (${x}, ${y}) on the ramp is a blend of red and grey (${r},${g},${b})`);
          }
        }
      }
      assert.equal(kept, 130 * 100);
      assert.equal((await files()).length, before.length + 2, 'the source and the result; the mask is not stored');
    });

    test('a mask with a step it cannot confine, or one naming its own region, is refused in OpenAI\'s shape; nothing stored', async () => {
      const before = await files();
      const mask = await toFile(await leftEditMask(200, 100, 60), 'mask.png', { type: 'image/png' });
      const refused = async (prompt: string) => {
        const error = await client.images.edit({ image: await toFile(await redBlue(), 'a.png', { type: 'image/png' }), mask, prompt }).catch((e: unknown) => e);
        assert.ok(error instanceof OpenAI.UnprocessableEntityError, String(error));
        return error.error as { code: string; reason: string; param: string; clause: string; message: string };
      };
      const rotate = await refused('rotate 90 degrees and make it black and white');
      assert.deepEqual([rotate.code, rotate.reason, rotate.param, rotate.clause], ['unsupported_edit', 'not_confinable', 'mask', 'rotate']);
      assert.match(rotate.message, /the mask cannot confine "rotate"/);
      const region = await refused('blur the background');
      assert.deepEqual([region.code, region.reason, region.param, region.clause], ['prompt_not_understood', 'ambiguous', 'mask', 'blur of the background']);
      assert.match(region.message, /two different places/);
      assert.deepEqual(await files(), before);
    });

    test('workspace_id as a form field puts both files in that Space; output_format is honoured', async () => {
      const space = (await t.app.inject({ method: 'POST', url: '/v1/spaces', headers: { 'x-api-key': t.key }, payload: { name: 'from-sdk' } })).json();
      const result = await client.images.edit({
        image: await toFile(await redBlue(), 'a.png', { type: 'image/png' }),
        prompt: 'mirror it',
        output_format: 'webp',
        // Not a field of OpenAI's API: sent as an extra body field, as the SDK allows.
        ...({ workspace_id: space.id } as object),
      } as OpenAI.Images.ImageEditParamsNonStreaming);
      const datum = result.data![0]! as { workspace_id: string; mime_type: string; b64_json: string };
      assert.equal(datum.workspace_id, space.id);
      assert.equal(datum.mime_type, 'image/webp');
      assert.equal((await sharp(Buffer.from(datum.b64_json, 'base64')).metadata()).format, 'webp');
      const listed = (await t.app.inject({ url: `/v1/storage/files?workspace_id=${space.id}`, headers: { 'x-api-key': t.key } })).json().files;
      assert.equal(listed.length, 2);
    });

    test('a refusal is a 422 BadRequest-like APIError in OpenAI\'s shape, with our code and reason, and stores nothing', async () => {
      const before = await files();
      const error = await client.images.edit({ image: await toFile(await redBlue(), 'a.png', { type: 'image/png' }), prompt: 'make it black and white and sing a song' }).then(
        () => assert.fail('refused'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof OpenAI.UnprocessableEntityError, String(error));
      assert.equal(error.status, 422);
      assert.equal(error.type, 'invalid_request_error');
      assert.equal(error.code, 'prompt_not_understood');
      const body = error.error as { reason: string; clause: string; message: string };
      assert.equal(typeof body.reason, 'string');
      assert.match(body.message, /sing a song/);
      assert.equal((await files()).length, before.length, 'no source and no result stored');
    });

    test('a bad key is 401 AuthenticationError', async () => {
      const bad = new OpenAI({ baseURL, apiKey: 'tsk_not-a-key', maxRetries: 0 });
      const error = await bad.images.edit({ image: await toFile(await redBlue(), 'a.png', { type: 'image/png' }), prompt: 'invert' }).then(
        () => assert.fail('refused'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof OpenAI.AuthenticationError, String(error));
      assert.equal(error.code, 'unauthorized');
      assert.equal(error.type, 'invalid_request_error');
    });

    test('n > 1 is refused as documented (400, param n), and n = 1 is fine', async () => {
      const before = await files();
      const error = await client.images.edit({ image: await toFile(await redBlue(), 'a.png', { type: 'image/png' }), prompt: 'invert', n: 2 }).then(
        () => assert.fail('refused'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal(error.param, 'n');
      assert.equal(error.code, 'invalid_request');
      assert.match(error.message, /deterministic/);
      assert.equal((await files()).length, before.length);
      const one = await client.images.edit({ image: await toFile(await redBlue(), 'a.png', { type: 'image/png' }), prompt: 'invert', n: 1 });
      assert.equal(one.data?.length, 1);
    });

    test('several images: each is edited by the prompt, one result per image in order', async () => {
      const small = await sharp(await redBlue()).resize(50, 25).png().toBuffer();
      const result = await client.images.edit({ image: [await toFile(await redBlue(), 'big.png', { type: 'image/png' }), await toFile(small, 'small.png', { type: 'image/png' })], prompt: 'invert' });
      assert.equal(result.data?.length, 2);
      const sizes = await Promise.all(result.data!.map(async (d) => (await sharp(Buffer.from(d.b64_json!, 'base64')).metadata()).width));
      assert.deepEqual(sizes, [200, 50]);
    });

    test('response_format=url answers a signed link that downloads the result without a key', async () => {
      const result = await client.images.edit({ image: await toFile(await redBlue(), 'a.png', { type: 'image/png' }), prompt: 'invert', response_format: 'url' });
      const datum = result.data![0]! as { url: string; b64_json?: string; file_id: string };
      assert.equal(datum.b64_json, undefined);
      const link = new URL(datum.url);
      assert.equal(link.origin, new URL(baseURL).origin);
      const download = await fetch(datum.url);
      assert.equal(download.status, 200);
      const bytes = Buffer.from(await download.arrayBuffer());
      const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([...data.subarray(0, 3)], [0, 255, 255], 'red inverted is cyan');
      const stored = (await t.app.inject({ url: `/v1/storage/files/${datum.file_id}/content`, headers: { 'x-api-key': t.key } })).rawPayload;
      assert.ok(stored.equals(bytes));
    });
  });
}

/** The official SDK with a generative provider configured: the form plans generate steps too, as the JSON edit does. */
for (const dialect of await dialects()) {
  describe(`the official OpenAI SDK against Tessera with a generative provider, on ${dialect}`, () => {
    let provider: OpenAiTestServer;
    let t: TestApp;
    let client: OpenAI;

    before(async () => {
      provider = await new OpenAiTestServer().start();
      t = await startTestApp(dialect, { TESSERA_GENERATIVE_PROVIDER: 'openai', TESSERA_GENERATIVE_BASE_URL: provider.url, TESSERA_GENERATIVE_API_KEY: 'sk-test', TESSERA_GENERATIVE_MODEL: 'gpt-image-1' });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      client = new OpenAI({ baseURL: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`, apiKey: t.key, maxRetries: 0 });
    });
    after(async () => {
      await t.close();
      await provider.close();
    });

    test('a prompt with a classic and a generative step: the step goes to the provider, the answer is in OpenAI\'s shape', async () => {
      const calls = provider.imageCalls.length;
      const result = await client.images.edit({ image: await toFile(await redBlue(), 'street.png', { type: 'image/png' }), prompt: 'mirror it and remove the people in the background' });
      const datum = result.data![0]! as { b64_json: string; operations: Array<{ op: string; instruction?: string }> };
      assert.deepEqual(datum.operations.map((o) => o.op), ['mirror', 'generate']);
      assert.equal(datum.operations[1]!.instruction, 'remove the people in the background');
      assert.equal(provider.imageCalls.length, calls + 1, 'one provider call');
      // The source mirrored (blue now on the left), then inverted by the test provider: yellow.
      const { data } = await sharp(Buffer.from(datum.b64_json, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([...data.subarray(0, 3)], [255, 255, 0]);
    });

    test('a generative step with a mask: the provider gets the caller\'s mask; its answer is kept where the mask is transparent, the source everywhere else', async () => {
      const calls = provider.imageCalls.length;
      const source = await redBlue();
      // Editable: the left 150 columns (all the red half and half the blue one).
      const mask = await leftEditMask(200, 100, 150);
      const result = await client.images.edit({ image: await toFile(source, 'street.png', { type: 'image/png' }), mask: await toFile(mask, 'mask.png', { type: 'image/png' }), prompt: 'remove the people in the background' });
      const datum = result.data![0]! as { b64_json: string; operations: Array<{ op: string }> };
      assert.deepEqual(datum.operations.map((o) => o.op), ['generate']);
      assert.equal(provider.imageCalls.length, calls + 1, 'one provider call');
      const sent = provider.imageCalls.at(-1)!.mask;
      assert.ok(sent, 'the mask went to the provider');
      const sentAlpha = await sharp(sent).extractChannel(3).raw().toBuffer();
      assert.equal(sentAlpha[10], 0, 'transparent where the caller\'s is');
      assert.equal(sentAlpha[180], 255, 'opaque where the caller\'s is');
      // The test provider inverts: red becomes cyan, blue yellow; the columns the mask keeps stay blue.
      const { data, info } = await sharp(Buffer.from(datum.b64_json, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const src = await sharp(source).removeAlpha().raw().toBuffer();
      for (let y = 0; y < info.height; y++) {
        for (let x = 0; x < info.width; x++) {
          const i = (y * info.width + x) * 3;
          const pixel = [...data.subarray(i, i + 3)];
          if (x >= 150) assert.deepEqual(pixel, [...src.subarray(i, i + 3)], `pixel (${x}, ${y}) outside the mask changed`);
          else assert.deepEqual(pixel, x < 100 ? [0, 255, 255] : [255, 255, 0], `pixel (${x}, ${y}) inside the mask is the provider's`);
        }
      }
    });
  });
}
