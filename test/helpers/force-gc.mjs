// Preloaded into a server under test (with --expose-gc): a full garbage collection every few
// milliseconds, so native objects (SQLite statements) are finalised while the server works,
// as an idle collection would do at an arbitrary moment in production.
import { setInterval } from 'node:timers';

if (typeof globalThis.gc !== 'function') throw new Error('force-gc.mjs needs --expose-gc');
setInterval(() => globalThis.gc(), 50).unref();
