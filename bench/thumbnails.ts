import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { percentile } from './http-client.ts';
import { startBenchServer } from './server.ts';

export interface ThumbnailBenchResult {
  sourcePixels: number;
  sourceBytes: number;
  thumbnailBytes: number;
  /** Server, first request for a width (rendered): median ms. */
  renderedMs: number;
  /** The same resize with sharp in-process, on bytes already in memory: median ms. */
  rawSharpMs: number;
  /** Server, repeated request (from the cache): median ms. */
  cachedMs: number;
  /** Server, the original's bytes over the content route: median ms. */
  originalMs: number;
}

const KEY = 'tsk_bench_thumbnails_0123456789abcdef';

/** A photo-like 12-megapixel JPEG: gradients and noise, so the encoder has work to do. */
async function source(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const noise = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer();
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#e76"/><stop offset="1" stop-color="#36a"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="2600" cy="1100" r="600" fill="#8cf"/></svg>`;
  return sharp(Buffer.from(svg)).composite([{ input: noise, blend: 'soft-light' }]).jpeg({ quality: 88 }).toBuffer();
}

/**
 * Thumbnails as the web console asks for them: the first request of a width renders (against
 * sharp doing the same resize in-process), later ones come from the cache (against downloading
 * the original).
 */
export async function benchThumbnails(samples: number): Promise<ThumbnailBenchResult> {
  const jpeg = await source();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-thumbs-'));
  const server = await startBenchServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: KEY, TESSERA_CONSOLE_DIR: 'off' });
  try {
    const form = new FormData();
    form.append('file', new Blob([jpeg], { type: 'image/jpeg' }), 'photo.jpg');
    const stored = (await (await fetch(`${server.url}/v1/storage/files`, { method: 'POST', headers: { 'x-api-key': KEY }, body: form })).json()) as { files: Array<{ fileId: string }> };
    const fileId = stored.files[0]!.fileId;
    const timed = async (url: string) => {
      const started = performance.now();
      const response = await fetch(url, { headers: { 'x-api-key': KEY } });
      const bytes = (await response.arrayBuffer()).byteLength;
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return { ms: performance.now() - started, bytes };
    };
    const rendered: number[] = [];
    const raw: number[] = [];
    let thumbnailBytes = 0;
    for (let i = 0; i < samples; i++) {
      // A width not asked before is a cache miss: the server decodes and resizes.
      const answer = await timed(`${server.url}/v1/storage/files/${fileId}/thumbnail?width=${320 + i}`);
      rendered.push(answer.ms);
      thumbnailBytes = answer.bytes;
      const started = performance.now();
      await sharp(jpeg).autoOrient().resize({ width: 320 + i, withoutEnlargement: true }).webp({ quality: 78, effort: 2 }).toBuffer();
      raw.push(performance.now() - started);
    }
    const cached: number[] = [];
    const original: number[] = [];
    for (let i = 0; i < samples * 2; i++) {
      cached.push((await timed(`${server.url}/v1/storage/files/${fileId}/thumbnail?width=320`)).ms);
      original.push((await timed(`${server.url}/v1/storage/files/${fileId}/content`)).ms);
    }
    return {
      sourcePixels: 4000 * 3000,
      sourceBytes: jpeg.length,
      thumbnailBytes,
      renderedMs: percentile(rendered, 50),
      rawSharpMs: percentile(raw, 50),
      cachedMs: percentile(cached, 50),
      originalMs: percentile(original, 50),
    };
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchThumbnails(Number(process.argv[2] ?? 15));
  console.log(`source: 4000×3000 JPEG, ${(result.sourceBytes / 1024).toFixed(0)} KiB; thumbnail 320 px wide: ${(result.thumbnailBytes / 1024).toFixed(1)} KiB`);
  console.log(`first request (rendered): ${result.renderedMs.toFixed(1)} ms median; sharp in-process: ${result.rawSharpMs.toFixed(1)} ms (${(result.rawSharpMs / result.renderedMs).toFixed(2)}x)`);
  console.log(`repeat (cached): ${result.cachedMs.toFixed(2)} ms median; the original over /content: ${result.originalMs.toFixed(2)} ms`);
}
