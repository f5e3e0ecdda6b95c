#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so no build step stands between a clone and the tool.
import './require-node.mjs';
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
