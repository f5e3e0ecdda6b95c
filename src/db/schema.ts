import type { ColumnType, Insertable, Selectable } from 'kysely';

/** Times are integer milliseconds since the epoch: exact, portable, and cheap to compare. */
type Millis = number;

export interface AccountsTable {
  id: string;
  name: string;
  created_at: Millis;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  /** SHA-256 of the key, hex. The key itself is never stored. */
  key_hash: string;
  created_at: Millis;
  revoked_at: ColumnType<Millis | null, Millis | null | undefined, Millis | null>;
}

export interface SpacesTable {
  id: string;
  account_id: string;
  name: string;
  created_at: Millis;
}

/** One row per distinct content: where its bytes live. Files point here. */
export interface BlobsTable {
  blob_id: string;
  size_bytes: number;
  quilt_id: string;
  quilt_patch_id: string;
  created_at: Millis;
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

export interface Schema {
  edits: EditsTable;
  generative_usage: GenerativeUsageTable;
  idempotency_keys: IdempotencyKeysTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  spaces: SpacesTable;
  blobs: BlobsTable;
  files: FilesTable;
}

export type AccountRow = Selectable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type SpaceRow = Selectable<SpacesTable>;
export type BlobRow = Selectable<BlobsTable>;
export type FileRow = Selectable<FilesTable>;
export type NewFileRow = Insertable<FilesTable>;
export type EditRow = Selectable<EditsTable>;
export type IdempotencyRow = Selectable<IdempotencyKeysTable>;
