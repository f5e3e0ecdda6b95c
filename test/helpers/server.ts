import { spawn, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM (or the given signal), then wait for the exit; answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * The real server as a child process on a free port, with the given settings: `node src/main.ts`
 * directly (so a signal reaches the server itself), or `npm start` as a user would run it (in
 * its own process group, which signals go to, since npm does not pass SIGKILL on).
 */
export async function startServer(env: Record<string, string>, options: { viaNpm?: boolean; nodeArgs?: string[] } = {}): Promise<ServerProcess> {
  const [command, args] = options.viaNpm ? ['npm', ['start']] : [process.execPath, [...(options.nodeArgs ?? []), 'src/main.ts']];
  const child = spawn(command as string, args as string[], {
    // The start line is logged at info, so that level is kept.
    env: { ...process.env, PORT: '0', ...env, TESSERA_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.viaNpm === true,
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Under npm the server is a grandchild that shares these pipes: they close only when it is gone too.
  const drained = Promise.all([child.stdout!, child.stderr!].map((pipe) => new Promise<void>((resolve) => pipe.once('close', () => resolve()))));
  const url = await new Promise<string>((resolve, reject) => {
    // A bound that catches a hang, wide enough for a start on a loaded machine (the soak's server
    // collects garbage every 50 ms from its first line). One that did not start is killed, not
    // left running beside the next test.
    const timer = setTimeout(() => {
      if (options.viaNpm) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
      reject(new Error(`server did not start within 60 s:\n${output}`));
    }, 60_000);
    let listening = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // Searched until found, then no more: a busy server's log grows by megabytes, and searching
      // all of it at every chunk made a test's own process spend minutes in this function.
      if (listening) return;
      const match = /Tessera listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) {
        listening = true;
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        if (options.viaNpm) process.kill(-child.pid!, signal);
        else child.kill(signal);
      }
      const code = await exited;
      // unref: a timer left waiting would keep the test file's process alive for its 15 s.
      await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, 15_000).unref())]);
      return code;
    },
  };
}

/**
 * Several servers started at once (replicas racing through their start). If one fails to start,
 * those that did are stopped before the failure is thrown: left running, a server keeps the test's
 * process, and so the whole run, from ending.
 */
export async function startServers(count: number, env: Record<string, string>): Promise<ServerProcess[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer(env)));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.all(started.flatMap((result) => (result.status === 'fulfilled' ? [result.value.stop()] : [])));
    throw failed.reason;
  }
  return started.map((result) => (result as PromiseFulfilledResult<ServerProcess>).value);
}

/** Peak resident memory of a process so far, in bytes (Linux). */
export async function peakRss(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}
