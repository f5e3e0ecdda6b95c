import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { WebhookEndpointRow } from '../../db/schema.ts';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from '../../services/files.service.ts';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, type DeliveryWithAttempts, type WebhookEventType } from '../../services/webhooks.service.ts';
import { ownerOf } from '../auth.ts';
import { errorResponses } from '../schemas.ts';

const EventType = Type.Unsafe<WebhookEventType>(
  Type.Union(
    WEBHOOK_EVENT_TYPES.map((type) => Type.Literal(type)),
    { description: WEBHOOK_EVENT_TYPES.map((type) => `\`${type}\`: ${WEBHOOK_EVENTS[type].summary}`).join(' ') },
  ),
);

const Endpoint = Type.Object({
  id: Type.String({ examples: ['whk_01JDFX4Q3M9Z7K8R2T5V6W7X8Y'] }),
  url: Type.String(),
  events: Type.Array(EventType),
  description: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

const Attempt = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  started_at: Type.String({ format: 'date-time' }),
  duration_ms: Type.Integer(),
  status_code: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status; null when it did not answer." }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why the attempt failed; null when it succeeded.' }),
});

const Delivery = Type.Object({
  id: Type.String({ examples: ['whd_01JDFX4Q3M9Z7K8R2T5V6W7X8Y'] }),
  event_id: Type.String({ description: 'Sent as `webhook-id`: the same at every attempt and for every endpoint.' }),
  event_type: EventType,
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When a pending delivery is tried next; null once it is delivered or failed.' }),
  created_at: Type.String({ format: 'date-time' }),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  payload: Type.Object({}, { additionalProperties: true, description: 'The body sent: `{type, timestamp, data}`.' }),
  attempts: Type.Array(Attempt, { description: 'Every attempt so far, the first first.' }),
});

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const iso = (ms: number) => new Date(Number(ms)).toISOString();

function toEndpoint(row: WebhookEndpointRow) {
  return { id: row.id, url: row.url, events: JSON.parse(row.events) as WebhookEventType[], description: row.description, created_at: iso(row.created_at) };
}

function toDelivery(row: DeliveryWithAttempts) {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type as WebhookEventType,
    status: row.status,
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    created_at: iso(row.created_at),
    finished_at: row.finished_at === null ? null : iso(row.finished_at),
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    attempts: row.attemptHistory.map((a) => ({ attempt: a.attempt, started_at: iso(a.started_at), duration_ms: a.duration_ms, status_code: a.status_code, error: a.error })),
  };
}

/** Webhook endpoints of the caller's account, and what was delivered to them. Admin keys only. */
export const webhooksRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = async (app, { context }) => {
  const { webhooks } = context;

  app.post(
    '/v1/webhooks',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['webhooks'],
        summary: 'Register a webhook endpoint',
        description:
          'Events of the account are POSTed to `url`, signed as the Standard Webhooks specification says. `events` defaults to every event type. ' +
          'The answer holds the signing `secret` (`whsec_…`), the only time it is shown. A key bound to a Space cannot manage webhooks (403).',
        body: Type.Object(
          {
            url: Type.String({ minLength: 1, maxLength: 2048, description: 'An http:// or https:// URL; private and local addresses are refused unless the server allows them.' }),
            events: Type.Optional(Type.Array(EventType, { minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length * 4 })),
            description: Type.Optional(Type.String({ maxLength: 500, pattern: '^[^\\u0000-\\u001f\\u007f]*$' })),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Object({ ...Endpoint.properties, secret: Type.String({ description: 'The signing secret: `whsec_` and the base64 of its bytes. Shown only this once.' }) }), ...errorResponses(400, 401, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const created = await webhooks.create(ownerOf(request), request.body);
      return reply.status(201).send({ ...toEndpoint(created.endpoint), secret: created.secret });
    },
  );

  app.get(
    '/v1/webhooks',
    {
      config: { scope: 'admin' },
      schema: { tags: ['webhooks'], summary: "Your account's webhook endpoints (never their secrets)", response: { 200: Type.Object({ webhooks: Type.Array(Endpoint) }), ...errorResponses(401, 429) } },
    },
    async (request) => ({ webhooks: (await webhooks.list(ownerOf(request))).map(toEndpoint) }),
  );

  app.get(
    '/v1/webhooks/:id',
    {
      config: { scope: 'admin' },
      schema: { tags: ['webhooks'], summary: 'Get a webhook endpoint', params: IdParams, response: { 200: Endpoint, ...errorResponses(401, 404, 429) } },
    },
    async (request) => toEndpoint(await webhooks.get(ownerOf(request), request.params.id)),
  );

  app.delete(
    '/v1/webhooks/:id',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['webhooks'],
        summary: 'Delete a webhook endpoint',
        description: 'Nothing more is sent to it, pending deliveries included; its delivery history goes with it.',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404, 429) },
      },
    },
    async (request, reply) => {
      await webhooks.delete(ownerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['webhooks'],
        summary: "A webhook endpoint's deliveries, newest first, with every attempt",
        description: 'Paginated like the files: pass `pagination.cursor` as `cursor` for the next page. Delivered and failed deliveries are kept for `TESSERA_WEBHOOK_DELIVERY_TTL_SECONDS`.',
        params: IdParams,
        querystring: Type.Object({
          limit: Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT, default: DEFAULT_LIST_LIMIT, description: 'Deliveries per page.' }),
          cursor: Type.Optional(Type.String({ maxLength: 200, description: 'Opaque; from the previous page.' })),
        }),
        response: {
          200: Type.Object({ deliveries: Type.Array(Delivery), pagination: Type.Object({ hasMore: Type.Boolean(), cursor: Type.String({ description: 'Empty when hasMore is false.' }) }) }),
          ...errorResponses(400, 401, 404, 429),
        },
      },
    },
    async (request) => {
      const page = await webhooks.deliveries(ownerOf(request), request.params.id, { limit: request.query.limit, cursor: request.query.cursor || undefined });
      return { deliveries: page.deliveries.map(toDelivery), pagination: { hasMore: page.hasMore, cursor: page.cursor } };
    },
  );
};
