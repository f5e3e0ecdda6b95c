/**
 * Turning a prompt into clauses in a canonical form the rules can read: quoted text and file IDs
 * set aside (their case and words must survive), British spellings, number words, units and
 * degree words rewritten to one spelling each.
 */

import { namedColor } from './colors.ts';
import { asRequest, DEGREE_WORDS, faultsAsClauses } from './complaints.ts';
import { isNumberWord, spell } from './spellings.ts';
import { isEnglishWord } from './dictionary.ts';
import { endAt, phrases, wordsOf } from './phrases.ts';
import { isFiller, quantityOf } from './clause.ts';
import { blackAndWhiteSpelled, correctTypo, isCommonSlip, joinPicturePeople, PEOPLE_AND, picturesSpelled, qualityPronouns, standsForName, unitsSpelled } from './words.ts';
import {
  ADDRESSED,
  GROWING_VERBS,
  GROWTH_WAYS,
  SIDE_NAME_WORDS,
  OBJECT_WORDS,
  ADDRESSED_BEFORE_REQUEST,
  BENEFIT_LEADS,
  FORESEEING_LEADS,
  PRAISE_COPULAS,
  PRAISE_WORDS,
  STATE_MODALS,
  FORESEEN_BUT_ASKED,
  DESCRIPTION_LEADS,
  DOERS,
  CREDIT_VERBS,
  CREDITED,
  DONE_VERBS,
  INTRODUCING,
  PREFACE_WORDS,
  PREFACE_NOUNS,
  WRITING_VERBS,
  inflectedVerb,
  TEXT_NOUNS,
  WRITING_NOUNS,
  CHANNEL_COLORS,
  COMPLEMENT_VERBS,
  LEMMAS,
  PICTURE_OBJECT_LEADS,
  PICTURE_OBJECTS,
  WHOLE_IMAGE,
  COLORED_REGION_NOUNS,
  COLORING_WORDS,
  COLORLESS_STATES,
  DATIVE_VERBS,
  DEGREE_NOUNS,
  DESCRIBING_VERBS,
  FAULT_QUALITIES,
  ADJUSTMENT_VERBS,
  GIVING_VERBS,
  HEDGES,
  LETTING_VERBS,
  NOUNS,
  OPPOSITES,
  PICTURE_KINDS,
  PICTURE_NOUNS,
  PICTURE_STATE_LEADS,
  PICTURE_STATES,
  QUALITY_ADJECTIVES,
  regionOf,
  SECOND_OBJECT_STARTS,
  REGION_EXCEPT,
  REGION_LEADS,
  SHARED_DEGREES,
  SHOWING_VERBS,
  AFTER_PEOPLE,
  SPEAKER_PRONOUNS,
  STRENGTH_ADJECTIVES,
  REQUEST_VERBS,
  requestVerbOf, REQUESTING_MODALS, ADDRESSEES, TOTALITY_WORDS, DIRECTED, MODALS, POSSESSOR_DETERMINERS, THIRD_PERSONS, OTHER_PICTURES, PHRASAL_REQUEST_VERBS, WELCOMING, SAYING_SO, ASKING_BEFORE_PLEASE, TELLING_LINKS, PRO_VERBS } from './lexicon.ts';

export interface Protected {
  /** The prompt with «qN» for quoted text and «fN» for file IDs. */
  text: string;
  quotes: string[];
  files: string[];
}

/** A piece of the prompt between separators, as the user wrote it (placeholders in). */
export interface Atom {
  text: string;
  /** Made from the clause before it for a part named with no verb of its own (rule-planner.ts `sharedVerbs`). */
  shared?: boolean;
}

/** Quotation marks and what closes each. */
const QUOTE_PAIRS: Record<string, string> = { '"': '"', '“': '”', '«': '»', '‘': '’', "'": "'" };
/** Longer quoted text is not set aside: no overlay is that long. */
const MAX_QUOTED = 400;
// A straight single quote opens only after a space or bracket and closes only before one, so
// the apostrophes of "don't" and "it's" are not quotes.
const isSpace = (ch: string) => ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r';
const opensSingle = (text: string, i: number) => i === 0 || isSpace(text[i - 1]!) || '(:,'.includes(text[i - 1]!);
const closesSingle = (text: string, i: number) => i === text.length - 1 || isSpace(text[i + 1]!) || '),.;:!?'.includes(text[i + 1]!);

/**
 * A text set aside, by its index: the same text quoted twice is one placeholder, so clauses that
 * differ only by which of two equal texts they quote read as one (each clause is read once).
 */
function setAside(quotes: string[], text: string): number {
  const at = quotes.indexOf(text);
  return at >= 0 ? at : quotes.push(text) - 1;
}

/**
 * Quoted text set aside as «qN», in one pass: for each closing mark, the index of its next
 * occurrence is computed once from the end, so an unclosed quote costs one look-up instead of a
 * scan to the end of the prompt (which made "“““…" quadratic).
 */
function setAsideQuotes(text: string, quotes: string[]): string {
  if (![...text].some((ch) => ch in QUOTE_PAIRS)) return text;
  const next = new Map<string, Int32Array>();
  for (const closer of new Set(Object.values(QUOTE_PAIRS))) {
    const at = new Int32Array(text.length + 1).fill(-1);
    for (let i = text.length - 1, found = -1; i >= 0; i--) {
      if (text[i] === closer && (closer !== "'" || closesSingle(text, i))) found = i;
      at[i] = found;
    }
    next.set(closer, at);
  }
  const out: string[] = [];
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const closer = QUOTE_PAIRS[text[i]!];
    if (closer === undefined || (closer === "'" && !opensSingle(text, i))) continue;
    const end = next.get(closer)![i + 1]!;
    if (end === -1 || end - i - 1 > MAX_QUOTED || (closer === "'" && end === i + 1)) continue;
    out.push(text.slice(copied, i), ` «q${setAside(quotes, text.slice(i + 1, end))}» `);
    copied = end + 1;
    i = end;
  }
  out.push(text.slice(copied));
  return out.join('');
}

const FILE_ID = /\bfile_[0-9A-Za-z]{8,64}\b/g;

/**
 * Text to write, unquoted: "add text pool party", "insert the letter C", "write Happy Birthday at
 * the top". The words after the verb and the kind of text, up to the end of the clause (less a
 * closing position such as "at the top"), are set aside like quoted text. A span that starts
 * with a preposition or holds no word of its own ("add the text under the image") is not text:
 * the clause is then asked about (questions.ts).
 */
const TEXT_NOUN = `(?:${[...TEXT_NOUNS].join('|')})`;
const UNQUOTED_TEXT = new RegExp(
  // "write Happy Birthday at the top": "write" takes the words themselves as well as a noun of them.
  `\\b((?:(?:add(?:\\s+in)?|insert|write|put|type|place|print|underneath|below|above|under)\\s+(?:(?:the|a|an|some|this)\\s+)?(?:(?:capital|uppercase|lowercase|big|small)\\s+)?${TEXT_NOUN}|write)\\s+(?:saying\\s+|that\\s+says\\s+|which\\s+says\\s+|reading\\s+|of\\s+)?)([^,;.!?\\n«»]+)`,
  'gi',
);
const TRAILING_POSITION = /\s+(?:(?:at|in|on|to|along|across|near)\s+(?:the\s+)?(?:very\s+)?)?(?:top|bottom|left|right|center|centre|middle|upper|lower|corner|underneath|below|above|beneath)(?:[\s-]+(?:left|right|corner|side|edge|part|hand))*(?:\s+of\s+(?:the\s+)?(?:image|photo|picture|pic))?\s*$/i;
/**
 * Words that cannot open the words to write: a place, the picture, a link, or what the text is
 * about or for, or whose it is ("add a caption about our trip", "insert a quote for the party", "a quote by Einstein": the words are not given).
 * Nor can a word that leaves the words to us ("add a caption saying something nice", "text saying
 * whatever you want", "a title saying what it is"): written as said, they were an instruction.
 */
const NOT_TEXT_START: ReadonlySet<string> = new Set(
  wordsOf(`on in at to under below above over of from with into onto near underneath beneath behind around beside between inside outside next
  the this that it here there and then image photo picture about for like regarding by
  something anything whatever whichever what some any`),
);
const startsNoText = (words: string) => NOT_TEXT_START.has((wordsOf(words)[0] ?? '').toLowerCase());
/** Words after "write" alone that say what to write of, not the words ("write a caption", "write my name", "write down …"). */
const WRITING_ALONE_NOT_WORDS: ReadonlySet<string> = new Set(
  wordsOf("a an some my your his her our their its down up out over back something anything whatever me us nothing none names numbers copyright date today's todays"),
);
/** Words that open the place or colour after words to write ("at the top", "in red", "on the image"). */
const WRITING_PLACES: ReadonlySet<string> = new Set(wordsOf('at on in to above below under underneath beneath across along over near onto into'));
/** "add text later", "add a caption please", "add a title lol": words about the asking, with no words to write. */
const ASIDE_WORDS: ReadonlySet<string> = new Set(
  wordsOf(`later please pls plz maybe somewhere anywhere lol too also thanks thx thank you myself yourself ourselves here there now soon first then again
  sometime perhaps somehow ok okay`),
);
const onlyAsides = (words: string) => wordsOf(words).every((word) => ASIDE_WORDS.has(word.toLowerCase()));
const POLITE_ENDS: ReadonlySet<string> = new Set(['please', 'pls', 'plz', 'thanks', 'thx', 'lol']);
/** Leads that say what follows is the words themselves ("the words", "saying"). */
const WORDS_NAMED: ReadonlySet<string> = new Set(['word', 'words', 'saying', 'says', 'reading', 'reads']);
/** Words that ask for something, with or without a verb of editing ("can i have it black and white?", "… please?"). */
const ASKING_WORDS: ReadonlySet<string> = new Set(['can', 'could', 'would', 'will', 'may', 'please', 'pls', 'plz', 'want', 'need', 'like', 'wish', 'have', 'do', 'give', 'get']);

/** Words of how a text (or the picture) looks, never among words to write unquoted. */
const TEXT_STYLE_WORDS: ReadonlySet<string> = new Set([
  'font', 'fontsize', 'opacity', 'opaque', 'transparent', 'transparency', 'bold', 'italic', 'italics', 'underlined', 'pt', 'px', 'pixels', 'border', 'outline', 'shadow', 'size', 'sized',
  // "add text hello after making it sepia": when, said after the words, starts another request.
  'after', 'before', 'making', 'turning',
]);
const MEASURE_ENDINGS = ['px', 'pt'];
const SHARE_PLACES: ReadonlySet<string> = new Set(['from', 'up', 'down', 'in', 'inward', 'inwards', 'away', 'above', 'below', 'opacity', 'transparent', 'size', 'bigger', 'smaller', 'brighter', 'darker']);
const isDigitChar = (ch: string) => ch >= '0' && ch <= '9';
/** What points at the picture itself ("the picture", "this photo", "my image"). */
const PICTURE_DETERMINERS: ReadonlySet<string> = new Set(['the', 'this', 'my', 'our', 'that', 'entire', 'whole']);

/** Words that join the words of a text as well as two requests. */
const JOINING_WORDS: ReadonlySet<string> = new Set(['and', '&', 'plus']);

/** "insert text Foo insert text Bar": another text asked for starts a clause of its own. */
const ANOTHER_TEXT = new RegExp(`(?<=[^\\s,;.!?])\\s+(?=(?:add|insert|write|type)\\s+(?:(?:the|a|an|some)\\s+)?${TEXT_NOUN}\\s)`, 'gi');

/**
 * "add text happy birthday top left", "add caption summer vibes red", "add text black and white":
 * a place or a colour at the end of unquoted words, with no "at" or "in" before it, may as well
 * be words to write. Not set aside, the clause is asked about (the words go in quotes).
 */
function placeOrColorInWords(lead: string, span: string): boolean {
  const place = TRAILING_POSITION.exec(span);
  if (place && !/^\s+(?:at|in|on|to|along|across|near)\b/i.test(place[0])) return true;
  const words = wordsOf(span);
  // "add the word orange" names a word; "add text black" may name the text's colour.
  const colorLast = namedColor(words.at(-1)!.toLowerCase()) !== undefined;
  return colorLast && (words.length > 1 || !/\b(?:words?|letters?)\b/i.test(lead));
}

/** Words that end unquoted words to write: another request, or a place or a thing it is about starts. */
const SPAN_END_WORDS: ReadonlySet<string> = new Set(
  wordsOf(`and then but also so if or where instead & plus at on in above below under underneath beneath behind around between inside outside over
  near beside across along to onto into with using for`),
);
const SPAN_ENDS = new RegExp(`\\s+(?:${[...SPAN_END_WORDS].join('|')}|next\\s+to)(?=\\s+|$)`, 'gi');

/**
 * The unquoted words to write at the start of `rest`, up to where another request or a place
 * starts. A word that would end them but has no object of its own ("Game On in yellow", "Lights
 * On please") is one of the words (cut there, "On" was dropped and "Game" written).
 */
function spanOfWords(rest: string, titled: boolean): string {
  for (const end of rest.matchAll(SPAN_ENDS)) {
    const said = wordsOf(rest.slice(end.index + end[0].length))[0] ?? '';
    const next = said.toLowerCase();
    const objectless = next === '' || POLITE_ENDS.has(next) || SPAN_END_WORDS.has(next);
    // "add the words Sale On Now": in words written with capitals, where the request around them
    // is not, a capital ending word between two capitals is one of them.
    const before = wordsOf(rest.slice(0, end.index)).at(-1) ?? '';
    // Not before a place or a colour ("Welcome Home Above The Door", "Love You In Pink").
    const placeAfter = TITLE_PLACE_LEADS.has(next) || namedColor(next) !== undefined || PLACE_NAMES.has(next);
    const inTitle = titled && !placeAfter && [before, end[0].trim(), said].every(startsUpper);
    if (!objectless && !inTitle) return rest.slice(0, end.index);
  }
  return rest;
}
/** Words after which a capital preposition starts a place, not more words of a title. */
const TITLE_PLACE_LEADS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'my', 'your', 'his', 'her', 'their', 'our', 'him', 'them', 'it']);
const PLACE_NAMES: ReadonlySet<string> = new Set(['top', 'bottom', 'left', 'right', 'center', 'centre', 'middle', 'corner']);
const startsUpper = (word: string) => word !== '' && word[0] !== word[0]!.toLowerCase();

function setAsideUnquotedText(text: string, quotes: string[]): string {
  return text.replace(ANOTHER_TEXT, ', ').replace(UNQUOTED_TEXT, (match, lead: string, rest: string) => {
    // The span ends where another request or a place ("above the door") starts: what follows
    // is read by the rules, or refuses the clause.
    // The request's own words after its first are in lower case: capitals in the words to write are theirs.
    const titled = !wordsOf(lead).slice(1).some(startsUpper);
    const span = spanOfWords(rest, titled);
    // "add text good morning sunshine make it warmer": a request's verb after the words ends them.
    const spanWords = span.split(' ');
    // Not where only filler words follow the verb ("add caption don't give up"): cut there, they
    // were read as no request at all, and the words written short.
    const verbAt = spanWords.findIndex((word, k) => k > 0 && isImperativeAsWritten(word) && !spanWords.slice(k).every((rest) => isFiller(rest.toLowerCase())));
    const spanned = verbAt > 0 ? spanWords.slice(0, verbAt).join(' ') : span;
    const spoken = spanned.replace(TRAILING_POSITION, '').replace(/^["'“”‘’]+|["'“”‘’]+$/g, '').trim();
    // "add caption summer fun please": the asking's politeness at the end is not written.
    const said = wordsOf(spoken);
    const polite = said.length > 1 && POLITE_ENDS.has(said.at(-1)!.toLowerCase()) ? spoken.lastIndexOf(said.at(-1)!) : -1;
    const words = polite > 0 ? spoken.slice(0, polite).trim() : spoken;
    // "add the words black and white", "add text salt and pepper": words joined by "and" with no
    // request after it may all be the text; cut at the "and", they would be another clause.
    const after = wordsOf(rest.slice(span.length));
    if (JOINING_WORDS.has((after[0] ?? '').toLowerCase()) && after[1] !== undefined && !isImperativeAsWritten(after[1].toLowerCase())) return match;
    // "add text add white lines": words that start with a request's verb are that request, not the text.
    // "add a motto of our school", "a quote of Einstein": a piece of writing "of" someone is theirs, not the words.
    const led = wordsOf(lead.toLowerCase());
    if (led.at(-1) === 'of' && WRITING_NOUNS.has(led.at(-2) ?? '')) return match;
    // "add the words thank you": words said to be the words are written whatever they are.
    const named = led.some((word) => WORDS_NAMED.has(word));
    // "add text glamorize the picture": words about the picture itself are an instruction run on
    // (its verb one this planner does not know), not the words to write, unless said to be them.
    const aboutPicture = !named && wordsOf(words.toLowerCase()).some((word, k, all) => PICTURE_NOUNS.has(word) && PICTURE_DETERMINERS.has(all[k - 1] ?? ''));
    // "add caption hello font 40", "add text hi 50% opacity", "… 10px border": how the text or
    // the picture should look, run into unquoted words, would be written with them: asked (quotes
    // say where the words end).
    // A share with a place after it ("10% from the top") is where, not words ("50% off" is).
    const styled = wordsOf(words.toLowerCase()).some(
      (word, k, all) =>
        TEXT_STYLE_WORDS.has(word) ||
        MEASURE_ENDINGS.some((ending) => word.length > ending.length && word.endsWith(ending) && isDigitChar(word[0]!)) ||
        (word.endsWith('%') && isDigitChar(word[0]!) && SHARE_PLACES.has(all[k + 1] ?? '')),
    );
    // "write a caption", "write my name", "write down …": after "write" alone, an article, an
    // owner or a particle says what to write of, not the words.
    // And the words after it end at a place or a colour ("write happy birthday at the top", "…
    // in red"): with nothing after them, they may hold how to write ("write hi big", "write it
    // as a title"), and are asked.
    const placed = WRITING_PLACES.has((wordsOf(rest.slice(span.length))[0] ?? '').toLowerCase());
    const bareWrite = led.length === 1 && (WRITING_ALONE_NOT_WORDS.has((wordsOf(words)[0] ?? '').toLowerCase()) || !placed);
    // "add the words The Revival", "a caption In Loving Memory": in words written with capitals,
    // where the request around them is not, a word that cannot open the words otherwise does.
    const opensTitle = titled && wordsOf(words).length > 1 && wordsOf(words).slice(0, 2).every(startsUpper);
    if (words === '' || bareWrite || (startsNoText(words) && !opensTitle) || (!named && onlyAsides(words)) || aboutPicture || styled || isImperativeAsWritten(wordsOf(words)[0]!) || words.length > 200 || placeOrColorInWords(lead, span)) return match;
    return `${lead} «q${setAside(quotes, words)}» ${rest.slice(rest.indexOf(words) + words.length).replace(/^["'“”‘’]+/, '')}`;
  });
}

/**
 * "1. make it brighter 2. add a border", "- rotate it - crop it": a list, whose markers separate
 * clauses and are no amounts. Only a prompt that starts with a marker is a list: elsewhere "2."
 * may end an amount ("rotate 90. then crop"), and a bare number is no adjustment's amount.
 */
function listItemsAsClauses(text: string): string {
  const numbered = /^\s*\(?\d{1,2}[.)]\s/.test(text);
  const bulleted = /^\s*[-*•]\s/.test(text);
  if (numbered) return text.replace(/(?:^|\s)\(?\d{1,2}[.)](?=\s)/g, ', ');
  if (bulleted) return text.replace(/(?:^|\s)[-*•](?=\s)/g, ', ');
  return text;
}

export function protect(prompt: string): Protected {
  const quotes: string[] = [];
  const files: string[] = [];
  const unquoted = prompt
    // Runs of spaces are one space: a separator pattern that starts with optional spaces would
    // otherwise be tried from every space of a long run.
    .replace(/[^\S\n]+/g, ' ')
    // rgb(…) holds commas, which would split the clause: written as hex from here on.
    .replace(/\brgba?\(\s*(\d{1,3})\s*[,\s]\s*(\d{1,3})\s*[,\s]\s*(\d{1,3})\s*(?:[,/]\s*([\d.]+)\s*)?\)/gi, (match, r: string, g: string, b: string, a?: string) =>
      [r, g, b].some((v) => Number(v) > 255) || (a !== undefined && !(Number(a) <= 1)) ? match : ` #${[r, g, b].map((v) => Number(v).toString(16).padStart(2, '0')).join('')}${a === undefined ? '' : Math.round(Number(a) * 255).toString(16).padStart(2, '0')} `,
    );
  const text = setAsideQuotes(unquoted, quotes)
    .replace(FILE_ID, (id) => {
      files.push(id);
      return ` «f${files.length - 1}» `;
    });
  return { text: setAsideUnquotedText(faultsAsClauses(listItemsAsClauses(colonsRead(text))), quotes), quotes, files };
}

/** Puts quoted text and file IDs back, for messages. */
export function restore(text: string, p: Protected): string {
  return wordsOf(text)
    .map((word) => {
      const n = Number(word.slice(2, -1));
      const placeholder = word.startsWith('«') && word.endsWith('»') && Number.isInteger(n);
      if (placeholder && word[1] === 'q') return `"${p.quotes[n]}"`;
      if (placeholder && word[1] === 'f') return p.files[n]!;
      if (word === PEOPLE_AND) return 'and';
      return word;
    })
    .join(' ');
}

// Phrases whose "and" is not a separator.
const KEEP_TOGETHER: [RegExp, string][] = [
  [/\bblack\s*(?:and|&|n'?|\+)\s*white\b/gi, 'black-and-white'],
  [/\bb\s*&\s*w\b/gi, 'b&w'],
  [/\btop\s+and\s+bottom\b/gi, 'top-and-bottom'],
  [/\bleft\s+and\s+right\b/gi, 'left-and-right'],
  [/\bhundred\s+and\b/gi, 'hundred'],
  [/\bthousand\s+and\b/gi, 'thousand'],
  // "blur all the faces but one": "but" before a count excepts some of them; cut there, the count would be an amount.
  [/\bbut\s+(?=(?:one|two|three|four|five|\d+)\b)/gi, 'except '],
];

/**
 * Where a prompt may be cut: punctuation, "then", "and" (and its chat spelling "n", not after "the"
 * or "letter": "change the n to a g"), "after that"…, and before "because" that
 * opens a clause of its own ("brighten it | because it's too dark": the request and its reason,
 * which the planner checks against it, REASON_WORDS).
 */
const SEPARATOR = /\s*(?:;|\.(?!\d)|(?<!\d),|,(?!\d{3}(?!\d))|!|\?|\n)\s*(?:and\s+|then\s+|and\s+then\s+|after\s+that\s+|afterwards\s+|finally\s+|lastly\s+|next\s+|also\s+)*|\s+(?:and\s+then|and\s+also|then|and|&|plus|but|followed\s+by|after\s+that|afterwards|before\s+that)\s+|(?<!\b(?:the|a|an|letter|letters))\s+n\s+|\s+(?=(?:because|cause|coz|cuz|since)\s+(?:it|its|it's|the|this|that|they|there|i|my|we)\s)/gi;

/** Words that are a piece alone only as links between clauses. */
const LINKS_ALONE = new Set(['and', 'then', 'also', 'finally', 'first', 'firstly', 'please', 'next']);
/** Words that open an emphasis of the clause before. */
const EMPHASES = new Set(['especially', 'particularly', 'mostly', 'mainly']);

/**
 * "brighten all but the face", "all of it but the sky": "all" before "but" and a part it names is
 * everything except that part. Cut at "but", the part would take the edit meant for the rest; a
 * "but" before a verb ("brighten it all but keep the face") still joins two clauses.
 */
const ALL_BUT = /\ball\s+(?:of\s+it\s+)?but\s+(?=(\S+))/gi;
const allButAsExcept = (text: string): string => text.replace(ALL_BUT, (said: string, next: string) => (DETERMINERS.has(next.toLowerCase()) ? 'everything except ' : said));

/**
 * "blur all the faces but the groom's", "brighten every face but the baby's": "but" right after a
 * region's word and before a determiner, with no verb after it in its clause, leaves a part of
 * them out (one of several), as "except" does. Cut there, the part left out would be dropped and
 * the edit done to all of them.
 */
function regionButAsExcept(text: string): string {
  const words = text.split(' ');
  return words
    .map((word, i) => {
      const before = words[i - 1] ?? '';
      if (word.toLowerCase() !== 'but' || regionOf(before.toLowerCase()) === undefined || !DETERMINERS.has((words[i + 1] ?? '').toLowerCase())) return word;
      // The part is a determiner and a person's word (or one's own), and its clause ends there: "but the background darker" says how else.
      let end = i + 2;
      while (end < words.length && end < i + 4 && !CLAUSE_ENDS.has(words[end - 1]!.at(-1)!)) end++;
      const last = words[end - 1]!.toLowerCase();
      const bare = CLAUSE_ENDS.has(last.at(-1)!) ? last.slice(0, -1) : last;
      const clauseEnds = end === words.length || CLAUSE_ENDS.has(last.at(-1)!);
      const person = bare.endsWith("'s") || bare.endsWith("s'") || regionOf(bare) !== undefined;
      return clauseEnds && person && !words.slice(i + 1, end).some(isImperative) ? 'except' : word;
    })
    .join(' ');
}
const CLAUSE_ENDS: ReadonlySet<string> = new Set([',', '.', ';', '!', '?']);

/**
 * "make it into a black and white sketch": a look said of a drawing is the look and the drawing,
 * two edits (read as one phrase, nothing read it). Cut after the look.
 */
function lookBeforeDrawing(text: string): string {
  const words = text.split(' ');
  // "make the background a black and white sketch": of a part, no cut (the sketch would be the picture's).
  if (words.some((word) => regionOf(word.toLowerCase()) !== undefined)) return text;
  return words
    .map((word, i) => {
      const next = (words[i + 1] ?? '').toLowerCase();
      const drawing = DRAWING_NOUNS.has(next) || (next === 'pencil' && DRAWING_NOUNS.has((words[i + 2] ?? '').toLowerCase()));
      return word.toLowerCase() === 'black-and-white' && drawing ? `${word},` : word;
    })
    .join(' ');
}
const DRAWING_NOUNS: ReadonlySet<string> = new Set(['sketch', 'drawing', 'sketches', 'drawings']);

/** Words of all of the picture or all of the people, after which "but" is "except". */
const ALL_OF_THEM: readonly string[] = ['everything', 'everywhere', 'everyone', 'everybody'];
/**
 * "blur everything but the man", "make evrything but the old man grey": "but" after everything (or
 * a common slip of it) is "except", no join of two clauses (cut there, the man had taken the edit).
 */
function everythingButAsExcept(text: string): string {
  const words = text.split(' ');
  let changed = false;
  for (let i = 1; i < words.length; i++) {
    if (words[i]!.toLowerCase() !== 'but') continue;
    const before = words[i - 1]!.toLowerCase();
    if (!ALL_OF_THEM.some((all) => before === all || (!isEnglishWord(before) && isCommonSlip(before, all)))) continue;
    words[i] = 'except';
    changed = true;
  }
  return changed ? words.join(' ') : text;
}

/**
 * "turn it 90 degrees (clockwise)", "brighten it (a lot)": words in brackets are a clause of their
 * own, set off as with commas, and read with the clause before as such a clause is. (Joined to it,
 * "the background (blurry) - fix it" had blurred the background.) Only a bracket closed after it
 * opens is a pair (a smiley's ":)" stays).
 */
function bracketsOpened(said: string): string {
  let text = said;
  for (let open = text.indexOf('('); open >= 0; open = text.indexOf('(', open + 1)) {
    const close = text.indexOf(')', open);
    if (close < 0) break;
    text = `${text.slice(0, open).trimEnd()}, ${text.slice(open + 1, close)}, ${text.slice(close + 1).trimStart()}`;
  }
  return text;
}

/** Dashes written with spaces round them. */
const DASHES: ReadonlySet<string> = new Set(['-', '--', '–', '—']);
/**
 * "n/a - sharpen it", "brighten it - crop it": a dash with spaces round it before a request's verb
 * parts two clauses as a comma does. Elsewhere it may join a name to what is said of it ("Grey -
 * my dog - brighten him") or make a range, and stays.
 */
function dashesBeforeRequests(said: string): string {
  const words = said.split(' ');
  return words.map((word, i) => (DASHES.has(word) && i > 0 && isImperative(words[i + 1] ?? '') ? ',' : word)).join(' ').split(' , ').join(', ');
}

/**
 * "pic way too orange pls cool it down", "bg is black pls change it to white": "please" before a
 * request's verb, after what is said of the picture, opens that request as a comma would (read
 * as one clause, the fault and the request were a statement).
 */
function pleaseBeforeRequests(said: string): string {
  const words = said.split(' ');
  return words
    .map((word, i) => {
      const before = words[i - 1] ?? '';
      const next = (words[i + 1] ?? '').toLowerCase();
      // The verb must have what it acts on after it ("bg is black pls change" leaves it to the part before).
      const opens = i > 1 && i + 2 < words.length && PLEASE_WORDS.has(word.toLowerCase()) && !CLAUSE_ENDS.has(before.at(-1) ?? '') && !ASKING_BEFORE_PLEASE.has(before.toLowerCase()) && (isImperative(next) || PHRASAL_REQUEST_VERBS.has(next));
      return opens ? `, ${word}` : word;
    })
    .join(' ')
    .split(' , ')
    .join(', ');
}

/**
 * "it looks nice and bright", "make it nice and sharp": "nice and" before a quality says it is
 * welcome, and joins no second clause (cut at its "and", "it looks nice" was praise and "bright"
 * a request).
 */
function welcomedQualities(said: string): string {
  const words = said.split(' ');
  const bare = (word: string) => (CLAUSE_ENDS.has(word.at(-1) ?? '') ? word.slice(0, -1) : word).toLowerCase();
  const quality = (word: string | undefined) => word !== undefined && (QUALITY_ADJECTIVES.has(bare(word)) || bare(word) in DIRECTED);
  // After a verb of being it is praise of how it is ("it's nice and dark": the quality goes with
  // "and", "it's nice" is said); after one of making, the quality asked ("make it nice and bright").
  // (Opening the prompt, "lovely and dark, blur the background" is praise too.)
  const praised = (at: number) => at === 0 || SAYING_SO.has((words[at - 1] ?? '').toLowerCase()) || (words[at - 1] ?? '').toLowerCase().endsWith("'s");
  const welcomed = (i: number) => i >= 0 && WELCOMING.has(words[i]!.toLowerCase()) && words[i + 1] === 'and' && quality(words[i + 2]);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (!welcomed(i)) {
      out.push(words[i]!);
      continue;
    }
    // The mark that ends the quality ends what is kept ("it's come out nice and dark, crop it").
    const quality = words[i + 2]!;
    const mark = CLAUSE_ENDS.has(quality.at(-1) ?? '') ? quality.at(-1)! : '';
    out.push(praised(i) ? `${words[i]}${mark}` : quality);
    i += 2;
  }
  return out.join(' ');
}

export function splitAtoms(said: string): Atom[] {
  const text = welcomedQualities(pleaseBeforeRequests(dashesBeforeRequests(bracketsOpened(said))));
  let joined = qualityPronouns(joinPicturePeople(regionButAsExcept(allButAsExcept(waysJoined(blackAndWhiteSpelled(everythingButAsExcept(text)))))));
  for (const [pattern, replacement] of KEEP_TOGETHER) joined = joined.replace(pattern, replacement);
  joined = lookBeforeDrawing(joined);
  // The question mark stays on the clause it ends ("too dark? | brighten it"): with no verb of
  // asking, that clause asks whether, not for the edit (canonicalClause).
  const segments = joined.split('?');
  const pieces = segments.flatMap((segment, k) => {
    // After a question mark a clause opens as after a full stop ("… the pic? Also it's blurry"):
    // its link words ("also", "then") go as they do there.
    const parts = (k > 0 ? `. ${segment}` : segment)
      .split(SEPARATOR)
      .map((piece) => piece.trim())
      .filter((piece) => piece.length > 0 && !LINKS_ALONE.has(piece.toLowerCase()));
    // Only a segment with no verb and no word of asking is a question ("can you make it sepia and
    // black and white?", "black and white please?" ask for the edit).
    const asks = wordsOf(segment.toLowerCase()).some((word) => isImperative(word) || ASKING_WORDS.has(word));
    if (k < segments.length - 1 && parts.length > 0 && !asks) parts[parts.length - 1] += '?';
    return parts;
  });
  // "darken it, especially the shadows": an emphasis belongs to the clause before it.
  const atoms: Atom[] = [];
  for (const piece of pieces) {
    if (atoms.length > 0 && EMPHASES.has(wordsOf(piece)[0]!.toLowerCase())) atoms[atoms.length - 1]!.text += ` ${piece}`;
    else atoms.push({ text: piece });
  }
  return sharedComplements(sharedDegrees(faultsListed(faultsApart(toldContinued(praiseJoined(atoms))))));
}

/**
 * "the sepia and the border are nice", "i like the contrast and the warm colours": things praised
 * together are one remark (cut at the "and", "the sepia" and "the warm colours" had been asked for).
 */
const NAMED_THING_LEADS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'his', 'her', 'their', 'its', 'this', 'that', 'these', 'those']);
function praiseJoined(atoms: Atom[]): Atom[] {
  const out: Atom[] = [];
  for (const atom of atoms) {
    const before = out.at(-1);
    const joined = before && `${before.text} and ${atom.text}`;
    // ("like" asks only after "would": "i'd like", read as asking by the "would").
    const asks = (text: string) => wordsOf(text.toLowerCase()).some((word) => isImperative(word) || (ASKING_WORDS.has(word) && word !== 'like'));
    // The other part is only a thing named ("the sepia", "the warm colours") or one word ("sharp").
    const named = (text: string) => {
      const said = wordsOf(text.toLowerCase());
      // (A comparative alone is a request: "i like the crop and warmer".)
      return (said.length === 1 && !said[0]!.endsWith('er')) || NAMED_THING_LEADS.has(said[0]!);
    };
    const [first, second] = [before && canonicalClause(before.text).flags.aside, canonicalClause(atom.text).flags.aside];
    const praise = joined !== undefined && !asks(joined) && canonicalClause(joined).flags.aside && ((first && named(atom.text)) || (second && named(before!.text)));
    if (praise) out[out.length - 1] = { text: joined };
    else out.push(atom);
  }
  return out;
}

/** A word for a way the picture grows, in any of its forms ("upwards" is "up"). */
const isWay = (word: string): boolean => GROWTH_WAYS[LEMMAS[word.toLowerCase()] ?? word.toLowerCase()] !== undefined;
/**
 * "extend the canvas down and up", "upwards and downwards": two ways the picture grows, joined,
 * are one clause's (cut at "and", the second was a particle alone and dropped). Only after a
 * growing verb: "turn the saturation up and down" is no way at all.
 */
function waysJoined(text: string): string {
  const words = text.split(' ');
  const grown = words.findIndex((word) => GROWING_VERBS.has(word.toLowerCase()));
  if (grown < 0) return text;
  // A side before the way is joined too ("extend the image right and up"), so the two are read
  // together (and asked), never the way dropped.
  const kept = words.filter((word, i) => !(i > grown && word.toLowerCase() === 'and' && (isWay(words[i - 1] ?? '') || SIDE_NAME_WORDS.has((words[i - 1] ?? '').toLowerCase())) && isWay(words[i + 1] ?? '')));
  return kept.length === words.length ? text : kept.join(' ');
}

/** A colon after a word, then a space, with the clause up to it and what follows it to the clause's end. */
const COLON_AFTER = /(^|[,;.!?\n])([^,;.!?\n:]*?)\s*:\s+([^,;.!?\n]*)/g;
/**
 * "please do the following: rotate it and brighten it", "add the caption: see you soon",
 * "brightness: +20%": three uses of a colon read, each only where its lead says which. A preface
 * (only PREFACE_WORDS, naming the request itself: "two edits:", "my request:") is passed over; a
 * text's lead ("add the caption:") takes what follows as its words, as if quoted; an attribute
 * ("brightness:") takes an amount after it. Any other colon is left as written, and its clause
 * read or refused as before: what comes before it may be a statement ("it is now: sepia"), a part
 * ("face: not brighter") or a ratio ("16 : 9"), none of them a label of an edit.
 */
function colonsRead(text: string): string {
  if (!text.includes(':')) return text;
  return text.replace(COLON_AFTER, (match, before: string, lead: string, value: string) => {
    const words = wordsOf(lead.toLowerCase());
    if (words.length === 0 || value.trim() === '') return match;
    if (words.every((word) => PREFACE_WORDS.has(word) || isNumberWord(word) || quantityOf(word) !== undefined) && words.some((word) => PREFACE_NOUNS.has(word))) return `${before} ${value}`;
    // With its verb: "text: none", a form's field, may say there is to be none.
    const textNoun = TEXT_NOUNS.has(words.at(-1)!) && WRITING_VERBS.has(words[0]!) && words.slice(1, -1).every((word) => DETERMINERS.has(word) || word === 'a' || word === 'an');
    // Then read as unquoted words after it are (setAsideUnquotedText): where they end is read the same.
    if (textNoun) return `${before}${lead} ${value}`;
    const firstValue = wordsOf(value)[0] ?? '';
    if (words.length === 1 && NOUNS[words[0]!] !== undefined && quantityOf(firstValue) !== undefined) return `${before}${lead} ${value}`;
    return match;
  });
}

/**
 * "it's too warm and a bit dark": a fault's word alone after a fault said is another fault of the
 * same picture (alone, "a bit dark" may be the look wanted, and is refused as said).
 */
function faultsListed(atoms: Atom[]): Atom[] {
  for (let i = 1; i < atoms.length; i++) {
    if (canonicalClause(atoms[i - 1]!.text).flags.fault && bareFault(wordsOf(canonicalClause(atoms[i]!.text).text))) atoms[i] = { text: `it is ${atoms[i]!.text}` };
  }
  return atoms;
}

/**
 * "the colours are dull make them brighter", "the photo is sideways rotate it 90": a fault (or
 * the picture said to be turned) and the request after it, run together with no comma, are two
 * clauses, as with one: read whole, the fault's word was a request of its own
 * (duller colours and more light).
 */
function faultsApart(atoms: Atom[]): Atom[] {
  return atoms.flatMap((atom) => {
    const pieces = splitRunTogether(atom.text);
    // "sharpen it its dark", "more contrast please its flat": the fault after the request, too
    // (read whole, "its dark" had darkened it).
    const after = pieces.findIndex((piece, k) => k > 0 && FAULT_SUBJECTS.has(wordsOf(piece.toLowerCase())[0] ?? ''));
    if (after > 0) return [{ text: pieces.slice(0, after).join(' ') }, ...faultsApart([{ text: pieces.slice(after).join(' ') }])];
    if (pieces.length < 2 || !(canonicalClause(pieces[0]!).flags.fault || canonicalClause(pieces[0]!).flags.turned || saysHowPartIs(pieces[0]!) || possessesLook(wordsOf(pieces[0]!.toLowerCase())))) return [atom];
    return [{ text: pieces[0]! }, { text: pieces.slice(1).join(' ') }];
  });
}

/**
 * "my dog is blurry", "her face looks dark": how a part of the picture is, said with a verb of
 * being or seeming and no verb of asking first (its fault, mended by the request after it once).
 */
export function saysHowPartIs(piece: string): boolean {
  const words = wordsOf(piece.toLowerCase());
  return !isImperative(words[0] ?? '') && words.some((word) => BEING_OR_SEEMING.has(word)) && words.some((word) => regionOf(word) !== undefined);
}
export const BEING_OR_SEEMING: ReadonlySet<string> = new Set([...DESCRIBING_VERBS].filter(([, lemma]) => lemma !== 'has' && lemma !== 'feels').map(([word]) => word));

/**
 * "make it darker and reddish", "turn the photo warmer and blue": a clause of only a colour after
 * one that opens with a verb of making and the whole picture as its object is a second complement
 * of that verb ("make it reddish"). Alone, a colour names no edit.
 */
function sharedComplements(atoms: Atom[]): Atom[] {
  for (let i = 1; i < atoms.length; i++) {
    const words = wordsOf(atoms[i]!.text.toLowerCase());
    if (words.length !== 1 || namedColor(LEMMAS[words[0]!] ?? words[0]!) === undefined) continue;
    const opening = pictureMade(wordsOf(atoms[i - 1]!.text.toLowerCase()));
    if (opening) atoms[i] = { text: `${opening} ${atoms[i]!.text}` };
  }
  return atoms;
}

/** The verb of making and its object, when a clause opens with them and the object is the whole picture ("make the whole photo"). */
function pictureMade(words: string[]): string | undefined {
  if (!COMPLEMENT_VERBS.has(words[0] ?? '')) return undefined;
  if (PICTURE_OBJECTS.has(words[1] ?? '')) return words.slice(0, 2).join(' ');
  let end = 1;
  while (PICTURE_OBJECT_LEADS.has(words[end] ?? '')) end++;
  return end > 1 && WHOLE_IMAGE.has(words[end] ?? '') ? words.slice(0, end + 1).join(' ') : undefined;
}

const isQuality = (word: string) => QUALITY_ADJECTIVES.has(word) || CHANNEL_COLORS.has(word);
const isFault = (word: string) => FAULT_QUALITIES.has(word) || CHANNEL_COLORS.has(word);

/**
 * "make it less grainy and blurry", "less yellow, dull": a clause of bare qualities after one that
 * ends in a degree and a quality shares that degree (read alone, "blurry" would ask for a blur).
 */
function sharedDegrees(atoms: Atom[]): Atom[] {
  for (let i = 1; i < atoms.length; i++) {
    const words = wordsOf(atoms[i]!.text.toLowerCase());
    const before = wordsOf(atoms[i - 1]!.text.toLowerCase());
    const [degree, quality] = before.slice(-2);
    const qualities = words.filter((word) => !isFiller(word));
    if (!(qualities.length > 0 && qualities.every(isQuality) && SHARED_DEGREES.has(degree ?? '') && isQuality(quality ?? ''))) continue;
    // "it's too warm, cool it": a quality with an object after it is its verb, a request of its own.
    if (OBJECT_WORDS.has(words[words.indexOf(qualities[0]!) + 1] ?? '')) continue;
    // "it's too green, add some red": so is a clause with a verb of its own, though the verb be
    // one that fills ("add", "make"); sharing "too" had made it less red, beside less green.
    if (words.some(isImperative)) continue;
    // "less bright and more saturated": a clause with a degree of its own keeps it.
    if (words.some((word) => SHARED_DEGREES.has(word))) continue;
    // "more" of each is each as said; "less" and "too" turn them, so only between qualities of one kind.
    if (degree !== 'more' && !qualities.every((word) => isFault(word) === isFault(quality!))) continue;
    // Before the quality itself: a fault said again of "it" ("too dark, dull": "it is dull") is
    // "it is too dull" (put first, "too it is dull" had read as a look wanted, less saturated).
    const said = atoms[i]!.text.split(' ');
    const at = said.findIndex((word) => word.toLowerCase() === qualities[0]);
    atoms[i] = { text: at < 0 ? `${degree} ${atoms[i]!.text}` : [...said.slice(0, at), degree, ...said.slice(at)].join(' ') };
  }
  return atoms;
}

/**
 * A verb that starts a request, as written or with two of its letters swapped ("decrease the size
 * Sahrpen it": two requests run together). Not with a letter changed, added or left out: a name is
 * as often that far from a verb ("Brighton", "Sharpe", "Raisa", "Changi"), and a statement about it
 * ("Raisa looks blurry") would become a request.
 */
/** A verb that starts a request as written: words to write are cut only there (a name may be a verb misspelt, "Team Draken"). */
const isImperativeAsWritten = (word: string) => REQUEST_VERBS.has(word.toLowerCase());
export const isImperative = (word: string) => {
  const lower = word.toLowerCase();
  if (REQUEST_VERBS.has(lower)) return true;
  const corrected = lower.length >= 5 ? correctTypo(lower) : undefined;
  return corrected !== undefined && REQUEST_VERBS.has(corrected) && corrected.length === lower.length && isCommonSlip(lower, corrected);
};

/** Whether a text asks someone to do something ("can you clear up his skin", "please …"): never only a fault said. */
export const asksSomeone = (text: string): boolean => {
  const said = wordsOf(text.toLowerCase());
  return (REQUESTING_MODALS.has(said[0] ?? '') && ADDRESSEES.has(said[1] ?? '')) || said.some((word) => PLEASE_WORDS.has(word));
};

/** Whether a text has a verb that starts a request ("… and rotate it"): then it is not only a reason. */
export const asksForMore = (text: string): boolean => wordsOf(text).some(isImperative);

/** Words after which a verb is no request's start: "to" says why, a negation says what not, a modal says what the verb's subject will or may do ("it will lighten her up"). */
/** "… the whole image its gonna lighten her up": what the edit before will do starts a piece of its own (read as no request). */
const FORESEEN = phrases(...FORESEEING_LEADS);
const NOT_A_START = new Set([
  ...['to', 'not', "don't", 'dont', 'never', 'no', 'will', 'would', 'could', 'can', 'should', 'might', 'may', 'shall', 'must', 'gonna'],
  ...["it'll", 'itll', "this'll", "that'll", 'thatll', "they'll", 'theyll', "he'll", "she'll", "we'll", "you'll", "i'll"],
  // "the photo is zoom blurred": after a verb of being, a verb's form says how it is.
  ...['is', 'are', 'was', 'were', 'been', 'being', 'looks', 'seems', 'appears'],
]);
/** Modals that ask whether, not for ("should i add red"; "can you crop it" asks for the crop), and who they ask of. */
const ASKING_MODALS: ReadonlySet<string> = new Set(['should', 'shall', 'do', 'does', 'did']);
const ASKED_SUBJECTS: ReadonlySet<string> = new Set(['i', 'we', 'you', 'u', 'it', 'they']);
/** After a determiner or a quantifier a verb's form is a noun ("reverse the blur", "with less blur"): no request starts there. */
const DETERMINERS = new Set(['the', 'a', 'an', 'this', 'that', 'these', 'those', 'some', 'any', 'its', 'my', 'your', 'his', 'her', 'their', 'our', 'more', 'less', 'fewer', 'much', 'extra', 'no']);

/**
 * "remove the background blur": a verb's form that is an edit's noun, after a word for a part of
 * the picture and with no object of its own, is the second noun of a compound (the background's
 * blur), no request ("remove the background blur the face" still has two).
 */
const compoundNoun = (words: string[], i: number): boolean =>
  NOUNS[words[i]!.toLowerCase()] !== undefined && regionOf(words[i - 1]!.toLowerCase()) !== undefined && (i + 1 === words.length || !OBJECT_STARTS.has(words[i + 1]!.toLowerCase()));
const OBJECT_STARTS = new Set([...DETERMINERS, 'it', 'them', 'him', 'everything', 'out', 'up']);
/** "add a grey blur", "a black and white blur": a verb after an article and a colour is a noun the colour describes. */
const describedNoun = (words: string[], i: number): boolean => {
  let at = i - 1;
  const colorish = (word: string) => word.split('-').every((part) => namedColor(part) !== undefined || part === 'and');
  while (at >= 0 && (colorish(words[at]!.toLowerCase()) || (words[at]!.toLowerCase() === 'and' && at < i - 1))) at--;
  return at < i - 1 && DETERMINERS.has(words[at]?.toLowerCase() ?? '');
};

/** "I want you to …", "we'd like you to …": the lead of a request, whose verb follows its "to". */
// ("… can u sharpen" with nothing after the verb is no request of its own: its object is the part before.)
const REQUEST_LEADS = phrases('i|we want|need you to', "i|we would|d like you to", "i'd|we'd like you to", 'can|could|would you [please|pls|plz] _', 'can|could|would u|ya [please|pls|plz] _ _');
/** "… i want to print it", "… we're going to frame it": what the picture is for, run on after a request (an aside, spellings.ts). */
const PURPOSE_LEADS = phrases('i|we [really|just|also] want|need|wanna|plan|hope to @use', "i|we|i'm|im|we're|were [am|are] going|gonna [to] @use");

/**
 * "make it darker make the colours pop": the clause cut before each imperative verb after its
 * first word. Not after "to": "denoise it to make it clearer" says why, not a second request.
 * "darken the backdrop I want you to brighten her": cut before a request's lead, which starts one.
 */
const PLEASE_WORDS: ReadonlySet<string> = new Set(['please', 'pls', 'plz', 'plse', 'kindly']);
/**
 * "more contrast please its flat", "darken it a bit its overexposed": a fault said of the picture
 * after a request, run on with no comma, is a clause of its own (read as with one).
 */
const FAULT_SUBJECTS: ReadonlySet<string> = new Set(['its', "it's", 'theyre', "they're"]);
/** Words that tie the clause after them to the one before ("brighten it so its not too dark"). */
const SUBORDINATORS: ReadonlySet<string> = new Set(['so', 'that', 'as', 'if', 'when', 'until', 'till', 'unless', 'while', 'where', 'and', 'but', 'or']);
/** Words that open a clause without asking: interjections and the person addressed ("hmm", "man its blurry"). */
const INTERJECTIONS: ReadonlySet<string> = new Set(['hmm', 'hm', 'um', 'umm', 'uh', 'well', 'ok', 'okay', 'so', 'yeah', 'lol', 'oh', 'ah', 'hey', 'hi', 'yo', ...ADDRESSED, ...ADDRESSED_BEFORE_REQUEST]);
function faultSaidAt(lower: readonly string[], i: number): boolean {
  // "because its too dark" is a reason (REASON_WORDS); "hmm its a bit dark" has no request before it.
  if (!FAULT_SUBJECTS.has(lower[i] ?? '') || REASON_WORDS.has(lower[i - 1] ?? '') || SUBORDINATORS.has(lower[i - 1] ?? '')) return false;
  if (lower.slice(0, i).every((word) => isFiller(word) || INTERJECTIONS.has(word))) return false;
  let at = i + 1;
  while (lower[at] !== 'too' && (DEGREE_WORDS.has(lower[at] ?? '') || lower[at] === 'way')) at++;
  return lower[at] === 'too' || FAULT_QUALITIES.has(lower[at] ?? '');
}

/** "my friend brightened it", "so i cropped it": an edit told as done by someone (a story, no request). */
export const tellsAnEditDone = (clause: string): boolean => {
  const words = wordsOf(clause.toLowerCase());
  // ("made by us": who made the picture, no edit of it.)
  return words.some(isPastOfEdit) && !isCredit(words) && toldOrDescribed(words);
};
/**
 * The edit a story tells as done, put as a request ("my friend zoomed in" is "zoom in"), or ""
 * when it is told by "did" or "done" alone ("i already did"); undefined for no such story.
 */
export function editToldDone(clause: string): string | undefined {
  if (!tellsAnEditDone(clause)) return undefined;
  const words = wordsOf(clause.toLowerCase());
  const at = words.findIndex(isPastOfEdit);
  const verb = PRO_VERBS.has(words[at]!) ? undefined : (requestVerbOf(words[at]!) ?? inflectedVerb(words[at]!));
  return verb === undefined ? '' : [verb, ...words.slice(at + 1)].join(' ');
}
/** Words that open the reason of the request before them ("… because it's too dark"). */
export const REASON_WORDS: ReadonlySet<string> = new Set(['because', 'cause', 'coz', 'cuz', 'since']);
export function splitRunTogether(atom: string): readonly string[] {
  // Asked of the same clause by several readings (pieces, run-ons, lists, regions): cut once.
  let known = runTogetherCuts.get(atom);
  if (!known) {
    if (runTogetherCuts.size >= MAX_CANONICAL) runTogetherCuts.clear();
    runTogetherCuts.set(atom, (known = cutRunTogether(atom)));
  }
  return known;
}
const runTogetherCuts = new Map<string, readonly string[]>();

function cutRunTogether(atom: string): readonly string[] {
  const words = wordsOf(atom);
  const lower = words.map((word) => word.toLowerCase());
  const pieces: string[][] = [[]];
  words.forEach((word, i) => {
    // Not after "to" ("denoise it to make it clearer" says why), a negation ("darken not
    // brighten": the verb is not wanted) or a modal ("so it will lighten her up": foreseen).
    // Nor a noun after its determiner and an adjective of strength ("add a vignette add a slight blur").
    const strengthened = STRENGTH_ADJECTIVES.has(lower[i - 1] ?? '') && DETERMINERS.has(lower[i - 2] ?? '');
    // Nor after a modal and its subject ("it is too green should i add red": asked, not a request).
    const asked = ASKING_MODALS.has(lower[i - 2] ?? '') && ASKED_SUBJECTS.has(lower[i - 1] ?? '');
    // Nor a past form after its doer opening the clause ("my mom put a border on it", "i put it in sepia": told).
    const toldByDoer = isPastOfEdit(lower[i]) && ((i === 1 && DOERS.has(lower[0]!)) || (i === 2 && (DESCRIPTION_LEADS.has(lower[0]!) || lower[0] === 'the')));
    // A verb misspelt right after a name is more likely a name too ("the Saab Draken").
    const misspeltAfterName = !isImperativeAsWritten(word) && standsForName(lower, i);
    const verb = i > 0 && isImperative(word) && !misspeltAfterName && !NOT_A_START.has(lower[i - 1] ?? '') && !DETERMINERS.has(lower[i - 1] ?? '') && !strengthened && !asked && !toldByDoer && !compoundNoun(words, i) && !describedNoun(words, i);
    // "more contrast less saturation": a second amount of a quality after one, listed with no comma.
    // (A colour before it is what is made more of another: "make the grey more blue".)
    const quality = (word: string | undefined) => word !== undefined && (NOUNS[word] !== undefined || OPPOSITES[word] !== undefined);
    const listedAmount = (lower[i] === 'more' || lower[i] === 'less') && quality(lower[i - 1]) && (quality(lower[i + 1]) || namedColor(lower[i + 1] ?? '') !== undefined);
    if (i > 0 && (verb || listedAmount || faultSaidAt(lower, i) || endAt(lower, REQUEST_LEADS, i) > i || endAt(lower, FORESEEN, i) > i || endAt(lower, PURPOSE_LEADS, i) > i) && pieces[pieces.length - 1]!.length > 0) {
      // "its blurry please sharpen it": the "please" before the verb is the request's, not the
      // end of the fault before it (left there, the fault read as a statement and refused all).
      const before = pieces[pieces.length - 1]!;
      const polite: string[] = [];
      while (verb && before.length > 1 && PLEASE_WORDS.has(before[before.length - 1]!.toLowerCase())) polite.unshift(before.pop()!);
      pieces.push(polite);
    }
    pieces[pieces.length - 1]!.push(word);
  });
  return pieces.map((piece) => piece.join(' '));
}

/**
 * What a clause says besides an edit, set by the reader from its words (which are then taken out
 * of the text): a clause with any of them is no request, and its refusal says which.
 */
export interface ClauseFlags {
  /** "don't rotate it", "can you not blur it", "warmer but not orange": what not to do or to keep. */
  negated: boolean;
  /** "is it sharp?", "should i make it brighter": asked, not requested. */
  question: boolean;
  /** "the photo is warm", "it's a black and white photo": how the picture is, not what to change. */
  statement: boolean;
  /** "it will lighten her up", "this'll make it pop": what an edit told before it will do, not another edit. */
  outcome: boolean;
  /** "it's too dark", "the colours look faded": a fault said, read as its fix (still a request). */
  fault: boolean;
  /**
   * "this is a photo of my dog", "my friend made it black and white", "thanks for flipping it",
   * "the grain is nice", "contrast na": context or a remark, no request. Beside a request it is
   * accounted for and passed over; alone it is refused as a statement.
   */
  aside: boolean;
  /**
   * "it's sideways", "its upside down": the picture said to be turned (a `statement`). Beside a
   * request that turns or flips it ("its sideways, rotate it left 90") it is that request's
   * reason, passed over; alone, or beside no turn, it is refused.
   */
  turned: boolean;
}

/**
 * Words of a story that say something may need undoing ("by mistake", "the wrong way", "snapchat
 * flipped it"), or that a fault said beside it was seen to already ("my mum fixed that"): said,
 * and refused, never passed over as an aside (passed over, the fault beside it had been mended).
 */
const MENDING_HINTS: ReadonlySet<string> = new Set(['mistake', 'accident', 'accidentally', 'wrong', 'sideways', 'upside', 'flipped', 'mirrored', 'ruined', 'messed', 'fixed', 'corrected', 'removed']);

/** "[and|so|then] it|this|that would look|be|seem brighter|more vintage": a comparative of a look, foreseen. */
function wouldLookComparative(words: readonly string[]): boolean {
  let at = 0;
  while (['and', 'so', 'then', 'as', 'plus'].includes(words[at] ?? '')) at++;
  if (!['it', 'this', 'that', 'everything'].includes(words[at] ?? '') || words[at + 1] !== 'would' || !['look', 'be', 'seem', 'pop'].includes(words[at + 2] ?? '')) return false;
  if (words[at + 2] === 'pop') return true;
  const look = words[at + 3] ?? '';
  return look === 'more' || look === 'less' || (look.endsWith('er') && !EVALUATIVE.has(look));
}
/** Whether a clause says what an edit would do ("flipping it would make the text backwards"), as a remark. */
export const foreseesAnEdit = (clause: string): boolean => editForeseen(wordsOf(clause.toLowerCase()));

/** "flipping it would …", "cropping it will ruin it": an edit's -ing form, then a modal of what it would do, not a wish. */
function editForeseen(words: readonly string[]): boolean {
  const gerund = words[0] ?? '';
  if (!gerund.endsWith('ing')) return false;
  const stem = gerund.slice(0, -3);
  if (![stem, `${stem}e`, stem.slice(0, -1)].some((form) => form.length > 2 && isImperative(form))) return false;
  const modal = words.findIndex((word, i) => i > 0 && i <= 4 && FORESEEING_MODALS.has(word));
  return modal > 0 && !words.slice(modal + 1).some((word) => WISHED_OUTCOMES.has(word));
}
const FORESEEING_MODALS: ReadonlySet<string> = new Set(['would', 'will', 'might', 'could', 'may', 'wil', 'wont', "won't", 'would’nt', "wouldn't"]);
/** What an edit would be said to do when it is wished ("… would be nice", "… would help"). */
const WISHED_OUTCOMES: ReadonlySet<string> = new Set(['help', 'nice', 'great', 'good', 'better', 'awesome', 'cool', 'perfect', 'lovely', 'amazing', 'ideal', 'appreciated', 'improve', 'fix']);

/** Comparatives of how good, not of a look ("it would look better in black and white" may ask). */
const EVALUATIVE: ReadonlySet<string> = new Set(['better', 'nicer', 'prettier', 'cooler', 'greater']);

/** Words after the noun of a description that go on describing ("a photo of my dog", "a selfie in the mirror"). */
const DESCRIPTION_TAILS: ReadonlySet<string> = new Set(['of', 'in', 'at', 'on', 'from', 'with']);

/** A clause of only degree words and one word of a fault ("a bit dark" is "slightly dark" by now). */
function bareFault(words: readonly string[]): boolean {
  if (words.some((word) => isImperative(word) || STATE_MODALS.has(word))) return false;
  // "looks pixelated", "seems a bit bright": how the picture looks, its subject left unsaid, is a
  // description, never the look asked for (read as a request, the fault was made worse).
  if (SEEMING_VERBS.has(words[0] ?? '') && words.length > 1) return true;
  // "pretty dark", "quite blurry": a degree of the fault as it is.
  const said = words.filter((word) => !isFiller(word) && word !== 'slightly' && word !== 'strongly' && !STATE_DEGREES.has(word));
  // "dim it": the word is a verb as well.
  return said.length === 1 && FAULT_QUALITIES.has(said[0]!) && !ADJUSTMENT_VERBS.has(said[0]!);
}

/** "it has a lot of noise", "the photo has a black border", "there is so much blur": what the picture has, told. */
export function possessesLook(words: readonly string[]): boolean {
  // A verb's word after a determiner is a noun there ("it has some blur", "a lot of crop").
  if (words.some((word, i) => isImperative(word) && !NOUN_LEADS.has(words[i - 1] ?? ''))) return false;
  if (words[0] === 'there' && THERE_BE.has(words[1] ?? '')) return true;
  if (words[0] === "there's") return true;
  let at = 0;
  while (at < 4 && PICTURE_SUBJECT_WORDS.has(words[at] ?? '')) at++;
  // "it has to be brighter", "the photo has got to be sharper": a wish, not what it has.
  const must = words[at + 1] === 'to' || (words[at + 1] === 'got' && words[at + 2] === 'to');
  return at > 0 && HAVING.has(words[at] ?? '') && !must;
}
const THERE_BE: ReadonlySet<string> = new Set(['is', 'are', 'was', 'were', "'s"]);
const NOUN_LEADS: ReadonlySet<string> = new Set(['a', 'an', 'some', 'much', 'the', 'of', 'any', 'no', 'little', 'bit', 'more', 'less', 'this', 'that', 'too', 'slight', 'heavy', 'strong']);
const HAVING: ReadonlySet<string> = new Set(['has', 'have', 'had', 'got']);
const PICTURE_SUBJECT_WORDS: ReadonlySet<string> = new Set(['it', 'this', 'that', 'the', 'my', 'our', 'your', 'whole', 'entire', ...PICTURE_NOUNS, ...PICTURE_KINDS]);

/**
 * "the photo of us is dark", "the shot from yesterday looks blurry": something said to be a
 * fault ("dark", "too grainy") with a verb of being and nothing asked, its subject no part of the
 * picture a region names (those are read by regions.ts).
 */
function isDescribedFault(words: readonly string[]): boolean {
  if (words.some(isImperative)) return false;
  const copula = words.findIndex((word) => DESCRIBING_VERBS.get(word) === 'is' || DESCRIBING_VERBS.get(word) === 'looks' || DESCRIBING_VERBS.get(word) === 'seems');
  // "the photo of us is dark": the people after "of" are what the picture is of, not its subject.
  const subject = words.slice(0, copula);
  const of = subject.indexOf('of');
  // "the baby pic is grainy", "the dog photo is blurry": a region's word before the picture's noun
  // says what kind of picture it is; the picture is the subject (left out, "grainy" had been asked).
  const named = of >= 0 ? subject.slice(0, of) : subject;
  if (copula <= 0 || named.some((word, i) => regionOf(word) !== undefined && !PICTURE_NOUNS.has(named[i + 1] ?? ''))) return false;
  const predicate = words.slice(copula + 1);
  return predicate.some((word) => FAULT_QUALITIES.has(word)) && predicate.every((word) => FAULT_QUALITIES.has(word) || FAULT_DEGREES.has(word));
}
/**
 * "the colours look grey", "the tones seem sepia": how the colours are, said with a verb of
 * seeming after them and no verb of asking. "look" after its plural subject is that verb, not the
 * imperative it is at a clause's start (read as a request, "look grey" had made it greyscale,
 * where the speaker wanted colour back). Faults ("the colours look dull") are read before this.
 */
function colorsSaidToLook(words: readonly string[]): boolean {
  let at = 0;
  while (COLOR_SUBJECT_LEADS.has(words[at] ?? '')) at++;
  // "the colour tone looks grey": the subject may be two of its nouns.
  const subject = at;
  while (COLOR_SUBJECTS.has(words[at] ?? '')) at++;
  if (at === subject || !LOOKING_VERBS.has(words[at] ?? '')) return false;
  return !words.slice(at + 1).some(isImperative);
}
const COLOR_SUBJECT_LEADS: ReadonlySet<string> = new Set(['the', 'its', "it's", 'all', 'my', 'these', 'those', 'photo', 'picture', 'image', 'photos']);
const COLOR_SUBJECTS: ReadonlySet<string> = new Set(['colors', 'color', 'tones', 'tone', 'hues']);
/** The clause as "it is …" when it says a fault of the picture named with more words than "the photo" ("my old photo is blurry"). */
function pictureSaidFaulty(words: readonly string[]): string | undefined {
  if (!isDescribedFault(words)) return undefined;
  const copula = words.findIndex((word) => DESCRIBING_VERBS.has(word));
  const subject = words.slice(0, copula);
  const of = subject.indexOf('of');
  const named = of >= 0 ? subject.slice(0, of) : subject;
  // ("the first photo is too dark", "my last photo was dark": another picture than this one.)
  return named.some((word) => PICTURE_NOUNS.has(word) || PICTURE_KINDS.has(word)) && !named.some((word) => OTHER_PICTURES.has(word))
    ? ['it', 'is', ...words.slice(copula + 1)].join(' ')
    : undefined;
}
/** A picture named as another than the one sent ("my first photo", "the photo on the left"), said to be some way. */
function otherPictureSaid(words: readonly string[]): boolean {
  const copula = words.findIndex((word) => DESCRIBING_VERBS.has(word) || word === 'was' || word === 'were');
  const subject = copula > 0 ? words.slice(0, copula) : [];
  return POSSESSOR_DETERMINERS.has(subject[0] ?? '') && !subject.some(isImperative) && subject.some((word) => PICTURE_NOUNS.has(word) || PICTURE_KINDS.has(word)) && subject.some((word) => OTHER_PICTURES.has(word));
}
const FAULT_DEGREES: ReadonlySet<string> = new Set([...DEGREE_WORDS, 'fairly']);

/** "i look …", "we seem …", "i am too …": the people asking, described. */
function speakersLook(words: readonly string[]): boolean {
  if (!SPEAKING_SUBJECTS.has(words[0] ?? '')) return false;
  const verb = words[1] ?? '';
  return LOOKING_VERBS.has(verb) || ((verb === 'am' || verb === 'are') && (words[2] === 'too' || FAULT_QUALITIES.has(words[2] ?? '')));
}
const SPEAKING_SUBJECTS: ReadonlySet<string> = new Set(['i', 'we', 'you']);
const LOOKING_VERBS: ReadonlySet<string> = new Set(['look', 'looks', 'seem', 'seems', 'appear', 'appears']);

/** Verbs that say how the picture looks, not what to make it ("looks dark", "seems blurry"). */
const SEEMING_VERBS: ReadonlySet<string> = new Set([...DESCRIBING_VERBS].filter(([, lemma]) => lemma === 'looks' || lemma === 'seems' || lemma === 'appears').map(([word]) => word).filter((word) => word !== 'look'));
/** Degrees said of a state, not of a change ("pretty dark" is how dark it is). */
const STATE_DEGREES: ReadonlySet<string> = new Set(['pretty', 'quite', 'fairly', 'rather', 'kinda', 'sorta']);

/** Words before a past form that tell it done to the picture ("has been darkened", "was cropped"); "be" asks for it ("needs to be darkened"). */
const PASSIVE_AUXILIARIES: ReadonlySet<string> = new Set(['been', 'was', 'were']);

/**
 * A clause that tells an edit done by someone or something ("my friend made it black and white",
 * "snapchat made it blurry"), introduces who the photo shows ("this is my son", "here's my
 * grandma"), or only describes the photo or its subject ("a dark pic", "a blurry photo of my dog",
 * "my grey cat"), with no verb of asking.
 */
/** A past form that tells an edit done ("cropped", "brightened", "made"). */
const isPastOfEdit = (word: string | undefined): boolean => word !== undefined && (DONE_VERBS.has(word) || (word.endsWith('ed') && (inflectedVerb(word) ?? requestVerbOf(word)) !== undefined));
/** Words that say the one asking did an edit already ("myself", "already"). */
const DONE_BY_THEMSELVES: ReadonlySet<string> = new Set(['myself', 'ourselves', 'already']);
/** Adverbs of when an edit told was done ("i already cropped it"). */
// "i have brightened it", "we've cropped it": the perfect tells it too.
const DONE_WHEN: ReadonlySet<string> = new Set(['already', 'just', 'recently', 'previously', 'have', 'has', 'had', "'ve"]);

/**
 * "i brightened it and sharpened it", "the photographer cropped it square and added a vignette":
 * an edit told as done goes on being told after "and" by a past form with no subject (cut there,
 * "sharpened it" had been asked for).
 */
const MAX_LOOK_WORDS = 3;
function toldContinued(atoms: Atom[]): Atom[] {
  const out: Atom[] = [];
  for (const atom of atoms) {
    const before = out.at(-1);
    const said = wordsOf(atom.text.toLowerCase());
    // "the printer made it darker and more yellow": a look with no verb goes on with the story too.
    const look = said.length <= MAX_LOOK_WORDS && (said[0] === 'more' || said[0] === 'less' || (said.length === 1 && said[0]!.endsWith('er'))) && !said.some((word) => isImperative(word) || ASKING_WORDS.has(word));
    // ("put" is a request's verb too: "took it at dusk, put it in black and white" asks.)
    // (Not a fault told: "my friend edited it and made it too warm" may want it mended.)
    const told = isPastOfEdit(said[0]) && !isImperative(said[0]!) && !said.some((word) => word === 'too' || FAULT_QUALITIES.has(word));
    // Only after a story of an edit done ("… made it darker"), not after praise or a greeting ("love it! warmer").
    const story = before !== undefined && wordsOf(before.text.toLowerCase()).some((word) => isPastOfEdit(word) || VERSION_NOUNS.has(word));
    const continues = before !== undefined && story && canonicalClause(before.text).flags.aside && (told || look);
    if (continues) out[out.length - 1] = { text: `${before.text} and ${atom.text}` };
    else out.push(atom);
  }
  return out;
}

function toldOrDescribed(said: readonly string[]): boolean {
  // "… so my friend brightened it", "… and then i cropped it": told after the word that ties it on.
  let link = 0;
  while (link < said.length - 1 && TELLING_LINKS.has(said[link]!)) link++;
  const clause = said.slice(link);
  // Read joined to the next clause ("here is my grandma and please brighten it"), the first part only.
  const and = clause.indexOf('and');
  const words = and > 0 ? clause.slice(0, and) : clause;
  // "a selfie in the mirror": a verb's word after the description's noun is a noun there.
  // "my mom put a border on it": after its doer, "put" is told, not asked.
  const pastAt = DONE_WHEN.has(words[1] ?? '') ? 2 : 1;
  // ("the whole shot is too bright": after "whole", "shot" is the picture, no past of "shoot".)
  // ("my friend has brightened it": the perfect after someone too; "the colours have faded" is how they are.)
  const pastAfterLead = (DESCRIPTION_LEADS.has(words[0]!) || words[0] === 'the') && (isPastOfEdit(words[2]) || (DONE_WHEN.has(words[2] ?? '') && isPastOfEdit(words[3]) && regionOf(words[1]!) === 'subject')) && !TOTALITY_WORDS.has(words[1]!);
  const doerTells = (DOERS.has(words[0]!) && words[0] !== 'you' && isPastOfEdit(words[pastAt])) || (pastAfterLead && !isImperative(words[1]!));
  // ("the warmer edit": a version's noun, not the verb.)
  const versionNoun = (word: string, i: number) => VERSION_NOUNS.has(word) && i > 0 && (VERSION_LEADS.has(words[i - 1]!) || words[i - 1]!.endsWith('er'));
  if (!describesPhoto(words) && !doerTells && words.some((word, i) => isImperative(word) && !versionNoun(word, i))) return false;
  if (describesPhoto(words)) return true;
  const past = isPastOfEdit;
  // "sharpened it myself", "already cropped it": an edit told as done by the one asking, no subject said.
  if (past(words[0]) && words.some((word) => DONE_BY_THEMSELVES.has(word))) return true;
  // The doer first, or one named with a possessive ("my mom", "the app"), then the past form.
  // ("i already cropped it", "we just rotated it": an adverb of when between them.)
  if ((DOERS.has(words[0]!) && past(words[pastAt])) || pastAfterLead) return true;
  // "it has been darkened too much", "the photo was cropped badly": an edit told as done, in the
  // passive, with no verb of asking before it (read as asked, "darkened too much" darkened it again).
  const passive = words.findIndex((word, i) => PASSIVE_AUXILIARIES.has(word) && past(words[i + 1]));
  if (passive > 0 && !words.slice(0, passive).some(isImperative)) return true;
  // "ok now its black and white", "it looks sharper now", "this version is sharper": how it is
  // now, said back after an edit.
  // ("it looks flat right now" is how it is before any edit, as "at the moment" is.)
  if (words.some((word, i) => word === 'now' && words[i - 1] !== 'right') && words.some((word) => PRAISE_COPULAS.has(word) || word === 'its' || word === "it's")) return true;
  // "this version is brighter and warmer", "the new one looks sharper": how an edited version is, said back.
  // "the brighter version, rotate it", "this is the warmer edit", "my version is more saturated":
  // which copy is meant, named by how it looks.
  const named = words.findIndex((word, i) => VERSION_NOUNS.has(word) && i > 0 && (words[i - 1]!.endsWith('er') || COMPARED.has(words[i - 2] ?? '')));
  const lead = named > 0 ? words.slice(0, named).filter((word) => !VERSION_LEADS.has(word)) : [];
  const asksBesides = (at: number) => words.some((word, i) => i !== at && isImperative(word));
  if (named > 0 && named === words.length - 1 && VERSION_LEADS.has(words[0]!) && words[0] !== 'here' && lead.length <= 2 && !asksBesides(named)) return true;
  const version = words.findIndex((word) => VERSION_NOUNS.has(word));
  if (version >= 1 && version <= 2 && VERSION_LEADS.has(words[0]!) && PRAISE_COPULAS.has(words[version + 1] ?? '') && !asksBesides(version) && !words.some((word) => word === 'too' || FAULT_QUALITIES.has(word))) return true;
  // "made by me", "the photo was taken by my dad": who made the picture, never a part of it to edit
  // (read with the next clause, "made by me, brighten it" brightened the subject).
  if (isCredit(words)) return true;
  // "my dad is in it", "me and my sister are in the photo": who is in the photo.
  const isIn = words.findIndex((word, i) => (word === 'is' || word === 'are') && words[i + 1] === 'in');
  if (isIn > 0 && words.slice(0, isIn).some((word) => regionOf(word) === 'subject') && words.slice(isIn + 2).every((word) => word === 'it' || word === 'the' || word === 'this' || PICTURE_NOUNS.has(word))) return true;
  // "this is my son", "these are my kids", "here's my grandma", "meet my dog".
  // "here's our house", "meet my dog": whatever follows; "this is me", "this is a picture of …": a person or the picture.
  if (INTRODUCING.has(words[0]!) && words.length > 1) return true;
  const introduced = (words[0] === 'this' || words[0] === 'these') && (words[1] === 'is' || words[1] === 'are');
  if (introduced && words.some((word) => regionOf(word) === 'subject' || PICTURE_NOUNS.has(word) || WHOLE_IMAGE.has(word))) return true;
  // "it's me", "it is my son", "it's of my 2 kids": who the picture shows, said of it (read with
  // the request after it, "make it brighter" had brightened the person).
  const itIs = words[0] === "it's" || words[0] === 'its' ? 1 : words[0] === 'it' && words[1] === 'is' ? 2 : 0;
  // "it's for my mom's birthday", "its for an ebay listing": what the picture is for.
  if (itIs > 0 && words[itIs] === 'for' && words.length > itIs + 1 && !words.some(isImperative) && !asksInIt(words)) return true;
  // "took it at dusk", "taken at night with my phone", "shot this indoors": how it was taken.
  if (TAKING_VERBS.has(words[0]!) && words.length > 1 && PICTURE_TAKEN.has(words[1]!) && !words.some(isImperative) && !asksInIt(words)) return true;
  const shown = itIs > 0 ? words.slice(itIs + (words[itIs] === 'of' ? 1 : 0)) : [];
  if (shown.length > 0 && shown.length <= MAX_SHOWN_WORDS && regionOf(shown.at(-1)!) === 'subject' && shown.every((word) => !isImperative(word) && !FAULT_QUALITIES.has(word) && regionOf(word) !== 'face')) return true;
  // "black and white photo of my grandpa", "old sepia photo of my grandma": the picture named by
  // who it is of, with no verb, describes it (its look had been asked for).
  // Only a noun phrase: what stands before the picture's noun describes it, and no verb follows
  // ("the picture of us is too blurry" says a fault; "find a picture of a suit" asks).
  const photo = words.findIndex((word, i) => PICTURE_NOUNS.has(word) && words[i + 1] === 'of' && PHOTO_OWNERS.has(words[i + 2] ?? ''));
  const describing = (word: string) => DESCRIPTION_LEADS.has(word) || PHOTO_DESCRIBERS.has(word) || namedColor(word) !== undefined || FAULT_QUALITIES.has(word);
  if (photo >= 0 && photo <= MAX_SHOWN_WORDS && words.slice(0, photo).every(describing) && !words.slice(photo).some((word) => isImperative(word) || COPULAS.has(word)) && !asksInIt(words)) return true;
  // "it's from 2015", "taken in 1990 on film": when the picture was taken (read with the request
  // before it, the year had been its angle or width).
  return words.some((word, i) => i > 0 && YEAR_LEADS.has(words[i - 1]!) && isYear(word)) && !asksInIt(words);
}
/**
 * Words that ask, or say a fault, inside what would otherwise be context: "shot it in the shade so
 * it should be warmer", "the photo from 2015 needs more contrast", "… photo of my grandpa please".
 */
const asksInIt = (words: readonly string[]): boolean => words.some((word) => ASKING_IN_CONTEXT.has(word) || FAULT_QUALITIES.has(word) || ASKING_WORDS.has(word));
const ASKING_IN_CONTEXT: ReadonlySet<string> = new Set(['so', 'need', 'needs', 'should', 'must', 'too', 'more', 'less', 'but', 'also']);
/** What follows a past form of taking when it tells how the picture was taken ("took it", "shot this at night"). */
const PICTURE_TAKEN: ReadonlySet<string> = new Set(['it', 'this', 'that', 'them', 'at', 'in', 'on', 'with', 'by', 'from', 'last', 'yesterday', 'indoors', 'outside', 'outdoors', 'during', 'when', 'while', 'using']);
/** Words before a picture's noun that describe it ("the old sepia photo of …", "this black and white pic of …"). */
const PHOTO_DESCRIBERS: ReadonlySet<string> = new Set(['the', 'this', 'that', 'old', 'new', 'vintage', 'little', 'sepia', 'black-and-white', 'blackandwhite', 'monochrome', 'cute', 'favorite', 'favourite', 'lovely', 'nice', 'family']);
/** Verbs of being or having, which make a description a statement ("… is too blurry"). */
const COPULAS: ReadonlySet<string> = new Set([...DESCRIBING_VERBS.keys(), "it's", 'its']);
/** Past forms of taking a picture, opening a clause of how it was taken. */
const TAKING_VERBS: ReadonlySet<string> = new Set(['took', 'taken', 'shot', 'snapped', 'photographed', 'filmed']);
/** Names of one edited version of the picture ("this version", "the new one", "the edit"). */
const VERSION_NOUNS: ReadonlySet<string> = new Set(['version', 'edit', 'one', 'result', 'update', 'copy']);
const VERSION_LEADS: ReadonlySet<string> = new Set(['this', 'is', "it's", 'its', 'the', 'my', 'our', 'that', "that's", 'thats', 'here', "here's", 'heres']);
const COMPARED: ReadonlySet<string> = new Set(['more', 'less']);
/** At most the words of who a picture shows ("my little brother and me" is more). */
const MAX_SHOWN_WORDS = 4;
/** Who a picture may be of, after "photo of" ("my", "our", "a", "me"). */
const PHOTO_OWNERS: ReadonlySet<string> = new Set(['my', 'our', 'his', 'her', 'their', 'your', 'me', 'us', 'him', 'them', 'a', 'an']);
/** Words before a year said of when a picture was taken. */
const YEAR_LEADS: ReadonlySet<string> = new Set(['from', 'in', 'since', 'circa', 'of']);
const FIRST_YEAR = 1826;
const LAST_YEAR = 2100;
/** A year a photo may be from, written in four digits ("1990"). */
const isYear = (word: string) => word.length === 4 && [...word].every((ch) => ch >= '0' && ch <= '9') && Number(word) >= FIRST_YEAR && Number(word) < LAST_YEAR;

/**
 * "made by me", "this was taken by my dad", "the photo is drawn by my son": a whole clause of who
 * made the picture, the one credited (a pronoun, or "my" and one word) ending it. Not a credit
 * inside a request or a fault ("the picture painted by you is too dark").
 */
function isCredit(words: readonly string[]): boolean {
  const by = words.indexOf('by');
  if (by < 1 || !CREDIT_VERBS.has(words[by - 1]!) || !words.slice(0, by - 1).every((word) => CREDITED.has(word))) return false;
  const doer = words.slice(by + 1);
  if (doer.length === 1) return DOERS.has(doer[0]!) || regionOf(doer[0]!) === 'subject';
  return doer.length === 2 && DESCRIPTION_LEADS.has(doer[0]!);
}

/**
 * "a dark pic", "a blurry photo of my dog", "my bright little girl", "a selfie in the mirror": a
 * few words of how it is (no verb, no comparative), then the picture or who it shows, then where
 * or of what.
 */
function describesPhoto(words: readonly string[]): boolean {
  if (!DESCRIPTION_LEADS.has(words[0]!)) return false;
  // After "a", only the picture ("a dark pic"): "a snake in the background" is a thing to add.
  const indefinite = words[0] === 'a' || words[0] === 'an';
  const noun = words.findIndex((word, i) => i > 0 && (PICTURE_NOUNS.has(word) || WHOLE_IMAGE.has(word) || (!indefinite && regionOf(word) === 'subject')));
  const between = words.slice(1, noun);
  return noun >= 1 && noun <= 3 && between.every((word) => !word.endsWith('er') && !isImperative(word)) && (noun === words.length - 1 || DESCRIPTION_TAILS.has(words[noun + 1]!));
}

/** "the grain is nice", "it looks great as it is": a clause that ends praising what it names, with no verb of asking first. */
function praised(words: readonly string[]): boolean {
  let end = words.length;
  if (words[end - 1] === 'is' && words[end - 2] === 'it' && words[end - 3] === 'as') end -= 3;
  const praise = end - 1;
  let copula = praise - 1;
  while (copula > 0 && PRAISE_DEGREES.has(words[copula]!)) copula--;
  return praise > 0 && PRAISE_WORDS.has(words[praise]!) && PRAISE_COPULAS.has(words[copula] ?? '') && !isImperative(words[0]!) && !words.slice(0, copula).some((word) => STATE_MODALS.has(word));
}
const PRAISE_DEGREES: ReadonlySet<string> = new Set(['really', 'very', 'so', 'quite', 'strongly', 'pretty']);

/** A clause in canonical form, with its flags. */
export interface CanonicalClause {
  text: string;
  flags: ClauseFlags;
}

/** Whether a clause's flags say it is no request. */
export const isNoRequest = (flags: ClauseFlags): boolean => flags.negated || flags.question || flags.statement || flags.outcome || flags.aside;

/** The canonical form of one clause, without its flags (for the words of a reason or a look). */
export const canonical = (clause: string): string => canonicalClause(clause).text;

/** Answers of canonicalClause, since a clause is read by several readings; cleared when full. */
const canonicalForms = new Map<string, CanonicalClause>();
const MAX_CANONICAL = 4096;

/** The canonical form of one clause, and its flags (the same object for the same clause: do not change it). */
export function canonicalClause(clause: string): CanonicalClause {
  let known = canonicalForms.get(clause);
  if (!known) {
    if (canonicalForms.size >= MAX_CANONICAL) canonicalForms.clear();
    canonicalForms.set(clause, (known = canonicalOf(clause)));
  }
  return known;
}

function canonicalOf(clause: string): CanonicalClause {
  const said = [...clause.toLowerCase()].map((ch) => (ch === '’' || ch === '‘' || ch === '`' ? "'" : ch)).join('').trimEnd();
  // The question mark splitAtoms leaves on a clause is read here and kept out of its words ("black and white?").
  const questionMarked = said.endsWith('?');
  const lower = questionMarked ? said.slice(0, -1) : said;
  const spelledClause = spell(lower);
  let text = forWhomOut(hedgesOut(picturesSpelled(wordsOf(spelledClause.text)))).join(' ');
  const flags: ClauseFlags = { ...spelledClause.flags, statement: false, fault: false, turned: false };
  // "the grain is nice", "her skin looks perfect as it is": a look praised is one to keep.
  if (praised(wordsOf(spelledClause.text))) flags.aside = true;
  // "… and it would look brighter", "… as then it would look warmer": a look foreseen; "it would
  // look better in black and white" (how good) may be a wish, and stays unread.
  if (wouldLookComparative(wordsOf(spelledClause.text))) flags.outcome = true;
  // "flipping it would make the text backwards": what an edit would do, said of it by its -ing
  // form, is a remark (read, the picture had been mirrored), unless it is wished ("brightening it
  // would be nice").
  // Refused, not passed over: "adding grain will make it look like film" may be a suggestion.
  const foreseen = editForeseen(wordsOf(spelledClause.text));
  // "it will also need brightening", "it'll look better if you warm it": asked after all.
  if (flags.outcome && wordsOf(spelledClause.text).some((word) => FORESEEN_BUT_ASKED.has(word))) flags.outcome = false;
  // "my old photo is blurry", "the picture of my dad is dark": the picture, however it is named,
  // said to have a fault is that fault of the picture ("it is blurry").
  const pictureFault = pictureSaidFaulty(wordsOf(text));
  if (pictureFault) text = pictureFault;
  // "my first photo was too dark", "the photo on the left is blurry": another picture's fault, told.
  const otherPicture = otherPictureSaid(wordsOf(text));
  const request = asRequest(text);
  text = request.text;
  // "a bit dark", "slightly blurry", "dark": a fault's word with no verb may be the fault or the
  // look wanted ("nice shot but a bit dark"): said, not asked.
  flags.statement = request.statement || bareFault(wordsOf(request.text)) || foreseen;
  // "it's 3000 wide": the size it has, context passed over beside a request (alone, refused).
  if (request.sized) [flags.statement, flags.aside] = [false, true];
  // "too dark?", "need more contrast?": a fault asked about with a question mark and no verb of
  // asking is whether the picture is so or needs it, not the edit (a polite request has its verb:
  // "can you make it brighter?").
  // A look alone with it ("black and white?", "brighter?") is a terse request, read as one.
  const textWords = wordsOf(text);
  if (questionMarked && !textWords.some(isImperative) && textWords.some((word) => word === 'too' || word === 'need' || word === 'needs' || FAULT_QUALITIES.has(word))) flags.question = true;
  // "it has a lot of noise", "there is some blur", "the photo of us is dark": what the picture has
  // or is, said with no verb of asking and not read as a fault to mend, is never the look asked
  // for (read as one, the noise was added).
  if (!request.fault && !flags.aside && (possessesLook(wordsOf(request.text)) || isDescribedFault(wordsOf(request.text)) || colorsSaidToLook(wordsOf(request.text)))) flags.statement = true;
  // "i look washed out", "we look too dark", "i am too pale": how the people asking look is said
  // of them, a part of the picture, never the look asked for (read without them, "look washed
  // out" took colour away).
  if (!flags.aside && speakersLook(wordsOf(spelledClause.text))) flags.statement = true;
  flags.turned = request.turned === true;
  // "my friend made it black and white", "this is my son", "my grey cat": a story or a
  // description of the photo, no request. One that tells a fault or a slip ("my friend made it too
  // dark", "a blurry photo of my dog", "i flipped it by mistake") may want it mended: said, and
  // refused rather than passed over.
  const told = wordsOf(spelledClause.text);
  // "my friend should brighten it", "she could crop it": what someone else should do, told, not asked.
  const modal = told.findIndex((word, i) => i > 0 && MODALS.has(word) && isImperative(told[i + 1] ?? ''));
  if (modal > 0 && (regionOf(told[modal - 1]!) === 'subject' || THIRD_PERSONS.has(told[modal - 1]!))) flags.statement = true;
  // "can my friend brighten it?", "should my mom crop it?": asked of someone else's doing.
  const someoneElse = MODALS.has(told[0] ?? '') && POSSESSOR_DETERMINERS.has(told[1] ?? '') && regionOf(told[2] ?? '') === 'subject' && isImperative(told[3] ?? '');
  if (someoneElse) flags.question = true;
  // "without blurring the background, …": an edit of a thing said not to be made ("without
  // cropping" alone limits the edit beside it, lookNotWanted); read, its opposite had been made.
  // (Only the clause of that edit alone: "without cropping and make it square" is read together.)
  if (told[0] === 'without' && told.length > 2 && told[1]!.endsWith('ing') && requestVerbOf(told[1]!) !== undefined && !told.slice(2).some((word) => word === 'and' || isImperative(word))) flags.negated = true;
  if (!flags.negated && toldOrDescribed(told)) {
    if (told.some((word) => word === 'too' || FAULT_QUALITIES.has(word) || MENDING_HINTS.has(word))) flags.statement = true;
    else flags.aside = true;
  }
  flags.fault = request.fault;
  if (otherPicture) flags.statement = true;
  text = unitsSpelled(wordsOf(text))
    .join(' ')
    .replace(/(\d),(\d{3})\b/g, '$1$2')
    .replace(/\+\s*(\d)/g, '+$1')
    // "24x36 px": a box said in pixels keeps its unit (one under a hundred may be a print size, clause.ts).
    .replace(/(\d+(?:\.\d+)?)\s*(?:x|×|\*|by)\s*(\d+(?:\.\d+)?)\s*(px|pixels?)?(?![\w%:])/g, (_said, w: string, h: string, unit?: string) => `${w}x${h}${unit ? 'px' : ''}`)
    .replace(/(\d+(?:\.\d+)?)\s*-?\s*(?:px|pixels?|pxs)\b/g, '$1px')
    .replace(/(\d+(?:\.\d+)?)\s*(?:%|percent\b|per\s*cent\b|pct\b)/g, '$1%')
    .replace(/(\d+(?:\.\d+)?)\s*-?\s*(?:°|degrees?\b|degs?\b)/g, '$1deg')
    .replace(/(\d+(?:\.\d+)?)\s*(?:x|×|times)(?![\w])/g, '$1x')
    .replace(/(\d+(?:\.\d+)?)\s*-\s*(?=[a-z])/g, '$1 ');
  text = pictureAsItIs(wordsOf([...text].map((ch) => (ch === '!' || ch === '?' ? ' ' : ch)).join(''))).join(' ');
  return { text, flags };
}

/** "maybe sharpen it", "could you possibly crop it": a hedge before a request's verb, taken out (the request stands). */
const hedgesOut = (words: string[]): string[] => words.filter((word, i) => !HEDGES.has(word) || !isImperative(words[i + 1] ?? ''));

/**
 * "brighten it for me", "make me a copy", "send us a png", "let me see", "it looks dark to me":
 * the person asking, said as the one the request is for, taken out (with the "for" or "to" that
 * leads to them, or the "help" that asks for it); said as the object of an edit ("brighten me",
 * "make me brighter") they stay, a region word (lexicon SPEAKER_PRONOUNS). So are the people
 * named after "for" at the end of the clause ("… for both of us", "… for my wife and me", "… for
 * him"): whom the edit is for, never what it is of.
 */
function forWhomOut(words: string[]): string[] {
  const out: string[] = [];
  // Whether a verb that gives or shows, or a look said, came before: then "to me" is whom to.
  let given = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const before = words[i - 1] ?? '';
    const people = BENEFIT_LEADS.has(word) && !REGION_EXCEPT.has(before) ? peopleEnd(words, i + 1) : undefined;
    if (people !== undefined) {
      i = people - 1;
      continue;
    }
    if (!SPEAKER_PRONOUNS.has(word)) out.push(word);
    else if ((BENEFIT_LEADS.has(before) && !REGION_EXCEPT.has(words[i - 2] ?? '')) || (before === 'to' && given)) out.pop();
    else if (LETTING_VERBS.has(before) && before !== 'let') out.pop();
    else if (!GIVING_VERBS.has(before) && !LETTING_VERBS.has(before) && !(DATIVE_VERBS.has(before) && secondObject(words, i + 1))) out.push(word);
    given ||= GIVING_VERBS.has(word) || SHOWING_VERBS.has(word) || DESCRIBING_VERBS.has(word);
  }
  return out;
}

const MAX_PEOPLE_WORDS = 6;

/**
 * Where the people named from `from` end ("both of us", "my wife and me", "him", "the kids"),
 * when they end the clause or only a word of politeness follows; undefined otherwise ("for the
 * man on the left", "for her face", "for the kids' party" name more than whom it is for).
 */
function peopleEnd(words: string[], from: number): number | undefined {
  let end: number | undefined;
  // A few words at most ("the two of us", "my wife and me"): planning stays linear.
  for (let j = from; j < Math.min(words.length, from + MAX_PEOPLE_WORDS); j++) {
    const word = words[j]!;
    if (regionOf(word) === 'subject') end = j + 1;
    else if (!REGION_LEADS.has(word) && word !== 'and') break;
  }
  return end !== undefined && (end === words.length || AFTER_PEOPLE.has(words[end]!)) ? end : undefined;
}

/** Whether another object starts at `at` ("make me a copy", "get me it", "make me one", spelled "1" by now), not a degree ("make me a bit brighter", "one shade"). */
const secondObject = (words: string[], at: number): boolean => SECOND_OBJECT_STARTS.has(words[at] ?? '') && !DEGREE_NOUNS.has(words[at + 1] ?? '');

/**
 * "make the black and white photo colour", "make the faded photo vivid": the looks between a
 * definite determiner and the picture's noun say which picture (how it is), not the look asked
 * for, and are taken out. A colourless picture with colour asked of it is a colourisation.
 */
function pictureAsItIs(words: string[]): string[] {
  const out: string[] = [];
  let colorless = false;
  for (let i = 0; i < words.length; i++) {
    out.push(words[i]!);
    if (!PICTURE_STATE_LEADS.has(words[i]!)) continue;
    // "this family photo", "my dog picture", "the girls selfie", "my face pic": who it is of says which picture.
    const of = words[i + 1] ?? '';
    const portrait = (word: string) => regionOf(word) === 'subject' || regionOf(word) === 'face';
    if (PICTURE_NOUNS.has(words[i + 2] ?? '') && (portrait(of) || portrait(of.endsWith('s') ? of.slice(0, -1) : of))) {
      out.push(words[i + 2]!);
      i += 2;
      continue;
    }
    let j = i + 1;
    while (PICTURE_STATES.has(words[j] ?? '') || (words[j] === 'and' && j > i + 1 && PICTURE_STATES.has(words[j + 1] ?? ''))) j++;
    if (j === i + 1) continue;
    const states = words.slice(i + 1, j);
    if (COLORED_REGION_NOUNS.has(words[j] ?? '')) colorless ||= states.some((word) => COLORLESS_STATES.has(word));
    if (!PICTURE_NOUNS.has(words[j] ?? '')) continue;
    colorless ||= states.some((word) => COLORLESS_STATES.has(word));
    i = j - 1;
  }
  // "black and white to color", "change the grey to colour", "sepia into color": from no colour
  // to colour is a colourisation too (read word by word it was made grey).
  const toColor = words.some((word, i) => (COLORLESS_STATES.has(word) || word === 'gray') && (words[i + 1] === 'to' || words[i + 1] === 'into') && COLORING_WORDS.has(words[i + 2] ?? ''));
  return (colorless && out.some((word) => COLORING_WORDS.has(word))) || toColor ? ['colorize', 'it'] : out;
}
