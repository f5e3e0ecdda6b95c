import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createContext, type AppContext } from '../../src/context.ts';
import { buildApp } from '../../src/http/app.ts';
import { freshDatabase, type TestDatabase } from './databases.ts';

export interface TestApp {
  app: FastifyInstance;
  context: AppContext;
  dataDir: string;
  /** A key of account `alice`. */
  key: string;
  /** A key of account `bob`, to prove isolation. */
  otherKey: string;
  close(): Promise<void>;
}

/** A real app on a real database (fresh) and a real quilt store in a temp dir. */
export async function startTestApp(dialect: 'sqlite' | 'postgres', env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-test-'));
  const database: TestDatabase = await freshDatabase(dialect);
  const config = loadConfig({ TESSERA_DATA_DIR: dataDir, DATABASE_URL: database.databaseUrl, TESSERA_QUILT_BATCH_WINDOW_MS: '1', ...env });
  const context = await createContext(config);
  const app = await buildApp(context);
  await app.ready();
  const alice = await context.keys.create('alice');
  const bob = await context.keys.create('bob');
  return {
    app,
    context,
    dataDir,
    key: alice.key,
    otherKey: bob.key,
    async close() {
      await app.close();
      await context.close();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface UploadFile {
  name: string;
  content: Buffer | string;
  type?: string;
  field?: string;
}

/** Builds a multipart/form-data body by hand, so tests control every byte of it. */
export function multipart(files: UploadFile[], fields: Record<string, string> = {}): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----tessera${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function upload(t: TestApp, files: UploadFile[], options: { key?: string; fields?: Record<string, string>; query?: string } = {}): Promise<LightMyRequestResponse> {
  const { body, headers } = multipart(files, options.fields);
  return t.app.inject({
    method: 'POST',
    url: `/v1/storage/files${options.query ?? ''}`,
    headers: { ...headers, 'x-api-key': options.key ?? t.key },
    payload: body,
  });
}

export function errorOf(response: LightMyRequestResponse): { code: string; message: string } {
  return (response.json() as { error: { code: string; message: string } }).error;
}
