import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { renderEdits } from '../../src/edits/render/index.ts';
import { OpenAiTestServer } from '../helpers/openai-server.ts';
import { startServer, type ServerProcess } from '../helpers/server.ts';

/**
 * The "done when", against the real server process: with the TESSERA_GENERATIVE_…
 * settings pointing at a local server speaking the Images API, a newcomer's prompt stores a file
 * made by contrast then the provider, a retry with the same key pays nothing, and an outage is
 * 503 that stores nothing (and is logged).
 */
const NEWCOMER = 'increase the contrast and remove the people in the background';
const KEY = `tsk_${randomBytes(32).toString('base64url')}`;
let images: OpenAiTestServer;
let server: ServerProcess;
let dataDir: string;

before(async () => {
  images = await new OpenAiTestServer().start();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-e2e-generative-'));
  server = await startServer({
    TESSERA_DATA_DIR: dataDir,
    TESSERA_API_KEY: KEY,
    TESSERA_GENERATIVE_PROVIDER: 'openai',
    TESSERA_GENERATIVE_BASE_URL: images.url,
    TESSERA_GENERATIVE_API_KEY: 'sk-local',
    TESSERA_GENERATIVE_MODEL: 'gpt-image-1',
    TESSERA_CONSOLE_DIR: 'off',
  });
});
after(async () => {
  await server?.stop('SIGKILL');
  await images?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const api = (url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { ...init, headers: { 'x-api-key': KEY, ...(init.headers as Record<string, string>) } });
const fileCount = async () => ((await (await api('/v1/storage/files?limit=1000')).json()) as { files: unknown[] }).files.length;

test("a newcomer's prompt through the real server: contrast then the provider, a free retry, an outage that stores nothing", async () => {
  const source = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6e9c' } })
    .composite([{ input: await sharp({ create: { width: 32, height: 24, channels: 3, background: '#d0a050' } }).png().toBuffer(), left: 0, top: 0 }])
    .jpeg({ quality: 95 })
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([source], { type: 'image/jpeg' }), 'street.jpg');
  const uploaded = ((await (await api('/v1/storage/files', { method: 'POST', body: form })).json()) as { files: Array<{ fileId: string; workspaceId: string }> }).files[0]!;
  const body = JSON.stringify({ prompt: NEWCOMER, workspace_id: uploaded.workspaceId, file_id: uploaded.fileId });
  const edit = (key: string) => api('/v1/images/edits', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body });

  const res = await edit('newcomer-1');
  assert.equal(res.status, 200, await res.clone().text());
  const answer = (await res.json()) as { file_id: string; mime_type: string; operations: Array<{ op: string; provider?: string }> };
  assert.deepEqual(answer.operations.map((o) => o.op), ['contrast', 'generate']);
  assert.equal(answer.operations[1]!.provider, 'openai');
  assert.equal(answer.mime_type, 'image/jpeg', "the source's format");
  assert.equal(images.imageCalls.length, 1);

  // Its pixels: contrast, then inverted by the provider (JPEG both ways, so within a few levels).
  const stored = Buffer.from(await (await api(`/v1/storage/files/${answer.file_id}/content`)).arrayBuffer());
  const contrasted = await renderEdits(source, { operations: [{ op: 'contrast', factor: 1.35 }, { op: 'format', format: 'png' }] }, { maxPixels: 1e7, timeoutSeconds: 10, loadImage: async () => Buffer.alloc(0) });
  const expected = await sharp(contrasted.data).negate().raw().toBuffer();
  const actual = await sharp(stored).raw().toBuffer();
  // Inside each colour block, away from the edges JPEG blurs.
  for (const [x, y] of [[12, 10], [50, 36]] as const) {
    const i = (y * 64 + x) * 3;
    const worst = Math.max(...[0, 1, 2].map((c) => Math.abs(actual[i + c]! - expected[i + c]!)));
    assert.ok(worst <= 6, `at ${x},${y}: ${[...actual.subarray(i, i + 3)]} against ${[...expected.subarray(i, i + 3)]}`);
  }

  const retry = await edit('newcomer-1');
  assert.equal(((await retry.json()) as { file_id: string }).file_id, answer.file_id);
  assert.equal(images.imageCalls.length, 1, 'the retry paid nothing');

  const files = await fileCount();
  for (const mode of ['fail', 'not_an_image'] as const) {
    images.imageMode = mode;
    const outage = await edit(`newcomer-${mode}`);
    assert.equal(outage.status, 503);
    assert.ok(Number(outage.headers.get('retry-after')) > 0);
    assert.equal(((await outage.json()) as { error: { code: string } }).error.code, 'provider_unavailable');
  }
  assert.equal(await fileCount(), files, 'nothing stored');
  // The log line reaches the pipe after the answer (pino writes asynchronously): wait for it, within a bound that only catches a lost line.
  const logged = Date.now() + 5000;
  while (!/not a usable image/.test(server.output()) && Date.now() < logged) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.match(server.output(), /not a usable image/, 'the malformed answer is logged');
  assert.ok(!server.output().includes('sk-local'), 'the provider key is never logged');
});
