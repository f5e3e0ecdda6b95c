import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';

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
    { name: 'system', description: 'Health, readiness and metrics (no key needed)' },
  ],
};

type OpenApiDocument = { paths?: Record<string, Record<string, Record<string, unknown>>> };

/**
 * The upload route reads its multipart body as a stream, so it declares no body schema for the
 * validator; its request body is described here for the document instead.
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
          workspace_id: { type: 'string', description: 'The Space the sources and results go to (default: the `default` Space).' },
          n: { type: 'integer', enum: [1] },
          size: { type: 'string', enum: ['auto'] },
          quality: { type: 'string', enum: ['auto', 'high'] },
          background: { type: 'string', enum: ['auto'] },
          output_format: { type: 'string', enum: ['png', 'jpeg', 'webp', 'avif'] },
          response_format: { type: 'string', enum: ['b64_json', 'url'], default: 'b64_json' },
          model: { type: 'string', description: 'Accepted, not used.' },
          user: { type: 'string', description: 'Accepted, not used.' },
        },
      },
    };
  }
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith('/v1/')) for (const operation of Object.values(methods)) operation.security = [];
  }
  return document as never;
};
