import http from 'node:http';

/** A keep-alive HTTP client with as little overhead as node offers, for load and latency runs. */
export interface Answer {
  status: number;
  ms: number;
  /** Server-Timing app;dur, when the server sent it. */
  serverMs: number | undefined;
  bytes: number;
}

export function client(baseUrl: string, maxSockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const base = new URL(baseUrl);
  return {
    request(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Answer> {
      return new Promise((resolve, reject) => {
        const started = process.hrtime.bigint();
        const req = http.request({ agent, host: base.hostname, port: base.port, method, path, headers: body ? { ...headers, 'content-length': String(body.length) } : headers }, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => {
            const timing = /app;dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''));
            resolve({ status: res.statusCode!, ms: Number(process.hrtime.bigint() - started) / 1e6, serverMs: timing ? Number(timing[1]) : undefined, bytes });
          });
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** CPU seconds (user + system) a process has used so far (Linux). */
export async function cpuSeconds(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

export async function rssBytes(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  return Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}
