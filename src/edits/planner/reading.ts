import type { EditOperation } from '../plan.ts';
import { LOOK_QUESTION } from '../operations/registry.ts';
import { adjustment } from './adjustment-rules.ts';
import { Clause, isFiller, quantityOf } from './clause.ts';
import { namedColor } from './colors.ts';
import { effectReadings } from './effects.ts';
import { geometryReadings } from './geometry.ts';
import { AMOUNT_VERBS, AMOUNT_WAYS, COLOR_NOUNS, COLORING_VERBS, DIRECTED, ORDINALS, OBJECT_WORDS, PICTURE_NOUNS, PLACE_AFTER_PARTICLE, regionOf, SIDE_COMPARATIVES, WAY_PARTICLES } from './lexicon.ts';
import type { Rule } from './rule.ts';
import { editOfBoth } from './targets.ts';
import { canonicalClause, isNoRequest, type Protected } from './text.ts';
import { toneReadings } from './tone.ts';
import { normalizeWords, VOCABULARY } from './words.ts';
import { operationNamed } from './questions.ts';
import { find, isLetters, phrases } from './phrases.ts';

/** Reading one clause: its words in one form, then the rules, until one accounts for every word. */

// The adjustment reader comes last: the rules before it read parameters more precisely.
export const RULES: readonly Rule[] = [...effectReadings, ...toneReadings, ...geometryReadings, adjustment];

/** Known words are read by the rules as they are; only unknown ones may be typos. */
export const isKnownWord = (word: string) => isFiller(word) || word === 'slightly' || word === 'strongly' || namedColor(word) !== undefined || !isLetters(word);

const POINTING = new Set(['these', 'those', 'here']);
/** Strength words after "too" (by now "strong" is "strongly"): a fault of too much of an effect, no request ("too high" is a quality's, read as its fault). */
const TOO_MUCH: ReadonlySet<string> = new Set(['strongly', 'strong', 'heavy']);
/** What opens a clause of purpose after "so" ("so it looks warmer", "so that the colours pop"); not "so much brighter". */
const PURPOSE_SUBJECTS: ReadonlySet<string> = new Set(['it', "it's", 'its', 'that', 'the', 'they', 'everything', 'she', 'he', 'her', 'his', 'you', 'we', 'i', 'there', 'this']);
const THERE_IS = new Set(['is', 'are', 'was', 'were', "'s", 'be', 'seems', 'seem']);
const UNNAMED_EFFECT = phrases('add|apply|put|use|give [a|an|some|the|new|different|nice|cool|another]* filter|filters|effect|effects');
/** Words that, alone, ask for a look without naming it ("add a filter"). */
const EFFECT_NOUNS = new Set(LOOK_QUESTION.fillers);

/** The operations a clause means, [] if it is only filler words, undefined if it is not understood. */
export function readClause(text: string, p: Protected): EditOperation[] | undefined {
  const clause = canonicalClause(text);
  // What not to do, a question or a statement is no request, whatever edit its words name.
  if (isNoRequest(clause.flags)) return undefined;
  // "brighten the image and the colours": the picture and its colours joined are two objects of
  // one verb (light for one and vividness for the other, or light for both): asked, never one
  // alone (the picture's own word is gone from the form the rules read).
  if (pictureAndItsColors(clause.text.split(' '))) return undefined;
  const form = normalizeWords(clause.text, isKnownWord);
  // "turn it up slightly": a way with no quality is no edit of its own (not a turn, nor nothing): asked.
  if (colorsIn(form) || upOrDownOfNothing(form) || measuredAgainst(form) || orderedPart(form)) return undefined;
  // Words pointing at things in the picture ("make these brighter", "sharpen it here") are not the whole image.
  const words = form.split(' ');
  // "the sharpening is too strong": an effect said to be too strong asks for less of it, or for it
  // undone; read as the effect with its strength, it had been more of it.
  if (words.some((word, i) => word === 'too' && TOO_MUCH.has(words[i + 1] ?? ''))) return undefined;
  // "there" points too ("brighten it there"), unless it opens what there is ("there is too much blue").
  if (words.some((word, i) => POINTING.has(word) || (word === 'there' && !THERE_IS.has(words[i + 1] ?? '')))) return undefined;
  // "brighten it so it looks warmer", "darken it so the colours pop": a clause of purpose after
  // an edit is why it is asked, read apart from it (readBeforeReason), never one more edit.
  // After a change with no way of its own ("change the hue so it is more red") it says the way.
  // ("lighten it so it's 30% lighter" says how much of the same edit.)
  const purpose = words.findIndex((word, i) => i > 0 && word === 'so' && PURPOSE_SUBJECTS.has(words[i + 1] ?? ''));
  const beforePurpose = purpose > 0 ? readForm(words.slice(0, purpose).join(' '), p) : undefined;
  // A filter or an effect asked for without saying which ("enlarge it and add a filter") is not read as nothing.
  if (find(words, UNNAMED_EFFECT)) return undefined;
  // Only filler words: nothing to do ("please", "and then"), unless it asks for an unnamed effect ("add a filter").
  if (new Clause(form, p.quotes, p.files).leftovers().length === 0 && !form.includes('«')) return words.some((word) => EFFECT_NOUNS.has(word)) ? undefined : [];
  const read = readForm(form, p);
  if (beforePurpose && beforePurpose.length > 0 && read?.some((op) => !beforePurpose.some((asked) => asked.op === op.op))) return undefined;
  // "apply crop margin": the operation named, read as that one or asked about (questions.ts).
  const named = operationNamed(form);
  if (named) return read?.every((op) => op.op === named.op) ? read : undefined;
  if (read) return read;
  // "brighten the girl and the background": all of the picture, part by part.
  const both = editOfBoth(form);
  const whole = both === undefined ? undefined : readForm(both, p);
  return whole && whole.length > 0 ? whole : undefined;
}

function pictureAndItsColors(words: readonly string[]): boolean {
  return joinedToColors(words, (word) => PICTURE_NOUNS.has(word));
}

/** "brighten the colours and her face": a region and the colours joined, asked as the picture and its colours are (for the region reading, rule-planner.ts). */
export const partAndItsColors = (words: readonly string[]): boolean => joinedToColors(words, (word) => regionOf(word) !== undefined);

function joinedToColors(words: readonly string[], named: (word: string) => boolean): boolean {
  const and = words.indexOf('and');
  if (and < 0) return false;
  const [before, after] = [words.slice(0, and), words.slice(and + 1)];
  const colored = (side: string[]) => side.some((word) => COLOR_NOUNS.has(word));
  return (before.some(named) && colored(after)) || (colored(before) && after.some(named));
}

/** Whether a clause (normalised) asks to put colour into the picture with no colour named ("colour the black and white photo"). */
export function colorsIn(form: string): boolean {
  const words = form.split(' ');
  return COLORING_VERBS.has(words[0]!) && OBJECT_WORDS.has(words[1] ?? '') && !words.some((word) => namedColor(word) !== undefined);
}

/** Whether a clause of these words may be read by the rule (it holds a word the rule needs, if it says which). */
export function mayRead(rule: Rule, present: ReadonlySet<string>): boolean {
  if (rule.needs === undefined) return true;
  for (const list of rule.needs) {
    if (list.starts === undefined) return true;
    for (const word of present) if (list.starts.has(word)) return true;
  }
  return false;
}

/** The first rule's reading that leaves no word of the clause (normalised) over. */
export function readForm(form: string, p: Protected): EditOperation[] | undefined {
  const present = new Set(new Clause(form, p.quotes, p.files).words());
  for (const rule of RULES) {
    if (!mayRead(rule, present)) continue;
    const clause = new Clause(form, p.quotes, p.files);
    const operations = rule.parse(clause);
    if (operations && clause.leftovers().length === 0) return operations;
  }
  return undefined;
}

/**
 * "turn it up to 120%", "crank it down a lot": a verb of an amount with its way, and nothing else
 * but how much: which quality (light, contrast, colour, size) goes up is not said.
 */
const HOW_MUCH = new Set(['slightly', 'strongly', 'way', 'much', 'all', 'notch', 'notches', 'bit']);
/** "make it 20% wider", "a bit taller": a side's comparative, with nothing but how much. */
export function sideOnly(form: string): boolean {
  const words = form.split(' ').filter((word) => word !== '');
  return words.some((word) => SIDE_COMPARATIVES.has(word)) && words.every((word) => SIDE_COMPARATIVES.has(word) || isFiller(word) || HOW_MUCH.has(word) || quantityOf(word) !== undefined);
}

export function upOrDownOfNothing(form: string): boolean {
  const words = form.split(' ').filter((word) => word !== '');
  const rest = (word: string) => AMOUNT_VERBS.has(word) || WAY_PARTICLES.has(word) || isFiller(word) || HOW_MUCH.has(word) || quantityOf(word) !== undefined;
  // "up here", "down there": a place, which says no way (the clause is of a part of the picture).
  const way = (word: string, i: number) => (WAY_PARTICLES.has(word) && !isPlaceParticle(words, i)) || AMOUNT_WAYS.has(word);
  return words.some(way) && words.every((word, i) => way(word, i) || rest(word));
}

/** Words the lexicon gives a meaning (of four letters or more: its typo vocabulary). */
const KNOWN = new Set(VOCABULARY);
/**
 * Whether a word has a meaning of its own to the planner (a filler, a colour, a word of the
 * lexicon that is no region noun, or its singular): then it names no thing ("the overall
 * brightness", "the black colour", "the highlight contrast" of the highlights).
 */
export const isLexiconWord = (word: string) => isFiller(word) || namedColor(word) !== undefined || [word, `${word}s`].some((form) => KNOWN.has(form) && regionOf(form) === undefined);
/**
 * Whether "up" or "down" at i says a place, not a way: after a thing (a word no reading knows, not
 * the clause's first, its verb) and before a word of place or "the" ("his dog up here", "a kite up
 * in the sky", "lava down the slope"). After a verb or its object it is the verb's particle ("turn
 * up the brightness", "crank it up there", "tone down the colours").
 */
export function isPlaceParticle(words: readonly string[], i: number): boolean {
  if (!WAY_PARTICLES.has(words[i] ?? '')) return false;
  const [before, after] = [words[i - 1] ?? '', words[i + 1] ?? ''];
  if (!PLACE_AFTER_PARTICLE.has(after) && after !== 'the') return false;
  return i > 1 && isLetters(before) && before.length >= 3 && !isLexiconWord(before) && !AMOUNT_VERBS.has(before);
}

/**
 * "as bright as the first photo", "brighten it by the same amount": a quality measured against
 * something the planner does not see (another picture, an earlier edit). The words of the
 * reference read as fillers, and the edit as its default step, which is not what was asked.
 * ("as … as possible" is rewritten before this, spellings.ts.)
 */
const SAME_AS = phrases('same amount|level|degree|as|way');
const COMPARED_SIZES = new Set(['big', 'large', 'small', 'wide', 'tall', 'long', 'short']);
/**
 * "darken the first third", "brighten the second half", "the last photo": an ordinal after "the"
 * names a part or another picture, never the list marker it is at a clause's start ("first, crop it").
 */
const orderedPart = (form: string) => form.split(' ').some((word, i, words) => ORDINALS.has(word) && words[i - 1] === 'the');

export function measuredAgainst(form: string): boolean {
  const words = form.split(' ');
  const equated = words.some((word, i) => word === 'as' && words[i + 2] === 'as' && (DIRECTED[words[i + 1]!] !== undefined || COMPARED_SIZES.has(words[i + 1]!)));
  return equated || find(words, SAME_AS) !== undefined;
}
