// The list at depth (bench/list.ts), checkouts against each other in one run: each round runs
// every side's server in turn (the order rotating), each against the raw keyset query timed in
// the same minute, so the ratio of the deep page to the raw query is the figure to compare.
//   npm exec -- node bench/compare-list.ts --side before=<checkout> [--side name=<checkout> …]
//     [--dialect postgres] [--files 100000] [--samples 500] [--rounds 3]
// The first side is the baseline; this checkout is the last side unless named. A checkout needs
// node_modules. Prints per side the medians over rounds.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchArguments, inRotatedRounds } from './sides.ts';
import type { benchList as BenchList, ListBenchResult } from './list.ts';

const { sides, arg } = benchArguments(process.argv.slice(2));
const dialect = (arg('--dialect') ?? 'postgres') as 'sqlite' | 'postgres';
const files = Number(arg('--files') ?? 100_000);
const samples = Number(arg('--samples') ?? 500);
const rounds = Number(arg('--rounds') ?? 3);
const home = process.cwd();

const results = await inRotatedRounds(sides, rounds, async ([name, dir], round): Promise<ListBenchResult> => {
  // The side's own bench starts the side's own server (`src/main.ts` of the working directory).
  process.chdir(dir);
  try {
    const { benchList } = (await import(pathToFileURL(path.join(dir, 'bench/list.ts')).href)) as { benchList: typeof BenchList };
    return await benchList(dialect, files, samples);
  } finally {
    process.chdir(home);
    console.error(`round ${round + 1}/${rounds}: ${name} done`);
  }
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => value.toFixed(2);
console.log(`\n${new Date().toISOString()}, ${dialect}, ${files.toLocaleString('en')} files, ${samples} sequential requests per figure, ${rounds} rounds (medians)\n`);
console.log('| side | deep page in the server p50 / p99 (ms) | raw keyset query p50 / p99 (ms) | ratio p50 / p99 | server CPU µs per list (8 clients) | lists/s |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const [name] of sides) {
  const runs = results.get(name)!;
  const server50 = median(runs.map((r) => r.deepPage.serverP50!));
  const server99 = median(runs.map((r) => r.deepPage.serverP99!));
  const raw50 = median(runs.map((r) => r.rawDeep.p50));
  const raw99 = median(runs.map((r) => r.rawDeep.p99));
  const ratio50 = median(runs.map((r) => r.deepPage.serverP50! / r.rawDeep.p50));
  const ratio99 = median(runs.map((r) => r.deepPage.serverP99! / r.rawDeep.p99));
  console.log(`| ${name} | ${ms(server50)} / ${ms(server99)} | ${ms(raw50)} / ${ms(raw99)} | ${ratio50.toFixed(2)}x / ${ratio99.toFixed(2)}x | ${median(runs.map((r) => r.cpuMicrosPerRequest)).toFixed(0)} | ${median(runs.map((r) => r.requestsPerSecond)).toFixed(0)} |`);
}
