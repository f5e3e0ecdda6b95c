import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';

// The floor of a small request that carries bytes, on this machine: fastify answering files of the
// bench's sizes (4-64 KiB) from memory, and taking such a file as the request's body, nothing else
// (no key, no database, no store). The gap between it and hello world is HTTP moving the bytes.
const files = Array.from({ length: 256 }, () => randomBytes(4096 + Math.floor(Math.random() * 60 * 1024)));
const app = Fastify({ logger: false });
app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/bytes/:n', async (request, reply) => {
  const file = files[Number((request.params as { n: string }).n) % files.length]!;
  return reply.type('application/octet-stream').header('content-length', file.length).send(file);
});
app.post('/bytes', async (request, reply) => reply.status(201).send({ bytes: (request.body as Buffer).length }));
await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
