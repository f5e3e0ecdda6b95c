import type { Env } from '../config.ts';

/**
 * What a command reads and where it writes: the process's own streams and environment under
 * `npx tessera`, streams the caller collects in tests (which run commands in-process, without
 * starting a node for each). Nothing in src/cli touches process.stdout, stderr, env or exit;
 * only `tessera serve` starts the server itself (src/main.ts), which reads the process's own.
 */
export interface CliIo {
  stdout: CliStream;
  stderr: CliStream;
  env: Env;
}

/** A writable stream; `isTTY` when it is a terminal (the upload progress bar). */
export type CliStream = NodeJS.WritableStream & { isTTY?: boolean };

/** `say('text')` writes a line. */
export const lineWriter = (stream: CliStream) => (text: string) => void stream.write(`${text}\n`);
