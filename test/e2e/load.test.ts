import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { tessera } from '../helpers/cli.ts';
import { redBlue } from '../helpers/images.ts';
import { peakRss, startServer } from '../helpers/server.ts';

const CLIENTS = 32;
const SECONDS = 8;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64url');

/**
 * A bounded mixed load (list, upload, download, edit) from many clients on loopback for a fixed
 * time. Nothing but success or 503-with-Retry-After may come back, no acknowledged file may be
 * lost, the server's memory must stay bounded, and `tessera verify` must be clean afterwards.
 */
test(`mixed load: ${CLIENTS} clients for ${SECONDS} s, no error but 503 with Retry-After, nothing lost`, async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-load-'));
  const key = 'load-test-key';
  // A small image-work cap and wait, so overload shows as 503s rather than a queue.
  // The rate limit is lifted: this measures the server, not the limiter (tested in test/http).
  const server = await startServer({ TESSERA_DATA_DIR: dataDir, TESSERA_API_KEY: key, TESSERA_EDIT_CONCURRENCY: '1', TESSERA_EDIT_QUEUE_TIMEOUT_MS: '200', TESSERA_RATE_LIMIT_MAX: '100000000' });
  const api = (url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { ...init, headers: { 'x-api-key': key, ...(init.headers as Record<string, string>) } });
  try {
    const form = new FormData();
    form.append('file', new Blob([await redBlue()]), 'source.png');
    const source = ((await (await api('/v1/storage/files', { method: 'POST', body: form })).json()) as { files: { fileId: string; workspaceId: string }[] }).files[0]!;
    const acknowledged = new Map<string, string>();
    const statuses = new Map<string, number>();
    const count = (kind: string, status: number) => statuses.set(`${kind} ${status}`, (statuses.get(`${kind} ${status}`) ?? 0) + 1);
    const unexpected: string[] = [];
    const deadline = Date.now() + SECONDS * 1000;
    let client = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const me = client++;
        for (let i = 0; Date.now() < deadline; i++) {
          const roll = (me * 7 + i * 13) % 10;
          let res: Response;
          let kind: string;
          if (roll < 4) {
            kind = 'list';
            res = await api('/v1/storage/files?limit=100');
          } else if (roll < 7) {
            kind = 'upload';
            const bytes = randomBytes(1024 + ((me * 997 + i * 31) % 60_000));
            const upload = new FormData();
            upload.append('file', new Blob([bytes]), `c${me}-${i}.bin`);
            res = await api('/v1/storage/files', { method: 'POST', body: upload });
            if (res.status === 201) {
              const file = ((await res.json()) as { files: { fileId: string; metadata: { blobId: string } }[] }).files[0]!;
              assert.equal(file.metadata.blobId, sha(bytes));
              acknowledged.set(file.fileId, file.metadata.blobId);
            }
          } else if (roll < 9) {
            kind = 'download';
            const ids = [...acknowledged.keys()];
            res = await api(`/v1/storage/files/${ids.length ? ids[(me + i) % ids.length] : source.fileId}/content`);
          } else {
            kind = 'edit';
            res = await api('/v1/images/edits', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'blur slightly', workspace_id: source.workspaceId, file_id: source.fileId }) });
          }
          count(kind, res.status);
          if (res.status === 503 && res.headers.get('retry-after')) {
            await res.arrayBuffer();
            continue;
          }
          if (res.status >= 300) unexpected.push(`${kind} ${res.status} ${(await res.text()).slice(0, 200)}`);
          else if (!res.bodyUsed) await res.arrayBuffer();
        }
      }),
    );
    const rss = await peakRss(server.child.pid!);
    assert.deepEqual(unexpected, []);
    for (const [fileId, blobId] of acknowledged) {
      const res = await api(`/v1/storage/files/${fileId}/content`);
      assert.equal(res.status, 200);
      assert.equal(sha(new Uint8Array(await res.arrayBuffer())), blobId, `${fileId} intact`);
    }
    const verify = await tessera({ TESSERA_DATA_DIR: dataDir }, 'verify', '--json');
    assert.equal(verify.status, 0, verify.stdout + verify.stderr);
    assert.deepEqual((JSON.parse(verify.stdout) as { problems: string[] }).problems, [], 'verify is clean afterwards');
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    console.log(`${total} requests in ${SECONDS} s (${[...statuses].sort().map(([k, n]) => `${k}×${n}`).join(', ')}); ${acknowledged.size} uploads all intact; server peak RSS ${(rss / 2 ** 20).toFixed(0)} MiB`);
    assert.ok(rss < 1024 * 2 ** 20, `server peak RSS ${rss} stays under 1 GiB`);
  } finally {
    await server.stop('SIGTERM');
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
