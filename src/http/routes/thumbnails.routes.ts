import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { accountOf } from '../auth.ts';
import { matchesEtag } from '../content.ts';
import { FileIdParams, errorResponses } from '../schemas.ts';

export const DEFAULT_THUMBNAIL_WIDTH = 320;

export const thumbnailsRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = async (app, { context }) => {
  const { thumbnails, config } = context;

  app.get(
    '/v1/storage/files/:fileId/thumbnail',
    {
      schema: {
        tags: ['storage'],
        summary: 'A small WebP rendition of an image file',
        description:
          'Scaled to `width` pixels wide (never enlarged), upright, as WebP. Derived from the bytes and cached by blobId and width; never stored as a file. ' +
          'Cacheable by the caller (`private`, with an ETag). A file that is not an image is 422 `not_an_image`.',
        params: FileIdParams,
        querystring: Type.Object({
          width: Type.Integer({ minimum: 16, maximum: config.thumbnailMaxWidth, default: DEFAULT_THUMBNAIL_WIDTH, description: 'Width in pixels.' }),
        }),
        response: {
          200: Type.String({ format: 'binary', description: 'image/webp' }),
          304: Type.Null({ description: 'Not modified.' }),
          ...errorResponses(400, 401, 404, 413, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const thumbnail = await thumbnails.thumbnail(accountOf(request), request.params.fileId, request.query.width);
      void reply.headers({
        etag: thumbnail.etag,
        // A file's bytes never change, so neither does its thumbnail; a browser may keep it a week.
        'cache-control': 'private, max-age=604800',
        vary: 'x-api-key',
        'x-content-type-options': 'nosniff',
      });
      if (matchesEtag(request.headers['if-none-match'], thumbnail.etag)) return reply.status(304).send(null);
      return reply.type(thumbnail.mimeType).header('content-length', thumbnail.data.length).send(thumbnail.data as never); // bytes as they are: the serializer does not touch buffers
    },
  );
};
