import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { startServer } from '../helpers/server.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

/**
 * The server as users run it: its own deliverer (src/main.ts) sends the events of uploads and
 * deletes to a receiver, retries a failing one, and a delivery pending when the server stops is
 * sent by the next server on the same database.
 */
for (const dialect of await dialects()) {
  test(`the running server delivers webhooks, also after a restart (${dialect})`, async () => {
    const database = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-webhooks-'));
    const key = `webhook-key-${randomBytes(8).toString('hex')}`;
    const env = {
      DATABASE_URL: database.databaseUrl,
      TESSERA_DATA_DIR: dataDir,
      TESSERA_API_KEY: key,
      TESSERA_WEBHOOK_ALLOW_PRIVATE: 'true',
      TESSERA_WEBHOOK_POLL_INTERVAL_MS: '50',
      TESSERA_WEBHOOK_RETRY_BASE_MS: '100',
      TESSERA_WEBHOOK_TIMEOUT_MS: '2000',
      TESSERA_CONSOLE_DIR: 'off',
    };
    const receiver = await startReceiver();
    let server = await startServer(env);
    const api = (url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { ...init, headers: { 'x-api-key': key, ...(init.headers as Record<string, string> | undefined) } });
    try {
      const registered = await api('/v1/webhooks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url }) });
      assert.equal(registered.status, 201);
      const endpoint = (await registered.json()) as { id: string; secret: string };
      receiver.secret = endpoint.secret;

      receiver.answers = [500];
      const form = new FormData();
      form.append('file', new Blob([randomBytes(100)]), 'one.bin');
      const file = ((await (await api('/v1/storage/files', { method: 'POST', body: form })).json()) as { files: Array<{ fileId: string }> }).files[0]!;
      await receiver.waitFor(2);
      assert.deepEqual(receiver.received.map((r) => r.status), [500, 200], 'failed once, then delivered by the server on its own');
      assert.equal((receiver.received[1]!.verified as { data: { fileId: string } }).data.fileId, file.fileId);

      // The receiver is down while the server stops: the delivery waits in the database.
      receiver.answers = Array(50).fill(503);
      assert.equal((await api(`/v1/storage/files/${file.fileId}`, { method: 'DELETE' })).status, 204);
      await receiver.waitFor(3);
      assert.equal(await server.stop(), 0);
      receiver.answers = [];
      const seenBefore = receiver.received.length;
      server = await startServer(env);
      await receiver.waitFor(seenBefore + 1);
      const last = receiver.received.at(-1)!;
      assert.equal(last.status, 200);
      assert.equal(last.verifyError, undefined);
      assert.equal((last.verified as { type: string }).type, 'file.deleted');
      // The receiver has the request before the server has its answer and records it: the
      // status is read until it is recorded (a CI run read "pending" once), for at most 5 s.
      type Deliveries = Array<{ event_type: string; status: string; attempts: unknown[] }>;
      const listDeliveries = async () => ((await (await api(`/v1/webhooks/${endpoint.id}/deliveries`)).json()) as { deliveries: Deliveries }).deliveries;
      let deliveries = await listDeliveries();
      for (const started = Date.now(); deliveries[0]?.status === 'pending' && Date.now() - started < 5000; deliveries = await listDeliveries()) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.deepEqual(deliveries.map((d) => [d.event_type, d.status]), [['file.deleted', 'delivered'], ['file.created', 'delivered']]);
      assert.equal(deliveries[1]!.attempts.length, 2);
      assert.equal(deliveries[0]!.attempts.length, seenBefore - 1, 'every attempt of both servers is recorded');
    } finally {
      await server.stop();
      await receiver.close();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
