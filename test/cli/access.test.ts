import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { TesseraClient, type TesseraError } from '../../client/src/index.ts';
import { tessera } from '../helpers/cli.ts';
import { startServer } from '../helpers/server.ts';

/** Scoped keys, quotas and signed links from the command line, against a running server. */
for (const dialect of await dialects()) {
  test(`npx tessera keys --scope, accounts set-quota and link on ${dialect}`, async () => {
    const database = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-cli-access-'));
    const operator = { TESSERA_DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl, TESSERA_API_KEY: 'cli-access-bootstrap-key' };
    const server = await startServer(operator);
    const lastLine = (text: string) => text.trim().split('\n').pop()!;
    try {
      const admin = await tessera(operator, 'keys', 'create', '--account', 'frank');
      assert.equal(admin.status, 0, admin.stderr);
      assert.match(admin.stdout, /scope admin, every Space/);
      const adminKey = lastLine(admin.stdout);
      const client = { TESSERA_URL: server.url, TESSERA_API_KEY: adminKey };
      const space = lastLine((await tessera(client, 'spaces', 'create', 'gallery')).stdout);
      assert.match(space, /^spc_/);

      const reader = await tessera(operator, 'keys', 'create', '--account', 'frank', '--scope', 'read', '--space', space, '--name', 'gallery reader');
      assert.equal(reader.status, 0, reader.stderr);
      const readKey = lastLine(reader.stdout);
      assert.match(readKey, /^tsk_[A-Za-z0-9_-]{43}$/, 'the key alone on the last line');
      assert.match(reader.stdout, new RegExp(`scope read, Space ${space} only`));
      const listed = await tessera(operator, 'keys', 'list', '--account', 'frank', '--json');
      const keys = JSON.parse(listed.stdout).keys as Array<{ name: string; scope: string; spaceId: string | null }>;
      assert.deepEqual(keys.map((k) => [k.scope, k.spaceId]).sort(), [['admin', null], ['read', space]]);
      const bad = await tessera(operator, 'keys', 'create', '--account', 'frank', '--scope', 'root');
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /--scope must be read, write or admin/);
      const elsewhere = await tessera(operator, 'keys', 'create', '--account', 'frank', '--space', 'spc_01JC0000000000000000000000');
      assert.equal(elsewhere.status, 1);
      assert.match(elsewhere.stderr, /space spc_01JC0000000000000000000000 does not exist/);

      // The read key lists and links, but cannot upload.
      await fs.writeFile(path.join(dataDir, 'hello.txt'), 'hello, links');
      const asReader = { TESSERA_URL: server.url, TESSERA_API_KEY: readKey };
      const refused = await tessera(asReader, 'upload', path.join(dataDir, 'hello.txt'));
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, /403: this key's scope is "read"; POST \/v1\/storage\/files needs a "write" key/);
      const uploaded = await tessera(client, 'upload', path.join(dataDir, 'hello.txt'), '--space', space, '--json');
      assert.equal(uploaded.status, 0, uploaded.stderr);
      const fileId = JSON.parse(uploaded.stdout).files[0].fileId as string;
      const account = JSON.parse((await tessera(asReader, 'account', '--json')).stdout);
      assert.deepEqual([account.key.scope, account.key.workspace_id, account.usage.files], ['read', space, 1]);

      const link = await tessera(asReader, 'link', fileId, '--expires', '1h');
      assert.equal(link.status, 0, link.stderr);
      const url = lastLine(link.stdout);
      assert.match(url, new RegExp(`^${server.url}/links/files/${fileId}/content\\?expires=\\d+&sig=`));
      const fetched = await fetch(url);
      assert.equal(fetched.status, 200);
      assert.equal(await fetched.text(), 'hello, links');
      assert.equal((await tessera(asReader, 'link', fileId, '--expires', 'soon')).status, 2);
      const tooLong = await tessera(asReader, 'link', fileId, '--expires', '400d');
      assert.equal(tooLong.status, 1);
      assert.match(tooLong.stderr, /expires_in must be 1 to 604800 seconds/);

      // Quotas: set for one account, refused over it with what was hit.
      const quota = await tessera(operator, 'accounts', 'set-quota', 'frank', '--files', '1', '--bytes', '1000000');
      assert.equal(quota.status, 0, quota.stderr);
      assert.match(quota.stdout, /frank: 12 of 1000000 bytes, 1 of 1 files/);
      const over = await tessera(client, 'upload', path.join(dataDir, 'hello.txt'));
      assert.equal(over.status, 1);
      assert.match(over.stderr, /413: 1 more files would pass the account's quota of 1 files \(1 stored\)/);
      // The server refuses once the file part begins, while the client is still sending the
      // rest: it reads and drops that rest, so the answer arrives. It had closed at once, and
      // the reset beat the answer about once in 25 uploads ("write EPIPE").
      const typed = new TesseraClient({ baseUrl: server.url, apiKey: adminKey });
      const answers = new Map<string, number>();
      for (let i = 0; i < 100; i++) {
        const answer = await typed.files.upload([{ name: 'again.txt', data: 'hello again' }]).then(() => 'stored', (error: TesseraError) => `${error.code}: ${error.message.slice(0, 60)}`);
        answers.set(answer, (answers.get(answer) ?? 0) + 1);
      }
      assert.deepEqual([...answers.keys()].map((a) => a.split(':')[0]), ['quota_exceeded'], [...answers].join('\n'));
      assert.equal((await tessera(operator, 'accounts', 'set-quota', 'nobody', '--files', '1')).status, 1);
      assert.equal((await tessera(operator, 'accounts', 'set-quota', 'frank', '--files', 'lots')).status, 1);
      assert.equal((await tessera(operator, 'accounts', 'set-quota', 'frank')).status, 2);
      const reset = await tessera(operator, 'accounts', 'set-quota', 'frank', '--files', 'default', '--bytes', 'unlimited');
      assert.match(reset.stdout, /of unlimited bytes, 1 of unlimited files/);
    } finally {
      await server.stop();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
