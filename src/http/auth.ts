import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { KeysService, Principal } from '../services/keys.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const MAX_KEY_LENGTH = 512;

/** Every route of the scope needs a valid `x-api-key`; the request then carries its account. */
export function requireApiKey(scope: FastifyInstance, keys: KeysService): void {
  scope.decorateRequest('principal', null);
  scope.addHook('onRequest', async (request) => {
    const presented = request.headers['x-api-key'];
    if (typeof presented !== 'string' || presented.length === 0) throw new AppError('unauthorized', 'missing x-api-key header');
    const principal = presented.length <= MAX_KEY_LENGTH ? await keys.authenticate(presented) : undefined;
    if (!principal) throw new AppError('unauthorized', 'unknown or revoked API key');
    request.principal = principal;
  });
}

export function accountOf(request: FastifyRequest): string {
  if (!request.principal) throw new AppError('unauthorized', 'missing x-api-key header');
  return request.principal.accountId;
}
