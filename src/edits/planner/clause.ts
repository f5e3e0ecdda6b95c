import type { Color, Length, Position } from '../plan.ts';
import { fromHex, fromRgbFunction, namedColor } from './colors.ts';
import { find, type Match, type Phrases } from './phrases.ts';

/**
 * Words that carry no edit on their own ("please make it…"). A rule matches a clause only when
 * everything else in it was consumed by the rule, so no word of the prompt is silently ignored.
 */
const FILLER = new Set(
  (
    'please kindly and then also with in on at to of by from into onto for as the a an it its itself this that these those ' +
    'image images photo photos picture pictures pic pics photograph img me my our your make made let lets can could would ' +
    'will you i id want wanted like need needs some apply applied perform add added give do set put just now so is be should ' +
    'look looks effect filter version result output final whole entire overall using use via turn same one thing bit more ' +
    'little nice thanks thank thx thats here there first firstly second secondly third lastly finally next afterwards get got getting have has us we should up ' +
    // "n/a", as people mark a part of a form they leave empty.
    'na n/a'
  ).split(' '),
);

export const isFiller = (word: string): boolean => FILLER.has(word);

/** Words that stay meaningful even inside a phrase a rule recognised (not fillers). */
export const LEVEL_WORDS = { slight: 'slightly', strong: 'strongly' } as const;
export type Level = 'slight' | 'normal' | 'strong';

export class Clause {
  private text: string;

  constructor(
    readonly canonical: string,
    readonly quotes: readonly string[],
    readonly files: readonly string[],
  ) {
    // "pixel-art", "top-left": the words of a hyphenated word are read as words.
    this.text = ` ${canonical.split(' ').map(unhyphenate).join(' ')} `;
  }

  /** The words not yet taken. */
  words(): string[] {
    return this.text.split(' ').filter(Boolean);
  }

  /** Removes and returns the leftmost phrase of the list (see phrases.ts). */
  takePhrase(list: Phrases): Match | undefined {
    const words = this.words();
    const match = find(words, list);
    if (!match) return undefined;
    this.text = ` ${[...words.slice(0, match.start), ...words.slice(match.end)].join(' ')} `;
    return match;
  }

  /** Removes every phrase of the list; whether there was one. */
  takeEvery(list: Phrases): boolean {
    let found = false;
    while (this.takePhrase(list)) found = true;
    return found;
  }

  /** Removes the words [start, end) of words(). */
  remove(start: number, end: number): void {
    const words = this.words();
    this.text = ` ${[...words.slice(0, start), ...words.slice(end)].join(' ')} `;
  }

  /** Removes and returns the leftmost number word that `fits` ("10px", "20%", "1.5", "90deg", "2x"). */
  takeQuantity(fits: (q: Quantity) => boolean): Quantity | undefined {
    const words = this.words();
    const at = words.findIndex((word) => {
      const q = quantityOf(word);
      return q !== undefined && fits(q);
    });
    if (at < 0) return undefined;
    this.remove(at, at + 1);
    return quantityOf(words[at]!);
  }

  /** Whether one of the phrases is among the words not yet taken. */
  hasPhrase(list: Phrases): boolean {
    return find(this.words(), list) !== undefined;
  }

  /** Removes and returns the first match (patterns are written against the canonical form, without the g flag). */
  take(pattern: RegExp): RegExpExecArray | null {
    const match = pattern.exec(this.text);
    if (!match) return null;
    this.text = `${this.text.slice(0, match.index)} ${this.text.slice(match.index + match[0].length)}`;
    return match;
  }

  has(pattern: RegExp): boolean {
    return pattern.test(this.text);
  }

  /** What is left that is not filler. */
  leftovers(): string[] {
    return this.text
      .split(/[\s,:]+/)
      .map((word) => word.replace(/^[('"]+|[)'"]+$/g, ''))
      .filter((word) => word.length > 0 && !FILLER.has(word) && word !== "it's" && word !== "that's" && word !== "let's" && word !== "i'd");
  }

  // --- slots -------------------------------------------------------------------------------

  level(): Level {
    let level: Level = 'normal';
    while (this.take(/\bslightly\b/)) level = 'slight';
    while (this.take(/\bstrongly\b/)) level = 'strong';
    return level;
  }

  color(): Color | undefined {
    const hex = this.take(/(?:^|\s)#([0-9a-f]{3,8})\b/);
    if (hex) return fromHex(hex[1]!);
    const fn = this.take(/\brgba?\([^)]*\)/);
    if (fn) return fromRgbFunction(fn[0].replace(/\s+/g, ''));
    const words = this.text.split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      for (const n of [3, 2, 1]) {
        const phrase = words.slice(i, i + n);
        if (phrase.length < n) continue;
        const color = namedColor(phrase.join(''));
        if (color) {
          this.take(new RegExp(`(?:^|\\s)${phrase.map(escape).join('\\s+')}(?:[\\s-]?colou?red)?(?=\\s|$)`));
          return color;
        }
      }
    }
    return undefined;
  }

  /** 10px, 10% or a bare 10 (pixels). */
  length(pattern = /(?:^|\s)(\d+(?:\.\d+)?)(px|%)?(?=\s|$)/): Length | undefined {
    const match = this.take(pattern);
    if (!match) return undefined;
    return { value: Number(match[1]), unit: match[2] === '%' ? '%' : 'px' };
  }

  number(): number | undefined {
    const match = this.take(/(?:^|\s)([-+]?\d+(?:\.\d+)?)(?=\s|$)/);
    return match ? Number(match[1]) : undefined;
  }

  percent(): number | undefined {
    const match = this.take(/(?:^|\s)([-+]?\d+(?:\.\d+)?)%(?=\s|$)/);
    return match ? Number(match[1]) : undefined;
  }

  degrees(): number | undefined {
    const match = this.take(/(?:^|\s)([-+]?\d+(?:\.\d+)?)deg(?=\s|$)/);
    return match ? Number(match[1]) : undefined;
  }

  size(): { width: number; height: number } | undefined {
    const match = this.take(/(?:^|\s)(\d+)x(\d+)(?=\s|$)/);
    return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
  }

  ratio(): [number, number] | undefined {
    const match = this.take(/(?:^|\s)(\d+(?:\.\d+)?)\s*[:/]\s*(\d+(?:\.\d+)?)(?:\s+(?:aspect\s+)?ratio|\s+aspect|\s+format)?(?=\s|$)/);
    if (match && Number(match[1]) > 0 && Number(match[2]) > 0) return [Number(match[1]), Number(match[2])];
    if (this.take(/\bsquare\b/)) return [1, 1];
    if (this.take(/\bwidescreen\b/)) return [16, 9];
    return undefined;
  }

  position(): Position | undefined {
    const corner = this.take(/\b(top|upper|bottom|lower)[\s-]?(left|right)(?:[\s-]hand)?(?:\s+corner|\s+side|\s+edge)?\b/);
    if (corner) return `${corner[1] === 'upper' ? 'top' : corner[1] === 'lower' ? 'bottom' : corner[1]}-${corner[2]}` as Position;
    const reversed = this.take(/\b(left|right)[\s-](top|bottom)(?:\s+corner)?\b/);
    if (reversed) return `${reversed[2]}-${reversed[1]}` as Position;
    const side = this.take(/\b(top|bottom|left|right|upper|lower|center|middle)(?:[\s-]hand)?(?:\s+(?:side|edge|corner|part|area))?\b/);
    if (!side) return undefined;
    const word = side[1]!;
    return (word === 'upper' ? 'top' : word === 'lower' ? 'bottom' : word === 'middle' ? 'center' : word) as Position;
  }

  quote(): string | undefined {
    const match = this.take(/«q(\d+)»/);
    return match ? this.quotes[Number(match[1])] : undefined;
  }

  file(): string | undefined {
    const match = this.take(/«f(\d+)»/);
    return match ? this.files[Number(match[1])] : undefined;
  }
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
function unhyphenate(word: string): string {
  if (!word.includes('-')) return word;
  const parts = word.split('-');
  return parts.every((part) => part !== '' && isLetters(part)) ? parts.join(' ') : word;
}

const isLetters = (word: string): boolean => [...word].every((ch) => ch >= 'a' && ch <= 'z');

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
