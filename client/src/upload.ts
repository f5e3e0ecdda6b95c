import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

/** A file to upload: a path on disk, or bytes (a buffer or a stream) with a name. */
export type UploadSource = string | { name: string; data: Uint8Array | string | Readable | AsyncIterable<Uint8Array>; type?: string };

export interface UploadProgress {
  /** Bytes of file content sent so far, over all files of the request. */
  sentBytes: number;
  /** Total bytes, when every source's size is known in advance (paths, buffers). */
  totalBytes?: number;
}

interface Part {
  name: string;
  type: string;
  size?: number;
  open(): AsyncIterable<Uint8Array>;
  /** A stream can be read only once; paths and buffers can be sent again. */
  replayable: boolean;
}

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif', '.avif': 'image/avif',
  '.tif': 'image/tiff', '.tiff': 'image/tiff', '.svg': 'image/svg+xml', '.txt': 'text/plain', '.pdf': 'application/pdf', '.json': 'application/json',
};

function toPart(source: UploadSource): Part {
  if (typeof source === 'string') {
    const size = fs.statSync(source).size;
    return { name: path.basename(source), type: TYPES[path.extname(source).toLowerCase()] ?? 'application/octet-stream', size, open: () => fs.createReadStream(source), replayable: true };
  }
  const { name, data } = source;
  const type = source.type ?? TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
  if (typeof data === 'string' || data instanceof Uint8Array) {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    return { name, type, size: bytes.length, open: () => Readable.from([bytes]), replayable: true };
  }
  return { name, type, open: () => data, replayable: false };
}

/**
 * A multipart/form-data body streamed part by part, so a file of any size is sent without being
 * held in memory.
 */
export function multipartBody(sources: readonly UploadSource[], fields: Record<string, string>, onProgress?: (progress: UploadProgress) => void) {
  const parts = sources.map(toPart);
  const boundary = `----tessera-${randomBytes(12).toString('hex')}`;
  const known = parts.every((p) => p.size !== undefined);
  const totalBytes = known ? parts.reduce((sum, p) => sum + p.size!, 0) : undefined;
  const quote = (text: string) => text.replace(/[\r\n"\\]/g, (c) => ({ '\r': '%0D', '\n': '%0A', '"': '%22', '\\': '\\\\' })[c]!);
  async function* generate(): AsyncGenerator<Uint8Array> {
    let sentBytes = 0;
    for (const [name, value] of Object.entries(fields)) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`);
    }
    for (const part of parts) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(part.name)}"\r\nContent-Type: ${part.type}\r\n\r\n`);
      for await (const chunk of part.open()) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        sentBytes += bytes.length;
        yield bytes;
        onProgress?.({ sentBytes, totalBytes });
      }
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    replayable: parts.every((p) => p.replayable),
    totalBytes,
    stream: () => Readable.toWeb(Readable.from(generate())) as ReadableStream<Uint8Array>,
  };
}
