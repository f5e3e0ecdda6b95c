#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so no build step stands between a clone and the tool.
import './require-node.mjs';
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/cli/main.ts');
// exitCode, not exit(): `tessera serve` keeps serving after run() returns, and output is flushed.
process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
