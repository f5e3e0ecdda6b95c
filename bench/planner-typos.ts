// How the planner holds up to typos: every prompt of test/fixtures/prompts.json that it plans
// (whole-image and region ones), each word of five letters or more misspelt by one of the two
// commonest slips (two neighbouring letters swapped, or one left out; never the first letter),
// one word at a time, and the variant planned again.
//   npm exec -- node --import tsx bench/planner-typos.ts [--side NAME=CHECKOUT ...] [--show 20]
// Prints, per side, the share of variants planned as the prompt spelt right, refused, and planned
// otherwise. A variant planned otherwise is a correction to another word: read them (--show),
// since some may be wrong plans. Prompts that write words (text, watermark) are left out: a slip
// in the words to write is written as it is.
import fs from 'node:fs';
import path from 'node:path';

interface Fixture {
  prompt: string;
  operations?: unknown[];
}

const args = process.argv.slice(2);
const sides: Array<[string, string]> = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--side') {
    const [name, checkout] = args[i + 1]!.split('=') as [string, string];
    sides.push([name, path.resolve(checkout)]);
  }
}
if (sides.length === 0) sides.push(['this', path.resolve('.')]);
const show = Number(args[args.indexOf('--show') + 1]) || 0;

const fixtures = JSON.parse(fs.readFileSync('test/fixtures/prompts.json', 'utf8')) as {
  understood: Fixture[];
  regions: { understood: Fixture[] };
};
const writes = (ops: unknown[]) => ops.some((op) => ['text', 'watermark'].includes((op as { op: string }).op));
const prompts = [...fixtures.understood, ...fixtures.regions.understood].filter((f) => f.operations && !writes(f.operations)).map((f) => f.prompt);

/** The variants of a prompt: each long word of letters with one common slip. */
function variants(prompt: string): string[] {
  const out: string[] = [];
  const words = prompt.split(' ');
  words.forEach((word, i) => {
    if (word.length < 5 || ![...word].every((ch) => /[a-z]/i.test(ch))) return;
    const slips = new Set<string>();
    for (let k = 1; k < word.length; k++) {
      slips.add(word.slice(0, k) + word.slice(k + 1));
      if (k < word.length - 1 && word[k] !== word[k + 1]) slips.add(word.slice(0, k) + word[k + 1] + word[k] + word.slice(k + 2));
    }
    for (const slip of slips) out.push([...words.slice(0, i), slip, ...words.slice(i + 1)].join(' '));
  });
  return out;
}

for (const [name, checkout] of sides) {
  const { RulePlanner } = await import(path.join(checkout, 'src/edits/planner/rule-planner.ts'));
  const planner = new RulePlanner({ regions: true });
  const plan = (prompt: string): string => {
    try {
      return JSON.stringify(planner.planSync(prompt).operations);
    } catch {
      return 'refused';
    }
  };
  let total = 0;
  let same = 0;
  let refused = 0;
  const other: string[] = [];
  for (const prompt of prompts) {
    const expected = plan(prompt);
    if (expected === 'refused') continue;
    for (const variant of variants(prompt)) {
      total++;
      const got = plan(variant);
      if (got === expected) same++;
      else if (got === 'refused') refused++;
      else other.push(`${variant}  →  ${got.slice(0, 120)}  (spelt right: ${expected.slice(0, 80)})`);
    }
  }
  const pct = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
  console.log(`${name}: ${prompts.length} prompts, ${total} variants: planned the same ${pct(same)}, refused ${pct(refused)}, planned otherwise ${pct(other.length)} (${other.length})`);
  for (const line of other.slice(0, show)) console.log(`  ${line}`);
}
