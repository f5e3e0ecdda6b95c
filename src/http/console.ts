import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { matchesEtag } from './content.ts';

/**
 * The console's only sources are its own bundled files and the API on this origin. Images are
 * signed links (`/links/…`): on this origin, or on TESSERA_PUBLIC_URL's when that is another one,
 * which is then the one source added to img-src.
 */
export function consoleCsp(linkOrigin?: string): string {
  return CONSOLE_CSP.replace("img-src 'self' data:", `img-src 'self' data:${linkOrigin ? ` ${linkOrigin}` : ''}`);
}

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
};

interface Asset {
  data: Buffer;
  compressible: boolean;
  /** Made on the first request that accepts it, not at start-up (every app start would pay it). */
  brotli?: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}

/**
 * Serves the built web console (`web/dist`) at `/`. The files are few and small, so they are read
 * once at start-up and answered from memory (text brotli-compressed once, when first asked); no request ever
 * touches the file system, so no path can escape the directory. Hashed files under /assets/ are
 * immutable; the page itself is revalidated on every load so a new build shows at once.
 * Answers false, registering nothing, when no build is there.
 */
export function registerConsole(app: FastifyInstance, dir: string, linkOrigin?: string): boolean {
  const csp = consoleCsp(linkOrigin);
  if (!fs.existsSync(path.join(dir, 'index.html'))) return false;
  const assets = new Map<string, Asset>();
  for (const relative of listFiles(dir)) {
    const data = fs.readFileSync(path.join(dir, relative));
    const urlPath = `/${relative.split(path.sep).join('/')}`;
    const type = TYPES[path.extname(relative)] ?? 'application/octet-stream';
    const compressible = /^(text\/|application\/(json|manifest)|image\/svg)/.test(type) && data.length > 512;
    assets.set(urlPath, {
      data,
      compressible,
      type,
      etag: `"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`,
      cacheControl: urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : urlPath === '/index.html' ? 'no-cache' : 'public, max-age=3600',
    });
  }

  const send = (asset: Asset, request: FastifyRequest, reply: FastifyReply) => {
    void reply.headers({ etag: asset.etag, 'cache-control': asset.cacheControl, vary: 'accept-encoding', 'x-content-type-options': 'nosniff' });
    if (asset.type.startsWith('text/html')) {
      void reply.headers({ 'content-security-policy': csp, 'cross-origin-opener-policy': 'same-origin' });
    }
    if (matchesEtag(request.headers['if-none-match'], asset.etag)) return reply.status(304).send();
    const useBrotli = asset.compressible && /\bbr\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (useBrotli) asset.brotli ??= brotliCompressSync(asset.data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
    const body = useBrotli ? asset.brotli! : asset.data;
    if (useBrotli) void reply.header('content-encoding', 'br');
    return reply.type(asset.type).header('content-length', body.length).send(body);
  };

  const index = assets.get('/index.html')!;
  app.get('/', { schema: { hide: true } }, (request, reply) => send(index, request, reply));
  for (const [urlPath, asset] of assets) {
    if (!urlPath.startsWith('/assets/')) app.get(urlPath, { schema: { hide: true } }, (request, reply) => send(asset, request, reply));
  }
  app.get('/assets/*', { schema: { hide: true } }, (request, reply) => {
    const asset = assets.get(`/assets/${(request.params as { '*': string })['*']}`);
    if (!asset) throw new AppError('not_found', `${request.url} is not part of the console`);
    return send(asset, request, reply);
  });
  return true;
}

function listFiles(dir: string, prefix = ''): string[] {
  return fs.readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(prefix, entry.name);
    return entry.isDirectory() ? listFiles(dir, relative) : entry.isFile() ? [relative] : [];
  });
}
