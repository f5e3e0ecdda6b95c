import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/** The real server as a child process, quiet (warn-level logs), so its CPU and memory are its own. */
export interface BenchServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export async function startBenchServer(env: Record<string, string>, entry = 'src/main.ts', nodeFlags: string[] = []): Promise<BenchServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', entry], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), TESSERA_LOG_LEVEL: 'warn', TESSERA_RATE_LIMIT_MAX: '100000000', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000; // a loaded machine starts it slowly
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not start within 90 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
