import { randomBytes, randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { WebhooksConfig } from '../config.ts';
import type { ClaimedDelivery, WebhooksRepository } from '../db/repositories/webhooks.repository.ts';
import type { NewWebhookDeliveryRow, Schema, WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from '../db/schema.ts';
import { AppError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { MasterKeys, WalrusKeyError } from '../storage/walrus-sealing.ts';
import { decodeCursor, encodeCursor } from './files.service.ts';
import { accountIdOf, boundSpace, type Owner } from './owner.ts';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, type EventPublisher, type WebhookEvent, type WebhookEventType } from './webhook-events.ts';
import { formatSecret, sendWebhook, signWebhook, webhookUrlProblem } from './webhook-sender.ts';

export { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, type EventPublisher, type WebhookEvent, type WebhookEventType } from './webhook-events.ts';

/** Replicas take turns purging old deliveries (the lock of scheduleTurns). */
export const WEBHOOK_PURGE_LOCK = 'webhook purge';

/** Key bytes of a new signing secret (Standard Webhooks: 24 to 64). */
const SECRET_BYTES = 32;
/** Rows deleted per statement by the purge. */
const PURGE_BATCH = 1000;
/** Batches one turn of the deliverer takes at most, so a turn ends even under a flood. */
const BATCHES_PER_TURN = 10;

export interface NewEndpoint {
  url: string;
  events?: readonly string[];
  description?: string;
}

export interface DeliveryWithAttempts extends WebhookDeliveryRow {
  attemptHistory: WebhookAttemptRow[];
}

export interface DeliveryPage {
  deliveries: DeliveryWithAttempts[];
  hasMore: boolean;
  cursor: string;
}

export interface TurnReport {
  delivered: number;
  retrying: number;
  failed: number;
}

/**
 * Writes the outbox rows of events, inside `trx`: the transaction of the change they tell of, so
 * an event is delivered if and only if its change committed. One row per event and endpoint of
 * the account that takes its type; nothing when the account has none.
 */
export async function publishEvents(trx: Kysely<Schema> | Transaction<Schema>, repository: WebhooksRepository, accountId: string, events: readonly WebhookEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const subscriptions = (await repository.subscriptions(trx, accountId)).map((s) => ({ id: s.id, events: new Set(JSON.parse(s.events) as string[]) }));
  if (subscriptions.length === 0) return 0;
  const now = Date.now();
  const rows: NewWebhookDeliveryRow[] = [];
  for (const event of events) {
    const at = event.at ?? now;
    const eventId = newId('msg', at);
    const payload = JSON.stringify({ type: event.type, timestamp: new Date(at).toISOString(), data: event.data });
    for (const endpoint of subscriptions) {
      if (!endpoint.events.has(event.type)) continue;
      rows.push({ id: newId('whd', now), event_id: eventId, endpoint_id: endpoint.id, account_id: accountId, event_type: event.type, payload, status: 'pending', attempts: 0, next_attempt_at: now, created_at: now, finished_at: null });
    }
  }
  await repository.insertDeliveries(trx, rows);
  return rows.length;
}

export class WebhooksService {
  private readonly db: Kysely<Schema>;
  private readonly repository: WebhooksRepository;
  private readonly config: WebhooksConfig;
  /** Told the outcome of every attempt (metrics). */
  private readonly onAttempt: (outcome: keyof TurnReport) => void;
  private readonly masterKeys: MasterKeys | undefined;

  constructor(
    db: Kysely<Schema>,
    repository: WebhooksRepository,
    config: WebhooksConfig,
    onAttempt: (outcome: keyof TurnReport) => void = () => {},
  ) {
    this.db = db;
    this.repository = repository;
    this.config = config;
    this.onAttempt = onAttempt;
    this.masterKeys = config.masterKey && new MasterKeys(config.masterKey);
  }

  /** `publishEvent(trx, accountId, type, data)`: one event, in the caller's transaction. */
  readonly publish: EventPublisher = (trx, accountId, events) => publishEvents(trx, this.repository, accountId, events);

  /** One event, in a transaction of its own (for changes that have none to share). */
  publishEvent<T extends WebhookEventType>(accountId: string, type: T, data: Extract<WebhookEvent, { type: T }>['data'], trx: Kysely<Schema> | Transaction<Schema> = this.db): Promise<number> {
    return this.publish(trx, accountId, [{ type, data } as WebhookEvent]);
  }

  /** Registers an endpoint; the answer holds its signing secret, the only time it is shown. */
  async create(owner: Owner, input: NewEndpoint): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
    this.refuseBoundKey(owner);
    const problem = webhookUrlProblem(input.url, this.config.allowPrivate);
    if (problem) throw new AppError('invalid_request', `url ${problem}`);
    const events = input.events ?? WEBHOOK_EVENT_TYPES;
    const unknown = events.filter((e) => !isWebhookEventType(e));
    if (unknown.length > 0) throw new AppError('invalid_request', `unknown event type ${unknown.map((e) => JSON.stringify(e)).join(', ')}; the events are ${WEBHOOK_EVENT_TYPES.join(', ')}`);
    const now = Date.now();
    const id = newId('whk', now);
    const key = randomBytes(SECRET_BYTES);
    const endpoint: WebhookEndpointRow = {
      id,
      account_id: accountIdOf(owner),
      url: input.url,
      events: JSON.stringify([...new Set(events)]),
      description: input.description ?? null,
      secret: this.seal(key, id),
      created_at: now,
    };
    if (!(await this.repository.insertEndpoint(endpoint, this.config.maxEndpoints))) {
      throw new AppError('conflict', `the account already has ${this.config.maxEndpoints} webhook endpoints, the most it may have (TESSERA_WEBHOOK_MAX_ENDPOINTS); delete one first`);
    }
    return { endpoint, secret: formatSecret(key) };
  }

  list(owner: Owner): Promise<WebhookEndpointRow[]> {
    this.refuseBoundKey(owner);
    return this.repository.listEndpoints(accountIdOf(owner));
  }

  async get(owner: Owner, id: string): Promise<WebhookEndpointRow> {
    this.refuseBoundKey(owner);
    const endpoint = await this.repository.findEndpoint(accountIdOf(owner), id);
    if (!endpoint) throw notFound('webhook', id);
    return endpoint;
  }

  async delete(owner: Owner, id: string): Promise<void> {
    this.refuseBoundKey(owner);
    if (!(await this.repository.deleteEndpoint(accountIdOf(owner), id))) throw notFound('webhook', id);
  }

  /** An endpoint's deliveries, newest first, with every attempt of each; paginated like the files. */
  async deliveries(owner: Owner, id: string, options: { limit: number; cursor?: string }): Promise<DeliveryPage> {
    const endpoint = await this.get(owner, id);
    const after = options.cursor ? decodeCursor(options.cursor, 'whd') : undefined;
    const rows = await this.repository.listDeliveries(endpoint.id, options.limit + 1, after);
    const hasMore = rows.length > options.limit;
    const page = hasMore ? rows.slice(0, options.limit) : rows;
    const attempts = new Map<string, WebhookAttemptRow[]>();
    for (const a of await this.repository.attemptsOf(page.map((d) => d.id))) attempts.set(a.delivery_id, [...(attempts.get(a.delivery_id) ?? []), a]);
    const last = page[page.length - 1];
    return {
      deliveries: page.map((d) => ({ ...d, attemptHistory: attempts.get(d.id) ?? [] })),
      hasMore,
      cursor: hasMore && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : '',
    };
  }

  /**
   * One turn of the deliverer: claims the deliveries that are due (a batch at a time, each
   * batch sent concurrently) and records each attempt. Any number of deliverers, in one process
   * or many, may run at once: a claim is one statement, so no delivery is attempted twice at once.
   * `stop` (at shutdown): no new batch is claimed; the one under way is finished and recorded.
   */
  async deliverDue(stop?: AbortSignal): Promise<TurnReport> {
    const report: TurnReport = { delivered: 0, retrying: 0, failed: 0 };
    for (let turn = 0; turn < BATCHES_PER_TURN && !stop?.aborted; turn++) {
      const now = Date.now();
      // The lease outlasts the attempt; a deliverer that dies mid-attempt leaves the row due after it.
      const claimed = await this.repository.claimDue(now, this.config.batch, now + 2 * this.config.timeoutMs + 5000);
      if (claimed.length === 0) break;
      for (const status of await Promise.all(claimed.map((d) => this.attempt(d)))) {
        const outcome = status === 'pending' ? 'retrying' : status;
        report[outcome]++;
        this.onAttempt(outcome);
      }
      if (claimed.length < this.config.batch) break;
    }
    return report;
  }

  /** Deletes delivered and failed deliveries older than the TTL; answers how many. */
  async purgeExpired(): Promise<number> {
    const before = Date.now() - this.config.deliveryTtlSeconds * 1000;
    let total = 0;
    for (;;) {
      const purged = await this.repository.purgeFinished(before, PURGE_BATCH);
      total += purged;
      if (purged < PURGE_BATCH) return total;
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<'pending' | 'delivered' | 'failed'> {
    const startedAt = Date.now();
    let key: Buffer;
    try {
      key = this.unseal(delivery.secret, delivery.endpoint_id);
      // A secret stored before TESSERA_WEBHOOK_MASTER_KEY was set is encrypted at its first use since.
      if (this.masterKeys && delivery.secret.startsWith('plain.')) await this.repository.updateSecret(delivery.endpoint_id, delivery.secret, this.seal(key, delivery.endpoint_id));
    } catch (error) {
      return this.conclude(delivery, startedAt, { statusCode: null, error: (error as Error).message, durationMs: 0, retryAfterMs: undefined });
    }
    const timestamp = Math.floor(startedAt / 1000);
    const headers = { 'webhook-id': delivery.event_id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(key, delivery.event_id, timestamp, delivery.payload) };
    const sent = await sendWebhook(delivery.url, headers, delivery.payload, { timeoutMs: this.config.timeoutMs, allowPrivate: this.config.allowPrivate });
    return this.conclude(delivery, startedAt, sent);
  }

  private async conclude(delivery: ClaimedDelivery, startedAt: number, sent: Awaited<ReturnType<typeof sendWebhook>>): Promise<'pending' | 'delivered' | 'failed'> {
    const now = Date.now();
    const ok = sent.statusCode !== null && sent.statusCode >= 200 && sent.statusCode < 300;
    const delay = this.retryDelay(delivery.attempts, sent.retryAfterMs);
    // 410 Gone: the receiver wants no more (Standard Webhooks); a retry past the window: given up.
    const giveUp = sent.statusCode === 410 || now + delay > delivery.created_at + this.config.retryForSeconds * 1000;
    const status = ok ? 'delivered' : giveUp ? 'failed' : 'pending';
    await this.repository.record(delivery, {
      attempt: { attempt: delivery.attempts, started_at: startedAt, duration_ms: sent.durationMs, status_code: sent.statusCode, error: sent.error },
      status,
      nextAttemptAt: status === 'pending' ? now + delay : now,
      finishedAt: status === 'pending' ? null : now,
    });
    return status;
  }

  /**
   * Exponential backoff with jitter: the base, doubled at each attempt, capped, then somewhere
   * between 80% and 120% of that, so receivers that failed together are not retried together.
   * A receiver's Retry-After is honoured when it asks for longer (up to the cap).
   */
  retryDelay(attempts: number, retryAfterMs?: number): number {
    const { retryBaseMs, retryMaxDelayMs } = this.config;
    const exponential = Math.min(retryMaxDelayMs, retryBaseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
    const jittered = Math.round(exponential * (0.8 + randomInt(0, 401) / 1000));
    return Math.min(retryMaxDelayMs, Math.max(jittered, retryAfterMs ?? 0));
  }

  private refuseBoundKey(owner: Owner): void {
    if (boundSpace(owner) !== undefined) {
      throw new AppError('forbidden', "this key is bound to one Space and cannot manage webhooks, which receive the events of the whole account; use a key not bound to a Space");
    }
  }

  /**
   * The secret at rest: encrypted (AES-256-GCM, bound to the endpoint's id) by
   * TESSERA_WEBHOOK_MASTER_KEY when it is set, else as it is, marked `plain.`.
   */
  private seal(key: Buffer, endpointId: string): string {
    return this.masterKeys ? this.masterKeys.wrap(key, endpointId) : `plain.${key.toString('base64url')}`;
  }

  private unseal(stored: string, endpointId: string): Buffer {
    if (stored.startsWith('plain.')) return Buffer.from(stored.slice('plain.'.length), 'base64url');
    if (!this.masterKeys) throw new Error('the endpoint\'s secret is encrypted, and TESSERA_WEBHOOK_MASTER_KEY is not set');
    try {
      return this.masterKeys.unwrap(stored, endpointId);
    } catch (error) {
      if (error instanceof WalrusKeyError) throw new Error('the endpoint\'s secret was encrypted by another TESSERA_WEBHOOK_MASTER_KEY than the one set', { cause: error });
      throw error;
    }
  }
}
