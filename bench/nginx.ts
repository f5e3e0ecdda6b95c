import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { client } from './http-client.ts';
import { freePort, startBenchServer, waitForAnswer } from './server.ts';

/**
 * A plain file server as the peer of small downloads: nginx (Debian's nginx-light) serving the
 * same files from a directory, one worker process, keep-alive, sendfile, no access log; against
 * Tessera serving them (uploaded first, one per request), with the same client in the same run.
 */
export interface NginxPeerResult {
  files: number;
  clients: number;
  tesseraDownloadsPerSecond: number;
  nginxDownloadsPerSecond: number;
}

const CANDIDATES = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];

/** The nginx binary, or undefined (the bench then skips the row and says why). */
export async function findNginx(): Promise<string | undefined> {
  for (const candidate of CANDIDATES) {
    if (await fs.access(candidate, fs.constants.X_OK).then(() => true, () => false)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : undefined;
}

async function rate(total: number, clients: number, one: (i: number) => Promise<{ status: number }>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < total) {
      const answer = await one(next++);
      if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
    }
  }));
  return total / ((performance.now() - started) / 1000);
}

export async function nginxPeer(nginx: string, files: number, requests: number, clients: number): Promise<NginxPeerResult> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-nginx-'));
  const contents = Array.from({ length: files }, () => randomBytes(4096 + Math.floor(Math.random() * 60 * 1024)));
  const www = path.join(root, 'www');
  await fs.mkdir(www);
  // nginx's workers drop to an unprivileged user when started as root: they must read the files.
  await fs.chmod(root, 0o755);
  await Promise.all(contents.map((c, i) => fs.writeFile(path.join(www, `${i}.bin`), c)));

  // Tessera: the same files uploaded (raw body, one per request), then downloaded.
  const server = await startBenchServer({ TESSERA_DATA_DIR: path.join(root, 'tessera'), TESSERA_API_KEY: 'bench-nginx-key' });
  let tesseraDownloadsPerSecond: number;
  try {
    const c = client(server.url, clients);
    try {
      const ids: string[] = [];
      for (const [i, content] of contents.entries()) {
        const res = await fetch(`${server.url}/v1/storage/files/raw?name=${i}.bin`, { method: 'POST', headers: { 'x-api-key': 'bench-nginx-key', 'content-type': 'application/octet-stream' }, body: content });
        if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
        ids.push(((await res.json()) as { files: { fileId: string }[] }).files[0]!.fileId);
      }
      const one = (i: number) => c.request('GET', `/v1/storage/files/${ids[i % ids.length]}/content`, { 'x-api-key': 'bench-nginx-key' });
      await rate(Math.min(requests, 500), clients, one); // warm-up
      tesseraDownloadsPerSecond = await rate(requests, clients, one);
    } finally {
      c.close();
    }
  } finally {
    await server.stop();
  }

  // nginx: one worker, as Tessera is one process.
  const port = await freePort();
  const conf = path.join(root, 'nginx.conf');
  await fs.writeFile(
    conf,
    `worker_processes 1;
daemon off;
pid ${path.join(root, 'nginx.pid')};
error_log ${path.join(root, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  default_type application/octet-stream;
  client_body_temp_path ${root}/client_body;
  proxy_temp_path ${root}/proxy;
  fastcgi_temp_path ${root}/fastcgi;
  uwsgi_temp_path ${root}/uwsgi;
  scgi_temp_path ${root}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${www};
  }
}
`,
  );
  const child = spawn(nginx, ['-c', conf, '-p', root, '-e', path.join(root, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForAnswer(child, `${url}/0.bin`, 10_000, 'nginx', () => stderr);
    const c = client(url, clients);
    try {
      const one = (i: number) => c.request('GET', `/${i % files}.bin`);
      await rate(Math.min(requests, 500), clients, one);
      const nginxDownloadsPerSecond = await rate(requests, clients, one);
      return { files, clients, tesseraDownloadsPerSecond, nginxDownloadsPerSecond };
    } finally {
      c.close();
    }
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
    }
    await fs.rm(root, { recursive: true, force: true });
  }
}
