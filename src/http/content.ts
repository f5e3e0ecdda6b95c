import type { ByteRange } from '../storage/blob-store.ts';

export type RangeOutcome = { kind: 'full' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * Reads a `Range: bytes=…` header for a body of `size` bytes. One range is honoured; a header
 * that is malformed or asks for several ranges is ignored (full body), as RFC 9110 allows.
 */
export function parseRange(header: string | undefined, size: number): RangeOutcome {
  if (!header) return { kind: 'full' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'full' };
  const [, first, last] = match;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return { kind: 'full' };
  return { kind: 'partial', range: { start, end } };
}

/** Types a browser may render inline from our origin; anything else is served as a download. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'text/plain', 'application/pdf', 'video/mp4', 'audio/mpeg']);

/** A Content-Disposition that is safe for any name: ASCII fallback plus RFC 5987 UTF-8 form. */
export function contentDisposition(name: string, mimeType: string, forceDownload: boolean): string {
  const kind = forceDownload || !INLINE_TYPES.has(mimeType) ? 'attachment' : 'inline';
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Whether an If-None-Match header names this ETag (weak or strong), or is `*` where `any` says a
 * representation is there to match (a resource whose every answer has a tag).
 */
export function matchesEtag(header: string | undefined, etag: string, any = true): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return (any && t === '*') || t === etag || t === `W/${etag}`;
  });
}
