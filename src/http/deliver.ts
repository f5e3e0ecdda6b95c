import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredFile } from '../db/repositories/files.repository.ts';
import { contentIdOf } from '../db/repositories/blobs.repository.ts';
import { AppError } from '../errors.ts';
import type { FilesService } from '../services/files.service.ts';
import type { Thumbnail } from '../services/thumbnails.service.ts';
import { contentDisposition, matchesEtag, parseRange } from './content.ts';

/**
 * How a file's bytes and thumbnails are answered, whether the caller showed a key or a signed
 * link: one code path, so both answer exactly alike (Range, ETag, 304, Content-Disposition and
 * the download safety headers).
 */
export async function sendFileContent(request: FastifyRequest, reply: FastifyReply, files: FilesService, file: StoredFile, forceDownload: boolean): Promise<FastifyReply> {
  const etag = `"${contentIdOf(file.blob_id)}"`;
  void reply.headers({
    etag,
    'accept-ranges': 'bytes',
    'cache-control': 'private, no-cache',
    'x-content-type-options': 'nosniff',
    // User content never runs script in our origin, whatever its type claims.
    'content-security-policy': "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
    'content-disposition': contentDisposition(file.name, file.mime_type, forceDownload),
  });
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
  const ifRange = request.headers['if-range'];
  const outcome = ifRange && ifRange !== etag ? { kind: 'full' as const } : parseRange(request.headers.range, file.size_bytes);
  if (outcome.kind === 'unsatisfiable') {
    throw new AppError('invalid_request', `range ${request.headers.range} is outside the file's ${file.size_bytes} bytes`, {
      status: 416,
      headers: { 'content-range': `bytes */${file.size_bytes}` },
    });
  }
  const range = outcome.kind === 'partial' ? outcome.range : undefined;
  const content = await files.content(file, range);
  void reply.type(file.mime_type);
  if (range) {
    void reply.status(206).headers({ 'content-range': `bytes ${range.start}-${range.end}/${file.size_bytes}`, 'content-length': range.end - range.start + 1 });
  } else {
    void reply.header('content-length', file.size_bytes);
  }
  return reply.send(content as never); // bytes or a stream, as they are: the serializer touches neither
}

/** A week, or less when the link that asked expires sooner. */
const THUMBNAIL_MAX_AGE_SECONDS = 604800;

export function sendThumbnail(request: FastifyRequest, reply: FastifyReply, thumbnail: Thumbnail, maxAgeSeconds = THUMBNAIL_MAX_AGE_SECONDS): FastifyReply {
  void reply.headers({
    etag: thumbnail.etag,
    // A file's bytes never change, so neither does its thumbnail; a browser may keep it a week.
    'cache-control': `private, max-age=${Math.min(maxAgeSeconds, THUMBNAIL_MAX_AGE_SECONDS)}`,
    vary: 'x-api-key',
    'x-content-type-options': 'nosniff',
  });
  if (matchesEtag(request.headers['if-none-match'], thumbnail.etag)) return reply.status(304).send();
  return reply.type(thumbnail.mimeType).header('content-length', thumbnail.data.length).send(thumbnail.data as never); // bytes as they are: the serializer does not touch buffers
}
