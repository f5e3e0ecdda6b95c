import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/database.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { startServer } from '../helpers/server.ts';

const SHOWN_ONCE = /It is shown only this once: (tsk_\S+?)"/;

for (const dialect of await dialects()) {
  test(`two servers starting at once on an empty ${dialect} database make exactly one first key`, async () => {
    const database = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bootstrap-'));
    // For SQLite: one file that both processes open.
    const env = { DATABASE_URL: database.databaseUrl, TESSERA_DATA_DIR: dataDir };
    const servers = await Promise.all([startServer(env), startServer(env)]);
    const direct = openDatabase(loadConfig(env));
    try {
      const printed = servers.flatMap((server) => SHOWN_ONCE.exec(server.output())?.[1] ?? []);
      assert.equal(printed.length, 1, `exactly one server prints a key:\n${servers.map((s) => s.output()).join('\n')}`);
      const rows = await direct.db.selectFrom('api_keys').select('id').execute();
      assert.equal(rows.length, 1, 'exactly one key is stored');
      for (const server of servers) {
        const res = await fetch(`${server.url}/v1/spaces`, { headers: { 'x-api-key': printed[0]! } });
        assert.equal(res.status, 200, 'the printed key works on both');
      }
    } finally {
      await direct.close();
      await Promise.all(servers.map((server) => server.stop()));
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}

if ((await dialects()).includes('postgres')) {
  test('two app instances bootstrapping at the same moment on PostgreSQL make exactly one first key', async () => {
    // In one process the race between "no key yet?" and "insert one" is lost every time.
    for (let round = 0; round < 3; round++) {
      const database = await freshDatabase('postgres');
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bootstrap-'));
      const config = loadConfig({ TESSERA_DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl });
      const replicas = await Promise.all([createContext(config), createContext(config)]);
      try {
        const shown = (await Promise.all(replicas.map((replica) => replica.keys.bootstrap(undefined)))).filter((key) => key !== undefined);
        assert.equal(shown.length, 1, 'exactly one instance answers a key');
        assert.deepEqual((await replicas[0]!.keys.list()).map((k) => [k.id, k.account_name]), [[shown[0]!.id, 'default']], 'and exactly that key is stored');
        assert.ok(await replicas[1]!.keys.authenticate(shown[0]!.key), 'it works on the other instance');
        assert.equal(await replicas[1]!.keys.bootstrap(undefined), undefined, 'a later start makes none');
      } finally {
        await Promise.all(replicas.map((replica) => replica.close()));
        await database.drop();
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    }
  });
}
