import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, invalidRequest } from '../../errors.ts';
import type { AppContext } from '../../context.ts';
import { sanitizeFileName, resolveMimeType } from '../../services/file-names.ts';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, type IncomingFile } from '../../services/files.service.ts';
import { ownerOf } from '../auth.ts';
import { sendFileContent } from '../deliver.ts';
import { toFileRecord } from '../records.ts';
import { FileIdParams, errorResponses } from '../schemas.ts';

const WorkspaceId = Type.String({ minLength: 1, maxLength: 64, description: 'A Space of the caller.' });

export const filesRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = async (app, { context }) => {
  const { files, edits, config } = context;

  app.get(
    '/v1/storage/files',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['storage'],
        summary: 'List files, newest first',
        description: 'Keyset pagination: pass `pagination.cursor` of a page as `cursor` to get the next one. Walking the chain returns every file that existed when it began exactly once.',
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
          ...errorResponses(400, 401, 404, 429),
        },
      },
    },
    async (request) => {
      const { limit, cursor, workspace_id } = request.query;
      const page = await files.list(ownerOf(request), { limit, cursor: cursor || undefined, spaceId: workspace_id });
      return { files: page.files.map(toFileRecord), pagination: { hasMore: page.hasMore, cursor: page.cursor } };
    },
  );

  app.post(
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
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file') throw invalidRequest(`unexpected file part "${part.fieldname}": name every file part "file"`);
            const staged = await files.stage(part.file, config.maxFileBytes);
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
      const stored = await files.commit(owner, spaceId, incoming);
      return reply.status(201).send({ files: stored.map(toFileRecord) });
    },
  );

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
