import { OPERATION_CATALOGUE } from '../catalogue.ts';
import type { EditOperation } from '../plan.ts';
import { STRENGTHS } from '../operations/registry.ts';
import type { RefusalReason } from '../refusal-reasons.ts';
import { printLike, quantityOf, unitFraction } from './clause.ts';
import { namesCorner, ORDINALS, regionOf, STEP_NOUNS, STEPS_NOUNS } from './lexicon.ts';

const STEP_WORDS: ReadonlySet<string> = new Set([...STEP_NOUNS, ...STEPS_NOUNS]);
import { questionFor } from './questions.ts';
import { readForm } from './reading.ts';
import { readRegionEdit } from './regions.ts';
import type { Protected } from './text.ts';

/**
 * Why a clause is refused when its number is what no reading takes ("sharpen 50", "3 stops
 * brighter", "brighten to 20%"): the edit itself reads, so "not understood" would say less than is
 * known. The clause is read again with its one number changed, which tells the kinds apart:
 * - the sign turned reads: the sign goes against the verb ("brighten by -20%"): ambiguous;
 * - a level of the same size on the other side of 100% reads: the level goes against the verb
 *   ("brighten to 20%" is a darkening, "enlarge to 50%" a shrink): ambiguous;
 * - a smaller number reads: the number is past what one edit does ("3 stops brighter"): limit;
 * - the clause without the number reads: the number is no amount the edit takes, often for want
 *   of a unit ("sharpen 50"): ambiguous.
 * Only a clause with one number is looked at: with more, which one is wrong is not known.
 */
const TURN_NOUNS: ReadonlySet<string> = new Set(['turn', 'turns', 'rotation', 'rotations', 'revolution']);

export function amountRefusal(form: string, p: Protected, regions = false): { reason: RefusalReason; why: string } | undefined {
  const words = form.split(' ');
  const print = words.find((word) => printLike(word) !== undefined);
  if (print !== undefined) {
    const [w, h] = printLike(print)!;
    return { reason: 'ambiguous', why: `says "${print}", which may be pixels or a print size in inches or centimetres: say "${print} px" for pixels, or the shape it should have, e.g. "crop to ${w}:${h}".` };
  }
  // (Not of a turn: "a 1/4 turn" is a share of one, whatever reads it.)
  const fraction = words.find((word, i) => unitFraction(word) !== undefined && !TURN_NOUNS.has(words[i + 1] ?? ''));
  if (fraction !== undefined) {
    const n = unitFraction(fraction)!;
    return { reason: 'ambiguous', why: `says "${fraction}", which may be a share of the picture or a shape: say "${Math.round(10000 / n) / 100}%" for the share, or "1:${n}" for the shape.` };
  }
  // "keep the top left half": a share of a corner is of its width, its height or the picture?
  const shareAt = words.findIndex((word) => quantityOf(word)?.unit === '%');
  if (shareAt >= 0 && namesCorner(words)) {
    return { reason: 'ambiguous', why: `says a share of a corner, "${words[shareAt]}", which may be of the width, the height or the whole picture: say "the top left quarter" for that corner's quarter, or the size to crop to, e.g. "crop to 800x600 from the top left".` };
  }
  const numbers = words.flatMap((word, i) => (quantityOf(word) === undefined ? [] : [i]));
  if (numbers.length > 1) return severalAmounts(words, numbers, p, regions);
  if (numbers.length !== 1) return undefined;
  const at = numbers[0]!;
  const said = words[at]!;
  const q = quantityOf(said)!;
  // "one of the kids", "the two boys": a count of things in the picture, no amount of an edit.
  const next = words[at + 1] ?? '';
  // "the second half", "the left third": a share after "the" or an ordinal is a part of the picture.
  const before = words[at - 1] ?? '';
  if (next === 'of' || regionOf(next) !== undefined || before === 'the' || ORDINALS.has(before)) return undefined;
  const spelled = (value: number) => `${q.signed ? (value < 0 ? '-' : '+') : ''}${Math.round(Math.abs(value) * 1000) / 1000}${q.unit}`;
  // Each text read once: a whole number halved and quartered can come to the same one ("3": 2, 1, 1).
  const reads = new Map<string, EditOperation[] | undefined>();
  const readWith = (replacement: string[], from = at) => {
    const text = [...words.slice(0, from), ...replacement, ...words.slice(at + 1)].join(' ');
    if (reads.has(text)) return reads.get(text);
    // An edit of a region ("brighten the background to 20%") is read as the planner reads it, where regions are located.
    const read = readForm(text, p) ?? (regions ? readRegionEdit(text, p) : undefined);
    reads.set(text, read && read.length > 0 ? read : undefined);
    return reads.get(text);
  };
  const named = (read: EditOperation[]) => [...new Set(read.map((op) => op.op))].join(' and ');
  if (q.signed && q.value !== 0 && readWith([spelled(-q.value)])) {
    return { reason: 'ambiguous', why: `has a sign ("${said}") against the way its verb goes: say the change without a sign, e.g. "by ${spelled(Math.abs(q.value)).slice(1)}", or the verb of the other way.` };
  }
  // "lighten it up to 15%": a bound on the change, which says no amount.
  if (words[at - 1] === 'to' && words[at - 2] === 'up' && readWith([], at - 2)) {
    return { reason: 'ambiguous', why: `says "up to ${said}", a bound on the change rather than how much: say the change, e.g. "by ${said}".` };
  }
  // "crop the left third": read as a cut with "off" after it, the share is of a side, which a
  // bare crop may keep or cut away.
  if (q.unit === '%' && readWith([said, 'off'])?.every((op) => op.op === 'crop_margin')) {
    return { reason: 'ambiguous', why: `may mean the ${said} kept or the ${said} cut away: say "crop to the …" or "keep the …" to keep it, "crop off the …" or "… off" to cut it away.` };
  }
  const level = words[at - 1] === 'to' && q.unit === '%' && !q.signed;
  const otherSide = level ? readWith([q.value < 100 ? '150%' : '50%']) : undefined;
  if (otherSide) {
    const way = q.value < 100 ? 'less' : q.value > 100 ? 'more' : 'no change';
    return {
      reason: 'ambiguous',
      why: `sets a level of ${said} of the picture as it is (100%), which is ${way} of it, against the verb: say the change ("by 20%") or a level on the verb's side of 100%.`,
    };
  }
  // "make it 200% bigger", "enlarge by 150%", "zoom in by 150%": the size it ends at, or that much added to it.
  const grows = (op: EditOperation) => (op.op === 'resize' && op.width?.unit === '%' && op.width.value > 100) || (op.op === 'crop' && op.width?.unit === '%' && op.width.value < 100);
  const grown = q.unit === '%' && !q.signed && !level && q.value > 100 ? readWith(['50%'])?.find(grows) : undefined;
  if (grown?.op === 'crop') {
    return { reason: 'ambiguous', why: `may mean a zoom to ${said} of the size it is or ${said} added to it: say the zoom it should end at, e.g. "zoom in to ${said}" or "zoom in 2x".` };
  }
  if (grown) {
    return { reason: 'ambiguous', why: `may mean a picture ${said} of the size it is or ${said} added to it: say the size it should end at, e.g. "resize to ${said}" or "make it twice as big".` };
  }
  // A whole number stays whole: "saturation 3" is refused as a whole number with no unit, which
  // "saturation 1.5" (a level) is not, so a smaller one must be of its kind to say it is a limit.
  const divided = (divisor: number) => (q.integer && q.unit !== '%' ? Math.round(q.value / divisor) : q.value / divisor);
  for (const divisor of [2, 4, 10, 100]) {
    const value = divided(divisor);
    // A number with no unit is read one way from 10 and another below it ("by 20" a percentage,
    // "by 2" a factor): a smaller one read the other way says nothing of this one's limit.
    const sameKind = q.unit !== '' || Math.abs(value) >= 10 === Math.abs(q.value) >= 10;
    const smaller = value !== 0 && sameKind ? readWith([spelled(value)]) : undefined;
    // A limit only where less asked is less done: half of that again, if it reads, is no stronger
    // an edit of the same kind (a level below 1 is a bigger change the smaller it is).
    const half = smaller && divided(divisor * 2) !== 0 ? readWith([spelled(divided(divisor * 2))]) : undefined;
    if (smaller && (!half || isSmaller(half, smaller))) return { reason: 'limit', why: `asks for ${said}, past what one ${named(smaller)} edit does: ask for less, e.g. ${spelled(value)}.` };
  }
  // Without the number, the edit reads, or is one asked about for want of how much ("resize by 50").
  const link = words[at - 1] === 'by' || words[at - 1] === 'to' || words[at - 1] === 'at' ? at - 1 : at;
  const rest = [...words.slice(0, link), ...words.slice(at + 1)].join(' ');
  const without = readWith([], link);
  if (!without && !questionFor(rest)) return undefined;
  const unit = q.unit === '' ? ' (it has no unit)' : '';
  if (!without) return { reason: 'ambiguous', why: `says a number, "${said}"${unit}, that does not say for sure what it measures or which way: say the change whole, e.g. "20% brighter", "resize to 50%".` };
  const op = without[0]!.op;
  const example = OPERATION_CATALOGUE.find((entry) => entry.op === op)?.examples[0];
  return { reason: 'ambiguous', why: `gives ${op} a number it does not read, "${said}"${unit}: leave it out, or say how much in words ("slightly", "a lot") where the edit has a degree${example ? `, e.g. "${example}"` : ''}.` };
}

/** Whether one reading is the same one edit as another, and no stronger (by its strength, where the registry gives one). */
function isSmaller(less: EditOperation[], more: EditOperation[]): boolean {
  if (less.length !== 1 || more.length !== 1 || less[0]!.op !== more[0]!.op) return false;
  const strength = STRENGTHS[less[0]!.op];
  if (!strength) return true;
  const size = (op: EditOperation) => {
    const value = (op as unknown as Record<string, number>)[strength.key]!;
    return strength.ratio ? Math.abs(Math.log(value / strength.neutral)) : Math.abs(value - strength.neutral);
  };
  return size(less[0]!) <= size(more[0]!);
}

/**
 * "brighten it one shade 20%", "two shades darker by 10%": more than one number, and the edit
 * reads with none of them (and the words that link them): the amounts say different things.
 */
function severalAmounts(words: string[], numbers: number[], p: Protected, regions: boolean): { reason: RefusalReason; why: string } | undefined {
  const dropped = new Set(numbers.flatMap((at) => (words[at - 1] === 'by' || words[at - 1] === 'to' ? [at - 1, at] : [at])));
  // A count of steps goes with its noun ("two shades").
  for (const at of numbers) if (STEP_WORDS.has(words[at + 1] ?? '')) dropped.add(at + 1);
  const rest = words.filter((_, i) => !dropped.has(i)).join(' ');
  const read = readForm(rest, p) ?? (regions ? readRegionEdit(rest, p) : undefined);
  if (!read || read.length === 0) return undefined;
  const said = numbers.map((at) => `"${words[at]}"`).join(' and ');
  return { reason: 'ambiguous', why: `says more than one amount (${said}) for one edit: say one, e.g. "20% brighter" or "two shades brighter".` };
}
