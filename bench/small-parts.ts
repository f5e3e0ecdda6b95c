// The parts of a small download and of a list that issue 22's second pass changed, each against
// what it replaced, in one process on SQLite (docs/benchmarks.md, "Second pass"):
//   npm exec -- node bench/small-parts.ts
// - a 34 KiB positioned read from an open file: through libuv's thread pool (FileHandle.read, as
//   LocalQuiltStore does) against one pread on the event loop (readSync; tried, not kept);
// - a file's look-up and a page of 100 (FilesRepository) through Kysely against the direct reader.
// Variants alternate in blocks (10 rounds); printed: the median CPU µs per call of each.
import fs from 'node:fs/promises';
import { readSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { FilesRepository } from '../src/db/repositories/files.repository.ts';
import { buildApp } from '../src/http/app.ts';

const ROUNDS = 10;
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-small-parts-'));
const context = await createContext(loadConfig({ TESSERA_DATA_DIR: dir, TESSERA_RATE_LIMIT_MAX: '100000000', TESSERA_CONSOLE_DIR: 'off' }));
const { key } = await context.keys.create('p');
const account = (await context.database.db.selectFrom('accounts').select('id').where('name', '=', 'p').executeTakeFirstOrThrow()).id;
const app = await buildApp(context);
for (let i = 0; i < 300; i++) {
  const answer = await app.inject({ method: 'POST', url: `/v1/storage/files/raw?name=f${i}.bin`, headers: { 'x-api-key': key, 'content-type': 'application/octet-stream' }, payload: randomBytes(4096 + i * 100) });
  if (answer.statusCode !== 201) throw new Error(answer.body);
}
const ids = (await context.files.list(account, { limit: 300 })).files.map((f) => f.id);

const file = path.join(dir, 'read-me');
const FILE_BYTES = 4 << 20;
const READ_BYTES = 34 * 1024;
await fs.writeFile(file, randomBytes(FILE_BYTES));
const handle = await fs.open(file, 'r');
const at = (i: number) => (i * 4096) % (FILE_BYTES - READ_BYTES);

const direct = new FilesRepository(context.database.db);
// Another Kysely instance over the same connection has no direct reader: every query goes through Kysely.
const viaKysely = new FilesRepository(context.database.db.withoutPlugins());

const groups: Array<Array<[name: string, calls: number, work: (i: number) => Promise<unknown>]>> = [
  [
    ['34 KiB read through the thread pool', 3000, async (i) => handle.read(Buffer.allocUnsafe(READ_BYTES), 0, READ_BYTES, at(i))],
    ['34 KiB read on the event loop', 3000, async (i) => readSync(handle.fd, Buffer.allocUnsafe(READ_BYTES), 0, READ_BYTES, at(i))],
  ],
  [
    ["a file's look-up through Kysely", 3000, (i) => viaKysely.find(account, ids[i % ids.length]!)],
    ["a file's look-up, direct", 3000, (i) => direct.find(account, ids[i % ids.length]!)],
  ],
  [
    ['a page of 100 through Kysely', 600, () => viaKysely.list({ accountId: account }, 101)],
    ['a page of 100, direct', 600, () => direct.list({ accountId: account }, 101)],
  ],
];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
for (const group of groups) {
  const cpu = group.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, [, calls, work]] of group.entries()) {
      for (let i = 0; i < 100; i++) await work(i);
      const before = process.cpuUsage();
      for (let i = 0; i < calls; i++) await work(i);
      const used = process.cpuUsage(before);
      cpu[k]!.push((used.user + used.system) / calls);
    }
  }
  for (const [k, [name]] of group.entries()) console.log(`${median(cpu[k]!).toFixed(1).padStart(7)} µs  ${name}`);
}
await handle.close();
await app.close();
await context.close();
await fs.rm(dir, { recursive: true, force: true });
