import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { run as runCli } from '../../src/cli/main.ts';

export interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end and collects what it printed. `killWhen`: SIGKILL it a little after
 * a line matching the pattern appears on stdout (to cut it off mid-work).
 */
export function run(command: string, args: string[], env: Record<string, string> = {}, killWhen?: { line: RegExp; afterMs: number }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (killWhen && killWhen.line.test(stdout)) {
        const { afterMs } = killWhen;
        killWhen = undefined;
        setTimeout(() => child.kill('SIGKILL'), afterMs);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/**
 * `npx tessera …` run in this process (src/cli's run()), with extra environment: what it printed
 * and its exit status, as from the binary but without starting a node and tsx for each command.
 * An error the CLI does not handle ends it with status 1 and the stack on stderr, as it would
 * end the binary.
 */
export async function tessera(env: Record<string, string>, ...args: string[]): Promise<Run> {
  const [stdout, stderr] = [new Collector(), new Collector()];
  let status: number;
  try {
    status = await runCli(args, { stdout, stderr, env: { ...process.env, ...env } });
  } catch (error) {
    stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    status = 1;
  }
  return { status, signal: null, stdout: stdout.text(), stderr: stderr.text() };
}

/** `npx tessera …` as a user runs it: the binary (bin/tessera.mjs) in a process of its own. */
export function tesseraBinary(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return run(process.execPath, ['bin/tessera.mjs', ...args], env);
}

/** A stream that keeps what is written to it. */
class Collector extends Writable {
  private readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(Buffer.from(chunk));
    done();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString();
  }
}
