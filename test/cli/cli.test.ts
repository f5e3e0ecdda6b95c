import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { tessera, tesseraBinary } from '../helpers/cli.ts';
import { statusAfterRevocation } from '../helpers/revocation.ts';
import { startServer } from '../helpers/server.ts';


for (const dialect of await dialects()) {
  test(`npx tessera keys against a running server on ${dialect}`, async () => {
    const database = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-cli-'));
    const env = { TESSERA_DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl, TESSERA_API_KEY: 'cli-test-bootstrap-key' };
    const server = await startServer(env);
    try {
      // The binary itself, once: the other commands run in this process.
      const created = await tesseraBinary(env, 'keys', 'create', '--account', 'carol', '--name', 'laptop');
      assert.equal(created.status, 0, created.stderr);
      const carolKey = created.stdout.trim().split('\n').pop()!;
      assert.match(carolKey, /^tsk_[A-Za-z0-9_-]{43}$/, 'the key alone on the last line');
      const carolId = /(key_[0-9A-Z]{26})/.exec(created.stdout)![1]!;
      const dave = (await tessera(env, 'keys', 'create', '--account', 'dave')).stdout.trim().split('\n').pop()!;

      const api = (key: string, url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { ...init, headers: { 'x-api-key': key } });
      assert.equal(((await (await api(carolKey, "/v1/storage/files")).json()) as { files: unknown[] }).files.length, 0);
      const form = new FormData();
      form.append('file', new Blob(['carol only']), 'carol.txt');
      const fileId = ((await (await api(carolKey, "/v1/storage/files", { method: "POST", body: form })).json()) as { files: Array<{ fileId: string }> }).files[0]!.fileId;
      assert.equal((await api(carolKey, `/v1/storage/files/${fileId}`)).status, 200);
      assert.equal((await api(dave, `/v1/storage/files/${fileId}`)).status, 404, 'another account cannot see it');

      const listed = await tessera(env, 'keys', 'list');
      assert.equal(listed.status, 0);
      assert.match(listed.stdout, new RegExp(`${carolId}\\s+carol\\s+laptop`));
      assert.ok(!listed.stdout.includes(carolKey) && !listed.stdout.includes(dave), 'keys themselves are never listed');
      const onlyCarol = await tessera(env, 'keys', 'list', '--account', 'carol');
      assert.deepEqual(onlyCarol.stdout.trim().split('\n').slice(1).map((l) => l.split('\t')[1]), ['carol']);

      const revoked = await tessera(env, 'keys', 'revoke', carolId);
      assert.equal(revoked.status, 0, revoked.stderr);
      assert.equal(await statusAfterRevocation(dialect, async () => (await api(carolKey, '/v1/storage/files')).status), 401);
      const refused = await api(carolKey, '/v1/storage/files');
      assert.equal(refused.status, 401);
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, "unauthorized");
      assert.equal((await api(dave, '/v1/storage/files')).status, 200);

      const unknown = await tessera(env, 'keys', 'revoke', 'key_doesnotexist');
      assert.notEqual(unknown.status, 0);
      assert.match(unknown.stderr, /does not exist/);
      assert.notEqual((await tessera(env, 'keys', 'create')).status, 0, '--account is required');
      const badAccount = await tessera(env, 'keys', 'create', '--account', 'no spaces allowed');
      assert.notEqual(badAccount.status, 0);
      assert.match(badAccount.stderr, /account names/);
      const migrated = await tessera(env, 'migrate');
      assert.equal(migrated.status, 0);
      assert.match(migrated.stdout, /already up to date/);
    } finally {
      await server.stop();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
