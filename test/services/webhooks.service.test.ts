import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Value } from 'typebox/value';
import { loadConfig } from '../../src/config.ts';
import { createContext, type AppContext } from '../../src/context.ts';
import { WebhooksRepository } from '../../src/db/repositories/webhooks.repository.ts';
import { webhookEnvelope } from '../../src/services/webhook-events.ts';
import { WebhooksService } from '../../src/services/webhooks.service.ts';
import { isPrivateAddress, sendWebhook } from '../../src/services/webhook-sender.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { dialects } from '../helpers/databases.ts';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';

const MASTER_KEY = randomBytes(32).toString('base64');
const ENV = { TESSERA_WEBHOOK_ALLOW_PRIVATE: 'true', TESSERA_WEBHOOK_RETRY_BASE_MS: '40', TESSERA_WEBHOOK_TIMEOUT_MS: '2000', TESSERA_WEBHOOK_BATCH: '4', TESSERA_WEBHOOK_MASTER_KEY: MASTER_KEY };

for (const dialect of await dialects()) {
  describe(`the webhook deliverer on ${dialect}`, () => {
    let t: TestApp;
    let receiver: WebhookReceiver;
    let accountId: string;

    before(async () => {
      t = await startTestApp(dialect, ENV);
      accountId = (await t.app.inject({ method: 'GET', url: '/v1/account', headers: { 'x-api-key': t.key } })).json().id;
    });
    after(() => t.close());
    beforeEach(async () => {
      for (const w of await t.context.webhooks.list(accountId)) await t.context.webhooks.delete(accountId, w.id);
      await receiver?.close();
      receiver = await startReceiver();
    });
    after(() => receiver?.close());

    const register = async (events?: string[]) => {
      const { endpoint, secret } = await t.context.webhooks.create(accountId, { url: receiver.url, events });
      receiver.secret = secret;
      return endpoint;
    };

    test('two deliverers racing over one database deliver every event exactly once', async () => {
      await register(['edit.succeeded']);
      // A second server process on the same database: its own context, its own connections.
      const other: AppContext = await createContext(t.context.config);
      try {
        const events = 40;
        const racers = () => [t.context.webhooks.deliverDue(), other.webhooks.deliverDue(), t.context.webhooks.deliverDue(), other.webhooks.deliverDue()];
        // Their connections opened before the race, so that none starts late.
        await Promise.all(racers());
        for (let i = 0; i < events; i++) {
          await t.context.webhooks.publishEvent(accountId, 'edit.succeeded', { id: `job_${i}`, status: 'succeeded', result: { file_id: `file_${i}`, name: `r${i}.png`, mime_type: 'image/png' } });
        }
        receiver.delayMs = 25;
        const reports = [];
        for (let round = 0; round < 20 && receiver.received.length < events; round++) {
          reports.push(...(await Promise.all(racers())));
        }
        const delivered = reports.reduce((sum, r) => sum + r.delivered, 0);
        assert.equal(delivered, events, 'each delivery counted once across the deliverers');
        const ids = receiver.received.map((r) => r.headers['webhook-id']);
        assert.equal(ids.length, events, 'no request twice');
        assert.equal(new Set(ids).size, events);
        assert.ok(receiver.received.every((r) => r.verifyError === undefined));
        const jobs = receiver.received.map((r) => (r.verified as { data: { id: string } }).data.id).sort();
        assert.deepEqual(jobs, Array.from({ length: events }, (_, i) => `job_${i}`).sort());
        assert.ok(reports.filter((r) => r.delivered > 0).length >= 2, 'the work was shared');
      } finally {
        await other.close();
      }
    });

    test('edit.succeeded and edit.failed, as the edit jobs publish them, match their schemas', async () => {
      await register();
      await t.context.webhooks.publishEvent(accountId, 'edit.failed', { id: 'job_x', status: 'failed', error: { code: 'provider_unavailable', message: 'the provider did not answer' } });
      await t.context.database.db.transaction().execute((trx) =>
        t.context.webhooks.publishEvent(accountId, 'edit.succeeded', { id: 'job_y', status: 'succeeded', result: { file_id: 'file_y', name: 'y.png', mime_type: 'image/png', width: 10 } }, trx),
      );
      await t.context.webhooks.deliverDue();
      assert.equal(receiver.received.length, 2);
      for (const r of receiver.received) {
        const body = r.verified as { type: 'edit.failed' | 'edit.succeeded' };
        assert.ok(Value.Check(webhookEnvelope(body.type), body), r.body);
      }
      // A rolled-back transaction publishes nothing.
      await assert.rejects(
        t.context.database.db.transaction().execute(async (trx) => {
          await t.context.webhooks.publishEvent(accountId, 'edit.failed', { id: 'job_z', status: 'failed', error: { code: 'internal', message: 'x' } }, trx);
          throw new Error('the change failed');
        }),
        /the change failed/,
      );
      assert.deepEqual(await t.context.webhooks.deliverDue(), { delivered: 0, retrying: 0, failed: 0 });
    });

    test('a deliverer that dies mid-attempt leaves the delivery due again after its lease', async () => {
      const endpoint = await register(['edit.failed']);
      await t.context.webhooks.publishEvent(accountId, 'edit.failed', { id: 'job_lease', status: 'failed', error: { code: 'internal', message: 'x' } });
      // Claimed by a deliverer that is never heard of again, with a lease of a second.
      const { WebhooksRepository } = await import('../../src/db/repositories/webhooks.repository.ts');
      const repository = new WebhooksRepository(t.context.database.db, t.context.database.dialect);
      const claimed = await repository.claimDue(Date.now(), 10, Date.now() + 1000);
      assert.equal(claimed.length, 1);
      assert.deepEqual(await t.context.webhooks.deliverDue(), { delivered: 0, retrying: 0, failed: 0 }, 'held by the lease');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      assert.deepEqual(await t.context.webhooks.deliverDue(), { delivered: 1, retrying: 0, failed: 0 });
      const page = await t.context.webhooks.deliveries(accountId, endpoint.id, { limit: 10 });
      assert.deepEqual(page.deliveries[0]!.attemptHistory.map((a) => a.attempt), [2], 'the lost attempt counts; the one that answered is recorded');
    });

    test('the secret is encrypted at rest under TESSERA_WEBHOOK_MASTER_KEY, and deliveries fail clearly without that key', async () => {
      const endpoint = await register(['edit.failed']);
      const key = Buffer.from(receiver.secret!.slice('whsec_'.length), 'base64');
      const stored = (await t.context.database.db.selectFrom('webhook_endpoints').select('secret').where('id', '=', endpoint.id).executeTakeFirstOrThrow()).secret;
      assert.ok(!stored.startsWith('plain.'));
      for (const encoding of ['base64', 'base64url', 'hex'] as const) assert.ok(!stored.includes(key.toString(encoding)), `the key is not in the row (${encoding})`);

      // A secret stored plain (before the master key was set) is encrypted at its first delivery.
      await t.context.database.db.updateTable('webhook_endpoints').set({ secret: `plain.${key.toString('base64url')}` }).where('id', '=', endpoint.id).execute();
      await t.context.webhooks.publishEvent(accountId, 'edit.failed', { id: 'job_p', status: 'failed', error: { code: 'internal', message: 'x' } });
      assert.deepEqual(await t.context.webhooks.deliverDue(), { delivered: 1, retrying: 0, failed: 0 });
      assert.equal(receiver.received.at(-1)!.verifyError, undefined);
      const resealed = (await t.context.database.db.selectFrom('webhook_endpoints').select('secret').where('id', '=', endpoint.id).executeTakeFirstOrThrow()).secret;
      assert.ok(!resealed.startsWith('plain.') && !resealed.includes(key.toString('base64url')), 'encrypted now');
      receiver.received.length = 0;

      // A server with another master key cannot sign with it: the attempt says why and is retried.
      const wrongKey = await createContext(loadConfig({ ...ENV, TESSERA_DATA_DIR: t.dataDir, DATABASE_URL: t.context.config.databaseUrl, TESSERA_WEBHOOK_MASTER_KEY: randomBytes(32).toString('base64') }));
      try {
        await t.context.webhooks.publishEvent(accountId, 'edit.failed', { id: 'job_k', status: 'failed', error: { code: 'internal', message: 'x' } });
        assert.deepEqual(await wrongKey.webhooks.deliverDue(), { delivered: 0, retrying: 1, failed: 0 });
        const [delivery] = (await t.context.webhooks.deliveries(accountId, endpoint.id, { limit: 1 })).deliveries;
        assert.match(delivery!.attemptHistory[0]!.error!, /encrypted by another TESSERA_WEBHOOK_MASTER_KEY/);
        assert.equal(receiver.received.length, 0, 'nothing unsigned was sent');
      } finally {
        await wrongKey.close();
      }
    });

    test('a failing receiver is retried for a day after its event (TESSERA_WEBHOOK_RETRY_FOR_SECONDS by default), then the delivery fails', async () => {
      assert.equal(t.context.config.webhooks.retryForSeconds, 86_400, 'the default, a day');
      const endpoint = await register(['edit.failed']);
      receiver.answers = [503, 503, 503];
      await t.context.webhooks.publishEvent(accountId, 'edit.failed', { id: 'job_day', status: 'failed', error: { code: 'internal', message: 'x' } });
      const backdate = (ms: number) => t.context.database.db.updateTable('webhook_deliveries').set({ created_at: Date.now() - ms }).where('endpoint_id', '=', endpoint.id).execute();
      // Its event a day less a minute old: the next try still falls within the day.
      await backdate(86_400_000 - 60_000);
      assert.deepEqual(await t.context.webhooks.deliverDue(), { delivered: 0, retrying: 1, failed: 0 });
      // A day old: the next try would fall past it, so the delivery fails at this attempt.
      await backdate(86_400_000);
      const [pending] = (await t.context.webhooks.deliveries(accountId, endpoint.id, { limit: 1 })).deliveries;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, pending!.next_attempt_at! - Date.now()) + 20));
      assert.deepEqual(await t.context.webhooks.deliverDue(), { delivered: 0, retrying: 0, failed: 1 });
      const [failed] = (await t.context.webhooks.deliveries(accountId, endpoint.id, { limit: 1 })).deliveries;
      assert.equal(failed!.status, 'failed');
      assert.deepEqual(failed!.attemptHistory.map((a) => [a.attempt, a.status_code]), [[1, 503], [2, 503]]);
    });

    test('with the default settings the waits grow from 5 s, twice as long each time up to 4 h, and fill a day in about 17 attempts', () => {
      const defaults = new WebhooksService(t.context.database.db, new WebhooksRepository(t.context.database.db, t.context.database.dialect), loadConfig({}).webhooks);
      const day = 86_400_000;
      let elapsed = 0;
      const waits: number[] = [];
      for (let attempts = 1; ; attempts++) {
        const wait = defaults.retryDelay(attempts);
        if (elapsed + wait > day) break;
        waits.push(wait);
        elapsed += wait;
      }
      assert.ok(waits[0]! >= 4000 && waits[0]! <= 6000, `the first wait: ${waits[0]} ms`);
      for (let i = 1; i < waits.length; i++) assert.ok(waits[i]! <= 4 * 3_600_000 && (waits[i]! >= waits[i - 1]! * 1.3 || waits[i]! >= 0.8 * 4 * 3_600_000), `wait ${i}: ${waits[i]} after ${waits[i - 1]}`);
      assert.ok(waits.length + 1 >= 14 && waits.length + 1 <= 20, `${waits.length + 1} attempts in a day`);
    });

    test('delivered and failed deliveries are purged after their TTL; pending ones stay', async () => {
      const endpoint = await register(['edit.failed']);
      receiver.answers = [200, 410, 503];
      for (const id of ['a', 'b', 'c']) await t.context.webhooks.publishEvent(accountId, 'edit.failed', { id, status: 'failed', error: { code: 'internal', message: id } });
      await t.context.webhooks.deliverDue();
      assert.equal(await t.context.webhooks.purgeExpired(), 0, 'nothing is old yet');
      const old = Date.now() - t.context.config.webhooks.deliveryTtlSeconds * 1000 - 1000;
      await t.context.database.db.updateTable('webhook_deliveries').set({ finished_at: old, created_at: old }).where('endpoint_id', '=', endpoint.id).where('status', '!=', 'pending').execute();
      assert.equal(await t.context.webhooks.purgeExpired(), 2);
      const left = (await t.context.webhooks.deliveries(accountId, endpoint.id, { limit: 10 })).deliveries;
      assert.deepEqual(left.map((d) => d.status), ['pending']);
      const attempts = await t.context.database.db.selectFrom('webhook_attempts').select('delivery_id').execute();
      assert.ok(attempts.every((a) => a.delivery_id === left[0]!.id), "the purged deliveries' attempts went with them");
    });
  });
}

describe('what a webhook may reach', () => {
  test('private, loopback, link-local and reserved addresses are recognised, public ones are not', () => {
    for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not an address']) {
      assert.ok(isPrivateAddress(address), address);
    }
    for (const address of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) assert.ok(!isPrivateAddress(address), address);
  });

  test('without TESSERA_WEBHOOK_ALLOW_PRIVATE nothing is sent to a local receiver, whatever was registered', async () => {
    const receiver = await startReceiver();
    try {
      const sent = await sendWebhook(receiver.url, {}, '{}', { timeoutMs: 1000, allowPrivate: false });
      assert.equal(sent.statusCode, null);
      assert.match(sent.error!, /private or local address/);
      assert.equal(receiver.received.length, 0);
      const allowed = await sendWebhook(receiver.url, {}, '{}', { timeoutMs: 1000, allowPrivate: true });
      assert.equal(allowed.statusCode, 200);
    } finally {
      await receiver.close();
    }
  });
});
