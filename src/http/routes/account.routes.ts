import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ownerOf } from '../auth.ts';
import { errorResponses } from '../schemas.ts';

const Scope = Type.Union([Type.Literal('read'), Type.Literal('write'), Type.Literal('admin')], { description: '`read`: list and download; `write`: also upload, edit and delete; `admin`: also manage keys.' });
const Limit = Type.Union([Type.String({ pattern: '^[0-9]+$' }), Type.Null()], { description: 'null: unlimited.' });

const KeyRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  scope: Scope,
  workspace_id: Type.Union([Type.String(), Type.Null()], { description: 'The Space the key is bound to; null: every Space of the account.' }),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** The caller's account (usage and limits) and, for admin keys, its keys. */
export const accountRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = async (app, { context }) => {
  const { accounts, keys } = context;

  app.get(
    '/v1/account',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['account'],
        summary: 'Your account: what it stores, its quota, and the key you called with',
        description: 'Byte counts are decimal strings, like `sizeBytes`. A limit of null is unlimited. Usage counts every file of the account, whatever key asks.',
        response: {
          200: Type.Object({
            id: Type.String(),
            name: Type.String(),
            usage: Type.Object({ bytes: Type.String({ pattern: '^[0-9]+$' }), files: Type.Integer() }),
            limits: Type.Object({ bytes: Limit, files: Type.Union([Type.Integer(), Type.Null()], { description: 'null: unlimited.' }) }),
            key: Type.Object({ id: Type.String(), scope: Scope, workspace_id: Type.Union([Type.String(), Type.Null()]) }),
          }),
          ...errorResponses(401, 429),
        },
      },
    },
    async (request) => {
      const principal = ownerOf(request);
      const usage = await accounts.usage(principal.accountId);
      return {
        id: usage.id,
        name: usage.name,
        usage: { bytes: String(usage.usedBytes), files: usage.usedFiles },
        limits: { bytes: usage.limitBytes === undefined ? null : String(usage.limitBytes), files: usage.limitFiles ?? null },
        key: { id: principal.keyId, scope: principal.scope, workspace_id: principal.spaceId },
      };
    },
  );

  app.post(
    '/v1/keys',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['account'],
        summary: 'Create a key for your account',
        description:
          'The key is in the answer only, once; keep it. `scope` defaults to `read`. A key bound to a Space (`workspace_id`) sees and touches only that Space. ' +
          'An admin key bound to a Space makes keys bound to that Space only.',
        body: Type.Object(
          {
            scope: Type.Optional(Scope),
            workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f]+$' })),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Object({ ...KeyRecord.properties, key: Type.String({ description: 'The key itself; shown only this once.' }) }), ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const { scope, workspace_id, name } = request.body;
      const created = await keys.createFor(ownerOf(request), { scope: scope ?? 'read', spaceId: workspace_id, label: name });
      return reply.status(201).send({ id: created.id, name: created.name, scope: created.scope, workspace_id: created.spaceId, created_at: iso(created.createdAt)!, revoked_at: null, key: created.key });
    },
  );

  app.get(
    '/v1/keys',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['account'],
        summary: "Your account's keys (never the keys themselves)",
        response: { 200: Type.Object({ keys: Type.Array(KeyRecord) }), ...errorResponses(401, 429) },
      },
    },
    async (request) => ({
      keys: (await keys.listFor(ownerOf(request))).map((k) => ({ id: k.id, name: k.name, scope: k.scope, workspace_id: k.space_id, created_at: iso(k.created_at)!, revoked_at: iso(k.revoked_at) })),
    }),
  );

  app.delete(
    '/v1/keys/:keyId',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['account'],
        summary: 'Revoke a key of your account',
        description: 'Requests with it are refused (401) from the next one on, on every replica.',
        params: Type.Object({ keyId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 204: Type.Null(), ...errorResponses(401, 404, 429) },
      },
    },
    async (request, reply) => {
      await keys.revokeFor(ownerOf(request), request.params.keyId);
      return reply.status(204).send(null);
    },
  );
};
