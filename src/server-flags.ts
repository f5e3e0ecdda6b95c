/**
 * V8 flags the server is started with: `npm start` gives them on its command line (a test holds
 * package.json to this list), as the test and bench launchers do. They cannot be set once the
 * process runs (V8 sizes its heap at start); src/main.ts warns when they are missing.
 *
 * `--initial-old-space-size=128`: every socket read of an upload is a buffer outside the
 * JavaScript heap, counted within its limit (src/main.ts). With the limit V8 starts with (about
 * twice the live heap, 35 MiB here), those buffers reached it every 80 MiB or so and each time a
 * full collection freed them: 13 full collections per 1 GiB uploaded, a quarter of the event
 * loop's time. From 128 MiB the young-generation scavenges free them first: none, and 1.3–1.5x the
 * upload rate, with the same peak RSS (docs/benchmarks.md, issue 22, "Fifth pass"). It is where
 * collections begin, not a cap: the heap still grows and shrinks as before.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--initial-old-space-size=128'];

/** The flags of SERVER_NODE_FLAGS that this process was not started with. */
export function missingServerFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return SERVER_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}
