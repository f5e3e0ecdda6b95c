// Small uploads end to end with other settings, against hello world in the same run:
//   node bench/uploads-with.ts '{"TESSERA_SQLITE_GROUP_COMMIT_MAX":"1"}'
//   node bench/uploads-with.ts '{"TESSERA_SQLITE_SYNCHRONOUS":"NORMAL"}'
import { helloWorld, smallFilesEndToEnd } from './transfer.ts';

const env = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
for (let run = 0; run < 3; run++) {
  const hello = await helloWorld(20_000, 100);
  const small = await smallFilesEndToEnd(3000, 100, env);
  console.log(`uploads ${small.uploadsPerSecond.toFixed(0)}/s, ${small.uploadCpuMicros.toFixed(0)} µs CPU each; hello world ${hello.toFixed(0)} req/s; ${(small.uploadsPerSecond / hello).toFixed(3)}x`);
}
