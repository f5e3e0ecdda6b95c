import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { WalrusStandIn } from './walrus.ts';

/**
 * The stand-in in a process of its own, for end-to-end tests whose test process blocks (spawnSync
 * of the CLI) while servers still need Walrus to answer. Run directly, it starts the stand-in and
 * prints its URL on stdout.
 */
export interface WalrusProcess {
  url: string;
  close(): Promise<void>;
}

export async function startWalrusProcess(): Promise<WalrusProcess> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'walrus-process.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const [url] = (await once(lines, 'line')) as [string];
  return {
    url,
    async close() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

if (process.argv[1] === import.meta.filename) {
  const standIn = await WalrusStandIn.start();
  console.log(standIn.url);
  process.on('SIGTERM', () => void standIn.close().then(() => process.exit(0)));
}
