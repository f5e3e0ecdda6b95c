import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { buildApp } from '../../src/http/app.ts';
import { dialects, freshDatabase } from '../helpers/databases.ts';

/** A TCP proxy in front of PostgreSQL that can cut every connection, as a restart would. */
class Outage {
  private readonly target: { host: string; port: number };
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(target: { host: string; port: number }) {
    this.target = target;
  }

  async up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server!.address() as net.AddressInfo).port;
  }

  async down(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

if ((await dialects()).includes('postgres')) {
  test('PostgreSQL outage: readiness fails, API answers 503, and both recover by themselves', async () => {
    const database = await freshDatabase('postgres');
    const url = new URL(database.databaseUrl);
    const outage = new Outage({ host: url.hostname, port: Number(url.port || 5432) });
    await outage.up();
    url.port = String(outage.port);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-outage-'));
    const context = await createContext(loadConfig({ TESSERA_DATA_DIR: dataDir, DATABASE_URL: url.toString(), TESSERA_PG_POOL_MAX: '2' }));
    const app = await buildApp(context);
    try {
      const { key } = await context.keys.create('outage');
      const list = () => app.inject({ url: '/v1/storage/files', headers: { 'x-api-key': key } });
      assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);
      assert.equal((await list()).statusCode, 200);

      await outage.down();
      const notReady = await app.inject({ url: '/readyz' });
      assert.equal(notReady.statusCode, 503);
      assert.equal(notReady.json().error.code, 'provider_unavailable');
      const failed = await list();
      assert.equal(failed.statusCode, 503, failed.body);
      assert.equal(failed.json().error.code, 'provider_unavailable');
      assert.equal(failed.headers['retry-after'], '1');

      await outage.up();
      let ready = 0;
      for (let attempt = 0; attempt < 50 && ready !== 200; attempt++) {
        ready = (await app.inject({ url: '/readyz' })).statusCode;
        if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(ready, 200, 'ready again without a restart');
      assert.equal((await list()).statusCode, 200);
    } finally {
      await app.close();
      await context.close();
      await outage.down();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
