import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { KEY_SCOPES, scopeAllows, type KeyScope, type KeysService, type Principal } from '../services/keys.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** The least scope a key needs for this route. Every keyed route declares one. */
    scope?: KeyScope;
  }
}

const MAX_KEY_LENGTH = 512;

/**
 * Every route of the scope needs a valid `x-api-key` whose scope covers the route's; the request
 * then carries its principal. Each route's scope is also written into the OpenAPI document, as
 * the role its security requirement names, so the document says what every route needs.
 */
export function requireApiKey(scope: FastifyInstance, keys: KeysService): void {
  scope.decorateRequest('principal', null);
  scope.addHook('onRoute', (route) => {
    const needed = (route.config as { scope?: KeyScope } | undefined)?.scope;
    if (!needed || !KEY_SCOPES.includes(needed)) throw new Error(`route ${String(route.method)} ${route.url} declares no key scope (config.scope)`);
    const response = route.schema?.response as Record<string, unknown> | undefined;
    route.schema = { ...route.schema, security: [{ apiKey: [needed] }], ...(response ? { response: { 403: { $ref: 'ErrorBody' }, ...response } } : {}) };
  });
  scope.addHook('onRequest', async (request) => {
    const presented = request.headers['x-api-key'];
    if (typeof presented !== 'string' || presented.length === 0) throw new AppError('unauthorized', 'missing x-api-key header');
    const principal = presented.length <= MAX_KEY_LENGTH ? await keys.authenticate(presented) : undefined;
    if (!principal) throw new AppError('unauthorized', 'unknown or revoked API key');
    request.principal = principal;
    const needed = request.routeOptions.config.scope;
    if (needed && !scopeAllows(principal.scope, needed)) {
      throw new AppError('forbidden', `this key's scope is "${principal.scope}"; ${request.method} ${request.routeOptions.url} needs a "${needed}" key`, {
        details: { required_scope: needed },
      });
    }
  });
}

/** The caller, as services see it: its account, what its key may do, the Space it is bound to. */
export function ownerOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('unauthorized', 'missing x-api-key header');
  return request.principal;
}

export function accountOf(request: FastifyRequest): string {
  return ownerOf(request).accountId;
}
