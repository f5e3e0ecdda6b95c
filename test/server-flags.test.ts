import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { missingServerFlags, SERVER_NODE_FLAGS } from '../src/server-flags.ts';
import { startServer } from './helpers/server.ts';

test('npm start gives the server its V8 flags, and a server started without them says so', async () => {
  const manifest = JSON.parse(await fs.readFile('package.json', 'utf8')) as { scripts: { start: string } };
  const startWords = manifest.scripts.start.split(' ');
  for (const flag of SERVER_NODE_FLAGS) assert.ok(startWords.includes(flag), `npm start lacks ${flag}`);
  assert.deepEqual(missingServerFlags([...SERVER_NODE_FLAGS, '--import', 'x']), []);
  assert.deepEqual(missingServerFlags(['--import', 'x']), [...SERVER_NODE_FLAGS]);

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-flags-'));
  const server = await startServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: 'flags-key-0123456789' }, { viaNpm: true });
  try {
    assert.doesNotMatch(server.output(), /started without/);
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
