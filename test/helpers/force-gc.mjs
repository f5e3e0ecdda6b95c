// Preloaded into a server under test (with --expose-gc): a full garbage collection 50 ms after
// the last one ended, so native objects (SQLite statements) are finalised while the server works,
// as an idle collection would do at an arbitrary moment in production. Timed from the end of the
// last collection, not at a fixed interval: on a busy machine a collection can take longer than
// 50 ms, and a fixed interval then runs them back to back and leaves the server no time to work.
import { setTimeout } from 'node:timers';

if (typeof globalThis.gc !== 'function') throw new Error('force-gc.mjs needs --expose-gc');
const collect = () => {
  globalThis.gc();
  setTimeout(collect, 50).unref();
};
setTimeout(collect, 50).unref();
