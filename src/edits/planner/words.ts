import { FILLER_WORDS, isFiller } from './clause.ts';
import { namedColor } from './colors.ts';
import { isLetters, isPhraseWord, phraseWords } from './phrases.ts';
import { APP_NAMES, COLOR_SWAP_VERBS, LINKING_VERBS, NAME_LEADS, OBJECT_VERBS, SAYING_SO_VERBS, PRONOUNS_BEFORE_VERB, FAULT_QUALITIES, inflectedVerb, LEMMAS, lemmaOf, NEUTRAL, requestVerbOf, meaningOf, namesSeveral, ONE_ANTECEDENTS, PART_AFTER_PRONOUN, partOfSpeech, PICTURE_PRONOUNS, THE_SLIPS_BEFORE_PICTURE, QUALITY_PLURALS, REGION_EXCEPT, REGION_RELATIONS, regionOf, SPEAKER_PRONOUNS, TOTALITY_WORDS, TYPO_VOCABULARY, UNIT_WORDS, WHOLE_IMAGE, NEEDING_VERBS, WISHING_VERBS } from './lexicon.ts';
import { NEAR_WORDS } from './near-words.ts';
import { isEnglishWord } from './dictionary.ts';
import { isSubject } from './targets.ts';

/**
 * The word level of a clause, after canonical(): each word is looked up once (a linear pass), so
 * the rules can be written against one form of each word:
 * - typos in operation words are corrected when exactly one vocabulary word is that close;
 * - inflections and synonyms of direction words become one lemma ("increased", "boosting" →
 *   increase; "lowered" → decrease);
 * - words that name the whole picture ("the image", "entire", "whole") are dropped, since an edit
 *   of the whole image is what every rule does: "increase the image brightness" reads as
 *   "increase the brightness". Region words ("the sky", "her face") are not dropped, so a clause
 *   about a region is never read as a whole-image edit.
 */

/**
 * Slips of the words for the picture after "the", "this" or "entire" ("lighten the mage",
 * "sharpen the entire inage"): any word one slip from one of them (generated from WHOLE_IMAGE,
 * the words of five letters or more), and the spellings further off listed here.
 */
const PICTURE_SPELLINGS = new Set(['foto']);
const PICTURE_WORDS = [...WHOLE_IMAGE].filter((word) => word.length >= 5 && !TOTALITY_WORDS.has(word));
const isPictureTypo = (word: string): boolean =>
  PICTURE_SPELLINGS.has(word) || (word.length >= 4 && isLetters(word) && !KNOWN.has(word) && !NOT_TYPOS.has(word) && PICTURE_WORDS.some((picture) => distance(word, picture, 1) <= 1));
/**
 * Whether the word at i is a slip of the picture's word: after "the", "this" or "whole" any slip
 * is; elsewhere ("rotate imgae 90", "add contrast to phot", "sharpen pictre") only one of the
 * commonest slips of no English word (a name there, "Imane", "Proto", is read as a thing).
 */
const isPictureSlip = (words: readonly string[], i: number): boolean => {
  const word = words[i]!;
  if (WHOLE_IMAGE.has(word) || !isPictureTypo(word)) return false;
  if (PICTURE_LEADS.has(words[i - 1] ?? '')) return true;
  return word.length >= 5 && !isEnglishWord(word) && PICTURE_WORDS.some((picture) => isCommonSlip(word, picture));
};

/** A slip of one of the words that say the whole picture ("whol", "whoe"), before a word for the picture. */
const isWholeSlip = (word: string, next: string): boolean =>
  WHOLE_IMAGE.has(next) && !WHOLE_IMAGE.has(word) && isLetters(word) && !isEnglishWord(word) && [...TOTALITY_WORDS].some((total) => isCommonSlip(word, total));

/**
 * Fillers of five letters or more are typo targets too ("pleas", "pleaes", "efect", "overal": a
 * slip of a word that carries nothing carries nothing), but for the picture's words (their slips
 * are read after "the" and "this", isPictureSlip; "overal" is "overall", dropped with the picture's words). "little" is
 * one too, and still says how much ("a littel brighter" is a little brighter).
 */
const TYPO_FILLERS = [...FILLER_WORDS].filter((word) => word.length >= 5 && isLetters(word) && (!WHOLE_IMAGE.has(word) || TOTALITY_WORDS.has(word)));
/** The words a typo is corrected to: the lexicon's typo targets, with only the long fillers among the filler words. */
export const VOCABULARY: readonly string[] = [...TYPO_VOCABULARY.filter((word) => !isFiller(word)), ...TYPO_FILLERS];
const KNOWN = new Set(VOCABULARY);
/** The vocabulary by length: a word is compared only with those its typo bound can reach. */
const BY_LENGTH: string[][] = [];
for (const word of VOCABULARY) (BY_LENGTH[word.length] ??= []).push(word);

/**
 * The words the readings' own phrases name ("larger", "turned", "significantly"), of five letters
 * or more, are typo targets too: a slip of a word a reading needs is that word ("make it laregr").
 * They are taken once every reading module has written its phrases (rule-planner.ts calls
 * takePhraseTargets as it loads), so that the targets are the same on every request, whatever
 * phrases a reading writes later as it first reads.
 */
const PHRASE_TARGET_LENGTH = 5;
let phraseTargets: string[][] = [];
export function takePhraseTargets(): void {
  phraseTargets = [];
  for (const word of phraseWords()) {
    if (word.length < PHRASE_TARGET_LENGTH || !isLetters(word) || KNOWN.has(word) || isFiller(word) || WHOLE_IMAGE.has(word)) continue;
    (phraseTargets[word.length] ??= []).push(word);
  }
  // Answers given before are of the targets as they were.
  corrections.clear();
  normalForms = new WeakMap();
}
/** Every word of this length a typo may be corrected to: the vocabulary's, then the phrases'. */
const targetsOfLength = (length: number): readonly string[] => [...(BY_LENGTH[length] ?? []), ...(phraseTargets[length] ?? [])];
/** Every typo target (what scripts/near-words.ts reads near). */
export const typoTargets = (): string[] => [...VOCABULARY, ...phraseTargets.flat()];
// English words this close to an operation word ("right" to "bright", "insert" to "invert"):
// words, not typos, so never corrected.
/** Words near the vocabulary that are other words (near-words.ts), and names of apps a request may say it is made in ("in canva" is no canvas). */
const NOT_TYPOS = new Set([...NEAR_WORDS, ...APP_NAMES]);

/** The largest edit distance corrected for a word of this length. */
export const typoBound = (word: string) => (word.length >= 8 ? 2 : 1);

/** Three rows of the distance table, reused by every call (planning is synchronous). */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Damerau-Levenshtein distance (a swap of neighbours counts one) up to a bound; larger answers are bound + 1. */
export function distance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  if (b.length + 1 > rows[0]!.length) rows = rows.map(() => new Int32Array(b.length + 1));
  let [before, previous, current] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
      if (d < best) best = d;
    }
    if (best > bound) return bound + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

/** Answers of correctTypo, since the same words come back in every clause; cleared when full. */
const corrections = new Map<string, string | undefined>();
const MAX_CACHED = 4096;

/** The vocabulary word a typo stands for, when one is closer than every other. */
const UNDOING_PREFIXES: readonly string[] = ['un', 'de', 'dis', 'non', 'anti'];

export function correctTypo(word: string): string | undefined {
  if (word.length < 5 || word.length > 20 || KNOWN.has(word) || NOT_TYPOS.has(word) || isPhraseWord(word) || !isLetters(word)) return undefined;
  if (corrections.has(word)) return corrections.get(word);
  if (corrections.size >= MAX_CACHED) corrections.clear();
  const found = misbuiltComparative(word) ?? closestWord(word);
  // "unpixelate", "devignette": a prefix that undoes is no slip of the word it undoes (the edit
  // would be done, not undone).
  const undoes = found !== undefined && UNDOING_PREFIXES.some((prefix) => word.startsWith(prefix) && !found.startsWith(prefix) && distance(word.slice(prefix.length), found, 1) <= 1);
  const corrected = undoes ? undefined : found;
  corrections.set(word, corrected);
  return corrected;
}

/** Verbs that take "black and white" as two colours, swapped or turned round ("switch the black and white", "invert black and white"). */
const PAIR_TURNING_VERBS: ReadonlySet<string> = new Set([...COLOR_SWAP_VERBS, 'reverse', 'invert']);
/** Nouns of a look said right after "black and white" ("a black and white filter"). */
const PAIR_LOOK_NOUNS: ReadonlySet<string> = new Set(['filter', 'effect', 'look', 'style', 'version', 'tone', 'tones', 'mode']);
/** Links of the pair "black and white" (text.ts joins it as one look). */
const PAIR_LINKS: ReadonlySet<string> = new Set(['and', '&', 'n', "n'", '+']);
/** Where the letters of a word end ("white," → 5). */
const lettersEnd = (word: string): number => {
  let end = 0;
  while (end < word.length && isLetters(word[end]!)) end++;
  return end;
};

/**
 * "make it black and hwite", "blakc and white": the look "black and white" with one of its
 * colours misspelled is spelled right before the prompt is cut at its "and" (cut there, "make it
 * black" was asked about and the slip was read alone).
 */
export function blackAndWhiteSpelled(text: string): string {
  const words = text.split(' ');
  let changed = false;
  for (let i = 1; i + 1 < words.length; i++) {
    if (!PAIR_LINKS.has(words[i]!.toLowerCase())) continue;
    const before = words[i - 1]!;
    const after = words[i + 1]!;
    const end = lettersEnd(after);
    const [first, second] = [before.toLowerCase(), after.slice(0, end).toLowerCase()];
    const black = first === 'black' || correctTypo(first) === 'black' || (!isEnglishWord(first) && isCommonSlip(first, 'black'));
    // "black and whit", "… and wite photo": an English word one slip from "white" that ends the
    // pair's phrase (nothing after it but a word for the picture or a look) is "white" too.
    const next = (words[i + 2] ?? '').toLowerCase();
    const endsPhrase = end < after.length || next === '' || WHOLE_IMAGE.has(next) || PAIR_LOOK_NOUNS.has(next);
    const white = second === 'white' || correctTypo(second) === 'white' || (endsPhrase && isCommonSlip(second, 'white'));
    if (!black || !white || (first === 'black' && second === 'white')) continue;
    // "switch the black and hwite", "swap the colours black and whtie": two colours swapped, not
    // the look (left as written).
    if (words.slice(Math.max(0, i - 6), i - 1).some((word) => PAIR_TURNING_VERBS.has(word.toLowerCase()))) continue;
    words[i - 1] = 'black';
    words[i + 1] = `white${after.slice(end)}`;
    changed = true;
  }
  return changed ? words.join(' ') : text;
}

/**
 * "the imgae is dark", "the pitcure is blurry": a slip of the picture's word after "the", "this"
 * or "whole" is the picture, before a fault is looked for (read as an unknown subject, "is dark"
 * had darkened the picture and "is blurry" blurred it).
 */
export const picturesSpelled = (words: string[]): string[] => words.map((word, i) => (isPictureSlip(words, i) ? 'image' : word));

/** Whether a word is a number as written ("90", "1.5"). */
const isNumber = (word: string): boolean => word.length > 0 && [...word].every((ch) => (ch >= '0' && ch <= '9') || ch === '.') && word !== '.';

/**
 * "rotate it 90 degres", "20 percnt brighter", "a 10 pixle border": a word right after a number
 * that is one slip from a unit's word (lexicon UNIT_WORDS) is that unit, so that it is joined to
 * its number as the unit spelt right is (canonical() joins units before words are corrected).
 */
export function unitsSpelled(words: string[]): string[] {
  return words.map((word, i) => {
    if (i === 0 || !isNumber(words[i - 1]!) || word.length < 5 || UNIT_WORDS.has(word) || !isLetters(word)) return word;
    const units = [...UNIT_WORDS].filter((unit) => distance(word, unit, 1) <= 1);
    // "degres" is one slip from "degree" and "degrees", one unit either way.
    return units.length > 0 && units.every((unit) => unit.slice(0, 3) === units[0]!.slice(0, 3)) ? units[0]! : word;
  });
}

/** Whether a word is within typo distance of a vocabulary word (scripts/near-words.ts lists the English ones). */
export function nearVocabulary(word: string): boolean {
  const bound = typoBound(word);
  for (let length = word.length - bound; length <= word.length + bound; length++) {
    if (targetsOfLength(length).some((candidate) => distance(word, candidate, bound) <= bound)) return true;
  }
  return false;
}

/** Whether two vocabulary words mean one thing: one meaning, words of one region a model finds, or two fillers (both carry nothing: "pleaes" is "please" or "pleas"). */
const sameMeaning = (a: string, b: string): boolean => meaningOf(a) === meaningOf(b) || (isFiller(a) && isFiller(b)) || (regionOf(a) !== undefined && regionOf(a) !== 'none' && regionOf(a) === regionOf(b));

/**
 * "blurer", "reder": a known word with "-er" put straight on it is the comparative built on that
 * word, when exactly one is known ("blurrier", "redder"); as the closest word by letters, "blurer"
 * had been "bluer", another look.
 */
function misbuiltComparative(word: string): string | undefined {
  const stem = word.slice(0, -2);
  if (!word.endsWith('er') || !KNOWN.has(stem)) return undefined;
  const built = (BY_COMPARATIVE_STEM.get(stem) ?? []).filter((comparative) => comparative !== word);
  return built.length === 1 ? built[0] : undefined;
}
/** The vocabulary's comparatives ("-er", "-ier") by every stem a slip may build them on ("blur" for "blurrier"). */
const BY_COMPARATIVE_STEM = new Map<string, string[]>();
for (const comparative of VOCABULARY.filter((word) => word.endsWith('er') && word.length > 4)) {
  for (let end = 3; end <= comparative.length - 3; end++) {
    const stem = comparative.slice(0, end);
    // Its ending as comparatives are built: "flat-ter", "punch-ier", "blur-rier" ("teen-ager" is none).
    const ending = comparative.slice(end);
    const builtOn = ['er', 'ier'].some((suffix) => ending === suffix || ending === stem.at(-1) + suffix);
    if (builtOn && KNOWN.has(stem)) BY_COMPARATIVE_STEM.set(stem, [...(BY_COMPARATIVE_STEM.get(stem) ?? []), comparative]);
  }
}

function closestWord(word: string): string | undefined {
  const bound = typoBound(word);
  // The closest word, if no other of another meaning is as close ("birghter" is one swap from
  // "brighter", two from "brighten").
  let found: string | undefined;
  let best = bound + 1;
  let tied: string[] = [];
  for (let length = word.length - bound; length <= word.length + bound; length++) {
    for (const candidate of targetsOfLength(length)) {
      // A filler (which a name would vanish into, "Lyttle" as "little") is reached by the commonest
      // slips alone, a word only a reading's phrase names by a swap or a doubled letter typed once
      // alone ("realy" is "really"; "Milly" is no "mildly", "Relly" no "really").
      if (isFiller(candidate) && !isCommonSlip(word, candidate)) continue;
      if (!KNOWN.has(candidate) && !isFiller(candidate) && !isSwap(word, candidate) && !isDoubleTypedOnce(word, candidate)) continue;
      // Who a photo is of is a common noun a name is often near ("godzilla" is two slips from
      // "gorilla"): a wrong subject is a wrong region, so such a word is one slip away or none.
      const reach = regionOf(candidate) === 'subject' ? 1 : bound;
      const d = distance(word, candidate, reach);
      if (d > reach) continue;
      if (d < best) [found, best, tied] = [candidate, d, []];
      // Of two as close with one meaning, the longer (a letter left out is the commoner slip).
      // Two spellings of one region's word ("background", "backround") have one meaning too.
      // So do an adjective and its adverb ("horizontaly": "horizontal" or "horizontally").
      else if (d === best && d <= bound && (sameMeaning(candidate, found!) || adverbOf(candidate, found!))) found = candidate.length > found!.length ? candidate : found;
      else if (d === best && d <= bound) tied.push(candidate);
    }
  }
  if (tied.length === 0) return found;
  // "blurr", "rotatte": of words as close, the typo with a letter typed twice typed once wins.
  const once = undoubled(word).find((shorter) => KNOWN.has(shorter));
  if (once !== undefined) return once;
  // One slip from several words: the one the commonest slip makes ("littel": two letters swapped,
  // "little", not "litter"; "roate": a letter left out, "rotate", not "rate"; "ligher": "lighter",
  // not "higher", whose first letter differs). Two equally likely: none.
  if (best !== 1) return undefined;
  const ranked = [found!, ...tied].map((candidate) => [candidate, slipRank(word, candidate)] as const).sort((a, b) => a[1] - b[1]);
  return ranked[0]![1] < ranked[1]![1] ? ranked[0]![0] : undefined;
}

/**
 * How common the one slip from `word` to `candidate` is, most common first: two neighbours
 * swapped (0), a letter left out (1; 0.5 where it doubles its neighbour, "biger"), one typed for
 * another (2), a letter too many (3); any slip of the first letter is the rarest (4).
 */
/**
 * Whether the word is the candidate with one of the two commonest slips: two neighbours swapped or
 * a letter left out, its first letter kept. The readings that reach past the vocabulary take only
 * these: a name or another word differs from an edit's word by a letter changed or added as often
 * ("Brighton", "Sharpe", "Imane", "Lyttle"), by these seldom.
 */
export function isCommonSlip(word: string, candidate: string): boolean {
  return word !== candidate && word[0] === candidate[0] && distance(word, candidate, 1) === 1 && slipRank(word, candidate) <= 1;
}
/**
 * Whether the word is the candidate with two neighbouring letters swapped, the one slip that
 * names seldom are of a word ("Milly", "Relly", "Greene", "lookin" are a letter short or long of
 * "mildly", "really", "greener", "looking"; "Sahrpen" is no name).
 */
export const isSwap = (word: string, candidate: string): boolean => word.length === candidate.length && isCommonSlip(word, candidate);
/** Whether the word is the candidate with one of a doubled letter typed once ("realy", "litle"), a slip names seldom are of a word. */
const isDoubleTypedOnce = (word: string, candidate: string): boolean => candidate.length === word.length + 1 && isCommonSlip(word, candidate) && slipRank(word, candidate) === 0.5;

function slipRank(word: string, candidate: string): number {
  if (word[0] !== candidate[0]) return 4;
  if (candidate.length === word.length + 1) {
    const at = [...word].findIndex((ch, i) => ch !== candidate[i]);
    const left = at < 0 ? word.length : at;
    return candidate[left] === candidate[left - 1] || candidate[left] === candidate[left + 1] ? 0.5 : 1;
  }
  if (candidate.length === word.length - 1) return 3;
  const differ = [...word].flatMap((ch, i) => (ch === candidate[i] ? [] : [i]));
  return differ.length === 2 && differ[1] === differ[0]! + 1 && word[differ[0]!] === candidate[differ[1]!] && word[differ[1]!] === candidate[differ[0]!] ? 0 : 2;
}

const OUTLINING: ReadonlySet<string> = new Set(['outline', 'outlines', 'outlining']);
/** ("outline everything with a border": the picture's border.) */
const FRAMING: ReadonlySet<string> = new Set(['border', 'borders', 'frame', 'frames']);

/** Whether one word is the other's adverb ("horizontal", "horizontally"). */
const adverbOf = (a: string, b: string): boolean => a === `${b}ly` || b === `${a}ly`;

/** The word with one of its doubled letters typed once ("rotatte": "rotate"). */
function undoubled(word: string): string[] {
  const out: string[] = [];
  for (let i = 1; i < word.length; i++) if (word[i] === word[i - 1]) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/**
 * Whether the word at `at` stands where a name stands: right after a verb, a preposition or a
 * determiner, or right before a verb of being ("brighten Milly", "on Milly", "Milly looks").
 */
export function standsForName(words: readonly string[], at: number): boolean {
  const before = words[at - 1] ?? '';
  if (NAME_LEADS.has(before) || OBJECT_VERBS.has(before)) return true;
  // Before "looks", "is": what is said to be so, but for a modal or an adverb after a pronoun ("it wuold look").
  if (SAYING_SO_VERBS.has(words[at + 1] ?? '') && !PRONOUNS_BEFORE_VERB.has(before)) return true;
  // After another name ("the Saab Draken", "Chris Sligh"): a word no table and no dictionary knows.
  if (before.length > 1 && isLetters(before) && !KNOWN.has(before) && !isFiller(before) && !isPhraseWord(before) && !isEnglishWord(before)) return true;
  return !LINKING_VERBS.has(before) && (inflectedVerb(before) !== undefined || isVerbLike(before));
}
/** A vocabulary word used as a verb ("blur", "brighten", "sharpen", "desaturate"): one the lexicon inflects. */
const isVerbLike = (word: string): boolean =>
  [`${word}ed`, `${word}d`, `${word}ing`, `${word}${word.at(-1)}ed`, `${word}${word.at(-1)}ing`].some((form) => inflectedVerb(form) === word || lemmaOf(form) === word);

/** Articles: the unknown word after one names a thing. */
const ARTICLES = new Set(['a', 'an', 'some', 'another']);

/**
 * Whether a correction can stand where the typo stands. Right after an article a word names a
 * thing ("add a tigger" asks for a thing to add): a correction to a word other than a noun there
 * ("bigger") would ask for something the words as written could not, unless another word of
 * substance follows it, the thing it describes ("add a purpel tint"). Words that describe may
 * stand between the article and the word ("add a bigger tigger", "add a red tigger").
 */
export function fitsWhereItStands(corrected: string, words: string[], at: number): boolean {
  // A word that carries nothing (a filler, a degree, a word only a phrase names) is no correction
  // where a name stands: "make Milly brighter", "zoom in on Closter", "my dog Relly looks blurry"
  // (corrected to "mildly", "closer", "really", the name was gone and the edit the whole picture's).
  if ((isFiller(corrected) || !KNOWN.has(corrected)) && standsForName(words, at)) return false;
  const next = words[at + 1];
  if (partOfSpeech(corrected) === 'noun' || (next !== undefined && !isFiller(next))) return true;
  // Back over the adjectives before it ("add a bigger tigger") to the article, if there is one.
  let before = at - 1;
  while (before >= 0 && (partOfSpeech(words[before]!) === 'other' || namedColor(words[before]!) !== undefined)) before--;
  return !ARTICLES.has(words[before] ?? '');
}

const DETERMINERS = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'his', 'her', 'their', 'this', 'that']);
const YOUNG = new Set(['little', 'young', 'old', 'small', 'baby']);
const PICTURE_LEADS = new Set(['the', 'this', 'that', 'entire', 'whole']);
const DEMONSTRATIVES = new Set(['this', 'that']);
const INDEFINITES = new Set(['a', 'an']);
/** Words after "this one" that make it one of several things in the picture ("this one on the left", "that one of them"). */
const OF_ONE = new Set(['of', 'on', 'in', 'at', 'to', 'with', 'here', 'there']);

/**
 * The "and" joining the people a picture is of ("the photo of me and my sister"), written as one
 * word so that the prompt is not cut there: cut, "my sister brighter" was a clause of its own, and
 * "make the photo of me and my sister brighter" brightened the people alone.
 */
export const PEOPLE_AND = 'andalong';

/**
 * After a word for the picture, how many words say who it is of ("of the little girl", "of me and
 * my friends"): 0 if none do.
 */
function photoOf(words: string[], at: number): number {
  if (words[at] !== 'of') return 0;
  // "the photo of me and my friends": people joined by "and", all of them who it is of.
  let [n, taken] = [1, 0];
  for (let one = personAt(words, at + n); one > 0; one = words[at + n] === 'and' || words[at + n] === PEOPLE_AND ? personAt(words, at + n + 1) : 0) {
    if (taken > 0) n++;
    n += one;
    taken = n;
  }
  return taken;
}

/** The prompt with each "and" between the people a picture is of written `PEOPLE_AND` (words as they are, any case). */
export function joinPicturePeople(text: string): string {
  const words = text.split(' ');
  const lower = words.map((word) => word.toLowerCase());
  for (const [i, word] of lower.entries()) {
    if (!WHOLE_IMAGE.has(word)) continue;
    const end = i + 1 + photoOf(lower, i + 1);
    for (let at = i + 2; at < end; at++) if (lower[at] === 'and') words[at] = PEOPLE_AND;
  }
  return words.join(' ');
}

/**
 * "the colours are too dull, make them pop", "the tones are cool make them warmer": "them" after
 * a quality's plural noun, or after faces (with no people named between), stands for it, not for
 * people (the subject). Not "they": "as vivid as they can be" is read with it.
 */
export function qualityPronouns(text: string): string {
  let referent: string | undefined;
  return text
    .split(' ')
    .map((word) => {
      const letters = [...word.toLowerCase()].filter((ch) => ch >= 'a' && ch <= 'z').join('');
      // "blur the faces and make them brighter": the faces, not the people (as "them" alone is).
      if (QUALITY_PLURALS.has(letters) || (namesSeveral(letters) && regionOf(letters) !== 'subject' && regionOf(letters) !== 'none')) referent = letters;
      else if (regionOf(letters) !== undefined && regionOf(letters) !== 'none' && letters !== 'them' && letters !== 'they') referent = undefined;
      else if (referent && letters === 'them') return word.toLowerCase().replace(letters, `the ${referent}`);
      return word;
    })
    .join(' ');
}

/** How many words at `i` name one person a photo is of ("him", "the little girl"): 0 if none do. */
function personAt(words: string[], i: number): number {
  // "the picture of him", "the photo of her": an object pronoun, unless it owns what follows ("of her face").
  if (OBJECT_PRONOUNS.has(words[i] ?? '') && regionOf(words[i + 1] ?? '') === undefined) return 1;
  // "the picture of his face", "the photo of the faces": a portrait, the photo whole (the face alone
  // had been brightened).
  if ((FACE_OWNERS.has(words[i] ?? '') || DETERMINERS.has(words[i] ?? '')) && regionOf(words[i + 1] ?? '') === 'face') return 2;
  let n = 0;
  if (DETERMINERS.has(words[i + n] ?? '')) n++;
  // "of my 2 kids", "of my little girl", "of my grey cat", "of my blurry dog": how many, how old,
  // what colour or how they came out, before who.
  while (n < MAX_DESCRIBING && describesPerson(words[i + n] ?? '')) n++;
  // Who the photo is of, as portraits are ("the photo of the car" may be about the car: "make
  // the picture of the car red").
  return isSubject(words[i + n] ?? '') ? n + 1 : 0;
}
const OBJECT_PRONOUNS = new Set(['him', 'her', 'them', ...SPEAKER_PRONOUNS]);
const FACE_OWNERS: ReadonlySet<string> = new Set(['his', 'her', 'my', 'our', 'their', 'your']);
const MAX_DESCRIBING = 3;
const describesPerson = (word: string): boolean =>
  YOUNG.has(word) || (word.length > 0 && [...word].every((ch) => ch >= '0' && ch <= '9')) || namedColor(word) !== undefined || FAULT_QUALITIES.has(word);

/** Whether what "one" stands for is named in the clause before `at`: a region, or the picture itself ("make it a red one"). */
function namedBefore(words: string[], at: number, regional: boolean): boolean {
  return regional || words.slice(0, at).some((word) => WHOLE_IMAGE.has(word) || PICTURE_PRONOUNS.has(word) || ONE_ANTECEDENTS.has(word));
}


/**
 * The request verb a regular inflection stands for where the grammar makes it that verb: an -ing
 * form opening the clause or after a verb of needing ("erasing the text", "the white balance needs
 * adjusting"), an -ed form after what a wish is of ("i'd like this photo converted to black and
 * white", "get it converted"). Elsewhere the form is a noun or an adjective ("a pencil drawing",
 * "the cropped image") or tells what was done ("i converted it"), and stays as written. ("The
 * colours need to be corrected" is "correct the colours" by now: spellings.ts.)
 */
function requestVerbAt(words: readonly string[], i: number): string | undefined {
  const word = words[i]!;
  if (NEUTRAL.has(word)) return undefined;
  const before = words[i - 1] ?? '';
  const stands = word.endsWith('ing')
    ? i === 0 || NEEDING_VERBS.has(before)
    : !DETERMINERS.has(before) && words.slice(0, i - 1).some((other) => WISHING_VERBS.has(other));
  return stands ? requestVerbOf(word) : undefined;
}

/** isKnown: words the rules or the filler list already read, which are never corrected. */
export function normalizeWords(form: string, isKnown: (word: string) => boolean): string {
  // Every reading of a clause (alone, joined, in pieces, refused) starts here: the answers are
  // kept, up to a bound, for the one test of known words the planner passes.
  let known = normalForms.get(isKnown);
  if (!known) normalForms.set(isKnown, (known = new Map()));
  let normal = known.get(form);
  if (normal === undefined) {
    if (known.size >= MAX_NORMAL_FORMS) known.clear();
    known.set(form, (normal = normalized(form, isKnown)));
  }
  return normal;
}
let normalForms = new WeakMap<(word: string) => boolean, Map<string, string>>();
const MAX_NORMAL_FORMS = 4096;

function normalized(form: string, isKnown: (word: string) => boolean): string {
  const out: string[] = [];
  const words = form.split(' ');
  // "make everything larger": all of the picture, in a clause that names no part of it.
  const regional = words.some((word) => regionOf(word) !== undefined || REGION_RELATIONS.has(word) || REGION_EXCEPT.has(word));
  let skip = -1;
  for (const [i, raw] of words.entries()) {
    if (i <= skip) continue;
    // "make he image bigger", "teh photo": a slip of "the" before a word for the picture, dropped with it.
    if (raw === '' || ((THE_SLIPS_BEFORE_PICTURE.has(raw) || lemmaOf(raw) === 'the') && WHOLE_IMAGE.has(words[i + 1] ?? ''))) continue;
    // ("outline everything": every thing's lines, not the picture's border.)
    if ((PICTURE_PRONOUNS.has(raw) || PICTURE_PRONOUNS.has(isKnown(raw) ? '' : (correctTypo(raw) ?? ''))) && !regional && i > 0 && !PART_AFTER_PRONOUN.has(words[i + 1] ?? '') && !(OUTLINING.has(words[i - 1]!) && !words.some((word) => FRAMING.has(word)))) continue;
    // "brighten the photo of the girl": the photo, whatever it is of.
    if (WHOLE_IMAGE.has(raw)) skip = i + photoOf(words, i + 1);
    if (isPictureSlip(words, i)) continue;
    // "this whol picture", "the whoe image": a word said of the whole picture, misspelt right before
    // a word for it (four letters are corrected nowhere else: too many names are that short).
    if (isWholeSlip(raw, words[i + 1] ?? '')) continue;
    // "on this one we need more contrast" ("one" is 1 by now): the one picture the request comes with.
    if ((raw === 'one' || raw === '1') && DEMONSTRATIVES.has(words[i - 1] ?? '') && !OF_ONE.has(words[i + 1] ?? '')) continue;
    // "turn the background into a blue one": "one" after "a" and a word is the thing named before,
    // no number. With nothing named before it in the clause ("add a grey one" after "blur the
    // backdrop"), the thing is another clause's: kept, the clause is not read as the picture's.
    if ((raw === 'one' || raw === '1') && INDEFINITES.has(words[i - 2] ?? '') && isLetters(words[i - 1] ?? '') && namedBefore(words, i - 2, regional)) continue;
    // "the photo's contrast": the possessive of the whole picture names it too.
    if (raw.endsWith("'s") && WHOLE_IMAGE.has(raw.slice(0, -2))) continue;
    // "warms", "cooled": an adjustment verb however it is inflected, then its lemma ("lowered" → decrease).
    const lemma = lemmaOf(raw);
    const verb = lemma === undefined && !isKnown(raw) ? (inflectedVerb(raw) ?? requestVerbAt(words, i)) : undefined;
    let word = lemma ?? (verb === undefined ? raw : (LEMMAS[verb] ?? verb));
    if (word === raw && verb === undefined && !isKnown(word)) {
      const corrected = correctTypo(word);
      if (corrected !== undefined && fitsWhereItStands(corrected, words, i)) word = lemmaOf(corrected) ?? corrected;
    }
    if (WHOLE_IMAGE.has(word)) continue;
    out.push(word);
  }
  return out.join(' ');
}
