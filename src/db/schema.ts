import type { ColumnType, Insertable, Selectable } from 'kysely';

/** Times are integer milliseconds since the epoch: exact, portable, and cheap to compare. */
type Millis = number;

export interface AccountsTable {
  id: string;
  name: string;
  created_at: Millis;
  /** Bytes and files the account stores now: changed in the transactions that add or remove files. */
  used_bytes: ColumnType<number, number | undefined, number>;
  used_files: ColumnType<number, number | undefined, number>;
  /** The account's own limits; null: the defaults from the settings; -1: unlimited. */
  quota_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  quota_files: ColumnType<number | null, number | null | undefined, number | null>;
  /** Changes to what the account's file list shows, counted in the transactions that make them. */
  files_version: ColumnType<number, number | undefined, number>;
}

export type KeyScope = 'read' | 'write' | 'admin';

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  /** SHA-256 of the key, hex. The key itself is never stored. */
  key_hash: string;
  created_at: Millis;
  revoked_at: ColumnType<Millis | null, Millis | null | undefined, Millis | null>;
  scope: ColumnType<KeyScope, KeyScope | undefined, KeyScope>;
  /** Set: the key sees and touches only this Space. */
  space_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ServerSettingsTable {
  name: string;
  value: string;
  created_at: Millis;
}

/**
 * What happens to a Space's bytes that leave for a public network (the Walrus engine): `sealed`
 * (encrypted, the default) or `none` (published as they are, readable by anyone with the id).
 */
export type SpaceEncryption = 'sealed' | 'none';
export const SPACE_ENCRYPTIONS: readonly SpaceEncryption[] = ['sealed', 'none'];

export interface SpacesTable {
  id: string;
  account_id: string;
  name: string;
  created_at: Millis;
  encryption: ColumnType<SpaceEncryption, SpaceEncryption | undefined, SpaceEncryption>;
}

/** One row per distinct content of an account: where its bytes live. Files point here. */
export interface BlobsTable {
  /** `<account id>:<content id>` (blobKeyOf); a bare content id in rows older than that. */
  blob_id: string;
  size_bytes: number;
  quilt_id: string;
  quilt_patch_id: string;
  created_at: Millis;
  /** The Walrus engine's wrapped data key of an encrypted blob; null for plaintext and other engines. */
  sealed_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface WalrusQuiltsTable {
  /** The Walrus blobId of the quilt. */
  quilt_id: string;
  /** The quilt expires at the start of this epoch. */
  end_epoch: number;
  /** The network's epoch when it was last stored or renewed (the latest seen is "now"). */
  stored_epoch: number;
  /** What the publisher reported paying for it so far, in FROST. */
  cost_frost: ColumnType<number, number, number>;
  updated_at: Millis;
}

export interface FilesTable {
  id: string;
  account_id: string;
  space_id: string;
  blob_id: string;
  name: string;
  mime_type: string;
  size_bytes: number;
  created_at: Millis;
}

/** Lineage of an edited image. */
export interface EditsTable {
  file_id: string;
  account_id: string;
  source_file_id: string;
  prompt: string;
  /** JSON of the applied operations. */
  plan: string;
  created_at: Millis;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  request_hash: string;
  /** JSON of the first answer; '' while the first request is still working (a claim). */
  response: string;
  created_at: Millis;
}

/** Generative provider calls of an account on one UTC day (YYYY-MM-DD). */
export interface GenerativeUsageTable {
  account_id: string;
  day: string;
  calls: number;
}

export type EditJobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** An edit answered later (Prefer: respond-async). */
export interface EditJobsTable {
  id: string;
  account_id: string;
  /** The Space the results go to. */
  space_id: string;
  /** The Space the submitting key is bound to: the job runs as that key would. */
  bound_space_id: string | null;
  /** `json`: the seed's edit of a stored file; `form`: OpenAI's form (its images already stored). */
  kind: 'json' | 'form';
  /** What to run, JSON: the request and its plan (planned at submission). */
  request: string;
  idempotency_key: string | null;
  request_hash: string | null;
  status: EditJobStatus;
  /** Runs begun (claims). */
  attempts: number;
  /** A queued job is not claimed before this time (a retry's backoff). */
  run_after: Millis;
  /** The runner holding a running job, and until when its lease holds. */
  runner: string | null;
  lease_until: Millis | null;
  /** Set when a run may have called the generative provider: such a run is never repeated. */
  provider_called_at: Millis | null;
  /** The answer (JSON) of a succeeded job; the error (JSON) of a failed one. */
  result: string | null;
  error: string | null;
  created_at: Millis;
  updated_at: Millis;
  finished_at: Millis | null;
}

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  /** JSON array of the event types sent to it. */
  events: string;
  description: string | null;
  /** The signing secret, encrypted by TESSERA_WEBHOOK_MASTER_KEY when set (WebhooksService.seal). */
  secret: string;
  created_at: Millis;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** The outbox: one event to one endpoint. */
export interface WebhookDeliveriesTable {
  id: string;
  /** The event's id, sent as `webhook-id`: the same for every endpoint and every attempt. */
  event_id: string;
  endpoint_id: string;
  account_id: string;
  event_type: string;
  /** The body sent, exactly. */
  payload: string;
  status: DeliveryStatus;
  /** Attempts begun (counted when a deliverer claims the row). */
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Millis;
  created_at: Millis;
  finished_at: ColumnType<Millis | null, Millis | null | undefined, Millis | null>;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  started_at: Millis;
  duration_ms: number;
  /** The receiver's HTTP status; null when it did not answer (the error says why). */
  status_code: number | null;
  error: string | null;
}

export interface Schema {
  edit_jobs: EditJobsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  server_settings: ServerSettingsTable;
  edits: EditsTable;
  generative_usage: GenerativeUsageTable;
  idempotency_keys: IdempotencyKeysTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  spaces: SpacesTable;
  blobs: BlobsTable;
  files: FilesTable;
  walrus_quilts: WalrusQuiltsTable;
}

export type AccountRow = Selectable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type SpaceRow = Selectable<SpacesTable>;
export type BlobRow = Selectable<BlobsTable>;
export type NewBlobRow = Insertable<BlobsTable>;
export type FileRow = Selectable<FilesTable>;
export type NewFileRow = Insertable<FilesTable>;
export type EditRow = Selectable<EditsTable>;
export type IdempotencyRow = Selectable<IdempotencyKeysTable>;
export type EditJobRow = Selectable<EditJobsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewWebhookDeliveryRow = Insertable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
