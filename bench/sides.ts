import path from 'node:path';

/**
 * The command line of a bench that runs several checkouts against each other:
 * `--side name=<checkout>` (the first is the baseline; this checkout is added last unless named),
 * `--side-env name={"K":"V"}` and `--flag value` options.
 */
export function benchArguments(args: readonly string[]): {
  sides: Array<[name: string, dir: string]>;
  arg: (name: string) => string | undefined;
  /** `--side-env name={"K":"V"}`: settings for that side's server (one checkout run two ways needs two names). */
  sideEnv: Map<string, Record<string, string>>;
} {
  const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const sideArgs = args.flatMap((a, i) => (a === '--side' ? [args[i + 1]!] : []));
  if (sideArgs.length === 0) throw new Error('--side name=<checkout> is required (the baseline first)');
  const sides: Array<[name: string, dir: string]> = sideArgs.map((s) => [s.slice(0, s.indexOf('=')), path.resolve(s.slice(s.indexOf('=') + 1))]);
  if (!sides.some(([, dir]) => dir === process.cwd())) sides.push(['this checkout', process.cwd()]);
  const sideEnv = new Map<string, Record<string, string>>(
    args.flatMap((a, i) => (a === '--side-env' ? [args[i + 1]!] : [])).map((s) => [s.slice(0, s.indexOf('=')), JSON.parse(s.slice(s.indexOf('=') + 1)) as Record<string, string>]),
  );
  return { sides, arg, sideEnv };
}

/**
 * Every side measured once a round, each round starting at the next side, so that none always gets
 * the quieter minute. Answers each side's results by name, in the order of the rounds.
 */
export async function inRotatedRounds<Side extends readonly [name: string, ...rest: unknown[]], Result>(
  sides: readonly Side[],
  rounds: number,
  measure: (side: Side, round: number) => Promise<Result>,
): Promise<Map<string, Result[]>> {
  const results = new Map<string, Result[]>(sides.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(round + k) % sides.length]!;
      results.get(side[0])!.push(await measure(side, round));
    }
  }
  return results;
}
