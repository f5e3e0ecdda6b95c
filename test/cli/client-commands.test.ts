import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { tessera as tesseraWith, tesseraBinary } from '../helpers/cli.ts';
import { startServer, type ServerProcess } from '../helpers/server.ts';

/** The CLI with no URL or key from the developer's own environment. */
const tessera = (env: Record<string, string>, ...args: string[]) => tesseraWith({ TESSERA_URL: '', TESSERA_API_KEY: '', ...env }, ...args);
import { redBlue } from '../helpers/images.ts';


let server: ServerProcess;
let dir: string;
let serverEnv: Record<string, string>;

before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-cli-client-'));
  serverEnv = { TESSERA_DATA_DIR: path.join(dir, 'data'), TESSERA_API_KEY: 'cli-client-bootstrap-key' };
  server = await startServer(serverEnv);
});
after(async () => {
  await server.stop('SIGTERM');
  await fs.rm(dir, { recursive: true, force: true });
});

test("a newcomer's path through the CLI: key, Space, upload, ls, edit, get, rm", async () => {
  // The operator makes a key; the newcomer uses it over HTTP.
  const created = await tessera(serverEnv, 'keys', 'create', '--account', 'erin');
  assert.equal(created.status, 0, created.stderr);
  const keys = JSON.parse((await tessera(serverEnv, 'keys', 'list', '--account', 'erin', '--json')).stdout) as { keys: { account: string; revokedAt: string | null }[] };
  assert.deepEqual(keys.keys.map((k) => [k.account, k.revokedAt]), [['erin', null]]);
  const env = { TESSERA_URL: server.url, TESSERA_API_KEY: created.stdout.trim().split('\n').pop()! };

  const space = await tessera(env, 'spaces', 'create', 'holiday');
  assert.equal(space.status, 0, space.stderr);
  const spaceId = space.stdout.trim();
  assert.match(spaceId, /^spc_[0-9A-Z]{26}$/);
  assert.match((await tessera(env, 'spaces', 'ls')).stdout, /holiday/);

  const picture = path.join(dir, 'beach.png');
  await fs.writeFile(picture, await redBlue());
  const uploaded = await tessera(env, 'upload', picture, '--space', spaceId, '--json');
  assert.equal(uploaded.status, 0, uploaded.stderr);
  const fileId = (JSON.parse(uploaded.stdout) as { files: { fileId: string }[] }).files[0]!.fileId;

  const listed = await tessera(env, 'ls');
  assert.match(listed.stdout, new RegExp(`${fileId}\\s+beach\\.png\\s+image/png`));
  const all = JSON.parse((await tessera(env, 'ls', '--all', '--json', '--limit', '1')).stdout) as { files: { fileId: string }[] };
  assert.deepEqual(all.files.map((f) => f.fileId), [fileId]);

  const plan = await tessera(env, 'edit', fileId, 'crop to 16:9 and convert to webp', '--dry-run');
  assert.equal(plan.status, 0, plan.stderr);
  assert.match(plan.stdout, /plan \(nothing stored\):\n {2}1\. crop_aspect: ratio 16:9, gravity "center"\n {2}2\. format: format "webp"/);

  const out = path.join(dir, 'edited.png');
  const edited = await tessera(env, 'edit', fileId, 'rotate 90 degrees, make it black and white and add a red 10px border', '--out', out);
  assert.equal(edited.status, 0, edited.stderr);
  assert.match(edited.stdout, /1\. rotate: degrees 90/);
  assert.match(edited.stdout, /3\. border: width 10, color #ff0000/);
  const resultId = /(file_[0-9A-Z]{26})\s+beach-edited\.png/.exec(edited.stdout)![1]!;
  const { data, info } = await sharp(out).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  assert.deepEqual([info.width, info.height], [120, 220]);
  assert.deepEqual([...data.subarray(0, 3)], [255, 0, 0]);

  const copy = path.join(dir, 'copy.png');
  assert.equal((await tessera(env, 'get', resultId, '-o', copy)).status, 0);
  assert.deepEqual(await fs.readFile(copy), await fs.readFile(out));

  const ops = await tessera(env, 'ops');
  assert.match(ops.stdout, /^rotate\s+Rotate/m);

  assert.equal((await tessera(env, 'rm', resultId, fileId)).status, 0);
  assert.match((await tessera(env, 'ls')).stdout, /no files/);
});

test('errors a person understands, with exit codes', async () => {
  const wrongKey = await tessera({ TESSERA_URL: server.url, TESSERA_API_KEY: 'tsk_wrong' }, 'ls');
  assert.equal(wrongKey.status, 1);
  assert.match(wrongKey.stderr, /401: the API key was not accepted; set TESSERA_API_KEY/);

  // The binary itself: its exit status is the command's.
  const noKey = await tesseraBinary({ TESSERA_URL: server.url, TESSERA_API_KEY: '' }, 'ls');
  assert.equal(noKey.status, 2);
  assert.match(noKey.stderr, /no API key: set TESSERA_API_KEY/);

  const env = { TESSERA_URL: server.url, TESSERA_API_KEY: 'cli-client-bootstrap-key' };
  const picture = path.join(dir, 'p.png');
  await fs.writeFile(picture, await redBlue());
  const fileId = (JSON.parse((await tessera(env, 'upload', picture, '--json')).stdout) as { files: { fileId: string }[] }).files[0]!.fileId;
  const vague = await tessera(env, 'edit', fileId, 'make it fabulous');
  assert.equal(vague.status, 1);
  assert.match(vague.stderr, /422: the prompt was not understood: "make it fabulous"/);
  assert.match(vague.stderr, /closest operations:/);

  const many = await Promise.all(['a', 'b', 'c'].map(async (n) => {
    const file = path.join(dir, `${n}.txt`);
    await fs.writeFile(file, n);
    return file;
  }));
  const batched = await tessera(env, 'upload', ...many, '--batch', '2', '--json');
  assert.deepEqual((JSON.parse(batched.stdout) as { files: { name: string }[] }).files.map((f) => f.name), ['a.txt', 'b.txt', 'c.txt']);

  const missing = await tessera(env, 'upload', path.join(dir, 'nope.png'));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /no such file/);
});

test('every command has --help with examples', async () => {
  for (const command of [['keys', 'create'], ['keys', 'list'], ['keys', 'revoke'], ['migrate'], ['verify'], ['gc'], ['serve'], ['spaces', 'ls'], ['spaces', 'create'], ['ls'], ['upload'], ['get'], ['rm'], ['edit'], ['ops']]) {
    const help = await tessera({}, ...command, '--help');
    assert.equal(help.status, 0, command.join(' '));
    assert.match(help.stdout, /Examples?:\n {2}\$ npx tessera /, command.join(' '));
  }
});
