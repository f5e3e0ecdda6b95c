import { regionWords, SPEAKER_PRONOUNS } from './lexicon.ts';

/**
 * The parts of a picture that together are all of it: the background and the subject in front of
 * it. "brighten the girl and the background" asks for the same edit everywhere, so it is an edit
 * of the whole image; either part alone is a region (refused). Only these two are read: "the sky
 * and the sea" may well not be all of a picture.
 */

export type Part = 'background' | 'subject';

/** "the rest (of the picture)" is all but the other part named: as good as the background here. */
const BACKGROUND = new Set([...regionWords('background'), 'rest']);
/** Who or what a photo is usually of: what stands in front of its background. */
const SUBJECT = new Set(regionWords('subject'));

const PART_PHRASE = String.raw`(?:(?:on|of|in|for|to|at)\s+)?(?:(?:the|her|his|their|this|that)\s+)?(?:(?:little|young|small)\s+)?(${[...BACKGROUND, ...SUBJECT].join('|')})(?:(?<=rest)\s+of)?`;
const ONE = new RegExp(String.raw`(?:^|\s)${PART_PHRASE}(?=\s|$)`, 'g');
const BOTH = new RegExp(String.raw`(?:^|\s)${PART_PHRASE}\s+(?:and|&)\s+${PART_PHRASE}(?=\s|$)`);

/**
 * Words that relate the parts to something else ("add a person into the background", "put the
 * woman onto a lighter background", "the background of this girl"): then the clause is not one
 * edit said of each part.
 */
const RELATING = new Set(['add', 'put', 'place', 'insert', 'into', 'onto', 'remove', 'delete', 'erase', 'of', 'from', 'with', 'in', 'on', 'behind', 'around', 'over', 'under', 'new', 'different']);

/** A word for who a photo is of ("girl", "dogs", "the subject"). */
export const isSubject = (word: string): boolean => SUBJECT.has(word) && !PRONOUNS.has(word);
const PRONOUNS = new Set(['her', 'him', 'them', ...SPEAKER_PRONOUNS]);

const partOf = (word: string): Part => (BACKGROUND.has(word) ? 'background' : 'subject');

const edit = (text: string): string | undefined => {
  const rest = text.replace(/\s+/g, ' ').trim();
  return rest.split(' ').some((word) => RELATING.has(word)) ? undefined : rest;
};

/**
 * The edit of a clause (in normalised form) that names the background and the subject joined by
 * "and" ("brighten the girl and the background"); undefined for any other clause.
 */
export function editOfBoth(form: string): string | undefined {
  const match = BOTH.exec(form);
  if (!match) return undefined;
  if (!coverWhole([partOf(match[1]!), partOf(match[2]!)])) return undefined;
  const rest = form.slice(0, match.index) + ' ' + form.slice(match.index + match[0].length);
  return rest.match(ONE) ? undefined : edit(rest);
}

/** The edit of a clause that names one part once ("brighten the background"), and the part. */
export function editOfOne(form: string): { edit: string; part: Part } | undefined {
  const matches = [...form.matchAll(ONE)];
  if (matches.length !== 1) return undefined;
  const rest = edit(form.slice(0, matches[0]!.index) + ' ' + form.slice(matches[0]!.index + matches[0]![0].length));
  return rest === undefined ? undefined : { edit: rest, part: partOf(matches[0]![1]!) };
}

/** Whether parts named together are the whole picture. */
export const coverWhole = (parts: Iterable<Part>): boolean => {
  const all = new Set(parts);
  return all.has('background') && all.has('subject');
};
