import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { dialects, freshDatabase } from '../helpers/databases.ts';
import { redBlue } from '../helpers/images.ts';
import { OpenAiTestServer } from '../helpers/openai-server.ts';
import { startServer, type ServerProcess } from '../helpers/server.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

/**
 * Edit jobs through real server processes: one killed (SIGKILL) in the middle of a job and
 * started again (each job's webhook event arrives once, signed), and two replicas on one
 * database racing for the same jobs. On SQLite (two processes on one data dir) and on PostgreSQL.
 */
const KEY = `tsk_${randomBytes(32).toString('base64url')}`;

interface Job {
  id: string;
  status: string;
  attempts: number;
  result?: { file_id: string; name: string };
  error?: { code: string; message: string };
}

function client(url: () => string) {
  const api = (route: string, init: RequestInit = {}) => fetch(`${url()}${route}`, { ...init, headers: { 'x-api-key': KEY, ...(init.headers as Record<string, string>) } });
  return {
    api,
    async upload(): Promise<{ fileId: string; workspaceId: string }> {
      const form = new FormData();
      form.append('file', new Blob([await redBlue()], { type: 'image/png' }), 'source.png');
      const res = await api('/v1/storage/files', { method: 'POST', body: form });
      assert.equal(res.status, 201, await res.clone().text());
      return ((await res.json()) as { files: Array<{ fileId: string; workspaceId: string }> }).files[0]!;
    },
    async submit(source: { fileId: string; workspaceId: string }, prompt: string, name?: string): Promise<Job> {
      const res = await api('/v1/images/edits', {
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer: 'respond-async' },
        body: JSON.stringify({ prompt, workspace_id: source.workspaceId, file_id: source.fileId, ...(name ? { name } : {}) }),
      });
      assert.equal(res.status, 202, await res.clone().text());
      return (await res.json()) as Job;
    },
    async read(id: string): Promise<Job> {
      const res = await api(`/v1/images/edits/${id}`);
      assert.equal(res.status, 200, await res.clone().text());
      return (await res.json()) as Job;
    },
    async until(id: string, done: (job: Job) => boolean, what: string, timeoutMs = 60_000): Promise<Job> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const job = await this.read(id);
        if (done(job)) return job;
        if (Date.now() > deadline) assert.fail(`job ${id} never ${what}: ${JSON.stringify(job)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

const finished = (job: Job) => job.status === 'succeeded' || job.status === 'failed';

for (const dialect of await dialects()) {
  test(`${dialect}: a server killed in the middle of a job; after the restart the queued jobs run, the interrupted provider call is not made again, and each job's event arrives once`, async () => {
    const images = await new OpenAiTestServer().start();
    const receiver = await startReceiver();
    let release!: () => void;
    images.gate = new Promise<void>((resolve) => (release = resolve));
    const database = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-e2e-jobs-'));
    const env = {
      TESSERA_DATA_DIR: dataDir,
      DATABASE_URL: database.databaseUrl,
      TESSERA_API_KEY: KEY,
      TESSERA_CONSOLE_DIR: 'off',
      TESSERA_GENERATIVE_PROVIDER: 'openai',
      TESSERA_GENERATIVE_BASE_URL: images.url,
      TESSERA_GENERATIVE_API_KEY: 'sk-local',
      TESSERA_GENERATIVE_TIMEOUT_MS: '120000',
      // Short, so the takeover comes soon; long enough that a loaded machine's runner keeps its lease.
      TESSERA_EDIT_JOB_LEASE_SECONDS: '6',
      TESSERA_EDIT_JOB_POLL_MS: '50',
      // The webhook receiver listens on 127.0.0.1.
      TESSERA_WEBHOOK_ALLOW_PRIVATE: 'true',
      TESSERA_WEBHOOK_POLL_INTERVAL_MS: '50',
    };
    let server: ServerProcess | undefined;
    const c = client(() => server!.url);
    try {
      server = await startServer({ ...env, TESSERA_EDIT_JOB_CONCURRENCY: '1' });
      const hook = await c.api('/v1/webhooks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url, events: ['edit.succeeded', 'edit.failed'] }) });
      assert.equal(hook.status, 201, await hook.clone().text());
      receiver.secret = ((await hook.json()) as { secret: string }).secret;
      const source = await c.upload();
      const paid = await c.submit(source, 'remove the people in the background');
      await c.until(paid.id, (job) => job.status === 'running' && images.inFlight === 1, 'reached the provider');
      // One runner slot, taken: these wait in the queue.
      const queued = [await c.submit(source, 'rotate 90 degrees', 'after-restart-1.png'), await c.submit(source, 'make it black and white', 'after-restart-2.png')];
      assert.equal((await c.read(queued[0]!.id)).status, 'queued');

      await server.stop('SIGKILL');
      release();
      server = await startServer({ ...env, TESSERA_EDIT_JOB_CONCURRENCY: '2' });

      for (const job of queued) {
        const done = await c.until(job.id, finished, 'finished');
        assert.equal(done.status, 'succeeded', JSON.stringify(done));
        assert.equal(done.attempts, 1);
      }
      // The killed run had called the provider: once its lease ran out the job was taken over and
      // failed, rather than pay for a second call.
      const interrupted = await c.until(paid.id, finished, 'finished');
      assert.equal(interrupted.status, 'failed', JSON.stringify(interrupted));
      assert.equal(interrupted.error?.code, 'provider_unavailable');
      assert.match(interrupted.error!.message, /not repeated/);
      assert.equal(interrupted.attempts, 2);
      assert.equal(images.imageCalls.length, 1, 'one provider call for the one request');
      const files = ((await (await c.api('/v1/storage/files?limit=1000')).json()) as { files: Array<{ name: string }> }).files;
      assert.deepEqual(files.map((f) => f.name).sort(), ['after-restart-1.png', 'after-restart-2.png', 'source.png']);
      // Each job's event, once, verified by the standardwebhooks package.
      await receiver.waitFor(3, 60_000);
      assert.ok(receiver.received.every((r) => r.verifyError === undefined), JSON.stringify(receiver.received.map((r) => r.verifyError)));
      const events = receiver.received.map((r) => r.verified as { type: string; data: { id: string } });
      assert.deepEqual(events.map((e) => `${e.data.id} ${e.type}`).sort(), [`${paid.id} edit.failed`, ...queued.map((job) => `${job.id} edit.succeeded`)].sort());
      assert.equal(await server.stop('SIGTERM'), 0);
      assert.equal(receiver.received.length, 3, 'no event twice');
    } finally {
      release();
      await receiver.close();
      await server?.stop('SIGKILL');
      await images.close();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  test(`${dialect}: two replicas on one database race for 16 jobs: each runs once`, async () => {
    const database = await freshDatabase(dialect);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-e2e-jobs-race-'));
    const env = { TESSERA_DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl, TESSERA_API_KEY: KEY, TESSERA_CONSOLE_DIR: 'off', TESSERA_EDIT_JOB_POLL_MS: '20', TESSERA_EDIT_JOB_CONCURRENCY: '4' };
    const replicas: ServerProcess[] = [];
    try {
      replicas.push(await startServer(env));
      replicas.push(await startServer(env));
      const [a, b] = [client(() => replicas[0]!.url), client(() => replicas[1]!.url)];
      const source = await a.upload();
      const submitted: Job[] = [];
      for (let i = 0; i < 16; i++) submitted.push(await (i % 2 ? a : b).submit(source, i % 3 ? 'mirror it' : 'invert', `race-${i}.png`));
      const jobs = await Promise.all(submitted.map((job, i) => (i % 2 ? b : a).until(job.id, finished, 'finished')));
      for (const job of jobs) {
        assert.equal(job.status, 'succeeded', JSON.stringify(job));
        assert.equal(job.attempts, 1, `claimed once: ${JSON.stringify(job)}`);
      }
      const names = ((await (await b.api('/v1/storage/files?limit=1000')).json()) as { files: Array<{ name: string }> }).files.map((f) => f.name);
      for (let i = 0; i < 16; i++) assert.equal(names.filter((n) => n === `race-${i}.png`).length, 1, `race-${i}.png made once`);
      for (const replica of replicas) assert.equal(await replica.stop('SIGTERM'), 0);
    } finally {
      for (const replica of replicas) await replica.stop('SIGKILL');
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
}
