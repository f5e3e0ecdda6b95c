import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../errors.ts';
import { hashKey, KEY_SCOPES, scopeAllows, type KeyScope, type KeysService, type Principal } from '../services/keys.service.ts';

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

/** `Authorization: Bearer <key>`, as OpenAI-style clients send their key. */
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The API key a request presents: `x-api-key` (the documented way) or `Authorization: Bearer`
 * (what OpenAI-style clients send); undefined when neither is there. Both present and different
 * is refused (401): the server would otherwise have to pick one of two credentials. The two are
 * compared by digest in constant time, so the comparison says nothing about either key.
 */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-api-key'];
  const apiKey = typeof header === 'string' && header.length > 0 ? header : undefined;
  const authorization = headers.authorization;
  let bearer: string | undefined;
  if (typeof authorization === 'string' && authorization.length > 0) {
    const match = BEARER.exec(authorization);
    if (!match) {
      // Another scheme (Basic, …) next to an x-api-key is left alone; alone it names no key of ours.
      if (apiKey !== undefined) return apiKey;
      throw new AppError('unauthorized', 'the Authorization header must be "Bearer <API key>" (or send the key in x-api-key)');
    }
    bearer = match[1];
  }
  if (apiKey !== undefined && bearer !== undefined && !sameKey(apiKey, bearer)) {
    throw new AppError('unauthorized', 'x-api-key and Authorization: Bearer name two different keys; send one key, in either header');
  }
  return apiKey ?? bearer;
}

/**
 * The digest of the key a request presents (`hashKey`, as keys are kept), worked out once per
 * request: the rate limit counts by it and the key check looks it up (hashing twice took 2% of a
 * small download's CPU). Undefined without a key; throws as `presentedKey` does.
 */
export function presentedKeyDigest(request: FastifyRequest): string | undefined {
  if (digests.has(request)) return digests.get(request);
  const presented = presentedKey(request.headers);
  const digest = presented !== undefined && presented.length <= MAX_KEY_LENGTH ? hashKey(presented) : presented === undefined ? undefined : TOO_LONG;
  digests.set(request, digest);
  return digest;
}
const digests = new WeakMap<FastifyRequest, string | undefined>();
/** What a key past MAX_KEY_LENGTH is counted as: no key is looked up for it. */
const TOO_LONG = 'too-long';

/**
 * What the rate limit counts a request by: its key's digest (raw keys are never held), or its
 * address without a usable key (none, two different ones, a malformed Authorization, one too long
 * to be ours). The limit's hook is the route's, so it runs after the key check's (the scope's):
 * the digest is the one the check worked out.
 */
export function rateLimitKey(request: FastifyRequest): string {
  let digest: string | undefined;
  try {
    digest = presentedKeyDigest(request);
  } catch {
    // Refused by the key check.
  }
  return digest !== undefined && digest !== TOO_LONG ? `k:${digest}` : `ip:${request.ip}`;
}

function sameKey(a: string, b: string): boolean {
  const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Every route of the scope needs a valid key (`x-api-key`, or `Authorization: Bearer`) whose scope covers the route's; the request
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
    const digest = presentedKeyDigest(request);
    if (digest === undefined) throw new AppError('unauthorized', 'missing x-api-key header (or Authorization: Bearer <key>)');
    const principal = digest !== TOO_LONG ? await keys.authenticateDigest(digest) : undefined;
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
