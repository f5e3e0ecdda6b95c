// Loaded before the service (`npm start`: --import) and the CLI (bin/tessera.mjs): checks the
// Node version, then turns on Node's compile cache. Node keeps the code it compiled, and the
// TypeScript it stripped, in os.tmpdir()/node-compile-cache, keyed by each file's contents, so a
// start after the first skips most of that work (a server process listened after 1.5 s of CPU
// instead of 2.0 s). A cache that cannot be written is skipped, and NODE_DISABLE_COMPILE_CACHE=1
// turns it off.
import './require-node.mjs';
import module from 'node:module';

module.enableCompileCache?.();
