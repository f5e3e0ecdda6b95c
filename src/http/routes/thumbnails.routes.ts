import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ownerOf } from '../auth.ts';
import { sendThumbnail } from '../deliver.ts';
import { FileIdParams, errorResponses } from '../schemas.ts';

export const DEFAULT_THUMBNAIL_WIDTH = 320;

export const thumbnailsRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = async (app, { context }) => {
  const { thumbnails, config } = context;

  app.get(
    '/v1/storage/files/:fileId/thumbnail',
    {
      config: { scope: 'read' },
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
      return sendThumbnail(request, reply, await thumbnails.thumbnail(ownerOf(request), request.params.fileId, request.query.width));
    },
  );
};
