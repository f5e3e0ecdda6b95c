#!/usr/bin/env node
// Runs the TypeScript CLI on Node's own type stripping, so no build step stands between a clone
// and the tool. Node strips no types inside node_modules, so a copy installed there (a packed
// tarball) loads through tsx instead.
import './preload.mjs';

if (import.meta.dirname.split(/[\\/]/).includes('node_modules')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { run } = await import('../src/cli/main.ts');
// exitCode, not exit(): `tessera serve` keeps serving after run() returns, and output is flushed.
process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
