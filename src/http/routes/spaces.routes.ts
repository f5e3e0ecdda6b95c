import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ownerOf } from '../auth.ts';
import { toSpace } from '../records.ts';
import { SpaceEncryptionField, SpaceIdParams, errorResponses } from '../schemas.ts';

export const spacesRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = async (app, { context }) => {
  const { spaces } = context;

  app.post(
    '/v1/spaces',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['spaces'],
        summary: 'Create a Space',
        description: 'A key bound to a Space cannot create Spaces (403).',
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f]+$', description: 'Unique within your account.' }),
            encryption: Type.Optional(SpaceEncryptionField),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Ref('Space'), ...errorResponses(400, 401, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => reply.status(201).send(toSpace(await spaces.create(ownerOf(request), request.body.name, request.body.encryption))),
  );

  app.get(
    '/v1/spaces',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['spaces'],
        summary: 'List your Spaces',
        description: 'Every account has a Space named `default`, where uploads without a workspace_id go.',
        response: { 200: Type.Object({ spaces: Type.Array(Type.Ref('Space')) }), ...errorResponses(401, 429) },
      },
    },
    async (request) => ({ spaces: (await spaces.list(ownerOf(request))).map(toSpace) }),
  );

  app.get(
    '/v1/spaces/:id',
    {
      config: { scope: 'read' },
      schema: { tags: ['spaces'], summary: 'Get a Space', params: SpaceIdParams, response: { 200: Type.Ref('Space'), ...errorResponses(401, 404, 429) } },
    },
    async (request) => toSpace(await spaces.get(ownerOf(request), request.params.id)),
  );

  app.patch(
    '/v1/spaces/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['spaces'],
        summary: "Change a Space's encryption",
        description: 'Applies to files stored from now on; files already stored keep the bytes they were stored with. A key bound to a Space cannot change it (403).',
        params: SpaceIdParams,
        body: Type.Object({ encryption: SpaceEncryptionField }, { additionalProperties: false }),
        response: { 200: Type.Ref('Space'), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) => toSpace(await spaces.setEncryption(ownerOf(request), request.params.id, request.body.encryption)),
  );

  app.delete(
    '/v1/spaces/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['spaces'],
        summary: 'Delete a Space',
        description: 'A Space that still holds files is refused (409) unless `force=true`, which deletes its files too. The `default` Space cannot be deleted. A key bound to a Space cannot delete Spaces (403).',
        params: SpaceIdParams,
        querystring: Type.Object({ force: Type.Optional(Type.Boolean()) }),
        response: { 204: Type.Null(), ...errorResponses(401, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      await spaces.delete(ownerOf(request), request.params.id, request.query.force === true);
      return reply.status(204).send(null);
    },
  );
};
