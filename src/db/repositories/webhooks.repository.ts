import { sql, type Kysely, type Transaction } from 'kysely';
import type { DialectName } from '../database.ts';
import { PreparedQueries } from '../prepared.ts';
import type { NewWebhookDeliveryRow, Schema, WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from '../schema.ts';
import type { ListPosition } from './files.repository.ts';

/** Rows per INSERT: well under SQLite's limit of bound parameters. */
const INSERT_CHUNK = 500;

/** A due delivery, claimed by one deliverer, with where it goes. */
export interface ClaimedDelivery extends WebhookDeliveryRow {
  url: string;
  secret: string;
}

/** What one attempt ended in, and what becomes of the delivery. */
export interface AttemptOutcome {
  attempt: Omit<WebhookAttemptRow, 'delivery_id'>;
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: number;
  finishedAt: number | null;
}

export class WebhooksRepository {
  private readonly db: Kysely<Schema>;
  private readonly dialect: DialectName;
  private readonly prepared: PreparedQueries;
  constructor(
    db: Kysely<Schema>,
    dialect: DialectName,
  ) {
    this.db = db;
    this.dialect = dialect;
    this.prepared = new PreparedQueries(db);
  }

  /**
   * Adds the endpoint unless the account already has `max`. On PostgreSQL the account's row is
   * locked first, so concurrent registrations of one account count one after the other.
   */
  insertEndpoint(row: WebhookEndpointRow, max: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') await trx.selectFrom('accounts').select('id').where('id', '=', row.account_id).forUpdate().execute();
      const { count } = await trx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number>().as('count')).where('account_id', '=', row.account_id).executeTakeFirstOrThrow();
      if (Number(count) >= max) return false;
      await trx.insertInto('webhook_endpoints').values(row).execute();
      return true;
    });
  }

  listEndpoints(accountId: string): Promise<WebhookEndpointRow[]> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  findEndpoint(accountId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  /** Removes the endpoint and, by the foreign keys' cascade, its deliveries and their attempts. */
  async deleteEndpoint(accountId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('webhook_endpoints').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Replaces the stored form of an endpoint's secret, if it is still `from`. */
  async updateSecret(id: string, from: string, to: string): Promise<void> {
    await this.db.updateTable('webhook_endpoints').set({ secret: to }).where('id', '=', id).where('secret', '=', from).execute();
  }

  /** The account's endpoints and the events each takes: read inside the transaction that publishes. */
  /** Read in the transaction of every change that may have events (every upload): compiled once. */
  async subscriptions(trx: Kysely<Schema> | Transaction<Schema>, accountId: string): Promise<Array<{ id: string; events: string }>> {
    const result = await this.prepared.runIn(trx, 'subscriptions', [accountId], ([id]) => trx.selectFrom('webhook_endpoints').select(['id', 'events']).where('account_id', '=', id as string));
    return result.rows;
  }

  async insertDeliveries(trx: Kysely<Schema> | Transaction<Schema>, rows: readonly NewWebhookDeliveryRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) await trx.insertInto('webhook_deliveries').values(rows.slice(i, i + INSERT_CHUNK)).execute();
  }

  /**
   * Takes up to `limit` deliveries that are due, for this deliverer alone: it counts the attempt
   * and moves `next_attempt_at` to `leaseUntil`, so no other deliverer sees them due until then
   * (and, should this one die mid-attempt, they are due again after it). On PostgreSQL the rows
   * are chosen `FOR UPDATE SKIP LOCKED` in the claim's transaction, so concurrent deliverers take
   * different rows instead of waiting on each other. (Not as a subquery of the UPDATE: PostgreSQL
   * may run such a subquery again for each row it updates, each time skipping the rows it just
   * locked, and so claim every due row whatever the LIMIT.) On SQLite, which runs one write at a
   * time, one UPDATE does it.
   */
  async claimDue(now: number, limit: number, leaseUntil: number): Promise<ClaimedDelivery[]> {
    const due = (db: Kysely<Schema>) =>
      db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').where('next_attempt_at', '<=', now).orderBy('next_attempt_at').limit(limit);
    const claim = (db: Kysely<Schema>, ids: readonly string[] | ReturnType<typeof due>) =>
      db
        .updateTable('webhook_deliveries')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: leaseUntil }))
        .where('id', 'in', ids)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .returningAll()
        .execute();
    const claimed =
      this.dialect === 'postgres'
        ? await this.db.transaction().execute(async (trx) => {
            const ids = (await due(trx).forUpdate().skipLocked().execute()).map((r) => r.id);
            return ids.length === 0 ? [] : claim(trx, ids);
          })
        : await claim(this.db, due(this.db));
    if (claimed.length === 0) return [];
    const endpoints = new Map(
      (await this.db.selectFrom('webhook_endpoints').select(['id', 'url', 'secret']).where('id', 'in', [...new Set(claimed.map((d) => d.endpoint_id))]).execute()).map((e) => [e.id, e]),
    );
    return claimed.flatMap((d) => {
      const endpoint = endpoints.get(d.endpoint_id);
      return endpoint ? [{ ...d, attempts: Number(d.attempts), url: endpoint.url, secret: endpoint.secret }] : [];
    });
  }

  /**
   * Records an attempt and its consequence, unless the delivery is gone (its endpoint deleted)
   * or was claimed again since (this attempt outlived its lease): then only the attempt is kept.
   */
  record(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
    return this.db.transaction().execute(async (trx) => {
      const exists = await trx.selectFrom('webhook_deliveries').select('id').where('id', '=', delivery.id).executeTakeFirst();
      if (!exists) return;
      await trx.insertInto('webhook_attempts').values({ delivery_id: delivery.id, ...outcome.attempt }).onConflict((oc) => oc.doNothing()).execute();
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: outcome.status, next_attempt_at: outcome.nextAttemptAt, finished_at: outcome.finishedAt })
        .where('id', '=', delivery.id)
        .where('attempts', '=', delivery.attempts)
        .where('status', '=', 'pending')
        .execute();
    });
  }

  /** One page of an endpoint's deliveries, newest first, after `after` in (created_at, id) order. */
  listDeliveries(endpointId: string, limit: number, after?: ListPosition): Promise<WebhookDeliveryRow[]> {
    let query = this.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId);
    if (after) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  attemptsOf(deliveryIds: readonly string[]): Promise<WebhookAttemptRow[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('delivery_id').orderBy('attempt').execute();
  }

  /** Deletes up to `batch` deliveries finished before `before` (their attempts go with them). */
  async purgeFinished(before: number, batch: number): Promise<number> {
    const old = this.db.selectFrom('webhook_deliveries').select('id').where('finished_at', '<', before).limit(batch);
    const ids = (await old.execute()).map((r) => r.id);
    if (ids.length === 0) return 0;
    // Attempts first: SQLite enforces the cascade only with its foreign keys on, which a
    // connection opened by another tool may not have.
    await this.db.deleteFrom('webhook_attempts').where('delivery_id', 'in', ids).execute();
    const result = await this.db.deleteFrom('webhook_deliveries').where('id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deliveries by status, for metrics and tests. */
  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.db.selectFrom('webhook_deliveries').select(['status', sql<number>`count(*)`.as('n')]).groupBy('status').execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }
}
