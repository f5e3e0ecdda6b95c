// Preloaded into a server under test (with --expose-gc): a full garbage collection soon after
// the last one ended, so native objects (SQLite statements) are finalised while the server works,
// as an idle collection would do at an arbitrary moment in production. Timed from the end of the
// last collection, not at a fixed interval, and at least as long as that collection took: a
// full collection of the server's heap takes up to 50 ms on an idle machine (there this is the
// same as a 50 ms gap) but 200-350 ms at a load average of 8 on 2 cores, where a fixed 50 ms gap
// left the server a sixth of its time to work (a test of 330 requests took 100 s); so it gets
// half at least.
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';

if (typeof globalThis.gc !== 'function') throw new Error('force-gc.mjs needs --expose-gc');
const collect = () => {
  const started = performance.now();
  globalThis.gc();
  setTimeout(collect, Math.max(50, performance.now() - started)).unref();
};
setTimeout(collect, 50).unref();
