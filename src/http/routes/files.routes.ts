import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, invalidRequest } from '../../errors.ts';
import { BlobTooLargeError } from '../../storage/blob-store.ts';
import type { AppContext } from '../../context.ts';
import { sanitizeFileName, resolveMimeType } from '../../services/file-names.ts';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, type Allowance, type FilePage, type IncomingFile } from '../../services/files.service.ts';
import { ownerOf } from '../auth.ts';
import { matchesEtag } from '../content.ts';
import { acceptMultipart } from '../multipart.ts';
import { sendFileContent } from '../deliver.ts';
import { toFileRecord } from '../records.ts';
import { FileIdParams, errorResponses } from '../schemas.ts';

/**
 * The most bytes of a multipart body that are not file content: per part, the headers busboy
 * accepts (80 KiB by default) and a boundary line (at most 70 characters and its dashes and CRLFs).
 * A declared Content-Length beyond this plus what the account may still store cannot fit.
 */
const MULTIPART_FRAMING_BYTES_PER_PART = 80 * 1024 + 80;

const WorkspaceId = Type.String({ minLength: 1, maxLength: 64, description: 'A Space of the caller.' });

/** 413 for an upload whose bytes (`what` says which) pass what the account may still store. */
function quotaRefusal(allowance: Allowance, what: string): AppError {
  return new AppError('quota_exceeded', `${what} more than the ${allowance.bytes} bytes the account may still store under ${allowance.quota}; nothing was stored. Delete files or ask the operator for a larger quota`);
}

export const filesRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = async (app, { context }) => {
  const { files, edits, config } = context;
  /** The JSON of each page while the page lives (the service's list cache bounds how many do). */
  const pageJson = new WeakMap<FilePage, Buffer>();

  app.get(
    '/v1/storage/files',
    {
      config: { scope: 'read' },
      // The handler sends the page as JSON bytes it wrote itself, so no serializer runs: the page
      // is built from explicit records (toFileRecord) and needs no schema to drop stray fields,
      // and V8's JSON.stringify writes it in about half the time the schema's serializer took
      // (100 records: 54 against 68–140 µs, docs/benchmarks.md). The schema stays what the
      // OpenAPI document says, and test/http checks the answer against it.
      schema: {
        tags: ['storage'],
        summary: 'List files, newest first',
        description:
          'Keyset pagination: pass `pagination.cursor` of a page as `cursor` to get the next one. Walking the chain returns every file that existed when it began exactly once. A page (not an empty one) has an `ETag`; send it back in `If-None-Match` and an unchanged page is answered 304 with no body, without reading it.',
        headers: Type.Object({ 'if-none-match': Type.Optional(Type.String({ description: 'The ETag of a page held: 304 while the page is unchanged.' })) }),
        querystring: Type.Object({
          limit: Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT, default: DEFAULT_LIST_LIMIT, description: 'Files per page.' }),
          cursor: Type.Optional(Type.String({ maxLength: 200, description: 'Opaque; from the previous page.' })),
          workspace_id: Type.Optional(WorkspaceId),
        }),
        response: {
          200: Type.Object({
            files: Type.Array(Type.Ref('FileRecord')),
            pagination: Type.Object({ hasMore: Type.Boolean(), cursor: Type.String({ description: 'Empty when hasMore is false.' }) }),
          }),
          304: Type.Null({ description: 'Not modified: the page of the If-None-Match tag is the page now.' }),
          ...errorResponses(400, 401, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const { limit, cursor, workspace_id } = request.query;
      const asked = { limit, cursor: cursor || undefined, spaceId: workspace_id };
      // A page a client holds unchanged is not read: its tag comes from the account's list version
      // alone. The answers stay no-store (a browser keeps no list on disk): the client that sends
      // the tag keeps the page itself. `*` is not honoured: an empty page has no tag to match.
      const held = request.headers['if-none-match'];
      if (held) {
        const etag = await files.listEtag(ownerOf(request), asked);
        // No body, and so no Content-Length (a 304's would have to be the page's).
        if (etag && matchesEtag(held, etag, false)) return reply.header('etag', etag).status(304).send(undefined as never);
      }
      const page = await files.list(ownerOf(request), asked);
      if (page.etag) void reply.header('etag', page.etag);
      // A page the service answers again (its list cache) is the same object: its JSON is
      // written once, and sent as bytes, not encoded again for each answer.
      let json = pageJson.get(page);
      if (!json) {
        json = Buffer.from(JSON.stringify({ files: page.files.map(toFileRecord), pagination: { hasMore: page.hasMore, cursor: page.cursor } }));
        pageJson.set(page, json);
      }
      // Bytes, which the route's typed reply (the schema's object) does not describe.
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );

  // Multipart bodies are parsed in this route's scope only (multipart.ts).
  await app.register(async (scope) => {
    await acceptMultipart(scope, config);
    const upload = scope.withTypeProvider<TypeBoxTypeProvider>();
    upload.post(
      '/v1/storage/files',
      {
        config: { scope: 'write' },
        schema: {
          tags: ['storage'],
          summary: 'Upload one or more files',
          description: 'multipart/form-data with one or more parts named `file` and an optional field `workspace_id` (default: the `default` Space). All files are stored, or none. Small files of one request share a quilt.',
          querystring: Type.Object({ workspace_id: Type.Optional(WorkspaceId) }),
          response: { 201: Type.Object({ files: Type.Array(Type.Ref('FileRecord')) }), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
        },
      },
      async (request, reply) => {
        const owner = ownerOf(request);
        if (!request.isMultipart()) throw new AppError('unsupported_media_type', 'upload as multipart/form-data with one or more parts named "file"');
        let spaceId = request.query.workspace_id;
        const incoming: IncomingFile[] = [];
        // Over quota is refused before the bytes arrive when the declared length says so, else as
        // soon as they pass what the account may still store: never staged whole, and whatever was
        // staged is removed before the answer.
        const allowance = await files.allowance(owner);
        const overQuota = (what: string) => quotaRefusal(allowance, what);
        const declared = Number(request.headers['content-length']);
        if (allowance.bytes !== undefined && declared - (config.maxFilesPerUpload + 4) * MULTIPART_FRAMING_BYTES_PER_PART > allowance.bytes) {
          throw overQuota(`the upload declares ${declared} bytes (Content-Length),`);
        }
        let stagedBytes = 0;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'file') throw invalidRequest(`unexpected file part "${part.fieldname}": name every file part "file"`);
              if (allowance.files !== undefined && incoming.length >= allowance.files) await files.checkQuota(owner, stagedBytes, incoming.length + 1);
              const room = allowance.bytes === undefined ? Number.MAX_SAFE_INTEGER : allowance.bytes - stagedBytes;
              const staged = await files.stage(part.file, Math.min(config.maxFileBytes, room)).catch((error: unknown) => {
                throw error instanceof BlobTooLargeError && room < config.maxFileBytes ? overQuota('the files of the upload are') : error;
              });
              stagedBytes += staged.sizeBytes;
              const name = sanitizeFileName(part.filename);
              incoming.push({ staged, name, mimeType: resolveMimeType(part.mimetype, name) });
            } else if (part.fieldname === 'workspace_id') {
              if (part.valueTruncated) throw invalidRequest('workspace_id is longer than any Space id');
              if (typeof part.value !== 'string' || part.value.length === 0) throw invalidRequest('workspace_id must be the id of one of your Spaces');
              spaceId = part.value;
            } else {
              throw invalidRequest(`unknown field "${part.fieldname}": send parts named "file" and, optionally, "workspace_id"`);
            }
          }
        } catch (error) {
          await Promise.all(incoming.map((f) => f.staged.discard()));
          throw error;
        }
        if (incoming.length === 0) throw invalidRequest('no file in the request: send one or more parts named "file"');
        const stored = await files.commit(owner, spaceId, incoming, undefined, allowance);
        return reply.status(201).send({ files: stored.map(toFileRecord) });
      },
    );
  });

  // One file as the whole body, for clients that need no multipart: the bytes are staged as they
  // arrive (the body is never parsed nor buffered whole), with the same limits and quota as above.
  await app.register(async (scope) => {
    const raw = scope.withTypeProvider<TypeBoxTypeProvider>();
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    raw.post(
      '/v1/storage/files/raw',
      {
        config: { scope: 'write' },
        schema: {
          tags: ['storage'],
          summary: 'Upload one file as the request body',
          description:
            'The body is the file\'s bytes; `name` names it and `Content-Type` is its type (without one, or `application/octet-stream`, the type follows the name\'s extension). The same limits and quota as the multipart upload; answers like it.',
          querystring: Type.Object({
            name: Type.String({ minLength: 1, maxLength: 1024, description: 'The file\'s name.' }),
            workspace_id: Type.Optional(WorkspaceId),
          }),
          response: { 201: Type.Object({ files: Type.Array(Type.Ref('FileRecord')) }), ...errorResponses(400, 401, 403, 404, 413, 429) },
        },
      },
      async (request, reply) => {
        const owner = ownerOf(request);
        const allowance = await files.allowance(owner);
        const overQuota = (what: string) => quotaRefusal(allowance, what);
        const declared = Number(request.headers['content-length']);
        if (declared > config.maxFileBytes) throw new BlobTooLargeError(config.maxFileBytes);
        if (allowance.bytes !== undefined && declared > allowance.bytes) throw overQuota(`the upload declares ${declared} bytes (Content-Length),`);
        if (allowance.files !== undefined && allowance.files < 1) await files.checkQuota(owner, 0, 1);
        const room = allowance.bytes ?? Number.MAX_SAFE_INTEGER;
        // No body at all (neither a length nor chunks): an empty file, as a zero Content-Length is.
        // Staging that stops early (over a limit) leaves the request whole: destroyed, it would
        // reset the connection before the answer; whole, its rest is drained (app.ts).
        const payload = request.body as Readable | undefined;
        const body: AsyncIterable<Buffer> | Buffer[] = payload ? payload.iterator({ destroyOnReturn: false }) : [];
        const staged = await files.stage(body, Math.min(config.maxFileBytes, room)).catch((error: unknown) => {
          throw error instanceof BlobTooLargeError && room < config.maxFileBytes ? overQuota('the file is') : error;
        });
        const name = sanitizeFileName(request.query.name);
        const stored = await files.commit(owner, request.query.workspace_id, [{ staged, name, mimeType: resolveMimeType(request.headers['content-type'], name) }], undefined, allowance);
        return reply.status(201).send({ files: stored.map(toFileRecord) });
      },
    );
  });

  app.get(
    '/v1/storage/files/:fileId',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['storage'],
        summary: 'Get one file record',
        description: 'The record, and `edit` (source, prompt and plan) when the file is the result of an edit.',
        params: FileIdParams,
        response: { 200: Type.Ref('FileRecord'), ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => {
      const owner = ownerOf(request);
      const file = await files.get(owner, request.params.fileId);
      const edit = await edits.lineageOf(owner.accountId, file.id);
      return { ...toFileRecord(file), ...(edit ? { edit } : {}) };
    },
  );

  app.get(
    '/v1/storage/files/:fileId/content',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['storage'],
        summary: "Download a file's bytes",
        description: 'Streams the bytes with their Content-Type and an ETag (the blobId). Honours one `Range: bytes=…` (206) and `If-None-Match` (304). `download=true` forces a download.',
        params: FileIdParams,
        querystring: Type.Object({ download: Type.Optional(Type.Boolean()) }),
        response: {
          200: Type.String({ format: 'binary', description: 'The bytes.' }),
          206: Type.String({ format: 'binary', description: 'The requested range.' }),
          304: Type.Null({ description: 'Not modified.' }),
          ...errorResponses(401, 404, 416, 429),
        },
      },
    },
    async (request, reply) => sendFileContent(request, reply, files, await files.get(ownerOf(request), request.params.fileId), request.query.download === true),
  );

  app.delete(
    '/v1/storage/files/:fileId',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['storage'],
        summary: 'Delete a file',
        params: FileIdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404, 429) },
      },
    },
    async (request, reply) => {
      await files.delete(ownerOf(request), request.params.fileId);
      return reply.status(204).send(null);
    },
  );
};
