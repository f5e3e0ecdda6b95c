import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { buildApp } from '../../src/http/app.ts';
import type { OpenApiDocument } from './openapi-to-ts.ts';

/** The OpenAPI document the server serves, from a throwaway instance (no port, no network). */
export async function serverDocument(): Promise<OpenApiDocument> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-openapi-'));
  const context = await createContext(loadConfig({ TESSERA_DATA_DIR: dataDir }));
  try {
    const app = await buildApp(context);
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;
    await app.close();
    return document;
  } finally {
    await context.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export const DOCUMENT_PATH = new URL('../openapi.json', import.meta.url);
export const TYPES_PATH = new URL('../src/generated.ts', import.meta.url);
