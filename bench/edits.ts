import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { buildApp } from '../src/http/app.ts';

/**
 * Prompt edits end to end (HTTP request → plan → sharp → quilt store → committed row → answer)
 * against sharp running the same chain in-process on bytes already in memory, both at the
 * server's edit concurrency (TESSERA_EDIT_CONCURRENCY), in the same run.
 */
export interface EditRound {
  rawPerSecond: number;
  endToEndPerSecond: number;
  rawCpuMsPerEdit: number;
  endToEndCpuMsPerEdit: number;
}

export const EDIT_PROMPT = 'rotate 90 degrees, make it black and white and add a red 10px border';

/**
 * The prompt's chain written by hand with sharp: rotate and grey in one pass (a matrix, since
 * sharp's greyscale would also grey the border), the red border and the encoding in a second.
 */
export async function rawChain(source: Buffer): Promise<Buffer> {
  const luma: [number, number, number] = [0.2126, 0.7152, 0.0722];
  const grey = await sharp(source).rotate(90).recomb([luma, luma, luma]).raw().toBuffer({ resolveWithObject: true });
  return sharp(grey.data, { raw: { width: grey.info.width, height: grey.info.height, channels: grey.info.channels } })
    .extend({ top: 10, bottom: 10, left: 10, right: 10, background: { r: 255, g: 0, b: 0 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A 1600×1200 photo-like JPEG: gradients and noise, so the codecs have real work. */
export async function photo(): Promise<Buffer> {
  const width = 1600;
  const height = 1200;
  const data = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed >> 16) % 24;
      const i = (y * width + x) * 3;
      data[i] = (x * 255) / width + noise;
      data[i + 1] = (y * 255) / height + noise;
      data[i + 2] = 128 + noise;
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

async function timed(count: number, concurrency: number, work: () => Promise<unknown>): Promise<{ perSecond: number; cpuMsPer: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) await work();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { perSecond: count / seconds, cpuMsPer: (used.user + used.system) / 1000 / count };
}

export async function benchEdits(roundCount: number, editsPerRound: number): Promise<EditRound[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-edits-'));
  const config = loadConfig({ TESSERA_DATA_DIR: dataDir, TESSERA_EDIT_QUEUE_TIMEOUT_MS: '600000' });
  const context = await createContext(config);
  const app = await buildApp(context);
  try {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const { key } = await context.keys.create('bench');
    const source = await photo();
    const form = new FormData();
    form.append('file', new Blob([source], { type: 'image/jpeg' }), 'photo.jpg');
    const uploaded = (await (await fetch(`${address}/v1/storage/files`, { method: 'POST', headers: { 'x-api-key': key }, body: form })).json()) as { files: { fileId: string; workspaceId: string }[] };
    const { fileId, workspaceId } = uploaded.files[0]!;
    const body = JSON.stringify({ prompt: EDIT_PROMPT, workspace_id: workspaceId, file_id: fileId });
    const edit = async () => {
      const res = await fetch(`${address}/v1/images/edits`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
      if (res.status !== 200) throw new Error(`edit answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    await edit(); // warm-up: first decode, JIT, first quilt
    await rawChain(source);
    // Alternating rounds, so a noisy neighbour hits both sides alike; the ratio is taken per round.
    const rounds: EditRound[] = [];
    for (let round = 0; round < roundCount; round++) {
      const raw = await timed(editsPerRound, config.editConcurrency, () => rawChain(source));
      const endToEnd = await timed(editsPerRound, config.editConcurrency, edit);
      rounds.push({ rawPerSecond: raw.perSecond, endToEndPerSecond: endToEnd.perSecond, rawCpuMsPerEdit: raw.cpuMsPer, endToEndCpuMsPerEdit: endToEnd.cpuMsPer });
    }
    return rounds;
  } finally {
    await app.close();
    await context.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
