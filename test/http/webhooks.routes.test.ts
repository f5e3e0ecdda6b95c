import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Value } from 'typebox/value';
import { webhookEnvelope, type WebhookEventType } from '../../src/services/webhook-events.ts';
import { startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { dialects } from '../helpers/databases.ts';
import { redBlue } from '../helpers/images.ts';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';

/** The settings of these tests: the receiver is on 127.0.0.1, and retries come quickly. */
const ENV = { TESSERA_WEBHOOK_ALLOW_PRIVATE: 'true', TESSERA_WEBHOOK_RETRY_BASE_MS: '40', TESSERA_WEBHOOK_TIMEOUT_MS: '2000' };

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  next_attempt_at: string | null;
  finished_at: string | null;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  attempts: Array<{ attempt: number; status_code: number | null; error: string | null; duration_ms: number; started_at: string }>;
}

for (const dialect of await dialects()) {
  describe(`webhooks on ${dialect}`, () => {
    let t: TestApp;
    let receiver: WebhookReceiver;
    const as = (key: string) => ({ 'x-api-key': key });

    before(async () => {
      t = await startTestApp(dialect, ENV);
    });
    after(async () => {
      await t.close();
    });
    beforeEach(async () => {
      // Each test starts with no endpoint of alice's and a fresh receiver.
      for (const w of (await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: as(t.key) })).json().webhooks) {
        await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${w.id}`, headers: as(t.key) });
      }
      await receiver?.close();
      receiver = await startReceiver();
    });
    after(() => receiver?.close());

    async function register(body: Record<string, unknown> = {}, key = t.key): Promise<{ id: string; secret: string }> {
      const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: as(key), payload: { url: receiver.url, ...body } });
      assert.equal(res.statusCode, 201, res.body);
      receiver.secret = res.json().secret;
      return res.json();
    }
    const deliveries = async (id: string, query = ''): Promise<Delivery[]> => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/webhooks/${id}/deliveries${query}`, headers: as(t.key) });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().deliveries;
    };
    /** Runs the deliverer until nothing is due now. */
    const deliver = () => t.context.webhooks.deliverDue();
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    test('an endpoint is registered with its secret shown once, listed, read and deleted', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: as(t.key), payload: { url: receiver.url, events: ['file.created'], description: 'my receiver' } });
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json();
      assert.match(created.id, /^whk_[0-9A-Z]{26}$/);
      assert.deepEqual(created.events, ['file.created']);
      assert.equal(created.description, 'my receiver');
      assert.match(created.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
      assert.equal(Buffer.from(created.secret.slice('whsec_'.length), 'base64').length, 32, 'a 256-bit key (Standard Webhooks: 24 to 64 bytes)');

      const listed = (await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: as(t.key) })).json().webhooks;
      assert.deepEqual(listed.map((w: { id: string }) => w.id), [created.id]);
      const one = (await t.app.inject({ method: 'GET', url: `/v1/webhooks/${created.id}`, headers: as(t.key) })).json();
      assert.equal(one.url, receiver.url);
      assert.equal(one.secret, undefined, 'the secret is never shown again');
      assert.doesNotMatch(JSON.stringify(listed), /whsec_/);

      const all = (await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: as(t.key), payload: { url: receiver.url } })).json();
      assert.deepEqual(all.events, ['file.created', 'file.deleted', 'edit.succeeded', 'edit.failed'], 'no events: every event');
      assert.notEqual(all.secret, created.secret, 'a secret per endpoint');

      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${created.id}`, headers: as(t.key) })).statusCode, 204);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/webhooks/${created.id}`, headers: as(t.key) })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${created.id}`, headers: as(t.key) })).statusCode, 404);
    });

    test('bad registrations are 400 and store nothing', async () => {
      const bad: Array<[unknown, RegExp]> = [
        [{ url: 'ftp://example.com/hook' }, /http:\/\/ or https:\/\//],
        [{ url: 'not a url' }, /not a URL/],
        [{ url: 'https://user:pw@example.com/hook' }, /user name or password/],
        [{ url: receiver.url, events: ['file.renamed'] }, /events/],
        [{ url: receiver.url, events: [] }, /events/],
        [{ url: receiver.url, extra: 1 }, /additional properties/],
        [{}, /url/],
      ];
      for (const [payload, message] of bad) {
        const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: as(t.key), payload: payload as object });
        assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
        assert.equal(res.json().error.code, 'invalid_request');
        assert.match(res.json().error.message, message);
      }
      assert.deepEqual((await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: as(t.key) })).json().webhooks, []);
    });

    test("another account's webhook is 404 on every route, and a Space-bound key may not manage webhooks", async () => {
      const { id } = await register();
      for (const [method, url] of [['GET', `/v1/webhooks/${id}`], ['DELETE', `/v1/webhooks/${id}`], ['GET', `/v1/webhooks/${id}/deliveries`]] as const) {
        const res = await t.app.inject({ method, url, headers: as(t.otherKey) });
        assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
        assert.equal(res.json().error.code, 'not_found');
      }
      assert.deepEqual((await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: as(t.otherKey) })).json().webhooks, [], "bob lists none of alice's");
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/webhooks/${id}`, headers: as(t.key) })).statusCode, 200, 'still there');

      // Bob's uploads are not delivered to alice's endpoint.
      await upload(t, [{ name: 'bob.txt', content: 'bob' }], { key: t.otherKey });
      await deliver();
      assert.equal(receiver.received.length, 0);

      const space = (await t.app.inject({ method: 'GET', url: '/v1/spaces', headers: as(t.key) })).json().spaces[0].id;
      const bound = (await t.app.inject({ method: 'POST', url: '/v1/keys', headers: as(t.key), payload: { scope: 'admin', workspace_id: space } })).json().key;
      for (const [method, url] of [['POST', '/v1/webhooks'], ['GET', '/v1/webhooks'], ['GET', `/v1/webhooks/${id}`], ['GET', `/v1/webhooks/${id}/deliveries`], ['DELETE', `/v1/webhooks/${id}`]] as const) {
        const res = await t.app.inject({ method, url, headers: as(bound), ...(method === 'POST' ? { payload: { url: receiver.url } } : {}) });
        assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
        assert.match(res.json().error.message, /bound to one Space/);
      }
    });

    test('file.created and file.deleted are delivered, signed as Standard Webhooks says', async () => {
      const { id } = await register();
      const uploaded = (await upload(t, [{ name: 'cat.png', content: await redBlue(), type: 'image/png' }])).json().files[0];
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${uploaded.fileId}`, headers: as(t.key) })).statusCode, 204);
      assert.deepEqual(await deliver(), { delivered: 2, retrying: 0, failed: 0 });
      assert.equal(receiver.received.length, 2);
      const [created, deleted] = receiver.received;
      for (const request of [created!, deleted!]) {
        assert.equal(request.verifyError, undefined, 'the standardwebhooks package verifies the signature');
        assert.match(request.headers['webhook-id']!, /^msg_[0-9A-Z]{26}$/);
        assert.match(request.headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]+=*$/);
        assert.equal(request.headers['content-type'], 'application/json');
        const body = request.verified as { type: WebhookEventType };
        assert.ok(Value.Check(webhookEnvelope(body.type), body), `${body.type} matches its schema: ${request.body}`);
      }
      const createdBody = created!.verified as Delivery['payload'];
      assert.equal(createdBody.type, 'file.created');
      assert.deepEqual(
        { ...createdBody.data },
        { fileId: uploaded.fileId, workspaceId: uploaded.workspaceId, name: 'cat.png', mimeType: 'image/png', sizeBytes: uploaded.sizeBytes, createdAt: uploaded.createdAt, blobId: uploaded.metadata.blobId },
      );
      const deletedBody = deleted!.verified as Delivery['payload'];
      assert.equal(deletedBody.type, 'file.deleted');
      assert.equal(deletedBody.data.fileId, uploaded.fileId);

      // A body altered on the way fails the same library's check.
      const tampered = created!.body.replace('cat.png', 'dog.png');
      const { Webhook } = await import('standardwebhooks');
      assert.throws(() => new Webhook(receiver.secret!).verify(tampered, created!.headers), /signature/i);

      const history = await deliveries(id);
      assert.deepEqual(history.map((d) => [d.event_type, d.status, d.attempts.length, d.attempts[0]?.status_code]), [['file.deleted', 'delivered', 1, 200], ['file.created', 'delivered', 1, 200]]);
      assert.equal(history[1]!.event_id, created!.headers['webhook-id']);
      assert.deepEqual(history[1]!.payload, createdBody);
      assert.equal(history[0]!.next_attempt_at, null);
      assert.ok(history[0]!.finished_at);
      assert.deepEqual(await deliver(), { delivered: 0, retrying: 0, failed: 0 }, 'nothing is sent twice');
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.match(metrics, /tessera_webhook_attempts_total\{outcome="delivered"\} [1-9]/);
    });

    test('a receiver that fails, then times out, then succeeds: retried with backoff, every attempt recorded', async () => {
      const { id } = await register({ events: ['file.created'] });
      receiver.answers = [503, 'hang'];
      receiver.hangMs = 2500;
      await upload(t, [{ name: 'a.txt', content: 'a' }]);
      assert.deepEqual(await deliver(), { delivered: 0, retrying: 1, failed: 0 });
      let [delivery] = await deliveries(id);
      assert.equal(delivery!.status, 'pending');
      assert.deepEqual(delivery!.attempts.map((a) => [a.attempt, a.status_code, a.error]), [[1, 503, 'answered 503']]);
      assert.ok(Date.parse(delivery!.next_attempt_at!) > Date.parse(delivery!.attempts[0]!.started_at), 'the next attempt waits');

      // Due after the backoff (40 ms ± 20%).
      await sleep(Math.max(0, Date.parse(delivery!.next_attempt_at!) - Date.now()) + 20);
      assert.deepEqual(await deliver(), { delivered: 0, retrying: 1, failed: 0 }, 'the second attempt times out');
      [delivery] = await deliveries(id);
      assert.equal(delivery!.attempts[1]!.status_code, null);
      assert.match(delivery!.attempts[1]!.error!, /no answer within 2000 ms/);
      assert.ok(delivery!.attempts[1]!.duration_ms >= 1990, `${delivery!.attempts[1]!.duration_ms}`);
      const second = Date.parse(delivery!.next_attempt_at!) - Date.parse(delivery!.attempts[1]!.started_at);
      assert.ok(second >= 64, `the second wait is about twice the first: ${second} ms`);

      await sleep(Math.max(0, Date.parse(delivery!.next_attempt_at!) - Date.now()) + 20);
      assert.deepEqual(await deliver(), { delivered: 1, retrying: 0, failed: 0 });
      [delivery] = await deliveries(id);
      assert.equal(delivery!.status, 'delivered');
      assert.deepEqual(delivery!.attempts.map((a) => [a.attempt, a.status_code]), [[1, 503], [2, null], [3, 200]]);
      assert.equal(receiver.received.length, 3);
      assert.ok(receiver.received.every((r) => r.verifyError === undefined), 'every attempt is signed anew and verifies');
      assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1, 'the same webhook-id at every attempt');
    });

    test('410 Gone and a retry window of 0 end a delivery as failed', async () => {
      const { id } = await register({ events: ['file.created'] });
      receiver.answers = [410];
      await upload(t, [{ name: 'b.txt', content: 'b' }]);
      assert.deepEqual(await deliver(), { delivered: 0, retrying: 0, failed: 1 });
      const [gone] = await deliveries(id);
      assert.equal(gone!.status, 'failed');
      assert.equal(gone!.next_attempt_at, null);
      assert.deepEqual(gone!.attempts.map((a) => a.status_code), [410]);
    });

    test('an endpoint gets only the events it asked for; a refused upload publishes nothing', async () => {
      const { id } = await register({ events: ['file.deleted'] });
      const file = (await upload(t, [{ name: 'c.txt', content: 'c' }])).json().files[0];
      await deliver();
      assert.equal(receiver.received.length, 0, 'no file.created');
      await t.app.inject({ method: 'DELETE', url: `/v1/storage/files/${file.fileId}`, headers: as(t.key) });
      await deliver();
      assert.deepEqual(receiver.received.map((r) => (r.verified as { type: string }).type), ['file.deleted']);

      // Over the quota, the upload's transaction rolls back, and its event with it.
      const q = await startTestApp(dialect, { ...ENV, TESSERA_DEFAULT_QUOTA_FILES: '1' });
      try {
        await q.app.inject({ method: 'POST', url: '/v1/webhooks', headers: as(q.key), payload: { url: receiver.url } });
        assert.equal((await upload(q, [{ name: '1.txt', content: '1' }])).statusCode, 201);
        assert.equal((await upload(q, [{ name: '2.txt', content: '2' }])).statusCode, 413);
        assert.deepEqual(await q.context.webhooks.deliverDue(), { delivered: 1, retrying: 0, failed: 0 }, 'only the stored file was told of');
      } finally {
        await q.close();
      }
      assert.equal((await deliveries(id)).length, 1);
    });

    test('edits and Space deletions publish their files', async () => {
      await register();
      const source = (await upload(t, [{ name: 'p.png', content: await redBlue(), type: 'image/png' }])).json().files[0];
      const edit = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: as(t.key), payload: { prompt: 'make it black and white', workspace_id: source.workspaceId, file_id: source.fileId } });
      assert.equal(edit.statusCode, 200, edit.body);
      const space = (await t.app.inject({ method: 'POST', url: '/v1/spaces', headers: as(t.key), payload: { name: `doomed ${Date.now()}` } })).json().id;
      const doomed = (await upload(t, [{ name: 'x.txt', content: 'x' }, { name: 'y.txt', content: 'y' }], { fields: { workspace_id: space } })).json().files;
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${space}?force=true`, headers: as(t.key) })).statusCode, 204);
      await deliver();
      const seen = receiver.received.map((r) => `${(r.verified as Delivery['payload']).type} ${(r.verified as Delivery['payload']).data.fileId}`).sort();
      const expected = [
        `file.created ${source.fileId}`,
        `file.created ${edit.json().file_id}`,
        ...doomed.map((f: { fileId: string }) => `file.created ${f.fileId}`),
        ...doomed.map((f: { fileId: string }) => `file.deleted ${f.fileId}`),
      ].sort();
      assert.deepEqual(seen, expected);
    });

    test('deliveries are paginated like the files', async () => {
      const { id } = await register({ events: ['file.created'] });
      for (let i = 0; i < 5; i++) await upload(t, [{ name: `${i}.txt`, content: `${i}` }]);
      const seen: string[] = [];
      let cursor = '';
      let pages = 0;
      do {
        const res = (await t.app.inject({ method: 'GET', url: `/v1/webhooks/${id}/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ''}`, headers: as(t.key) })).json();
        assert.ok(res.deliveries.length <= 2);
        seen.push(...res.deliveries.map((d: Delivery) => d.id));
        cursor = res.pagination.cursor;
        assert.equal(res.pagination.hasMore, cursor !== '');
        pages++;
      } while (cursor);
      assert.equal(pages, 3);
      assert.equal(new Set(seen).size, 5);
      assert.deepEqual(seen, (await deliveries(id)).map((d) => d.id), 'newest first, each once');
      for (const query of ['?cursor=nonsense', '?limit=0', '?limit=1001']) {
        const res = await t.app.inject({ method: 'GET', url: `/v1/webhooks/${id}/deliveries${query}`, headers: as(t.key) });
        assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      }
      await deliver();
    });

    test('an account may register TESSERA_WEBHOOK_MAX_ENDPOINTS endpoints, no more', async () => {
      const c = await startTestApp(dialect, { ...ENV, TESSERA_WEBHOOK_MAX_ENDPOINTS: '2' });
      try {
        const post = () => c.app.inject({ method: 'POST', url: '/v1/webhooks', headers: as(c.key), payload: { url: receiver.url } });
        const answers = await Promise.all([post(), post(), post(), post()]);
        assert.deepEqual(answers.map((r) => r.statusCode).sort(), [201, 201, 409, 409], 'concurrent registrations stop at the cap');
        assert.match(answers.find((r) => r.statusCode === 409)!.json().error.message, /TESSERA_WEBHOOK_MAX_ENDPOINTS/);
        assert.equal((await c.app.inject({ method: 'GET', url: '/v1/webhooks', headers: as(c.key) })).json().webhooks.length, 2);
      } finally {
        await c.close();
      }
    });
  });
}

describe('webhooks without TESSERA_WEBHOOK_ALLOW_PRIVATE', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('sqlite');
  });
  after(() => t.close());

  test('private, loopback and local addresses are refused; a public one is taken', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'http://api.localhost/hook', 'http://10.1.2.3/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/hook', 'http://[::ffff:127.0.0.1]/hook', 'http://192.168.1.1/', 'http://intranet/hook']) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: { 'x-api-key': t.key }, payload: { url } });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.match(res.json().error.message, /private or local address/);
    }
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: { 'x-api-key': t.key }, payload: { url: 'https://hooks.example.com/tessera' } });
    assert.equal(res.statusCode, 201, res.body);
  });
});
