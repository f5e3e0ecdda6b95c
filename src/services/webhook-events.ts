import type { Kysely, Transaction } from 'kysely';
import { Type, type Static, type TSchema } from 'typebox';
import type { Schema } from '../db/schema.ts';

/**
 * Every event a webhook endpoint can receive, declared once: its type, what it means, and the
 * schema of its `data`. The routes' validation of `events`, the OpenAPI document's `webhooks`
 * and docs/api.md follow from this table. Every body sent is the Standard Webhooks envelope
 * `{type, timestamp, data}` (WebhookEnvelope below).
 */

/** An object schema whose extra fields the TypeScript type allows too (the schema already does). */
const Open = <T extends Record<string, unknown>>(schema: TSchema) => Type.Unsafe<T & { [field: string]: unknown }>(schema);

const ErrorData = Open<{ code: string; message: string; reason?: string }>(
  Type.Object(
    {
      code: Type.String({ description: 'The error code, as in the error table of the API.' }),
      message: Type.String(),
      reason: Type.Optional(Type.String({ description: 'Why an edit was refused (the refusal reasons of the API).' })),
    },
    { additionalProperties: true },
  ),
);

const FileData = {
  fileId: Type.String(),
  workspaceId: Type.String({ description: 'The Space that holds (or held) the file.' }),
  name: Type.String(),
  mimeType: Type.String(),
  sizeBytes: Type.String({ pattern: '^[0-9]+$', description: 'Size in bytes, as a decimal string.' }),
};

export const WEBHOOK_EVENTS = {
  'file.created': {
    summary: 'A file was stored: by an upload, or as the result of an edit.',
    data: Type.Object({ ...FileData, createdAt: Type.String({ format: 'date-time' }), blobId: Type.String({ description: 'Content-derived id of the bytes.' }) }),
  },
  'file.deleted': {
    summary: 'A file was deleted: by itself, or with its Space (`force=true`).',
    data: Type.Object({ ...FileData, deletedAt: Type.String({ format: 'date-time' }) }),
  },
  'edit.succeeded': {
    summary: 'An edit job (`Prefer: respond-async`) finished: its result is a new file.',
    data: Type.Object(
      {
        id: Type.String({ description: 'The edit job, as `GET /v1/images/edits/{id}` names it.' }),
        status: Type.Literal('succeeded'),
        result: Open<Record<string, unknown>>(
          Type.Object(
            {},
            {
              additionalProperties: true,
              description: "The JSON edit's answer (`file_id`, `name`, `mime_type`, …); for the OpenAI form, its first image's (`answers` lists every image's).",
            },
          ),
        ),
      },
      { additionalProperties: true },
    ),
  },
  'edit.failed': {
    summary: 'An edit job failed or was refused; nothing was stored.',
    data: Type.Object({ id: Type.String(), status: Type.Literal('failed'), error: ErrorData }, { additionalProperties: true }),
  },
} as const satisfies Record<string, { summary: string; data: TSchema }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export type WebhookEventData<T extends WebhookEventType> = Static<(typeof WEBHOOK_EVENTS)[T]['data']>;

export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return Object.hasOwn(WEBHOOK_EVENTS, value);
}

/** The body of every delivery (Standard Webhooks' payload structure). */
export function webhookEnvelope(type: WebhookEventType) {
  return Type.Object({
    type: Type.Literal(type),
    timestamp: Type.String({ format: 'date-time', description: 'When the event happened (not when it was sent).' }),
    data: WEBHOOK_EVENTS[type].data,
  });
}

/** One event to publish. */
export type WebhookEvent = { [T in WebhookEventType]: { type: T; data: WebhookEventData<T>; at?: number } }[WebhookEventType];

/**
 * Writes the outbox rows of events in the caller's transaction (WebhooksService.publish): what
 * the files service, and the edit jobs, are handed.
 */
export type EventPublisher = (trx: Kysely<Schema> | Transaction<Schema>, accountId: string, events: readonly WebhookEvent[]) => Promise<number>;
