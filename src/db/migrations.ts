import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';

/**
 * Schema history. Only portable SQL: the same migrations run on SQLite and PostgreSQL.
 * Never edit a migration that has shipped; add the next one.
 */
const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema
        .createTable('spaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('spaces_account_name', ['account_id', 'name'])
        .execute();
      await db.schema
        .createTable('blobs')
        .addColumn('blob_id', 'text', (c) => c.primaryKey())
        .addColumn('size_bytes', 'bigint', (c) => c.notNull())
        .addColumn('quilt_id', 'text', (c) => c.notNull())
        .addColumn('quilt_patch_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('blobs_quilt').on('blobs').column('quilt_id').execute();
      await db.schema
        .createTable('files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id'))
        .addColumn('blob_id', 'text', (c) => c.notNull().references('blobs.blob_id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('size_bytes', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // Keyset pagination walks these indexes in order: no sort, no OFFSET.
      await db.schema.createIndex('files_account_order').on('files').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('files_space_order').on('files').columns(['space_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('files_blob').on('files').column('blob_id').execute();
    },
  },
  '0002_edits': {
    async up(db: Kysely<unknown>) {
      // Lineage of a generated image: where it came from and what was asked.
      await db.schema
        .createTable('edits')
        .addColumn('file_id', 'text', (c) => c.primaryKey().references('files.id').onDelete('cascade'))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('source_file_id', 'text', (c) => c.notNull())
        .addColumn('prompt', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('edits_source').on('edits').column('source_file_id').execute();
      // A retried request with the same key gets the first answer; held in the database so it
      // holds across replicas.
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
        .execute();
    },
  },
  '0003_access': {
    async up(db: Kysely<unknown>) {
      // Scoped keys. Keys made before scopes keep what they could do: full access to their account.
      await db.schema.alterTable('api_keys').addColumn('scope', 'text', (c) => c.notNull().defaultTo('admin')).execute();
      // A key bound to one Space sees only that Space (no foreign key: deleting the Space must
      // not be refused because a key names it; such a key then finds nothing).
      await db.schema.alterTable('api_keys').addColumn('space_id', 'text').execute();
      // Quotas: what each account stores, kept in step with its files in the same transactions,
      // and its own limits (null: the defaults from the settings; -1: unlimited).
      await db.schema.alterTable('accounts').addColumn('used_bytes', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('accounts').addColumn('used_files', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('accounts').addColumn('quota_bytes', 'bigint').execute();
      await db.schema.alterTable('accounts').addColumn('quota_files', 'bigint').execute();
      await sql`update accounts set
        used_bytes = (select coalesce(sum(files.size_bytes), 0) from files where files.account_id = accounts.id),
        used_files = (select count(*) from files where files.account_id = accounts.id)`.execute(db);
      // Values the replicas must share, such as the signed-link secret when none is configured.
      await db.schema
        .createTable('server_settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0005_generative': {
    async up(db: Kysely<unknown>) {
      // Provider calls per account and UTC day, counted by one conditional upsert so concurrent
      // requests cannot pass the budget together.
      await db.schema
        .createTable('generative_usage')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('calls', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('generative_usage_pk', ['account_id', 'day'])
        .execute();
    },
  },
  '0006_walrus': {
    async up(db: Kysely<unknown>) {
      // The Walrus engine's wrapped data key of an encrypted blob: it lives and dies with the row,
      // so a deleted blob's published bytes can no longer be read. Reads find it by patch id.
      await db.schema.alterTable('blobs').addColumn('sealed_key', 'text').execute();
      await db.schema.createIndex('blobs_quilt_patch').on('blobs').column('quilt_patch_id').execute();
      // Each Walrus quilt's storage: the epoch it lapses at, and what it has cost so far (FROST).
      await db.schema
        .createTable('walrus_quilts')
        .addColumn('quilt_id', 'text', (c) => c.primaryKey())
        .addColumn('end_epoch', 'integer', (c) => c.notNull())
        .addColumn('stored_epoch', 'integer', (c) => c.notNull())
        .addColumn('cost_frost', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('walrus_quilts_end').on('walrus_quilts').column('end_epoch').execute();
    },
  },
  '0007_bounded_state': {
    async up(db: Kysely<unknown>) {
      // The purge of expired Idempotency-Keys walks them oldest first, a batch at a time.
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
    },
  },
  '0008_edit_jobs': {
    async up(db: Kysely<unknown>) {
      // Edits answered later (Prefer: respond-async): queued here, claimed by one runner of any
      // replica under a lease, their result or error kept until the TTL.
      await db.schema
        .createTable('edit_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('space_id', 'text', (c) => c.notNull())
        .addColumn('bound_space_id', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('request_hash', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('run_after', 'bigint', (c) => c.notNull())
        .addColumn('runner', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('provider_called_at', 'bigint')
        .addColumn('result', 'text')
        .addColumn('error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      // The runners' claim: queued jobs due, and running ones whose lease ran out.
      await db.schema.createIndex('edit_jobs_claim').on('edit_jobs').columns(['status', 'run_after']).execute();
      // The purge walks finished jobs oldest first.
      await db.schema.createIndex('edit_jobs_created').on('edit_jobs').column('created_at').execute();
      // An Idempotency-Key names one job of the account (NULLs are distinct on both dialects).
      await db.schema.createIndex('edit_jobs_idempotency').on('edit_jobs').columns(['account_id', 'idempotency_key']).unique().execute();
    },
  },
  '0009_public_spaces': {
    async up(db: Kysely<unknown>) {
      // The owner's choice for bytes that leave for a public network (the Walrus engine): 'sealed'
      // (encrypted, every Space so far) or 'none' (published as they are). Other engines keep it only.
      await db.schema.alterTable('spaces').addColumn('encryption', 'text', (c) => c.notNull().defaultTo('sealed')).execute();
    },
  },
  '0010_webhooks': {
    async up(db: Kysely<unknown>) {
      // The endpoints an account registers. `secret` is the signing key, encrypted by
      // TESSERA_WEBHOOK_MASTER_KEY when it is set (WebhooksService.seal); `events` is JSON.
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_endpoints_account').on('webhook_endpoints').columns(['account_id', 'created_at', 'id']).execute();
      // The outbox: one row per event and endpoint, written in the transaction of the change it
      // tells of. `payload` is the exact body sent (signed again, with a new timestamp, at each
      // attempt). A pending row is due at `next_attempt_at`; a deliverer claims it by moving that
      // time past its attempt's end and counting the attempt, in one statement.
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('webhook_deliveries_finished').on('webhook_deliveries').column('finished_at').execute();
      // Every attempt of a delivery: what the receiver answered, or why there was no answer.
      await db.schema
        .createTable('webhook_attempts')
        .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
        .execute();
    },
  },
  '0011_list_versions': {
    async up(db: Kysely<unknown>) {
      // Counts the changes to what an account's file list shows (a file added or removed, a blob
      // of its files moved by gc), in the transactions that make them: a page built at one count
      // is the page while the count holds (FilesService's list cache).
      await db.schema.alterTable('accounts').addColumn('files_version', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
};

class StaticProvider implements MigrationProvider {
  async getMigrations() {
    return migrations;
  }
}

async function migratorFor(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<Migrator> {
  // Kysely looks for its bookkeeping tables in every schema; pin it to ours, or another
  // deployment's tables in a neighbouring schema would be mistaken for ours.
  const migrationTableSchema =
    dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  return new Migrator({ db, provider: new StaticProvider(), migrationTableSchema });
}

/** Up to and including `name` only: to test a migration on data made by the ones before it. */
export async function migrateUpTo(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres', name: string): Promise<void> {
  const { error } = await (await migratorFor(db, dialect)).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

export async function migrateToLatest(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const migrator = await migratorFor(db, dialect);
  // PostgreSQL serialises concurrent migrators with an advisory lock. Kysely takes no lock on
  // SQLite, so two processes opening one file at once (server and CLI) may collide; the loser's
  // transaction rolls back and its retry finds the work done.
  const attempts = dialect === 'sqlite' ? 5 : 1;
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (attempt >= attempts) throw error instanceof Error ? error : new Error(String(error));
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
  }
}
