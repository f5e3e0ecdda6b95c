import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/database.ts';
import { AccountsRepository } from '../../src/db/repositories/accounts.repository.ts';
import { ApiKeysRepository } from '../../src/db/repositories/api-keys.repository.ts';
import { SpacesRepository } from '../../src/db/repositories/spaces.repository.ts';
import { KeysService } from '../../src/services/keys.service.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { startServers } from '../helpers/server.ts';

const SHOWN_ONCE = /It is shown only this once: (tsk_\S+?)"/;

for (const dialect of await dialects()) {
  test(`two servers starting at once on an empty ${dialect} database make exactly one first key`, async () => {
    const database = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bootstrap-'));
    // For SQLite: one file that both processes open.
    const env = { DATABASE_URL: database.databaseUrl, TESSERA_DATA_DIR: dataDir };
    const servers = await startServers(2, env).catch(async (error: unknown) => {
      await database.drop();
      throw error;
    });
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

/** Waits for a condition that an event elsewhere makes true (a notification arriving), up to a generous deadline. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

for (const dialect of await dialects()) {
  test(`the key cache on ${dialect}: a revocation wins on the replica that revokes at once, and on another as soon as it hears of it`, async () => {
    const database = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-key-cache-'));
    const config = loadConfig({ TESSERA_DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl, TESSERA_KEY_CACHE_MS: '60000' });
    const [a, b] = [await createContext(config), await createContext(config)];
    try {
      const created = await a.keys.create('roaming');
      // PostgreSQL: replica a caches only once it listens for revocations.
      a.database.keysVersion();
      await until(() => a.database.keysVersion() !== undefined, 'replica a listens');
      const before = a.database.keysVersion();
      assert.ok(await a.keys.authenticate(created.key), 'the key works');
      assert.ok(await a.keys.authenticate(created.key), 'and again (from the cache)');
      assert.ok(await b.keys.authenticate(created.key), 'and on the other replica');

      await b.keys.revoke(created.id);
      assert.equal(await b.keys.authenticate(created.key), undefined, 'the revoking replica refuses it at once');
      if (dialect === 'sqlite') {
        // The file's change counter is read once per turn of the event loop: from the next one on.
        await new Promise((resolve) => setImmediate(resolve));
        assert.equal(await a.keys.authenticate(created.key), undefined, 'SQLite: the other connection refuses it from its next turn of the event loop');
      } else {
        await until(() => a.database.keysVersion() !== before, 'replica a hears the NOTIFY of the revocation');
        assert.equal(await a.keys.authenticate(created.key), undefined, 'PostgreSQL: refused once the notice arrived, long before the cache would expire');
      }

      // A look-up racing the revocation on the same replica leaves nothing cached behind it.
      for (let round = 0; round < 5; round++) {
        const racing = await a.keys.create('racing');
        assert.ok(await a.keys.authenticate(racing.key));
        await Promise.all([a.keys.authenticate(racing.key), a.keys.revoke(racing.id), a.keys.authenticate(racing.key)]);
        assert.equal(await a.keys.authenticate(racing.key), undefined, `round ${round}: refused right after the revocation`);
      }

      // A key refused once is not remembered as refused: made afterwards, it works at once.
      const later = 'tsk_made-after-a-failed-attempt';
      assert.equal(await a.keys.authenticate(later), undefined);
      await b.keys.create('roaming', {}, later);
      assert.ok(await a.keys.authenticate(later), 'a new key works at once on every replica');
    } finally {
      await Promise.all([a.close(), b.close()]);
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  test(`the key cache on ${dialect}: a revocation nobody announced is honoured within TESSERA_KEY_CACHE_MS`, async () => {
    const database = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-key-cache-'));
    const config = loadConfig({ TESSERA_DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl });
    const [a, b] = [await createContext(config), await createContext(config)];
    try {
      const { db } = a.database;
      let clock = 1_000_000;
      const ttlMs = 2000;
      const keys = new KeysService(new AccountsRepository(db), new ApiKeysRepository(db, dialect), new SpacesRepository(db), {
        ttlMs,
        maxEntries: 100,
        version: () => a.database.keysVersion(),
        now: () => clock,
      });
      const created = await keys.create('silent');
      a.database.keysVersion();
      await until(() => a.database.keysVersion() !== undefined, 'replica a listens');
      assert.ok(await keys.authenticate(created.key));
      // Revoked behind the service's back: another connection, no NOTIFY (as if the revoking
      // process had died between its commit and its notice, or an operator wrote the row by hand).
      await b.database.db.updateTable('api_keys').set({ revoked_at: Date.now() }).where('id', '=', created.id).execute();
      clock += ttlMs - 1;
      if (dialect === 'sqlite') {
        await new Promise((resolve) => setImmediate(resolve));
        assert.equal(await keys.authenticate(created.key), undefined, 'SQLite sees any commit of another connection: refused from the next turn of the event loop');
      } else {
        assert.ok(await keys.authenticate(created.key), 'PostgreSQL without a notice: the cached key lasts until its time is up');
        clock += 1;
        assert.equal(await keys.authenticate(created.key), undefined, 'and not a millisecond longer');
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
