import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { STORE_RETRY_AFTER_S } from '../error-handler.ts';
import { errorResponses } from '../schemas.ts';

/** Liveness, readiness and metrics: no key needed, for load balancers and Prometheus. */
export const systemRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = async (app, { context }) => {
  app.get(
    '/healthz',
    { schema: { tags: ['system'], summary: 'Liveness', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database and the blob store answer',
        response: { 200: Type.Object({ status: Type.Literal('ready'), database: Type.String(), store: Type.String() }), ...errorResponses(503) },
      },
    },
    async () => {
      await context.database.ping().catch((error: unknown) => {
        throw new AppError('provider_unavailable', `database unreachable: ${(error as Error).message}`);
      });
      await context.store.check().catch((error: unknown) => {
        throw new AppError('provider_unavailable', `blob store unusable: ${(error as Error).message}`, { headers: { 'retry-after': String(STORE_RETRY_AFTER_S) } });
      });
      return { status: 'ready' as const, database: context.database.dialect, store: context.store.kind };
    },
  );

  app.get('/metrics', { schema: { tags: ['system'], summary: 'Prometheus metrics', produces: ['text/plain'] } }, async (_request, reply) => {
    const body = await context.metrics.registry.metrics();
    return reply.type(context.metrics.registry.contentType).send(body);
  });
};
