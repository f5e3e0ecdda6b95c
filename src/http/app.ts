import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { rateLimitKey, requireApiKey } from './auth.ts';
import { registerConsole } from './console.ts';
import { installErrorHandling, sendError } from './error-handler.ts';
import { installValidation } from './validation.ts';
import { describeUpload, openapiInfo } from './openapi.ts';
import { editFormRoutes, routeByContentType } from './routes/edit-form.routes.ts';
import { editsRoutes } from './routes/edits.routes.ts';
import { accountRoutes } from './routes/account.routes.ts';
import { filesRoutes } from './routes/files.routes.ts';
import { linksRoutes, publicLinksRoutes } from './routes/links.routes.ts';
import { spacesRoutes } from './routes/spaces.routes.ts';
import { systemRoutes } from './routes/system.routes.ts';
import { thumbnailsRoutes } from './routes/thumbnails.routes.ts';
import { webhooksRoutes } from './routes/webhooks.routes.ts';
import { sharedSchemas } from './schemas.ts';

/**
 * For answers given before the request's body was read to its end (an upload refused as its
 * bytes pass a quota or limit). A client still sending its body receives the answer only if the
 * server keeps reading: closed at once, the connection is reset under the client's write, and the
 * client (an HTTP library, not curl) reports a broken connection instead of the answer. So the
 * rest is read and dropped, and the connection kept, as nginx's lingering close does; but only so
 * much of it, counted on the wire (chunk framing and extensions too), and only so long (a client
 * that trickles or stops would hold the connection, and the server's close, for ever). Without
 * this Node drained a body nobody had started to read however long it was, and left one read
 * part way paused until the keep-alive timeout.
 */
function unreadBodies(limitBytes: number, limitMs: number) {
  const draining = new Set<IncomingMessage>();
  return {
    /** Drains the rest of the body, or answers false: too long to be worth it, so the caller closes the connection after the answer. */
    discardsRest(raw: IncomingMessage): boolean {
      const hasBody = raw.headers['transfer-encoding'] !== undefined || (raw.headers['content-length'] ?? '0') !== '0';
      if (!hasBody || raw.complete || raw.destroyed) return true;
      if (Number(raw.headers['content-length']) > limitBytes) return false;
      // Whatever read it so far (the multipart parser) stops; the rest is counted and dropped.
      raw.unpipe();
      // Destroying the request of a body not yet whole closes its connection.
      const stop = () => raw.destroy();
      const timer = setTimeout(stop, limitMs);
      const done = () => {
        clearTimeout(timer);
        draining.delete(raw);
      };
      draining.add(raw);
      raw.once('end', done).once('close', done);
      // The socket's count includes framing; an injected request (tests) has none, and counts its chunks.
      const socket = raw.socket as { bytesRead?: number } | null;
      const startedAt = socket?.bytesRead;
      let decoded = 0;
      raw.on('data', (chunk: Buffer) => {
        decoded += chunk.length;
        const read = startedAt === undefined || socket?.bytesRead === undefined ? decoded : socket.bytesRead - startedAt;
        if (read > limitBytes) stop();
      });
      raw.resume();
      return true;
    },
    /** At shutdown: the drains still going end now, so that their connections do not hold the close. */
    stopAll(): void {
      for (const raw of draining) raw.destroy();
    },
  };
}

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
}

/**
 * fastify's own response serializer compiler, compiling each distinct response schema once: the
 * routes declare 265 responses, 206 of them the same `{ $ref: 'ErrorBody' }`, and compiling each
 * one anew was a fifth of a server's start (some 0.3 s of CPU). The serializer of a schema
 * depends only on it and on the shared schemas, which are the same for one factory call.
 */
function buildSerializer(...args: Parameters<ReturnType<typeof SerializerSelector>>): ReturnType<ReturnType<typeof SerializerSelector>> {
  const compile = SerializerSelector()(...args);
  const compiled = new Map<string, ReturnType<typeof compile>>();
  return (route) => {
    const key = JSON.stringify(route.schema);
    let serializer = compiled.get(key);
    if (!serializer) {
      serializer = compile(route);
      compiled.set(key, serializer);
    }
    return serializer;
  };
}

/** Builds the HTTP API over an opened context. Listening is the caller's business. */
export async function buildApp(context: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config, metrics } = context;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: config.maxJsonBytes,
    // A caller's X-Request-Id is kept when it is a sane token (it ends up in logs); else a new one.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
    schemaController: { compilersFactory: { buildSerializer } },
    forceCloseConnections: 'idle',
    // Errors the router raises before any route runs (an over-long path parameter, a URL that
    // does not decode) take the contract's shape like every other error.
    frameworkErrors: (error, request, reply) => sendError(error, request, reply, config),
  }).withTypeProvider<TypeBoxTypeProvider>();

  installErrorHandling(app, config);
  // POST /v1/images/edits is two routes: the OpenAI form (multipart) and the seed's JSON.
  routeByContentType(app);
  installValidation(app, sharedSchemas);
  // Bodies are JSON (or multipart for uploads); anything else is 415, not a string to validate.
  app.removeContentTypeParser('text/plain');
  for (const schema of sharedSchemas) app.addSchema(schema);

  // Once close() has begun (SIGTERM), the requests still in flight are answered with
  // `Connection: close`: kept alive, each such connection held the close, and so the exit, until
  // the keep-alive timeout (5 s) after its answer.
  let closing = false;
  const unread = unreadBodies(config.unreadBodyDrainBytes, config.unreadBodyDrainMs);
  app.addHook('preClose', (done) => {
    closing = true;
    unread.stopAll();
    done();
  });

  // Callback hooks, not async ones: each request would otherwise pay a promise per hook.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    void reply.header('x-request-id', request.id);
    // Time spent in the server before the body is sent: what clients and benchmarks can't see.
    void reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(3)}`);
    // API answers are per caller and change: never cached unless a route says otherwise.
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    if (!closing && !unread.discardsRest(request.raw)) void reply.header('connection', 'close');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      void reply.headers({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ route, method: request.method, status: reply.statusCode });
    metrics.httpDuration.observe({ route, method: request.method }, reply.elapsedTime / 1000);
    done();
  });

  await app.register(swagger, {
    openapi: openapiInfo,
    transformObject: describeUpload,
    // Shared schemas keep their names (FileRecord, Space, ErrorBody) in the document.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // The web console at `/` when it is built; without it, `/` shows the API docs.
  if (!config.consoleDir || !registerConsole(app, config.consoleDir, config.publicUrl ? new URL(config.publicUrl).origin : undefined)) {
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/docs'));
  }

  await app.register(systemRoutes, { context });

  const rateLimitOptions = {
    max: config.rateLimitMax,
    timeWindow: config.rateLimitWindowMs,
    errorResponseBuilder: (_request: unknown, ctx: { max: number; ttl: number }) =>
      new AppError('rate_limited', `rate limit of ${ctx.max} requests per ${Math.round(config.rateLimitWindowMs / 1000)}s reached; retry in ${Math.ceil(ctx.ttl / 1000)}s`, {
        headers: { 'retry-after': String(Math.ceil(ctx.ttl / 1000)) },
      }),
  };

  // Signed links carry no key: counted per address.
  await app.register(async (links) => {
    await links.register(rateLimit, { ...rateLimitOptions, keyGenerator: (request) => `ip:${request.ip}` });
    await links.register(publicLinksRoutes, { context });
  });

  await app.register(async (v1) => {
    await v1.register(rateLimit, {
      ...rateLimitOptions,
      // Counted per key (hashed: raw keys are never held), or per address without one.
      keyGenerator: rateLimitKey,
    });
    requireApiKey(v1, context.keys);
    await v1.register(filesRoutes, { context });
    await v1.register(spacesRoutes, { context });
    await v1.register(editsRoutes, { context });
    await v1.register(editFormRoutes, { context });
    await v1.register(thumbnailsRoutes, { context });
    await v1.register(linksRoutes, { context });
    await v1.register(accountRoutes, { context });
    await v1.register(webhooksRoutes, { context });
  });

  return app;
}
