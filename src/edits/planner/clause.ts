import type { Color, Position } from '../plan.ts';
import { fromHex, fromRgbFunction, namedColor } from './colors.ts';
import { find, isLetters, phrases, type Match, type Phrases } from './phrases.ts';

/**
 * Words that carry no edit on their own ("please make it…"). A rule matches a clause only when
 * everything else in it was consumed by the rule, so no word of the prompt is silently ignored.
 * "me" and "us" are none: the person asking may be in the photo ("brighten me"); said as the one
 * the request is for ("… for me") canonical() takes them out (lexicon SPEAKER_PRONOUNS).
 */
const FILLER = new Set(
  (
    'please kindly and then also with in on at to of by from into onto for as the a an it its itself this that these those ' +
    'image images photo photos picture pictures pic pics photograph img my our your make made let lets can could would ' +
    "will you i id i'd we'd want wanted like need needs some apply applied perform add added give do set put just now so is be should " +
    'look looks effect filter version result output final whole entire overall using use via turn same one thing bit more ' +
    // "select the whole image and sharpen it": choosing what the edit is of, as an editor asks first.
    'select ' +
    'little nice thanks thank thx thats here there first firstly second secondly third lastly finally next afterwards get got getting have has we should up ' +
    // Chat spellings ("can u", "pls"), and "n/a", as people mark a part of a form they leave empty.
    // "pleas" is a word of the word list, so never a typo of "please": said in a request, it is that.
    'u pls plz pleas hey lol ty tia cheers asap ' +
    // Adverbs that only soften the request ("simply add contrast", "okay, now brighten it").
    'simply merely okay ok ' +
    // Prepositions of the whole picture besides "in" and "on" ("boost the contrast across the whole
    // picture"), and "instead", which only says the edit replaces one seen or said before ("make it
    // sepia instead"): what is asked is the edit itself.
    'across throughout instead ' +
    'na n/a'
  ).split(' '),
);

export const isFiller = (word: string): boolean => FILLER.has(word);
/** The filler words themselves (words.ts makes the long ones typo targets). */
export const FILLER_WORDS: ReadonlySet<string> = FILLER;

/** Words that stay meaningful even inside a phrase a rule recognised (not fillers). */
export const LEVEL_WORDS = { slight: 'slightly', strong: 'strongly' } as const;
export type Level = 'slight' | 'normal' | 'strong';

/** Glued corners ("topleft"), as some write them. */
const CORNERS: Record<string, Position> = { topleft: 'top-left', topright: 'top-right', bottomleft: 'bottom-left', bottomright: 'bottom-right', upperleft: 'top-left', upperright: 'top-right', lowerleft: 'bottom-left', lowerright: 'bottom-right' };
/** Words for a place in the picture, as the plan names it. */
const PLACE: Record<string, string> = { top: 'top', upper: 'top', bottom: 'bottom', lower: 'bottom', left: 'left', right: 'right', center: 'center', middle: 'center' };
const CORNER = phrases('top|upper|bottom|lower left|right [hand] [corner|side|edge]');
const REVERSED_CORNER = phrases('left|right top|bottom [corner]');
const SIDE = phrases('top|bottom|left|right|upper|lower|center|middle [hand] [side|edge|corner|part|area]');
const RATIO_WORDS = phrases('[aspect] ratio', 'aspect|format');

/**
 * One clause's words as the readings see them: each reading takes the words it understands, and
 * the clause is read when no word but fillers is left (`leftovers`).
 */
export class Clause {
  readonly canonical: string;
  readonly quotes: readonly string[];
  readonly files: readonly string[];
  private tokens: string[];

  constructor(
    canonical: string,
    quotes: readonly string[],
    files: readonly string[],
  ) {
    this.canonical = canonical;
    this.quotes = quotes;
    this.files = files;
    // "pixel-art", "top-left": the words of a hyphenated word are read as words. Every reading
    // of a clause starts from the same words: they are split once.
    if (canonical !== lastSplit.text) lastSplit = { text: canonical, tokens: canonical.split(' ').filter(Boolean).flatMap(unhyphenate) };
    this.tokens = [...lastSplit.tokens];
  }

  /** The words not yet taken. */
  words(): string[] {
    return [...this.tokens];
  }

  /** Removes and returns the leftmost phrase of the list (see phrases.ts). */
  takePhrase(list: Phrases): Match | undefined {
    const match = find(this.tokens, list);
    if (match) this.remove(match.start, match.end);
    return match;
  }

  /** Removes every phrase of the list; whether there was one. */
  takeEvery(list: Phrases): boolean {
    let found = false;
    while (this.takePhrase(list)) found = true;
    return found;
  }

  /** Whether one of the phrases is among the words not yet taken. */
  hasPhrase(list: Phrases): boolean {
    return find(this.tokens, list) !== undefined;
  }

  /** Removes the words [start, end) of words(). */
  remove(start: number, end: number): void {
    this.tokens.splice(start, end - start);
  }

  /** Removes and returns the leftmost number word that `fits` ("10px", "20%", "1.5", "90deg", "2x"). */
  takeQuantity(fits: (q: Quantity) => boolean): Quantity | undefined {
    const at = this.tokens.findIndex((word) => {
      const q = quantityOf(word);
      return q !== undefined && fits(q);
    });
    if (at < 0) return undefined;
    const q = quantityOf(this.tokens[at]!);
    this.remove(at, at + 1);
    return q;
  }

  /** What is left that is not filler. */
  leftovers(): string[] {
    return this.tokens
      .flatMap((word) => (isLetters(word) ? [word] : word.split(',').flatMap((part) => part.split(':')).map(trimQuotes)))
      .filter((word) => word.length > 0 && !FILLER.has(word) && word !== "it's" && word !== "that's" && word !== "let's" && word !== "i'd");
  }

  // --- slots -------------------------------------------------------------------------------

  level(): Level {
    let level: Level = 'normal';
    if (this.takeEvery(SLIGHTLY)) level = 'slight';
    if (this.takeEvery(STRONGLY)) level = 'strong';
    return level;
  }

  color(): Color | undefined {
    const hex = this.tokens.findIndex((word) => word.startsWith('#') && word.length >= 4 && word.length <= 9 && [...word.slice(1)].every(isHexDigit));
    if (hex >= 0) {
      const word = this.tokens[hex]!;
      this.remove(hex, hex + 1);
      return fromHex(word.slice(1));
    }
    const fn = this.tokens.findIndex((word) => word.startsWith('rgb(') || word.startsWith('rgba('));
    if (fn >= 0) {
      let end = fn;
      while (end < this.tokens.length - 1 && !this.tokens[end]!.includes(')')) end++;
      const text = this.tokens.slice(fn, end + 1).join('');
      this.remove(fn, end + 1);
      return fromRgbFunction(text.slice(0, text.indexOf(')') + 1));
    }
    for (let i = 0; i < this.tokens.length; i++) {
      for (const n of [3, 2, 1]) {
        if (i + n > this.tokens.length) continue;
        const color = namedColor(this.tokens.slice(i, i + n).join(''));
        if (color) {
          this.remove(i, i + n + (this.tokens[i + n] === 'colored' ? 1 : 0));
          return color;
        }
      }
    }
    return undefined;
  }

  /** "800x600": a box in pixels. */
  size(): { width: number; height: number } | undefined {
    const at = this.tokens.findIndex((word) => boxOf(word) !== undefined);
    if (at < 0) return undefined;
    const [width, height] = boxOf(this.tokens[at]!)!;
    this.remove(at, at + 1);
    return { width, height };
  }

  /** "16:9", "4 / 3 aspect ratio", "square", "widescreen". */
  ratio(): [number, number] | undefined {
    for (let i = 0; i < this.tokens.length; i++) {
      if (!isDigitStart(this.tokens[i]!)) continue;
      for (const n of [1, 2, 3]) {
        const joined = this.tokens.slice(i, i + n).join('');
        const small = n === 1 ? pairOf(joined) : undefined;
        const ratio = ratioOf(joined) ?? (small && smallPair(small) ? small : undefined);
        if (!ratio || i + n > this.tokens.length) continue;
        const named = find(this.tokens.slice(i + n), RATIO_WORDS);
        this.remove(i, i + n + (named?.start === 0 ? named.end : 0));
        return ratio[0] > 0 && ratio[1] > 0 ? ratio : undefined;
      }
    }
    if (this.takePhrase(SQUARE)) return [1, 1];
    if (this.takePhrase(WIDESCREEN)) return [16, 9];
    return undefined;
  }

  position(): Position | undefined {
    const glued = this.tokens.findIndex((word) => CORNERS[word] !== undefined);
    if (glued >= 0) {
      const corner = CORNERS[this.tokens[glued]!]!;
      this.remove(glued, glued + 1);
      return corner;
    }
    const corner = this.takePhrase(CORNER);
    if (corner) return `${PLACE[corner.words[0]!]}-${corner.words[1]}` as Position;
    const reversed = this.takePhrase(REVERSED_CORNER);
    if (reversed) return `${reversed.words[1]}-${reversed.words[0]}` as Position;
    const side = this.takePhrase(SIDE);
    return side ? (PLACE[side.words[0]!] as Position) : undefined;
  }

  quote(): string | undefined {
    const at = this.tokens.findIndex((word) => placeholder(word, 'q') !== undefined);
    if (at < 0) return undefined;
    const n = placeholder(this.tokens[at]!, 'q')!;
    this.remove(at, at + 1);
    return this.quotes[n];
  }

  file(): string | undefined {
    const at = this.tokens.findIndex((word) => placeholder(word, 'f') !== undefined);
    if (at < 0) return undefined;
    const n = placeholder(this.tokens[at]!, 'f')!;
    this.remove(at, at + 1);
    return this.files[n];
  }
}

let lastSplit: { text: string; tokens: readonly string[] } = { text: '', tokens: [] };

const SLIGHTLY = phrases('slightly');
const STRONGLY = phrases('strongly');
const SQUARE = phrases('square');
const WIDESCREEN = phrases('widescreen');

const isDigitStart = (word: string) => word[0]! >= '0' && word[0]! <= '9';
const isHexDigit = (ch: string) => (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');

/** «q3» → 3 (kind q), «f0» → 0 (kind f). */
function placeholder(word: string, kind: 'q' | 'f'): number | undefined {
  if (!word.startsWith(`«${kind}`) || !word.endsWith('»')) return undefined;
  const n = quantityOf(word.slice(2, -1));
  return n && n.integer && !n.signed && n.unit === '' ? n.value : undefined;
}

/** Brackets and quotation marks around a leftover word. */
function trimQuotes(word: string): string {
  let [start, end] = [0, word.length];
  while (start < end && "('\"".includes(word[start]!)) start++;
  while (end > start && ")'\"".includes(word[end - 1]!)) end--;
  return word.slice(start, end);
}

/** "800x600" as a box, if the word is one. */
export function boxOf(word: string): [number, number] | undefined {
  // "24x36px": said in pixels, whatever its sides.
  if (word.endsWith('px')) return pairOf(word.slice(0, -2));
  const pair = pairOf(word);
  // "9x16", "4 by 5", "16 by 9": sides this small, unless a square icon's ("16x16"), are a
  // ratio or a print size, never pixels (clause.ratio reads them).
  return pair && !smallPair(pair) && printLike(word) === undefined ? pair : undefined;
}

/** The most a side of a print size may be, in inches or centimetres ("24x36", "50x70"). */
const MAX_PRINT_SIDE = 99;
/**
 * "24x36", "50x70": a box past a ratio's sides, not square and under a hundred on each side, is as
 * likely a print size as pixels (read as pixels, "make it 24x36 for a poster" made a thumbnail):
 * asked (amounts.ts), unless its unit is said ("24x36 px", read as "24x36px").
 */
export function printLike(word: string): [number, number] | undefined {
  const pair = pairOf(word);
  return pair && !smallPair(pair) && pair[0] !== pair[1] && Math.max(...pair) <= MAX_PRINT_SIDE ? pair : undefined;
}

/** The most pixels a side of a box said with no unit may be and still be read as a ratio ("16x9"). */
const MAX_RATIO_SIDE = 24;
/** The least side of a square box read as pixels ("16x16" is an icon; "1x1" a ratio). */
const MIN_SQUARE_PIXELS = 8;
const smallPair = ([w, h]: [number, number]) => Math.max(w, h) <= MAX_RATIO_SIDE && (w !== h || w < MIN_SQUARE_PIXELS);

/** "800x600": two whole numbers with no unit either side of an "x". */
function pairOf(word: string): [number, number] | undefined {
  if (!isDigitStart(word) || !word.includes('x')) return undefined;
  const [w, h, ...more] = word.split('x');
  const [a, b] = [quantityOf(w ?? ''), quantityOf(h ?? '')];
  const whole = (q: Quantity | undefined) => q !== undefined && q.integer && !q.signed && q.unit === '';
  return more.length === 0 && whole(a) && whole(b) && w !== '' && h !== '' ? [a!.value, b!.value] : undefined;
}

/** "16:9" or "4/3" as a ratio, if the text is one. */
function ratioOf(text: string): [number, number] | undefined {
  const sep = text.includes(':') ? ':' : '/';
  const [a, b, ...more] = text.split(sep);
  const [x, y] = [quantityOf(a ?? ''), quantityOf(b ?? '')];
  const plain = (q: Quantity | undefined) => q !== undefined && !q.signed && q.unit === '';
  if (sep === '/' && unitFraction(text) !== undefined) return undefined;
  return more.length === 0 && plain(x) && plain(y) && a !== '' && b !== '' ? [x!.value, y!.value] : undefined;
}

/**
 * "1/2", "1/4": a fraction of one is as likely a share ("make it 1/4": a quarter of the size) as
 * a shape, which is said with a colon ("1:2"): not read as a ratio, and asked (amounts.ts).
 */
export function unitFraction(word: string): number | undefined {
  const [a, b, ...more] = word.split('/');
  const whole = quantityOf(b ?? '');
  return more.length === 0 && a === '1' && whole !== undefined && whole.integer && !whole.signed && whole.unit === '' && whole.value >= 2 ? whole.value : undefined;
}

/** A number word as the tokenizer writes it: a sign, digits, and a unit (px, %, deg, x) or none. */
export interface Quantity {
  value: number;
  unit: '' | 'px' | '%' | 'deg' | 'x';
  signed: boolean;
  integer: boolean;
}

const QUANTITY = /^([-+])?(\d+(?:\.\d+)?|\.\d+)(px|%|deg|x)?$/;

/** The quantity a word is, if it is one. */
export function quantityOf(word: string): Quantity | undefined {
  const first = word[0];
  if (first === undefined || !((first >= '0' && first <= '9') || first === '-' || first === '+' || first === '.')) return undefined;
  const match = QUANTITY.exec(word);
  if (!match) return undefined;
  const value = Number(match[2]) * (match[1] === '-' ? -1 : 1);
  return { value, unit: (match[3] ?? '') as Quantity['unit'], signed: match[1] !== undefined, integer: !match[2]!.includes('.') };
}

/** Unsigned, in pixels or with no unit. */
export const isPixels = (q: Quantity): boolean => !q.signed && (q.unit === '' || q.unit === 'px');
/** Unsigned and whole, in pixels or with no unit. */
export const isWholePixels = (q: Quantity): boolean => isPixels(q) && q.integer;
/** A percentage, signed or not. */
export const isPercent = (q: Quantity): boolean => q.unit === '%';

/** "pixel-art" → "pixel art"; "-10%", "8-bit" and "«q0»" stay as they are. */
function unhyphenate(word: string): string[] {
  if (!word.includes('-')) return [word];
  const parts = word.split('-');
  return parts.every(isLetters) ? parts : [word];
}

