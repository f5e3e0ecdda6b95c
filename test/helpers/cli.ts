import { spawn } from 'node:child_process';

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

/** `npx tessera …` as a user runs it (bin/tessera.mjs), with extra environment. */
export function tessera(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return run(process.execPath, ['bin/tessera.mjs', ...args], env);
}
