import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { isUniqueViolation } from '../db/database.ts';
import type { EditJobsRepository, JobOutcome } from '../db/repositories/edit-jobs.repository.ts';
import type { EditJobRow } from '../db/schema.ts';
import { generateSteps } from '../edits/generative/executor.ts';
import type { EditPlan, OutputFormat } from '../edits/plan.ts';
import { AppError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { EditForm, EditFormService } from './edit-form.service.ts';
import { EditsService, type EditAnswer, type EditRequest } from './edits.service.ts';
import type { FilesService } from './files.service.ts';
import { accountIdOf, boundSpace, type Owner } from './owner.ts';
import type { EventPublisher, WebhookEvent } from './webhook-events.ts';

export interface EditJobSettings {
  ttlMs: number;
  leaseMs: number;
  pollMs: number;
  /** Jobs this process runs at once; 0: it only queues them. */
  concurrency: number;
  maxAttempts: number;
  retryDelayMs: number;
  purgeBatch: number;
}

/** What a job runs: the seed's JSON edit of a stored file, or OpenAI's form (its images already stored). */
type JobRequest =
  | { kind: 'json'; request: EditRequest; plan: EditPlan }
  | { kind: 'form'; prompt: string; outputFormat?: OutputFormat; responseFormat: 'b64_json' | 'url'; sourceIds: string[]; plan: EditPlan };

/** A failed job's error: the code, message and details of the error an edit answered with. */
export interface EditJobError {
  code: string;
  message: string;
  [detail: string]: unknown;
}

/** A job as the API shows it (before the route shapes a form job's result). */
export interface EditJob {
  id: string;
  kind: 'json' | 'form';
  status: EditJobRow['status'];
  attempts: number;
  created_at: string;
  updated_at: string;
  finished_at?: string;
  /** A succeeded job's answers: one for a JSON edit, one per image for the form. */
  answers?: EditAnswer[];
  responseFormat?: 'b64_json' | 'url';
  error?: EditJobError;
}

/** Idempotency-Keys of a job's edits: a second run of the job replays the first run's answers. */
const editKey = (jobId: string, index: number) => `tessera-job:${jobId}:${index}`;

/**
 * Edits answered later (`Prefer: respond-async`). Submitting checks everything a synchronous edit
 * checks before its first pixel (the Space, the source, the plan: a refusal is answered at once)
 * and queues a row; runners in every replica claim due jobs from the database, one runner per
 * job, under a lease they renew. Each of a job's edits carries an Idempotency-Key made from the
 * job's id, so its result and the key's answer are committed together: a run that follows a
 * crash replays what the crashed run stored instead of editing again. A run that may have called
 * the generative provider (marked before the call) is never repeated: when it did not get as far
 * as storing its answer, the job fails rather than pay for a second call. A provider outage puts
 * the job back in the queue (backoff) until `maxAttempts` runs were made.
 */
export class EditJobsService {
  private readonly jobs: EditJobsRepository;
  private readonly files: FilesService;
  private readonly edits: EditsService;
  private readonly editForm: EditFormService;
  private readonly settings: EditJobSettings;
  /** Webhook events (edit.succeeded, edit.failed), written in the transaction that ends the job. */
  private readonly events?: EventPublisher;
  /** This process's name in the `runner` column. */
  readonly runnerId = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private stopped = true;

  constructor(
    jobs: EditJobsRepository,
    files: FilesService,
    edits: EditsService,
    editForm: EditFormService,
    settings: EditJobSettings,
    events?: EventPublisher,
  ) {
    this.jobs = jobs;
    this.files = files;
    this.edits = edits;
    this.editForm = editForm;
    this.settings = settings;
    this.events = events;
  }

  private log: { error(object: unknown, message: string): void } = { error: () => {} };

  /** Queues the seed's JSON edit; with an Idempotency-Key, a retry answers the job it made. */
  async submitJson(owner: Owner, request: EditRequest, idempotencyKey?: string): Promise<EditJob> {
    const requestHash = EditsService.hashOf(request);
    if (idempotencyKey !== undefined) {
      const previous = await this.previous(owner, idempotencyKey, requestHash);
      if (previous) return previous;
    }
    const space = await this.files.resolveSpace(owner, request.workspace_id);
    await this.files.get(owner, request.file_id);
    const plan = await this.edits.plan(request);
    try {
      return await this.insert(owner, space.id, { kind: 'json', request, plan }, idempotencyKey, requestHash);
    } catch (error) {
      // A concurrent retry with the same key queued it first.
      if (idempotencyKey !== undefined && isUniqueViolation(error)) {
        const previous = await this.previous(owner, idempotencyKey, requestHash);
        if (previous) return previous;
      }
      throw error;
    }
  }

  /** Queues OpenAI's form: the prompt is planned and the images stored now (a refusal stores nothing). */
  async submitForm(owner: Owner, form: EditForm & { responseFormat: 'b64_json' | 'url' }): Promise<EditJob> {
    const prepared = await this.editForm.prepare(owner, form);
    const request: JobRequest = { kind: 'form', prompt: form.prompt, outputFormat: form.outputFormat, responseFormat: form.responseFormat, sourceIds: prepared.sources.map((s) => s.id), plan: prepared.plan };
    try {
      return await this.insert(owner, prepared.sources[0]!.space_id, request);
    } catch (error) {
      await this.editForm.discard(owner, request.sourceIds);
      throw error;
    }
  }

  /** A job of the caller's (for a Space-bound key: of its Space); else 404. */
  async get(owner: Owner, id: string): Promise<EditJob> {
    const row = await this.jobs.find(accountIdOf(owner), id);
    const bound = boundSpace(owner);
    if (!row || (bound !== undefined && row.space_id !== bound)) throw notFound('edit job', id);
    return viewOf(row);
  }

  private async previous(owner: Owner, key: string, requestHash: string): Promise<EditJob | undefined> {
    const row = await this.jobs.findByIdempotencyKey(accountIdOf(owner), key);
    if (!row) return undefined;
    const bound = boundSpace(owner);
    if (bound !== undefined && row.space_id !== bound) throw new AppError('conflict', `the Idempotency-Key "${key}" was already used for another edit; use a new key`);
    if (row.request_hash !== requestHash) throw new AppError('conflict', `the Idempotency-Key "${key}" was already used with a different request; use a new key for a new edit`);
    return viewOf(row);
  }

  private async insert(owner: Owner, spaceId: string, request: JobRequest, idempotencyKey?: string, requestHash?: string): Promise<EditJob> {
    const now = Date.now();
    const row: EditJobRow = {
      id: newId('edit', now),
      account_id: accountIdOf(owner),
      space_id: spaceId,
      bound_space_id: boundSpace(owner) ?? null,
      kind: request.kind,
      request: JSON.stringify(request),
      idempotency_key: idempotencyKey ?? null,
      request_hash: idempotencyKey !== undefined ? (requestHash ?? null) : null,
      status: 'queued',
      attempts: 0,
      run_after: now,
      runner: null,
      lease_until: null,
      provider_called_at: null,
      result: null,
      error: null,
      created_at: now,
      updated_at: now,
      finished_at: null,
    };
    await this.jobs.insert(row);
    this.kick();
    return viewOf(row);
  }

  /** Starts looking for due jobs every `pollMs` (and at once); failures go to `log`. */
  start(log?: { error(object: unknown, message: string): void }): void {
    if (log) this.log = log;
    if (this.settings.concurrency === 0 || !this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.settings.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Stops claiming jobs, and waits for the runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.polling;
    await Promise.allSettled([...this.running]);
  }

  /** Looks for due jobs now (one look at a time), when this process runs jobs. */
  kick(): void {
    if (this.stopped || this.polling) return;
    this.polling = this.poll()
      .catch((error: unknown) => this.log.error({ err: error }, 'edit jobs: claiming failed'))
      .finally(() => {
        this.polling = undefined;
      });
  }

  private async poll(): Promise<void> {
    while (!this.stopped && this.running.size < this.settings.concurrency) {
      const now = Date.now();
      const row = await this.jobs.claim(this.runnerId, now, now + this.settings.leaseMs);
      if (!row) return;
      const run: Promise<void> = this.run(row)
        .catch((error: unknown) => this.log.error({ err: error, job: row.id }, 'edit job run failed'))
        .finally(() => {
          this.running.delete(run);
          this.kick();
        });
      this.running.add(run);
    }
  }

  /** One run of a claimed job: its outcome, then the job ended with it (unless it went back to the queue or to another runner). */
  private async run(row: EditJobRow): Promise<void> {
    const heartbeat = setInterval(() => {
      const now = Date.now();
      void this.jobs.renewLease(row.id, this.runnerId, now + this.settings.leaseMs, now).catch(() => {});
    }, Math.max(100, Math.floor(this.settings.leaseMs / 3)));
    heartbeat.unref();
    const owner: Owner = { accountId: row.account_id, spaceId: row.bound_space_id };
    const job = JSON.parse(row.request) as JobRequest;
    const requests: EditRequest[] =
      job.kind === 'json'
        ? [job.request]
        : job.sourceIds.map((id) => ({ prompt: job.prompt, workspace_id: row.space_id, file_id: id, output_format: job.outputFormat }));
    try {
      // A failure to end the job (the database) leaves it running: after its lease, another run replays its answers.
      const outcome = await this.outcomeOf(row, owner, job, requests);
      if (outcome?.status === 'succeeded') await this.finish(row, outcome);
      else if (outcome?.status === 'failed') await this.fail(row, owner, job, requests, outcome);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** What a run of the job comes to; undefined when it is not this run's to end (requeued, or taken by another runner). */
  private async outcomeOf(row: EditJobRow, owner: Owner, job: JobRequest, requests: EditRequest[]): Promise<JobOutcome | undefined> {
    const succeeded = (answers: EditAnswer[]): JobOutcome => ({ status: 'succeeded', result: JSON.stringify(answers) });
    try {
      const paid = generateSteps(job.plan).length > 0;
      if (paid && row.provider_called_at !== null) {
        // A run before this one may have called the provider: only what it stored counts.
        const answers = await Promise.all(requests.map((request, i) => this.edits.answered(owner, request, editKey(row.id, i))));
        if (answers.every((answer) => answer !== undefined)) return succeeded(answers);
        return failed({
          code: 'provider_unavailable',
          message: 'the run of this edit stopped while the generative provider was being called, and it is not repeated so that no call is paid twice; submit the edit again',
        });
      }
      if (paid && !(await this.jobs.markProviderCalled(row.id, this.runnerId, Date.now()))) return undefined;
      const answers: EditAnswer[] = [];
      for (const [i, request] of requests.entries()) answers.push(await this.edits.edit(owner, request, editKey(row.id, i), job.plan));
      return succeeded(answers);
    } catch (error) {
      const retryable = error instanceof AppError && error.code === 'provider_unavailable';
      if (retryable && row.attempts < this.settings.maxAttempts) {
        const now = Date.now();
        await this.jobs.requeue(row.id, this.runnerId, now + this.settings.retryDelayMs * 2 ** (row.attempts - 1), JSON.stringify(errorOf(error)), now);
        return undefined;
      }
      if (!(error instanceof AppError)) this.log.error({ err: error, job: row.id }, 'edit job failed');
      return failed(errorOf(error));
    }
  }

  /** Ends a job this runner holds, its event written in the same transaction. */
  private finish(row: EditJobRow, outcome: JobOutcome): Promise<EditJobRow | undefined> {
    const events = this.events;
    return this.jobs.finish(
      row.id,
      this.runnerId,
      outcome,
      Date.now(),
      events &&
        (async (trx, finished) => {
          await events(trx, finished.account_id, [eventOf(viewOf(finished), finished.finished_at ?? Date.now())]);
        }),
    );
  }

  /** Ends a job as failed; a form job's stored images and results go, as a failed form does synchronously. */
  private async fail(row: EditJobRow, owner: Owner, job: JobRequest, requests: EditRequest[], outcome: JobOutcome): Promise<void> {
    const finished = await this.finish(row, outcome);
    if (finished && job.kind === 'form') {
      const made = await Promise.all(requests.map((request, i) => this.edits.answered(owner, request, editKey(row.id, i))));
      await this.editForm.discard(owner, [...made.flatMap((answer) => (answer?.file_id ? [answer.file_id] : [])), ...job.sourceIds]);
    }
  }

  /** Deletes finished jobs past their time to live, a batch per statement; answers how many went. */
  async purgeExpired(now = Date.now()): Promise<number> {
    let purged = 0;
    for (;;) {
      const deleted = await this.jobs.purgeExpired(now - this.settings.ttlMs, this.settings.purgeBatch);
      purged += deleted;
      if (deleted < this.settings.purgeBatch) return purged;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

function failed(error: EditJobError): JobOutcome {
  return { status: 'failed', error: JSON.stringify(error) };
}

/**
 * The webhook event of a job that ended. `result` is the JSON edit's answer (for the OpenAI form,
 * its first image's; `answers` lists every image's).
 */
function eventOf(job: EditJob, at: number): WebhookEvent {
  if (job.status === 'succeeded') {
    const answers = job.answers ?? [];
    return { type: 'edit.succeeded', at, data: { id: job.id, status: 'succeeded', result: { ...answers[0] }, ...(job.kind === 'form' ? { answers } : {}) } };
  }
  return { type: 'edit.failed', at, data: { id: job.id, status: 'failed', error: job.error ?? { code: 'internal', message: 'the edit job failed' } } };
}

function errorOf(error: unknown): EditJobError {
  if (error instanceof AppError) return { ...error.details, code: error.code, message: error.message };
  return { code: 'internal', message: 'internal error' };
}

function viewOf(row: EditJobRow): EditJob {
  const job = JSON.parse(row.request) as JobRequest;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    attempts: row.attempts,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    ...(row.finished_at !== null ? { finished_at: iso(row.finished_at) } : {}),
    ...(row.status === 'succeeded' && row.result !== null ? { answers: JSON.parse(row.result) as EditAnswer[] } : {}),
    ...(job.kind === 'form' ? { responseFormat: job.responseFormat } : {}),
    ...(row.status === 'failed' && row.error !== null ? { error: JSON.parse(row.error) as EditJobError } : {}),
  };
}
