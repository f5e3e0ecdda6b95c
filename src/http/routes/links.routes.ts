import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ownerOf } from '../auth.ts';
import { sendFileContent, sendThumbnail } from '../deliver.ts';
import { FileIdParams, errorResponses } from '../schemas.ts';

const LinkBody = Type.Object(
  {
    expires_in: Type.Integer({ minimum: 1, description: 'Seconds the link works for; at most TESSERA_LINK_MAX_EXPIRES_SECONDS (default 7 days).', examples: [3600] }),
    thumbnail_width: Type.Optional(Type.Integer({ minimum: 16, description: 'Given: the link serves a WebP thumbnail this wide (as GET …/thumbnail?width=) instead of the bytes.' })),
    download: Type.Optional(Type.Boolean({ description: 'The bytes as an attachment (`Content-Disposition: attachment`), as `download=true` on the content route.' })),
  },
  { additionalProperties: false },
);

/** `POST /v1/storage/files/{fileId}/links`: keyed, like every /v1 route. */
export const linksRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = async (app, { context }) => {
  const { links, config } = context;

  app.post(
    '/v1/storage/files/:fileId/links',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['storage'],
        summary: 'A signed link to a file (or a thumbnail of it) that works without a key',
        description:
          'The URL serves the file like GET …/content (Range, ETag, 304, Content-Disposition) — or, with `thumbnail_width`, like GET …/thumbnail — to anyone who has it, ' +
          'until `expires_at`. It is signed (HMAC-SHA256) with the server\'s secret; an altered or expired link is 403, and a deleted file\'s links stop at once. ' +
          'Its origin is TESSERA_PUBLIC_URL, else the origin this request was made to.',
        params: FileIdParams,
        body: LinkBody,
        response: {
          201: Type.Object({
            url: Type.String({ description: 'Absolute URL; no key needed.' }),
            expires_at: Type.String({ format: 'date-time' }),
          }),
          ...errorResponses(400, 401, 404, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { expires_in, thumbnail_width, download } = request.body;
      const link = await links.create(ownerOf(request), request.params.fileId, { expiresInSeconds: expires_in, thumbnailWidth: thumbnail_width, download });
      return reply.status(201).send({ url: `${config.publicUrl ?? originOf(request)}${link.pathAndQuery}`, expires_at: link.expiresAt.toISOString() });
    },
  );
};

/** Where signed links point: TESSERA_PUBLIC_URL's origin is the caller's choice; else the one this request was made to. */
export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** Every part of a link's query arrives as a string: an altered one is 403 from the signature check, not 400. */
const LinkQuery = Type.Object({
  expires: Type.Optional(Type.String({ maxLength: 20, description: 'Unix time (seconds) the link stops working.' })),
  sig: Type.Optional(Type.String({ maxLength: 100, description: 'The signature.' })),
});

/** The links themselves: no key, the signature is the credential. */
export const publicLinksRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = async (app, { context }) => {
  const { links, files, thumbnails } = context;

  app.get(
    '/links/files/:fileId/content',
    {
      schema: {
        tags: ['links'],
        summary: 'A file, through a signed link',
        description: 'Answers exactly as GET /v1/storage/files/{fileId}/content. 403 when the link is expired or altered (whether or not the file exists); 404 once the file is deleted.',
        params: FileIdParams,
        querystring: Type.Object({ ...LinkQuery.properties, download: Type.Optional(Type.String({ maxLength: 10 })) }),
        response: {
          200: Type.String({ format: 'binary' }),
          206: Type.String({ format: 'binary' }),
          304: Type.Null({ description: 'Not modified.' }),
          ...errorResponses(403, 404, 416, 429),
        },
      },
    },
    async (request, reply) => {
      const grant = await links.open('content', request.params.fileId, request.query);
      return sendFileContent(request, reply, files, grant.file, grant.download);
    },
  );

  app.get(
    '/links/files/:fileId/thumbnail',
    {
      schema: {
        tags: ['links'],
        summary: 'A thumbnail, through a signed link',
        description: 'Answers exactly as GET /v1/storage/files/{fileId}/thumbnail; cacheable until the link expires at most.',
        params: FileIdParams,
        querystring: Type.Object({ ...LinkQuery.properties, width: Type.Optional(Type.String({ maxLength: 10 })) }),
        response: {
          200: Type.String({ format: 'binary', description: 'image/webp' }),
          304: Type.Null({ description: 'Not modified.' }),
          ...errorResponses(403, 404, 413, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const grant = await links.open('thumbnail', request.params.fileId, request.query);
      return sendThumbnail(request, reply, await thumbnails.thumbnailOf(grant.file, grant.width!), grant.secondsLeft);
    },
  );
};
