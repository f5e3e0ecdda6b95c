import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Multipart bodies, for the routes of `scope` only (the upload and the OpenAI edit form). The
 * plugin hooks every request of the scope it is registered in (a listener on the response, and an
 * async hook after it to clean saved files, which no route saves), so registered for all of /v1
 * it cost every download and list a share of its time for bodies they never take.
 */
export async function acceptMultipart(scope: FastifyInstance, config: Pick<Config, 'maxFileBytes' | 'maxFilesPerUpload'>): Promise<void> {
  await scope.register(multipart, {
    limits: {
      fileSize: config.maxFileBytes,
      files: config.maxFilesPerUpload,
      parts: config.maxFilesPerUpload + 4,
      fields: 4,
      fieldSize: 1024,
      headerPairs: 50,
    },
  });
}
