import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { REQUESTABLE_OUTPUT_FORMATS } from '../edits/output-formats.ts';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, webhookEnvelope } from '../services/webhook-events.ts';

/**
 * The events a webhook endpoint receives, as OpenAPI 3.1 describes calls the API makes: one
 * POST per event type, its body the envelope with that event's data (from the event table).
 */
const webhookOperations = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [
    type,
    {
      post: {
        summary: WEBHOOK_EVENTS[type].summary,
        description: 'Signed as the Standard Webhooks specification says: headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the secret\'s decoded bytes). Answer 2xx within the timeout, or it is retried.',
        requestBody: { required: true, content: { 'application/json': { schema: JSON.parse(JSON.stringify(webhookEnvelope(type))) as object } } },
        responses: { '200': { description: 'Any 2xx: delivered.' }, '410': { description: 'Gone: no more attempts of this delivery.' } },
      },
    },
  ]),
);

export const openapiInfo: FastifyDynamicSwaggerOptions['openapi'] = {
  openapi: '3.1.0',
  info: {
    title: 'Tessera',
    version: '1.0.0',
    description:
      'File storage on a content-addressed quilt store, with plain-language image edits. Every `/v1` request needs an API key, in an `x-api-key` header or as `Authorization: Bearer <key>` (OpenAI-style clients), whose scope (`read` < `write` < `admin`) covers the route: each operation names the scope it needs in its security requirement; beyond it, 403 `forbidden`. Errors are `{ "error": { "code", "message" } }`.',
  },
  components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
  security: [{ apiKey: [] }],
  tags: [
    { name: 'storage', description: 'Files and their bytes' },
    { name: 'spaces', description: 'Workspaces that hold files' },
    { name: 'images', description: 'Plain-language image edits' },
    { name: 'account', description: 'Usage, quotas and keys of your account' },
    { name: 'links', description: 'Signed links: a file or thumbnail without a key, until the link expires' },
    { name: 'webhooks', description: 'Endpoints that receive signed events of your account (admin keys)' },
    { name: 'system', description: 'Health, readiness and metrics (no key needed)' },
  ],
  webhooks: webhookOperations,
};

type OpenApiDocument = { paths?: Record<string, Record<string, Record<string, unknown>>> };

/**
 * The upload routes read their bodies as streams (multipart, or the raw bytes), so they declare no
 * body schema for the validator; their request bodies are described here for the document instead.
 */
export const describeUpload: FastifyDynamicSwaggerOptions['transformObject'] = (documentObject) => {
  const document = (documentObject as { openapiObject: OpenApiDocument }).openapiObject;
  const upload = document.paths?.['/v1/storage/files']?.post;
  if (upload) {
    upload.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: {
              file: { type: 'array', items: { type: 'string', format: 'binary' }, description: 'One or more parts named `file`.' },
              workspace_id: { type: 'string', description: 'Target Space (default: `default`).' },
            },
          },
        },
      },
    };
  }
  // The OpenAI Images API form is a route of its own (by content type), hidden: it is described here.
  const edit = document.paths?.['/v1/images/edits']?.post as { requestBody?: { content?: Record<string, unknown> }; description?: string } | undefined;
  if (edit?.requestBody?.content) {
    edit.requestBody.content['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: ['image', 'prompt'],
        description:
          "OpenAI's Images API form (the official SDKs send it): answered `{created, data: [{b64_json | url, file_id, source_file_id, workspace_id, name, mime_type, operations, width, height, size_bytes, created_at}], output_format, size}`; errors `{error: {message, type, param, code, reason}}`. See docs/api.md, OpenAI clients.",
        properties: {
          image: { type: 'array', items: { type: 'string', format: 'binary' }, description: 'One or more pictures (parts `image` or `image[]`); each is edited by the prompt, one result per image in order.' },
          prompt: { type: 'string', maxLength: 4000 },
          mask: { type: 'string', format: 'binary', description: "A PNG with alpha of the image's size, fully transparent where the edit may change it: the looks and generative steps are confined to it (opaque pixels stay the source's); steps it cannot confine, or a region named beside it, are 422. Not with Prefer: respond-async." },
          workspace_id: { type: 'string', description: 'The Space the sources and results go to (default: the `default` Space).' },
          n: { type: 'integer', enum: [1] },
          size: { type: 'string', enum: ['auto'] },
          quality: { type: 'string', enum: ['auto', 'high'] },
          background: { type: 'string', enum: ['auto'] },
          output_format: { type: 'string', enum: [...REQUESTABLE_OUTPUT_FORMATS] },
          response_format: { type: 'string', enum: ['b64_json', 'url'], default: 'b64_json' },
          model: { type: 'string', description: 'Accepted, not used.' },
          user: { type: 'string', description: 'Accepted, not used.' },
        },
      },
    };
  }
  const raw = document.paths?.['/v1/storage/files/raw']?.post;
  if (raw) {
    raw.requestBody = { required: true, content: { '*/*': { schema: { type: 'string', format: 'binary', description: 'The file\'s bytes.' } } } };
  }
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith('/v1/')) for (const operation of Object.values(methods)) operation.security = [];
  }
  return document as never;
};
