import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import sharp from 'sharp';
import { createContext, type AppContext } from '../../src/context.ts';
import { EditJobsRepository } from '../../src/db/repositories/edit-jobs.repository.ts';
import { EditJobsService, type EditJob, type EditJobSettings } from '../../src/services/edit-jobs.service.ts';
import type { EventPublisher } from '../../src/services/webhook-events.ts';
import { dialects } from '../helpers/databases.ts';
import { errorOf, multipart, startTestApp, upload, type TestApp } from '../helpers/app.ts';
import { redBlue } from '../helpers/images.ts';
import { OpenAiTestServer } from '../helpers/openai-server.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const GENERATIVE = 'remove the people in the background';

const settings: EditJobSettings = { ttlMs: 3_600_000, leaseMs: 30_000, pollMs: 20, concurrency: 3, maxAttempts: 3, retryDelayMs: 0, purgeBatch: 2 };

/**
 * A runner of its own over a context's database: the jobs it ends are recorded (their events, as
 * the transaction that ends them writes them), and their events published as the server does.
 */
function runnerOver(context: AppContext, finished: string[], overrides: Partial<EditJobSettings> = {}, publish: EventPublisher = context.webhooks.publish): EditJobsService {
  return new EditJobsService(new EditJobsRepository(context.database.db, context.database.dialect), context.files, context.edits, context.editForm, { ...settings, ...overrides }, (trx, accountId, events) => {
    finished.push(...events.map((event) => (event.data as { id: string }).id));
    return publish(trx, accountId, events);
  });
}

for (const dialect of await dialects()) {
  describe(`edit jobs (Prefer: respond-async) on ${dialect}`, () => {
    let server: OpenAiTestServer;
    let t: TestApp;
    let space: string;
    let source: string;
    let accountId: string;
    const runners: EditJobsService[] = [];

    before(async () => {
      server = await new OpenAiTestServer().start();
      t = await startTestApp(dialect, {
        TESSERA_GENERATIVE_PROVIDER: 'openai',
        TESSERA_GENERATIVE_BASE_URL: server.url,
        TESSERA_GENERATIVE_API_KEY: 'sk-test',
        TESSERA_GENERATIVE_TIMEOUT_MS: '2000',
        // The app's own runner stays off: each test starts the runners it races.
        TESSERA_EDIT_JOB_CONCURRENCY: '0',
        // The webhook receiver of these tests listens on 127.0.0.1.
        TESSERA_WEBHOOK_ALLOW_PRIVATE: 'true',
      });
      space = (await t.app.inject({ url: '/v1/spaces', headers: { 'x-api-key': t.key } })).json().spaces[0].id;
      accountId = (await t.app.inject({ url: '/v1/account', headers: { 'x-api-key': t.key } })).json().id;
      source = (await upload(t, [{ name: 'street.png', content: await redBlue(), type: 'image/png' }])).json().files[0].fileId;
    });
    after(async () => {
      await t.close();
      await server.close();
    });
    beforeEach(() => {
      server.imageMode = 'invert';
    });
    afterEach(async () => {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
    });

    const submit = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { 'x-api-key': t.key, prefer: 'respond-async', ...headers }, payload: { workspace_id: space, file_id: source, ...body } });
    const read = async (id: string, key = t.key) => t.app.inject({ url: `/v1/images/edits/${id}`, headers: { 'x-api-key': key } });
    const settled = async (id: string, key = t.key) => {
      for (let i = 0; i < 500; i++) {
        const job = (await read(id, key)).json();
        if (job.status === 'succeeded' || job.status === 'failed') return job;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.fail(`job ${id} did not finish`);
    };
    const start = (overrides: Partial<EditJobSettings> = {}, finished: string[] = []) => {
      const runner = runnerOver(t.context, finished, overrides);
      runners.push(runner);
      runner.start();
      return runner;
    };
    const repository = () => new EditJobsRepository(t.context.database.db, t.context.database.dialect);

    test('202 with the job and Location at once; the job runs to the answer the edit gives at once', async () => {
      const res = await submit({ prompt: 'rotate 90 degrees' });
      assert.equal(res.statusCode, 202, res.body);
      const job = res.json();
      assert.match(job.id, /^edit_[0-9A-Z]{26}$/);
      assert.equal(job.status, 'queued');
      assert.equal(job.object, 'edit_job');
      assert.equal(res.headers.location, `/v1/images/edits/${job.id}`);
      assert.equal(res.headers['preference-applied'], 'respond-async');
      const finished: string[] = [];
      start({}, finished);
      const done = await settled(job.id);
      assert.equal(done.status, 'succeeded', JSON.stringify(done));
      assert.equal(done.attempts, 1);
      assert.deepEqual(done.result.operations, [{ op: 'rotate', degrees: 90, background: '#000000' }].map((o) => ({ ...o, ...done.result.operations[0] })));
      assert.deepEqual([done.result.width, done.result.height], [100, 200]);
      const bytes = (await t.app.inject({ url: `/v1/storage/files/${done.result.file_id}/content`, headers: { 'x-api-key': t.key } })).rawPayload;
      assert.equal((await sharp(bytes).metadata()).width, 100);
      // The hook runs after the row says so: once the runner stopped, it has run.
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      assert.deepEqual(finished, [job.id], 'the finish hook, once');
    });

    test('what a synchronous edit refuses is refused at once (nothing queued); a dry run answers at once', async () => {
      const refused = await submit({ prompt: 'make it fabulous' });
      assert.equal(refused.statusCode, 422);
      assert.equal(errorOf(refused).code, 'prompt_not_understood');
      const missing = await submit({ prompt: 'invert', file_id: 'file_01J00000000000000000000000' });
      assert.equal(missing.statusCode, 404);
      const dry = await submit({ prompt: 'invert', dry_run: true });
      assert.equal(dry.statusCode, 200);
      assert.equal(dry.json().dry_run, true);
      const rows = await t.context.database.db.selectFrom('edit_jobs').select('id').where('status', '=', 'queued').execute();
      assert.equal(rows.length, 0);
    });

    test("another account's job is 404; an Idempotency-Key names one job", async () => {
      const first = (await submit({ prompt: 'invert' }, { 'idempotency-key': 'job-key-1' })).json();
      const again = await submit({ prompt: 'invert' }, { 'idempotency-key': 'job-key-1' });
      assert.equal(again.statusCode, 202);
      assert.equal(again.json().id, first.id);
      const other = await submit({ prompt: 'mirror it' }, { 'idempotency-key': 'job-key-1' });
      assert.equal(other.statusCode, 409);
      assert.equal((await read(first.id, t.otherKey)).statusCode, 404);
      assert.equal((await read('edit_01J00000000000000000000000')).statusCode, 404);
      start();
      assert.equal((await settled(first.id)).status, 'succeeded');
    });

    test("the OpenAI form with Prefer: its images stored at once, its result in OpenAI's shape when read", async () => {
      const { body, headers } = multipart([{ name: 'a.png', content: await redBlue(), type: 'image/png', field: 'image' }], { prompt: 'invert' });
      const res = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { ...headers, authorization: `Bearer ${t.key}`, prefer: 'respond-async' }, payload: body });
      assert.equal(res.statusCode, 202, res.body);
      start();
      const done = await settled(res.json().id);
      assert.equal(done.status, 'succeeded', JSON.stringify(done));
      const bytes = Buffer.from(done.result.data[0].b64_json, 'base64');
      const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([...data.subarray(0, 3)], [0, 255, 255]);
    });

    test('an OpenAI-form job of two images with response_format=url: a link per result, made when read; a failed form job deletes its images', async () => {
      const count = async () => (await t.app.inject({ url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': t.key } })).json().files.length as number;
      const small = await sharp(await redBlue()).resize(50, 25).png().toBuffer();
      const submitForm = async (fields: Record<string, string>) => {
        const { body, headers } = multipart([{ name: 'one.png', content: await redBlue(), type: 'image/png', field: 'image' }, { name: 'two.png', content: small, type: 'image/png', field: 'image' }], fields);
        const res = await t.app.inject({ method: 'POST', url: '/v1/images/edits', headers: { ...headers, authorization: `Bearer ${t.key}`, prefer: 'respond-async' }, payload: body });
        assert.equal(res.statusCode, 202, res.body);
        return res.json().id as string;
      };
      const before = await count();
      const linked = await submitForm({ prompt: 'invert', response_format: 'url' });
      start();
      const done = await settled(linked);
      assert.equal(done.status, 'succeeded', JSON.stringify(done));
      assert.equal(done.result.data.length, 2);
      for (const [i, datum] of (done.result.data as Array<{ url: string; b64_json?: string }>).entries()) {
        assert.equal(datum.b64_json, undefined);
        const link = new URL(datum.url);
        const download = await t.app.inject({ url: `${link.pathname}${link.search}` });
        assert.equal(download.statusCode, 200, `result ${i} downloads without a key`);
        const { data, info } = await sharp(download.rawPayload).raw().toBuffer({ resolveWithObject: true });
        assert.equal(info.width, [200, 50][i]);
        assert.deepEqual([...data.subarray(0, 3)], [0, 255, 255], 'red inverted is cyan');
      }
      assert.equal(await count(), before + 4, 'two sources and two results');
      await Promise.all(runners.splice(0).map((r) => r.stop()));

      server.imageMode = 'refuse';
      const refused = await submitForm({ prompt: GENERATIVE });
      assert.equal(await count(), before + 6, 'its images are stored at once');
      start();
      const failed = await settled(refused);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error.code, 'unsupported_edit');
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      assert.equal(await count(), before + 4, 'the failed job deleted its images');
    });

    test('a job whose runner died (its lease ran out) is taken over and run once more, replaying what was stored', async () => {
      const job = (await submit({ prompt: 'mirror it' })).json();
      // A runner claims it, and dies: its lease is already over.
      const claimed = await repository().claim('dead-runner', Date.now(), Date.now() - 1);
      assert.equal(claimed?.id, job.id);
      const finished: string[] = [];
      start({}, finished);
      const done = await settled(job.id);
      assert.equal(done.status, 'succeeded');
      assert.equal(done.attempts, 2);
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      assert.deepEqual(finished, [job.id]);
    });

    test("a job's end and its event commit together: a run that dies writing the event ends nothing; the next run ends the job with one event, delivered signed", async () => {
      const receiver = await startReceiver();
      const { endpoint, secret } = await t.context.webhooks.create(accountId, { url: receiver.url, events: ['edit.succeeded', 'edit.failed'] });
      receiver.secret = secret;
      const outbox = () => t.context.database.db.selectFrom('webhook_deliveries').select(['event_type', 'payload']).where('endpoint_id', '=', endpoint.id).execute();
      try {
        const job = (await submit({ prompt: 'mirror it', name: 'one-event.png' })).json();
        // The first runner's process dies once the event's rows are written, before the commit.
        let died!: () => void;
        const dying = new Promise<void>((resolve) => (died = resolve));
        const first = runnerOver(t.context, [], {}, async (trx, account, events) => {
          await t.context.webhooks.publish(trx, account, events);
          died();
          throw new Error('the process dies here');
        });
        runners.push(first);
        first.start();
        await dying;
        await first.stop();
        const row = await t.context.database.db.selectFrom('edit_jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
        assert.deepEqual([row.status, row.finished_at, row.runner], ['running', null, first.runnerId], 'the job did not end without its event');
        assert.deepEqual(await outbox(), [], 'nor was its event kept without the end');
        // Its lease runs out: another runner replays what the first stored and ends the job, with its event.
        await t.context.database.db.updateTable('edit_jobs').set({ lease_until: 0 }).where('id', '=', job.id).execute();
        const finished: string[] = [];
        start({}, finished);
        const done = await settled(job.id);
        assert.equal(done.status, 'succeeded', JSON.stringify(done));
        assert.equal(done.attempts, 2);
        await Promise.all(runners.splice(0).map((r) => r.stop()));
        assert.deepEqual(finished, [job.id]);
        const events = await outbox();
        assert.equal(events.length, 1, 'one event');
        const payload = JSON.parse(events[0]!.payload);
        assert.equal(events[0]!.event_type, 'edit.succeeded');
        assert.deepEqual([payload.data.id, payload.data.status, payload.data.result.file_id], [job.id, 'succeeded', done.result.file_id]);
        const files = (await t.app.inject({ url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': t.key } })).json().files as Array<{ name: string }>;
        assert.equal(files.filter((f) => f.name === 'one-event.png').length, 1, 'the result made once');
        await t.context.webhooks.deliverDue();
        await receiver.waitFor(1);
        assert.equal(receiver.received.length, 1);
        assert.equal(receiver.received[0]!.verifyError, undefined, 'the standardwebhooks package verifies it');
        assert.deepEqual((receiver.received[0]!.verified as { type: string; data: { id: string } }).data.id, job.id);
      } finally {
        await t.context.webhooks.delete(accountId, endpoint.id);
        await receiver.close();
      }
    });

    test('a taken-over generative job that may have called the provider is not called again: its stored answer, or a failure', async () => {
      // The dead runner called the provider and stored the answer, then died before marking the job.
      const stored = (await submit({ prompt: GENERATIVE })).json();
      let row = (await repository().claim('dead-runner', Date.now(), Date.now() + 600_000))!;
      assert.equal(row.id, stored.id);
      await repository().markProviderCalled(row.id, 'dead-runner', Date.now());
      const answer = await t.context.edits.edit({ accountId: row.account_id }, JSON.parse(row.request).request, `tessera-job:${row.id}:0`);
      const calls = server.imageCalls.length;
      // The dead runner called the provider and died before storing anything.
      const lost = (await submit({ prompt: GENERATIVE })).json();
      row = (await repository().claim('dead-runner-2', Date.now(), Date.now() + 600_000))!;
      assert.equal(row.id, lost.id);
      await repository().markProviderCalled(row.id, 'dead-runner-2', Date.now());
      // Both leases run out.
      await t.context.database.db.updateTable('edit_jobs').set({ lease_until: 0 }).where('id', 'in', [stored.id, lost.id]).execute();
      start();
      const replayed = await settled(stored.id);
      assert.equal(replayed.status, 'succeeded');
      assert.equal(replayed.result.file_id, answer.file_id);
      const failed = await settled(lost.id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error.code, 'provider_unavailable');
      assert.match(failed.error.message, /not repeated so that no call is paid twice/);
      assert.equal(server.imageCalls.length, calls, 'no provider call after the takeovers');
    });

    test('a provider outage is retried within TESSERA_EDIT_JOB_MAX_ATTEMPTS; a refusal by its policy is not', async () => {
      server.imageMode = 'fail';
      const calls = server.imageCalls.length;
      const outage = (await submit({ prompt: GENERATIVE })).json();
      const finished: string[] = [];
      start({}, finished);
      const failed = await settled(outage.id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error.code, 'provider_unavailable');
      assert.equal(failed.attempts, 3);
      const made = server.imageCalls.length - calls;
      assert.ok(made >= 3 && made % 3 === 0, `the same calls in each of the 3 runs (the provider's own retries included): ${made}`);
      server.imageMode = 'refuse';
      const refused = (await submit({ prompt: GENERATIVE })).json();
      const done = await settled(refused.id);
      assert.equal(done.status, 'failed');
      assert.equal(done.error.code, 'unsupported_edit');
      assert.equal(done.error.reason, 'content_policy');
      assert.equal(done.attempts, 1);
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      assert.deepEqual(finished, [outage.id, refused.id], 'their edit.failed events, each with its end (none for the retries)');
    });

    test('the retries of a provider outage are taken from the daily budget: when it is spent, the job fails with 429 rate_limited', async () => {
      server.imageMode = 'fail';
      // A server whose budget is 2 provider calls a day, on the same database; the other account, whose budget is untouched.
      const frugal = await createContext({ ...t.context.config, generative: { ...t.context.config.generative!, dailyBudget: 2 } });
      try {
        const picture = (await upload(t, [{ name: 'frugal.png', content: await redBlue(), type: 'image/png' }], { key: t.otherKey })).json().files[0];
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/images/edits',
          headers: { 'x-api-key': t.otherKey, prefer: 'respond-async' },
          payload: { prompt: GENERATIVE, workspace_id: picture.workspaceId, file_id: picture.fileId },
        });
        assert.equal(res.statusCode, 202, res.body);
        const calls = server.imageCalls.length;
        const runner = runnerOver(frugal, []);
        runners.push(runner);
        runner.start();
        const done = await settled(res.json().id, t.otherKey);
        assert.equal(done.status, 'failed', JSON.stringify(done));
        assert.equal(done.error.code, 'rate_limited');
        assert.match(done.error.message, /TESSERA_GENERATIVE_DAILY_BUDGET/);
        assert.equal(done.attempts, 3, 'two runs called the provider; the third found the budget spent');
        const made = server.imageCalls.length - calls;
        assert.ok(made >= 2 && made % 2 === 0, `the same calls in each of the 2 paid runs: ${made}`);
      } finally {
        await Promise.all(runners.splice(0).map((r) => r.stop()));
        await frugal.close();
      }
    });

    test('two runners on two connections race for 12 jobs: each job runs once, each result is made once', async () => {
      const second = await createContext(t.context.config);
      try {
        const ids: string[] = [];
        for (let i = 0; i < 12; i++) ids.push((await submit({ prompt: i % 2 ? 'invert' : 'mirror it', name: `race-${i}.png` })).json().id);
        const finished: string[] = [];
        const a = runnerOver(t.context, finished);
        const b = runnerOver(second, finished);
        runners.push(a, b);
        a.start();
        b.start();
        const jobs = await Promise.all(ids.map((id) => settled(id)));
        await Promise.all(runners.map((r) => r.stop()));
        assert.ok(jobs.every((job) => job.status === 'succeeded' && job.attempts === 1), JSON.stringify(jobs.filter((j) => j.attempts !== 1)));
        assert.deepEqual([...finished].sort(), [...ids].sort(), 'each job finished once');
        const files = (await t.app.inject({ url: '/v1/storage/files?limit=1000', headers: { 'x-api-key': t.key } })).json().files as Array<{ name: string }>;
        for (let i = 0; i < 12; i++) assert.equal(files.filter((f) => f.name === `race-${i}.png`).length, 1, `race-${i}.png made once`);
      } finally {
        await Promise.all(runners.splice(0).map((r) => r.stop()));
        await second.close();
      }
    });

    test('finished jobs past TESSERA_EDIT_JOB_TTL_SECONDS are purged in batches; queued ones stay', async () => {
      const done = (await submit({ prompt: 'invert' })).json();
      start();
      await settled(done.id);
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      const queued = (await submit({ prompt: 'invert' })).json();
      const purger = runnerOver(t.context, [], { concurrency: 0 });
      const purged = await purger.purgeExpired(Date.now() + settings.ttlMs + 1);
      assert.ok(purged >= 1);
      assert.equal((await read(done.id)).statusCode, 404);
      assert.equal((await read(queued.id)).statusCode, 200);
    });
  });
}

export type { EditJob };
