// Generated from the server's OpenAPI document by `npm run client:generate`. Do not edit.

export type ErrorBody = {
  "error": {
    "code": "invalid_request" | "invalid_cursor" | "unauthorized" | "forbidden" | "not_found" | "conflict" | "payload_too_large" | "quota_exceeded" | "unsupported_media_type" | "prompt_not_understood" | "not_an_image" | "unsupported_edit" | "rate_limited" | "internal" | "provider_unavailable";
    "message": string;
    /** Why a 422 edit was refused (`prompt_not_understood`, `unsupported_edit`): see the table of refusal reasons in docs/api.md. */
    "reason"?: "missing_parameter" | "question" | "statement" | "negation" | "ambiguous" | "limit" | "needs_region" | "needs_model" | "not_understood" | "content_policy" | "region_not_found" | "not_confinable";
    /** The part of the prompt a refusal is about, as written. */
    "clause"?: string;
    [key: string]: unknown;
  };
};

export type FileMetadata = {
  /** Content-derived id of the bytes: base64url SHA-256. Same bytes, same id. */
  "blobId": string;
  /** The quilt (immutable pack of blobs) holding the bytes. */
  "quiltId": string;
  /** Locator of the bytes inside the quilt: enough to read them without the database. */
  "quiltPatchId": string;
};

export type FileRecord = {
  "fileId": string;
  /** Size in bytes, as a decimal string. */
  "sizeBytes": string;
  "mimeType": string;
  "name": string;
  /** RFC 3339 UTC with milliseconds. */
  "createdAt": string;
  "metadata": FileMetadata;
  /** The Space holding the file. */
  "workspaceId": string;
  /** Only on GET of one file, and only when the file is the result of an edit. */
  "edit"?: {
    /** The file the edit started from (it may since have been deleted). */
    "sourceFileId": string;
    "prompt": string;
    /** The plan that was applied, in order. */
    "operations": Array<{
      "op": string;
      [key: string]: unknown;
    }>;
  };
};

export type Space = {
  "id": string;
  "name": string;
  "createdAt": string;
  /** What happens to the bytes of files stored in the Space from now on when they leave for a public network (the Walrus engine): `sealed` (the default) encrypts them, so the network holds only ciphertext; `none` publishes them as they are, so any Walrus aggregator serves a file by its `quiltPatchId` to anyone who has it. Other engines keep and report the choice and store bytes the same either way. */
  "encryption": "sealed" | "none";
};

/** Every operation: "METHOD /path" → what it takes and what it answers on success. */
export interface Operations {
  "GET /healthz": {
    path: never;
    query: never;
    body: never;
    response: {
      "status": "ok";
    };
  };
  "GET /readyz": {
    path: never;
    query: never;
    body: never;
    response: {
      "status": "ready";
      "database": string;
      "store": string;
    };
  };
  "GET /metrics": {
    path: never;
    query: never;
    body: never;
    response: void;
  };
  "GET /links/files/{fileId}/content": {
    path: {
      "fileId": string;
    };
    query: {
      "expires"?: string;
      "sig"?: string;
      "download"?: string;
    };
    body: never;
    response: Uint8Array;
  };
  "GET /links/files/{fileId}/thumbnail": {
    path: {
      "fileId": string;
    };
    query: {
      "expires"?: string;
      "sig"?: string;
      "width"?: string;
    };
    body: never;
    response: Uint8Array;
  };
  "GET /v1/storage/files": {
    path: never;
    query: {
      "limit"?: number;
      "cursor"?: string;
      "workspace_id"?: string;
    };
    body: never;
    response: {
      "files": Array<FileRecord>;
      "pagination": {
        "hasMore": boolean;
        /** Empty when hasMore is false. */
        "cursor": string;
      };
    };
  };
  "POST /v1/storage/files": {
    path: never;
    query: {
      "workspace_id"?: string;
    };
    body: never;
    response: {
      "files": Array<FileRecord>;
    };
  };
  "POST /v1/storage/files/raw": {
    path: never;
    query: {
      "name": string;
      "workspace_id"?: string;
    };
    body: never;
    response: {
      "files": Array<FileRecord>;
    };
  };
  "GET /v1/storage/files/{fileId}": {
    path: {
      "fileId": string;
    };
    query: never;
    body: never;
    response: FileRecord;
  };
  "DELETE /v1/storage/files/{fileId}": {
    path: {
      "fileId": string;
    };
    query: never;
    body: never;
    response: void;
  };
  "GET /v1/storage/files/{fileId}/content": {
    path: {
      "fileId": string;
    };
    query: {
      "download"?: boolean;
    };
    body: never;
    response: Uint8Array;
  };
  "POST /v1/spaces": {
    path: never;
    query: never;
    body: {
      /** Unique within your account. */
      "name": string;
      /** What happens to the bytes of files stored in the Space from now on when they leave for a public network (the Walrus engine): `sealed` (the default) encrypts them, so the network holds only ciphertext; `none` publishes them as they are, so any Walrus aggregator serves a file by its `quiltPatchId` to anyone who has it. Other engines keep and report the choice and store bytes the same either way. */
      "encryption"?: "sealed" | "none";
    };
    response: Space;
  };
  "GET /v1/spaces": {
    path: never;
    query: never;
    body: never;
    response: {
      "spaces": Array<Space>;
    };
  };
  "GET /v1/spaces/{id}": {
    path: {
      "id": string;
    };
    query: never;
    body: never;
    response: Space;
  };
  "PATCH /v1/spaces/{id}": {
    path: {
      "id": string;
    };
    query: never;
    body: {
      /** What happens to the bytes of files stored in the Space from now on when they leave for a public network (the Walrus engine): `sealed` (the default) encrypts them, so the network holds only ciphertext; `none` publishes them as they are, so any Walrus aggregator serves a file by its `quiltPatchId` to anyone who has it. Other engines keep and report the choice and store bytes the same either way. */
      "encryption": "sealed" | "none";
    };
    response: Space;
  };
  "DELETE /v1/spaces/{id}": {
    path: {
      "id": string;
    };
    query: {
      "force"?: boolean;
    };
    body: never;
    response: void;
  };
  "POST /v1/images/edits": {
    path: never;
    query: never;
    body: {
      /** What to do, in plain language. */
      "prompt": string;
      /** The Space the result is stored in. */
      "workspace_id": string;
      /** The source image (any image file of yours). */
      "file_id": string;
      /** Overrides the format; default: the source's, or what the prompt says. */
      "output_format"?: "png" | "jpeg" | "webp" | "avif";
      /** Name of the result; its extension follows the output format. */
      "name"?: string;
      /** Return the plan and the result's name and type; store nothing. */
      "dry_run"?: boolean;
    };
    response: {
      /** The new file (absent on a dry run). */
      "file_id"?: string;
      "name": string;
      "mime_type": string;
      "source_file_id": string;
      "workspace_id": string;
      /** The plan that was (or would be) applied, in order. */
      "operations": Array<{
        "op": string;
        [key: string]: unknown;
      }>;
      "dry_run": boolean;
      /** On a dry run whose plan edits regions: they were not looked for (a dry run plans only), so the edit may still be 422 region_not_found. */
      "regions_unchecked"?: Array<"background" | "subject" | "face">;
      "width"?: number;
      "height"?: number;
      "size_bytes"?: number;
      "created_at"?: string;
    };
  };
  "GET /v1/images/edits/{id}": {
    path: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      /** edit_… */
      "id": string;
      "object": "edit_job";
      "status": "queued" | "running" | "succeeded" | "failed";
      /** Runs begun: more than 1 after a provider outage or a runner that stopped. */
      "attempts": number;
      "created_at": string;
      "updated_at": string;
      "finished_at"?: string;
      /** Succeeded: the answer the edit would have given at once (the JSON edit's, or OpenAI's `{created, data}` for the form). */
      "result"?: {
        [key: string]: unknown;
      };
      /** Failed: the error the edit would have answered. */
      "error"?: {
        "code": string;
        "message": string;
        [key: string]: unknown;
      };
    };
  };
  "GET /v1/images/operations": {
    path: never;
    query: never;
    body: never;
    response: {
      "operations": Array<{
        "op": string;
        "group": string;
        "summary": string;
        "parameters": {
          [key: string]: string;
        };
        "examples": Array<string>;
      }>;
    };
  };
  "GET /v1/storage/files/{fileId}/thumbnail": {
    path: {
      "fileId": string;
    };
    query: {
      "width"?: number;
    };
    body: never;
    response: Uint8Array;
  };
  "POST /v1/storage/files/{fileId}/links": {
    path: {
      "fileId": string;
    };
    query: never;
    body: {
      /** Seconds the link works for; at most TESSERA_LINK_MAX_EXPIRES_SECONDS (default 7 days). */
      "expires_in": number;
      /** Given: the link serves a WebP thumbnail this wide (as GET …/thumbnail?width=) instead of the bytes. */
      "thumbnail_width"?: number;
      /** The bytes as an attachment (`Content-Disposition: attachment`), as `download=true` on the content route. */
      "download"?: boolean;
    };
    response: {
      /** Absolute URL; no key needed. */
      "url": string;
      "expires_at": string;
    };
  };
  "GET /v1/account": {
    path: never;
    query: never;
    body: never;
    response: {
      "id": string;
      "name": string;
      "usage": {
        "bytes": string;
        "files": number;
      };
      "limits": {
        /** null: unlimited. */
        "bytes": string | null;
        /** null: unlimited. */
        "files": number | null;
      };
      "key": {
        "id": string;
        /** `read`: list and download; `write`: also upload, edit and delete; `admin`: also manage keys. */
        "scope": "read" | "write" | "admin";
        "workspace_id": string | null;
      };
    };
  };
  "POST /v1/keys": {
    path: never;
    query: never;
    body: {
      /** `read`: list and download; `write`: also upload, edit and delete; `admin`: also manage keys. */
      "scope"?: "read" | "write" | "admin";
      "workspace_id"?: string;
      "name"?: string;
    };
    response: {
      "id": string;
      "name": string;
      /** `read`: list and download; `write`: also upload, edit and delete; `admin`: also manage keys. */
      "scope": "read" | "write" | "admin";
      /** The Space the key is bound to; null: every Space of the account. */
      "workspace_id": string | null;
      "created_at": string;
      "revoked_at": string | null;
      /** The key itself; shown only this once. */
      "key": string;
    };
  };
  "GET /v1/keys": {
    path: never;
    query: never;
    body: never;
    response: {
      "keys": Array<{
        "id": string;
        "name": string;
        /** `read`: list and download; `write`: also upload, edit and delete; `admin`: also manage keys. */
        "scope": "read" | "write" | "admin";
        /** The Space the key is bound to; null: every Space of the account. */
        "workspace_id": string | null;
        "created_at": string;
        "revoked_at": string | null;
      }>;
    };
  };
  "DELETE /v1/keys/{keyId}": {
    path: {
      "keyId": string;
    };
    query: never;
    body: never;
    response: void;
  };
  "POST /v1/webhooks": {
    path: never;
    query: never;
    body: {
      /** An http:// or https:// URL; private and local addresses are refused unless the server allows them. */
      "url": string;
      "events"?: Array<"file.created" | "file.deleted" | "edit.succeeded" | "edit.failed">;
      "description"?: string;
    };
    response: {
      "id": string;
      "url": string;
      "events": Array<"file.created" | "file.deleted" | "edit.succeeded" | "edit.failed">;
      "description": string | null;
      "created_at": string;
      /** The signing secret: `whsec_` and the base64 of its bytes. Shown only this once. */
      "secret": string;
    };
  };
  "GET /v1/webhooks": {
    path: never;
    query: never;
    body: never;
    response: {
      "webhooks": Array<{
        "id": string;
        "url": string;
        "events": Array<"file.created" | "file.deleted" | "edit.succeeded" | "edit.failed">;
        "description": string | null;
        "created_at": string;
      }>;
    };
  };
  "GET /v1/webhooks/{id}": {
    path: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "url": string;
      "events": Array<"file.created" | "file.deleted" | "edit.succeeded" | "edit.failed">;
      "description": string | null;
      "created_at": string;
    };
  };
  "DELETE /v1/webhooks/{id}": {
    path: {
      "id": string;
    };
    query: never;
    body: never;
    response: void;
  };
  "GET /v1/webhooks/{id}/deliveries": {
    path: {
      "id": string;
    };
    query: {
      "limit"?: number;
      "cursor"?: string;
    };
    body: never;
    response: {
      "deliveries": Array<{
        "id": string;
        /** Sent as `webhook-id`: the same at every attempt and for every endpoint. */
        "event_id": string;
        /** `file.created`: A file was stored: by an upload, or as the result of an edit. `file.deleted`: A file was deleted: by itself, or with its Space (`force=true`). `edit.succeeded`: An edit job (`Prefer: respond-async`) finished: its result is a new file. `edit.failed`: An edit job failed or was refused; nothing was stored. */
        "event_type": "file.created" | "file.deleted" | "edit.succeeded" | "edit.failed";
        "status": "pending" | "delivered" | "failed";
        /** When a pending delivery is tried next; null once it is delivered or failed. */
        "next_attempt_at": string | null;
        "created_at": string;
        "finished_at": string | null;
        /** The body sent: `{type, timestamp, data}`. */
        "payload": {
          [key: string]: unknown;
        };
        /** Every attempt so far, the first first. */
        "attempts": Array<{
          "attempt": number;
          "started_at": string;
          "duration_ms": number;
          /** The receiver's HTTP status; null when it did not answer. */
          "status_code": number | null;
          /** Why the attempt failed; null when it succeeded. */
          "error": string | null;
        }>;
      }>;
      "pagination": {
        "hasMore": boolean;
        /** Empty when hasMore is false. */
        "cursor": string;
      };
    };
  };
}
