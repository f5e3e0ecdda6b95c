import path from 'node:path';

const MAX_NAME_BYTES = 255;

/**
 * A file name as a person gave it, made safe to store and show: no directories, no control
 * characters, at most 255 UTF-8 bytes, never empty. Unicode is kept.
 */
export function sanitizeFileName(raw: string | undefined, fallback = 'file'): string {
  let name = (raw ?? '').normalize('NFC');
  name = name.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  name = name.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (name === '.' || name === '..') name = '';
  while (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) name = truncateKeepingExtension(name);
  return name || fallback;
}

function truncateKeepingExtension(name: string): string {
  const ext = path.extname(name);
  const base = name.slice(0, name.length - ext.length);
  if (base.length > 1) return [...base].slice(0, -1).join('') + ext;
  return [...name].slice(0, -1).join('');
}

const BY_EXTENSION: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.svg': 'image/svg+xml',
  '.heic': 'image/heic',
  '.bmp': 'image/bmp',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
};

const MIME_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,127}$/;

/** The declared type when it is specific and well-formed, else a guess from the name. */
export function resolveMimeType(declared: string | undefined, name: string): string {
  const type = declared?.split(';')[0]?.trim().toLowerCase();
  if (type && type !== 'application/octet-stream' && MIME_PATTERN.test(type)) return type;
  return BY_EXTENSION[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}
