import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { startServer } from '../helpers/server.ts';

/**
 * better-sqlite3 ≤ 12 on Node ≥ 24.19 aborted the process (SIGABRT in Statement::~Statement)
 * whenever a garbage collection finalised a statement. This keeps a real server writing to its
 * database for a while with full collections forced several times a second (test/helpers/force-gc.mjs): it must answer every request, stay up,
 * and exit 0 on SIGTERM.
 */
const forceGc = fileURLToPath(new URL('../helpers/force-gc.mjs', import.meta.url));

for (const dialect of await dialects()) {
  test(`${dialect}: many database writes under forced garbage collection, then a clean SIGTERM`, async () => {
    const database = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-gc-soak-'));
    const key = `gc-soak-${randomBytes(8).toString('hex')}`;
    const server = await startServer(
      { DATABASE_URL: database.databaseUrl, TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: key, TESSERA_RATE_LIMIT_MAX: '1000000' },
      { nodeArgs: ['--expose-gc', '--import', forceGc] },
    );
    const api = (url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { ...init, headers: { 'x-api-key': key, ...(init.headers as Record<string, string>) } });
    try {
      let writes = 0;
      for (let round = 0; round < 30; round++) {
        // Uploads in parallel (one group commit), a Space, a delete and lists with varying
        // statements: new statements are prepared and old ones become garbage.
        const uploads = await Promise.all(
          Array.from({ length: 8 }, async (_, i) => {
            const form = new FormData();
            form.append('file', new Blob([randomBytes(200 + i)]), `r${round}-${i}.bin`);
            const res = await api('/v1/storage/files', { method: 'POST', body: form });
            assert.equal(res.status, 201, await res.clone().text());
            return ((await res.json()) as { files: Array<{ fileId: string }> }).files[0]!.fileId;
          }),
        );
        const space = await api('/v1/spaces', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `space ${round}` }) });
        assert.equal(space.status, 201);
        assert.equal((await api(`/v1/storage/files/${uploads[0]}`, { method: 'DELETE' })).status, 204);
        assert.equal((await api(`/v1/storage/files?limit=${1 + (round % 50)}`)).status, 200);
        writes += uploads.length + 2;
      }
      assert.ok(writes >= 300);
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200, 'still up');
      assert.equal(server.child.exitCode, null, `the server exited early:\n${server.output()}`);
    } finally {
      const code = await server.stop('SIGTERM');
      await database.drop();
      assert.equal(code, 0, `exit code after SIGTERM:\n${server.output().slice(-2000)}`);
    }
  });
}
