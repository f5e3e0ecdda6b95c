/**
 * Phrases as data over a clause's words, the way spaCy's Matcher keeps patterns: a phrase is a
 * row of slots, each slot the words that may stand there, some slots optional. They are written
 * as short strings a reviewer reads like a dictionary entry:
 *
 *   'reduce|remove|less [some] [of] [the] noise|grain'
 *
 * is "reduce", "remove" or "less", then optionally "some", "of", "the", then "noise" or "grain".
 * A slot `_` is any one word, `[a|b]*` any number of those words. A slot `@name` stands for a word class of the lexicon (see `wordClass`). Matching is over
 * whole words only, leftmost first, phrases tried in the order given, optional slots taken when
 * they can be (as a regular expression's greedy `?`), so a table keeps the reading a pattern had.
 */

interface Slot {
  readonly words: ReadonlySet<string>;
  readonly optional: boolean;
  /** `[a|b]*`: any number of these words, none included. */
  readonly repeated: boolean;
}

export interface Phrase {
  readonly slots: readonly Slot[];
  /** The words it can start with; undefined when any word can ("_", or every slot optional). */
  readonly firsts: ReadonlySet<string> | undefined;
}

/** Several phrases, tried in order, with the words any of them can start with (undefined: any word). */
export type Phrases = readonly Phrase[] & { readonly starts?: ReadonlySet<string> | undefined };

const CLASSES = new Map<string, ReadonlySet<string>>();

/** Declares a word class that phrases may name as `@name` (declared before the phrases that use it). */
export function wordClass(name: string, words: Iterable<string>): ReadonlySet<string> {
  const set = new Set(words);
  CLASSES.set(name, set);
  return set;
}

/** Every word some phrase names (a reading's own word), filled as phrases are written. */
const NAMED = new Set<string>();

/**
 * Whether a reading names this word in one of its phrases ("despeckle" in the denoise reading): a
 * word the planner reads as it is, which is never a typo of another ("speckle").
 */
export const isPhraseWord = (word: string): boolean => NAMED.has(word);
/** The words the phrases written so far name. */
export const phraseWords = (): readonly string[] => [...NAMED];

function slot(spec: string): Slot {
  const repeated = spec.startsWith('[') && spec.endsWith(']*');
  const optional = repeated || (spec.startsWith('[') && spec.endsWith(']'));
  const body = repeated ? spec.slice(1, -2) : optional ? spec.slice(1, -1) : spec;
  const words = new Set<string>();
  for (const word of body.split('|')) {
    if (word.startsWith('@')) {
      const named = CLASSES.get(word.slice(1));
      if (!named) throw new Error(`phrases: no word class ${word}`);
      for (const w of named) words.add(w);
    } else if (word !== '') {
      words.add(word);
      if (word !== '_') NAMED.add(word);
    }
  }
  return { words, optional, repeated };
}

/** Each written phrase once: readings may name their phrases where they use them. */
const WRITTEN = new Map<string, Phrase>();

/** Lists already written, by their first phrase (readings may write their phrases where they use them). */
const LISTS = new Map<string, Array<{ specs: string[]; list: Phrases }>>();

/** Phrases from their written forms (see the module comment). */
export function phrases(...specs: string[]): Phrases {
  const known = LISTS.get(specs[0] ?? '') ?? [];
  const same = known.find((entry) => entry.specs.length === specs.length && entry.specs.every((spec, i) => spec === specs[i]));
  if (same) return same.list;
  const list = written(specs);
  LISTS.set(specs[0] ?? '', [...known, { specs, list }]);
  return list;
}

function written(specs: string[]): Phrases {
  const list = specs.map((spec) => {
    let phrase = WRITTEN.get(spec);
    if (!phrase) {
      const slots = wordsOf(spec).map(slot);
      WRITTEN.set(spec, (phrase = { slots, firsts: firstsOf(slots) }));
    }
    return phrase;
  });
  const starts = list.some((phrase) => phrase.firsts === undefined) ? undefined : new Set(list.flatMap((phrase) => [...phrase.firsts!]));
  return Object.assign(list, { starts });
}

/** The words of a text written over several lines ("a b\n  c" → a, b, c). */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  let word = '';
  for (const ch of text) {
    if (ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r') {
      if (word) out.push(word);
      word = '';
    } else word += ch;
  }
  if (word) out.push(word);
  return out;
}

/** Whether a word is made of the letters a–z only. */
export const isLetters = (word: string): boolean => word.length > 0 && [...word].every((ch) => ch >= 'a' && ch <= 'z');

const LISTED = new Map<string, Phrases>();

/** Single words as phrases: `words('blur blurred blurry')`. */
export function words(list: string): Phrases {
  let listed = LISTED.get(list);
  if (!listed) LISTED.set(list, (listed = phrases(wordsOf(list).join('|'))));
  return listed;
}

/** The words a phrase of these slots can start with, or undefined when any word can ("_", or all slots optional). */
function firstsOf(slots: readonly Slot[]): ReadonlySet<string> | undefined {
  const found = new Set<string>();
  for (const s of slots) {
    if (s.words.has('_')) return undefined;
    for (const word of s.words) found.add(word);
    if (!s.optional) return found;
  }
  return undefined;
}

/** Whether the phrase may match at a word (a quick look before matching it). */
const mayStartAt = (phrase: Phrase, word: string | undefined): boolean => phrase.firsts === undefined || (word !== undefined && phrase.firsts.has(word));

/** Where a phrase matched: the words [start, end). */
export interface Match {
  start: number;
  end: number;
  /** The words matched, optional ones left out when absent. */
  words: string[];
  /** Which of the phrases matched. */
  phrase: number;
}

/** The end of a phrase matched at `at`, or -1; optional slots are taken when the rest still matches. */
function endOf(tokens: readonly string[], phrase: Phrase, slotAt: number, at: number): number {
  if (slotAt === phrase.slots.length) return at;
  const s = phrase.slots[slotAt]!;
  const here = at < tokens.length && (s.words.has(tokens[at]!) || (s.words.has('_') && tokens[at] !== ''));
  if (here) {
    const end = s.repeated ? endOf(tokens, phrase, slotAt, at + 1) : endOf(tokens, phrase, slotAt + 1, at + 1);
    if (end >= 0) return end;
  }
  return s.optional ? endOf(tokens, phrase, slotAt + 1, at) : -1;
}

/** The end of a match of one of the phrases starting exactly at `at`, or -1. */
export function endAt(tokens: readonly string[], list: Phrases, at: number): number {
  for (const phrase of list) {
    if (!mayStartAt(phrase, tokens[at])) continue;
    const end = endOf(tokens, phrase, 0, at);
    if (end > at) return end;
  }
  return -1;
}

/** The leftmost match of any of the phrases in the words, from `from`. */
export function find(tokens: readonly string[], list: Phrases, from = 0): Match | undefined {
  const starts = list.starts;
  for (let i = from; i < tokens.length; i++) {
    if (starts && !starts.has(tokens[i]!)) continue;
    for (let n = 0; n < list.length; n++) {
      const phrase = list[n]!;
      if (!mayStartAt(phrase, tokens[i])) continue;
      const end = endOf(tokens, phrase, 0, i);
      if (end > i) return { start: i, end, words: tokens.slice(i, end), phrase: n };
    }
  }
  return undefined;
}

/** Whether the words are exactly one of the phrases. */
export function isWhole(tokens: readonly string[], list: Phrases): boolean {
  return list.some((phrase) => endOf(tokens, phrase, 0, 0) === tokens.length && tokens.length > 0);
}

/**
 * A rewrite of a phrase into other words, or into nothing: how a spelling, a number said in words
 * or a turn of phrase becomes the one form the readings know. `to` gets the words matched.
 */
export interface Rewrite {
  from: Phrases;
  to: string | ((matched: string[]) => string);
  /** Only at the start of the clause, at its end, or the whole clause. */
  at?: 'start' | 'end' | 'whole';
  /** The words after the match must start with one of these (they are not rewritten). */
  followedBy?: Phrases;
  /** … must not start with one of these. */
  notFollowedBy?: Phrases;
  /** The word after the match must pass this test (it is not rewritten). */
  nextWord?: (word: string | undefined) => boolean;
  /** The word before the match (and the one before it) must not pass this test. */
  notAfter?: (word: string, before?: string) => boolean;
  /** Set when the rewrite is made (a flag of the clause). */
  flag?: string;
}

/** The words with every match of each rewrite replaced, in the order of the table; the flags set. */
export function rewrite(tokens: readonly string[], table: readonly Rewrite[], flags?: Set<string>): string[] {
  let out = [...tokens];
  for (const row of table) {
    const next: string[] = [];
    let i = 0;
    while (i <= out.length) {
      const match = i < out.length ? matchAt(out, row, i) : undefined;
      if (match === undefined) {
        if (i < out.length) next.push(out[i]!);
        i++;
        continue;
      }
      const matched = out.slice(i, match);
      const to = typeof row.to === 'string' ? row.to : row.to(matched);
      next.push(...wordsOf(to));
      if (row.flag) flags?.add(row.flag);
      i = match;
      if (row.at === 'start' || row.at === 'whole') {
        next.push(...out.slice(i));
        break;
      }
    }
    out = next;
  }
  return out;
}

/** The end of the row's match at i, if it matches there with its conditions. */
export function matchAt(tokens: readonly string[], row: Rewrite, i: number): number | undefined {
  if ((row.at === 'start' || row.at === 'whole') && i !== 0) return undefined;
  if (row.notAfter && i > 0 && row.notAfter(tokens[i - 1]!, tokens[i - 2])) return undefined;
  for (const phrase of row.from) {
    if (!mayStartAt(phrase, tokens[i])) continue;
    const end = endOf(tokens, phrase, 0, i);
    if (end <= i) continue;
    if ((row.at === 'end' || row.at === 'whole') && end !== tokens.length) continue;
    const rest = tokens.slice(end);
    if (row.followedBy && !row.followedBy.some((p) => endOf(rest, p, 0, 0) > 0)) continue;
    if (row.notFollowedBy && row.notFollowedBy.some((p) => endOf(rest, p, 0, 0) > 0)) continue;
    if (row.nextWord && !row.nextWord(rest[0])) continue;
    return end;
  }
  return undefined;
}

/** The runs of letters of a text, lower case ("Can't see!" → can, t, see). */
export function lettersOf(text: string, keepCase = false): string[] {
  const out: string[] = [];
  let word = '';
  for (const ch of keepCase ? text : text.toLowerCase()) {
    if ((ch >= 'a' && ch <= 'z') || (keepCase && ch >= 'A' && ch <= 'Z')) word += ch;
    else if (word) [out[out.length], word] = [word, ''];
  }
  if (word) out.push(word);
  return out;
}

/**
 * A text cut at the first of the connectors that has words on both sides ("brighten it | so that
 * | the sky shows"): the words before and after it, as written. The connectors are rewrites
 * whose conditions (followed by, not followed by) apply; their `to` is not used.
 */
export function cutAt(text: string, connectors: readonly Rewrite[]): [string, string] | undefined {
  const tokens = wordsOf(text);
  const lower = tokens.map((word) => word.toLowerCase());
  for (let i = 1; i < tokens.length; i++) {
    for (const row of connectors) {
      const end = matchAt(lower, row, i);
      if (end !== undefined && end < tokens.length) return [tokens.slice(0, i).join(' '), tokens.slice(end).join(' ')];
    }
  }
  return undefined;
}
