import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/** The real server as a child process, quiet (warn-level logs), so its CPU and memory are its own. */
export interface BenchServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A port nothing listens on now (the kernel's choice), for a server the bench starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `nodeFlags`: e.g. `['--import', 'tsx']` for a checkout that predates erasable-only TypeScript
 * (this one runs on Node's own type stripping).
 */
export async function startBenchServer(env: Record<string, string>, entry = 'src/main.ts', nodeFlags: string[] = []): Promise<BenchServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, entry], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), TESSERA_LOG_LEVEL: 'warn', TESSERA_RATE_LIMIT_MAX: '100000000', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForAnswer(child, `${url}/healthz`, 90_000, 'server'); // a loaded machine starts it slowly
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

/**
 * Waits until `probeUrl` answers 2xx, polling, or throws when the child exits first or the time
 * runs out (with what the child wrote on stderr, when the caller collected it).
 */
export async function waitForAnswer(child: ChildProcess, probeUrl: string, timeoutMs: number, what: string, stderr: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}${stderr() ? `: ${stderr()}` : ''}`);
    if (await fetch(probeUrl).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer within ${timeoutMs / 1000} s${stderr() ? `: ${stderr()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
