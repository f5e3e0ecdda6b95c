/**
 * Turning a prompt into clauses in a canonical form the rules can read: quoted text and file IDs
 * set aside (their case and words must survive), British spellings, number words, units and
 * degree words rewritten to one spelling each.
 */

import { namedColor } from './colors.ts';
import { asRequest, faultsAsClauses } from './complaints.ts';

export interface Protected {
  /** The prompt with «qN» for quoted text and «fN» for file IDs. */
  text: string;
  quotes: string[];
  files: string[];
}

/** A piece of the prompt between separators, as the user wrote it (placeholders in). */
export interface Atom {
  text: string;
}

/** Quotation marks and what closes each. */
const QUOTE_PAIRS: Record<string, string> = { '"': '"', '“': '”', '«': '»', '‘': '’', "'": "'" };
/** Longer quoted text is not set aside: no overlay is that long. */
const MAX_QUOTED = 400;
// A straight single quote opens only after a space or bracket and closes only before one, so
// the apostrophes of "don't" and "it's" are not quotes.
const opensSingle = (text: string, i: number) => i === 0 || /[\s(:,]/.test(text[i - 1]!);
const closesSingle = (text: string, i: number) => i === text.length - 1 || /[\s),.;:!?]/.test(text[i + 1]!);

/**
 * Quoted text set aside as «qN», in one pass: for each closing mark, the index of its next
 * occurrence is computed once from the end, so an unclosed quote costs one look-up instead of a
 * scan to the end of the prompt (which made "“““…" quadratic).
 */
function setAsideQuotes(text: string, quotes: string[]): string {
  if (!/["“«‘']/.test(text)) return text;
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
    quotes.push(text.slice(i + 1, end));
    out.push(text.slice(copied, i), ` «q${quotes.length - 1}» `);
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
const UNQUOTED_TEXT =
  /\b((?:add(?:\s+in)?|insert|write|put|type|place|print|underneath|below|above|under)\s+(?:(?:the|a|an|some|this)\s+)?(?:(?:capital|uppercase|lowercase|big|small)\s+)?(?:text|words?|caption|title|letters?|label|heading)\s+(?:saying\s+|that\s+says\s+|which\s+says\s+|reading\s+|of\s+)?)([^,;.!?\n«»]+)/gi;
const TRAILING_POSITION = /\s+(?:(?:at|in|on|to|along|across|near)\s+(?:the\s+)?(?:very\s+)?)?(?:top|bottom|left|right|center|centre|middle|upper|lower|corner|underneath|below|above|beneath)(?:[\s-]+(?:left|right|corner|side|edge|part|hand))*(?:\s+of\s+(?:the\s+)?(?:image|photo|picture|pic))?\s*$/i;
const NOT_TEXT_START = /^(?:on|in|at|to|under|below|above|over|of|from|with|into|onto|near|underneath|beneath|the|this|that|it|here|there|and|then|image|photo|picture)\b/i;

/** "insert text Foo insert text Bar": another text asked for starts a clause of its own. */
const ANOTHER_TEXT = /(?<=[^\s,;.!?])\s+(?=(?:add|insert|write|type)\s+(?:(?:the|a|an|some)\s+)?(?:text|words?|caption|title)\s)/gi;

/**
 * "add text happy birthday top left", "add caption summer vibes red", "add text black and white":
 * a place or a colour at the end of unquoted words, with no "at" or "in" before it, may as well
 * be words to write. Not set aside, the clause is asked about (the words go in quotes).
 */
function placeOrColorInWords(lead: string, span: string): boolean {
  const place = TRAILING_POSITION.exec(span);
  if (place && !/^\s+(?:at|in|on|to|along|across|near)\b/i.test(place[0])) return true;
  const words = span.trim().split(/\s+/);
  // "add the word orange" names a word; "add text black" may name the text's colour.
  const colorLast = namedColor(words.at(-1)!.toLowerCase()) !== undefined;
  return colorLast && (words.length > 1 || !/\b(?:words?|letters?)\b/i.test(lead));
}

function setAsideUnquotedText(text: string, quotes: string[]): string {
  return text.replace(ANOTHER_TEXT, ', ').replace(UNQUOTED_TEXT, (match, lead: string, rest: string) => {
    // The span ends where another request or a place ("above the door") starts: what follows
    // is read by the rules, or refuses the clause.
    const span = rest.split(/\s+(?:and|then|&|plus|at|on|in|above|below|under|underneath|beneath|over|near|next\s+to|beside|across|along|to|onto|into|with|using|for)\s+/i)[0]!;
    const words = span.replace(TRAILING_POSITION, '').replace(/^["'“”‘’]+|["'“”‘’]+$/g, '').trim();
    if (words === '' || NOT_TEXT_START.test(words) || words.length > 200 || placeOrColorInWords(lead, span)) return match;
    quotes.push(words);
    return `${lead} «q${quotes.length - 1}» ${rest.slice(rest.indexOf(words) + words.length).replace(/^["'“”‘’]+/, '')}`;
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
  return { text: setAsideUnquotedText(faultsAsClauses(listItemsAsClauses(text)), quotes), quotes, files };
}

/** Puts quoted text and file IDs back, for messages. */
export function restore(text: string, p: Protected): string {
  return text
    .replace(/«q(\d+)»/g, (_, i: string) => `"${p.quotes[Number(i)]}"`)
    .replace(/«f(\d+)»/g, (_, i: string) => p.files[Number(i)]!)
    .replace(/\s+/g, ' ')
    .trim();
}

// Phrases whose "and" is not a separator.
const KEEP_TOGETHER: [RegExp, string][] = [
  [/\bblack\s*(?:and|&|n'?|\+)\s*white\b/gi, 'black-and-white'],
  [/\bb\s*&\s*w\b/gi, 'b&w'],
  [/\btop\s+and\s+bottom\b/gi, 'top-and-bottom'],
  [/\bleft\s+and\s+right\b/gi, 'left-and-right'],
  [/\bhundred\s+and\b/gi, 'hundred'],
  [/\bthousand\s+and\b/gi, 'thousand'],
];

/** Where a prompt may be cut: punctuation, "then", "and", "after that"… */
const SEPARATOR = /\s*(?:;|\.(?!\d)|,|!|\?|\n)\s*(?:and\s+|then\s+|and\s+then\s+|after\s+that\s+|afterwards\s+|finally\s+|lastly\s+|next\s+|also\s+)*|\s+(?:and\s+then|and\s+also|then|and|&|plus|but|followed\s+by|after\s+that|afterwards|before\s+that)\s+/gi;

export function splitAtoms(text: string): Atom[] {
  let joined = text;
  for (const [pattern, replacement] of KEEP_TOGETHER) joined = joined.replace(pattern, replacement);
  const pieces = joined
    .split(SEPARATOR)
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 0 && !/^(?:and|then|also|finally|first|firstly|please|next)$/i.test(piece));
  // "darken it, especially the shadows": an emphasis belongs to the clause before it.
  const atoms: Atom[] = [];
  for (const piece of pieces) {
    if (atoms.length > 0 && /^(?:especially|particularly|mostly|mainly)\b/i.test(piece)) atoms[atoms.length - 1]!.text += ` ${piece}`;
    else atoms.push({ text: piece });
  }
  return atoms;
}

/** Verbs that start a request: a second one inside a clause may start a second request. */
const IMPERATIVE = /^(?:take|make|increase|decrease|add|change|turn|convert|rotate|crop|flip|mirror|blur|sharpen|brighten|darken|lighten|remove|reduce|resize|enlarge|apply|zoom|straighten|boost|lower|raise|desaturate|saturate|invert|enhance|put|give|insert|intensify|deepen|soften|dehaze|denoise)$/i;

/** Whether a text has a verb that starts a request ("… and rotate it"): then it is not only a reason. */
export const asksForMore = (text: string): boolean => text.split(/\s+/).some((word) => IMPERATIVE.test(word));

const NOT_A_START = new Set(['to', 'not', "don't", 'dont', 'never', 'no']);

/**
 * "make it darker make the colours pop": the clause cut before each imperative verb after its
 * first word. Not after "to": "denoise it to make it clearer" says why, not a second request.
 */
export function splitRunTogether(atom: string): string[] {
  const words = atom.split(/\s+/).filter(Boolean);
  const pieces: string[][] = [[]];
  words.forEach((word, i) => {
    // Not after "to" ("denoise it to make it clearer" says why) nor after a negation ("darken
    // not brighten": the verb is not wanted).
    if (i > 0 && IMPERATIVE.test(word) && !NOT_A_START.has(words[i - 1]!.toLowerCase()) && pieces[pieces.length - 1]!.length > 0) pieces.push([]);
    pieces[pieces.length - 1]!.push(word);
  });
  return pieces.map((piece) => piece.join(' '));
}

/** "add a filter (all over the picture)": the start of a filter said by what it does. */
const FILTER_ON = String.raw`(?:add|apply|use|put)\s+(?:a\s+|an\s+|the\s+|some\s+)?(?:colou?r\s+|photo\s+)?filters?\s+(?:(?:all\s+)?(?:to|on|onto|over|in|into)\s+(?:the\s+)?(?:entire\s+|whole\s+)?(?:image|photo|picture|pic)\s+)?`;

/** A rewrite, or a flag the words set (and are then taken out of the text). */
const SPELLINGS: [RegExp, string | 'negated' | 'question'][] = [
  [/colour/g, 'color'],
  [/grey/g, 'gray'],
  [/\bcentre(d?)\b/g, 'center$1'],
  [/\b(normal|poster|optim|pixel|color|stabil|maxim|minim|custom|emphas|satur)is(e|ed|ing|ation)\b/g, '$1iz$2'],
  [/\bpixellat/g, 'pixelat'],
  [/\b(?:anti|counter)[\s-]?clock[\s-]?wise\b/g, 'counterclockwise'],
  [/\bclock[\s-]wise\b/g, 'clockwise'],
  [/\bjpg\b/g, 'jpeg'],
  [/\btif\b/g, 'tiff'],
  [/\bgr[ae]y[\s-]?scale(d)?\b/g, 'grayscale'],
  [/\bde-?noise\b/g, 'denoise'],
  [/\bwater[\s-]?mark/g, 'watermark'],
  [/\bthumb[\s-]?nail/g, 'thumbnail'],
  [/\bblack-and-white\b|\bb&w\b|\bb\/w\b/g, 'blackandwhite'],
  [/\b(?:take|took|taking|filter)\s+out\b|\btake\s+away\b|\bget\s+rid\s+of\b/g, 'remove'],
  // "ad a border": a slip of "add" before what is added.
  [/\bad\s+(?=(?:a|an|some|the|more)\b)/g, 'add '],
  // "zoom the picture out": the particle after the thing zoomed.
  [/\bzoom\s+(?:it|this|the\s+(?:image|photo|picture))\s+(in|out)\b/g, 'zoom $1'],
  // "select the entire image and …": what the edit is said of, which is every edit's default.
  [/\bselect\s+(?:all|everything|the\s+(?:entire|whole)\s+(?:image|photo|picture)|(?:the\s+)?(?:image|photo|picture))\b/g, ''],
  // "brighten it (hit by accident)", "mistake": a remark about a slip at either end of a clause, not an edit.
  [/^(?:(?:oops|accident|mistake|error)[:!,-]*\s+)+|(?:\s+(?:(?:hit|pressed|clicked|sent)\s+(?:this\s+|it\s+)?)?(?:by\s+)?(?:oops|accident|mistake|error))+$/g, ''],
  // "is it possible to make it brighter", "how about more contrast": a request asked politely.
  [/^(?:is\s+it\s+possible\s+to|is\s+there\s+(?:a|any)\s+way\s+to|would\s+it\s+be\s+possible\s+to|how\s+about|what\s+about)\s+/, ''],
  // "is it sharp?", "should i make it brighter?": a question about the picture asks for no edit.
  [/^(?:(?:is|are|does|do|did|was|were|would|will)\s+(?:it|this|that|the\s+\w+|i|we)|should\b|(?:what|why|which|who|where|when)\b)(?=\s|$)/, 'question'],
  // "brighten it max": all the way, at the end too.
  [/(?<!\b(?:their|its|his|her|a|the|to|of)\s)\bmax(?:imum)?\s*$/, ' strongly'],
  // "can you not blur it", "not make it brighter": an edit not wanted, which no rule may read as
  // its opposite ("not blur" is not "sharpen").
  [/\b(?:can|could|would|will)\s+you\s+not\b|\bnot\s+(?=(?:make|blur|sharpen|brighten|darken|lighten|crop|rotate|flip|change|add|remove|turn|resize|use|apply|saturate|desaturate)\b)/g, 'negated'],
  // "brighten it but not too much", "sharpen it, not sharpened too much": a limit on the amount,
  // a slight one, not "too" turning the edit round (the clause after "but" starts with "not").
  // "not so bright" is less bright, and inside a clause only "not too much" is a limit.
  [/(?:^|,\s*|\b(?:but|and)\s+)not\s+(?:\w+\s+)?(?:(?:too|overly)\s+(?:much|\w+)|so\s+much)\b|\bnot\s+(?:\w+\s+)?(?:too|overly|so)\s+much\b/g, ' slightly '],
  // "not sharp", "not very sharp" opening a clause: said of the picture, a fault or not, with no
  // edit; refused ("not so dark", "not as bright" and "not darker" are less of it).
  [/^not\s+(?!(?:so|as|too|overly|\w+er)\b)/, 'negated'],
  // "it's grainy but I like it": what the person wants kept.
  [/^(?:but\s+)?i\s+(?:really\s+)?(?:like|love|want\s+to\s+keep)\s+(?:it|that|this|them)(?:\s+(?:though|anyway|a\s+lot))?$/, 'negated'],
  // "not very bright": a little less bright, not "strongly".
  // Said of the picture ("it's not very sharp") it is a statement, which is not acted on.
  [/(?<!\b(?:is|looks|seems|appears|'s|its)\s)\bnot\s+very\b/g, 'slightly less'],
  // "warmer but not orange" (the clause after "but" is "not orange"): a limit no edit can be
  // checked against, not "less orange"; asked about.
  [/\bbut\s+not\b(?!\s+(?:so|as)\b)/g, 'negated'],
  // "make it brighter too", "sharpen it as well": "too" at the end is "also".
  [/\s+(?:too|as\s+well)(?=(?:\s+(?:please|pls|thanks|thank\s+you|thx))*[\s.!]*$)/g, ''],
  // "half as saturated": to half of what it is, not more of it.
  [/\bhalf\s+as\s+(?=\w)/g, 'to 50% '],
  // "sepia instead of colour": what the picture is now, said to make the change clear.
  [/\s+instead\s+of\s+(?:(?:in|being)\s+)?(?:full\s+)?colou?r(?:ed|s)?\b/g, ''],
  // "remove the blue haze": a coloured haze over the whole picture is a colour cast.
  [/\b(red|orange|yellow|green|blue|purple|pink|brown|magenta|cyan|violet)(?:d?ish)?\s+(?:haze|veil)\b/g, '$1 cast'],
  // "then you're going to add some contrast": how the steps are told, not what they are.
  [/\b(?:(?:you|we)(?:'re|re|\s+are)|i(?:'m|\s+am))\s+(?:going|gonna)\s+to\b|\b(?:you|we)(?:'re|re|\s+are)\s+gonna\b|\b(?:you'll|youll|we'll)\b/g, ''],
  // "darken the whole photo and the background": the photo holds its background.
  [/\b((?:the\s+|this\s+)?(?:(?:whole|entire)\s+)?(?:image|photo|picture|pic))\s+(?:and|&)\s+(?:the\s+|its\s+)?(?:background|backdrop)\b/g, '$1'],
  // "from a coloured image to black and white": the colour it has now.
  [/\bfrom\s+(?:a\s+|the\s+)?colou?r(?:ed|ful)?\s+(?:image|photo|picture|one|version)\s+to\b/g, 'from color to'],
  // "use the contrast tool to raise the contrast": the tool named is how, the rest is what.
  [/^\s*(?:use|using)\s+(?:the\s+|a\s+)?(?:[a-z]+\s+){1,2}(?:tool|slider|option|setting|adjustment)\s+(?:to|and)\s+(?=\S)/, ''],
  // "add a filter that makes the colours pop": the filter is how; what it makes is the edit.
  [new RegExp(String.raw`\b${FILTER_ON}(?:that|which|to)\s+(make|give)s?\b`, 'g'), '$1'],
  [new RegExp(String.raw`\b${FILTER_ON}(mak|giv)ing\b`, 'g'), '$1e'],
  // "take the colour out": the thing between the verb and its particle.
  [/\btake\s+((?:the\s+)?\w+(?:\s+\w+)?)\s+(?:out|away)\b/g, 'remove $1'],
];

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };

const NUMBER_WORD = `(?:${[...Object.keys(UNITS), ...Object.keys(TENS), 'hundred', 'thousand'].join('|')})`;
const NUMBER_RUN = new RegExp(`\\b(?:a\\s+(?=hundred|thousand))?${NUMBER_WORD}(?:[\\s-]+${NUMBER_WORD})*\\b`, 'g');

/** "one hundred eighty" → 180, "forty-five" → 45, "a hundred" → 100. */
function numberWords(text: string): string {
  return text.replace(NUMBER_RUN, (match) => {
    let total = 0;
    let current = 0;
    for (const token of match.split(/[\s-]+/)) {
      if (token === 'a') current = 1;
      else if (token in UNITS) current += UNITS[token]!;
      else if (token in TENS) current += TENS[token]!;
      else if (token === 'hundred') current = (current || 1) * 100;
      else if (token === 'thousand') {
        total += (current || 1) * 1000;
        current = 0;
      }
    }
    return String(total + current);
  });
}

const FRACTIONS: [RegExp, string][] = [
  // Number words are digits by now ("one third" is "1 third").
  [/\b(?:by\s+)?(?:one|a|1)\s+half\b|\bhalf\b/g, '50%'],
  [/\b(?:three|3)[\s-]quarters?\b/g, '75%'],
  [/\b(?:one|a|1)\s+quarter\b|\bquarter\b/g, '25%'],
  [/\b(?:two|2)[\s-]thirds?\b/g, '66.667%'],
  // A bare "third" is also a step ("third, add a border"): only of a side or with its article.
  [/\b(?:one|a|1)\s+third\b|(?<=\b(?:top|bottom|left|right)\s+)third\b|\bthird(?=\s+of\b)/g, '33.333%'],
  [/\bdouble(?:d)?\b|\btwice\b/g, '2x'],
  [/\btriple(?:d)?\b|\bthrice\b/g, '3x'],
  [/\bquadruple(?:d)?\b/g, '4x'],
];

const LEVELS: [RegExp, string][] = [
  // "max blur", "as much as possible": all the way, of an adjustment (not "max 1200px").
  [/\bmax(?:imum)?\s+(?=(?:blur|contrast|brightness|saturation|sharpness|warmth|vibrance)\b)|\bas\s+much\s+as\s+(?:possible|you\s+can)\b|\bto\s+the\s+max(?:imum)?\b/g, ' strongly '],
  // "very little sharpening", "very very slightly": very little, not very much.
  [/\b(?:(?:very|really|super|extremely|just)\s+)+(?:little|tiny)\b(?!\s+bit\b)/g, ' slightly '],
  [/\b(?:(?:very|really|super|extremely|just)\s+)+(?=(?:slight(?:ly)?|a\s+(?:little|tiny|bit|touch|tad)|little|tiny|subtl[ey]|gently|mildly)\b)/g, ''],
  [/\b(?:a\s+)?(?:little|tiny|wee)\s+bit\b|\ba\s+(?:little|touch|tad|smidge|hint|bit)\b|\bslight(?:ly)?\b|\bsomewhat\b|\bsubtl[ey]\b|\bgently\b|\bgentle\b|\bmild(?:ly)?\b|\blightly\b|\bmarginally\b|\bminor\b|\bsoft(?:ly)?\b(?=\s+(?:blur|vignette|sharpen))/g, ' slightly '],
  [/\ba\s+(?:whole\s+)?lot\b|\blots\b|\bmuch\b|\bvery\b|\breally\b|\bheavi(?:ly|er)\b|(?<!\btoo\s)\bheavy\b|\bstrong(?:ly|er)?\b|\bsignificantly\b|\bgreatly\b|\bdramatic(?:ally)?\b|\bextreme(?:ly)?\b|\bmassive(?:ly)?\b|\bintense(?:ly)?\b|\bconsiderably\b|\bhugely\b|\bway\b|\bsuper\b|\bseriously\b|\bway\s+more\b|\bfar\b(?=\s+(?:too|more|less)\b)/g, ' strongly '],
];

/**
 * "make the entire image colours brighter": said of light, the whole picture's colours are the
 * whole picture (colours alone, "make the colours brighter", are about their vividness). Said of
 * anything else they are the colours: "intensify the whole image's colours" is not "enlarge it".
 */
const WHOLE_PICTURE_COLORS = /\b((?:entire|whole)\s+(?:image|photo|picture|pic))(?:'s)?\s+colou?rs?\b|\bcolou?rs?\s+of\s+(?:the\s+)?((?:entire|whole)\s+(?:image|photo|picture|pic))\b/g;
const LIGHT_WORD = /\b(?:brighten(?:ed)?|brighter|bright|lighten(?:ed)?|lighter|darken(?:ed)?|darker|dark)\b/;

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
}

/** A clause in canonical form, with its flags. */
export interface CanonicalClause {
  text: string;
  flags: ClauseFlags;
}

/** Whether a clause's flags say it is no request. */
export const isNoRequest = (flags: ClauseFlags): boolean => flags.negated || flags.question || flags.statement;

/** The canonical form of one clause, without its flags (for the words of a reason or a look). */
export const canonical = (clause: string): string => canonicalClause(clause).text;

/** The canonical form of one clause, and its flags. */
export function canonicalClause(clause: string): CanonicalClause {
  const flags: ClauseFlags = { negated: false, question: false, statement: false };
  let text = clause.toLowerCase().replace(/[’‘`]/g, "'");
  for (const [pattern, replacement] of SPELLINGS) {
    if (replacement !== 'negated' && replacement !== 'question') {
      text = text.replace(pattern, replacement);
      continue;
    }
    text = text.replace(pattern, () => {
      flags[replacement] = true;
      return ' ';
    });
  }
  text = text.replace(WHOLE_PICTURE_COLORS, LIGHT_WORD.test(text) ? '$1$2' : 'colors');
  text = numberWords(text);
  text = text.replace(/\b(\d+)(?:st|nd|rd|th)\b/g, '$1');
  for (const [pattern, replacement] of FRACTIONS) text = text.replace(pattern, ` ${replacement} `);
  for (const [pattern, replacement] of LEVELS) text = text.replace(pattern, replacement);
  const request = asRequest(text.replace(/\s+/g, ' ').trim());
  text = request.text;
  flags.statement = request.statement;
  text = text
    .replace(/(\d),(\d{3})\b/g, '$1$2')
    .replace(/\+\s*(\d)/g, '+$1')
    .replace(/(\d+(?:\.\d+)?)\s*(?:x|×|\*|by)\s*(\d+(?:\.\d+)?)\s*(?:px|pixels?)?(?![\w%:])/g, '$1x$2')
    .replace(/(\d+(?:\.\d+)?)\s*-?\s*(?:px|pixels?|pxs)\b/g, '$1px')
    .replace(/(\d+(?:\.\d+)?)\s*(?:%|percent\b|per\s*cent\b|pct\b)/g, '$1%')
    .replace(/(\d+(?:\.\d+)?)\s*-?\s*(?:°|degrees?\b|degs?\b)/g, '$1deg')
    .replace(/(\d+(?:\.\d+)?)\s*(?:x|×|times)(?![\w])/g, '$1x')
    .replace(/(\d+(?:\.\d+)?)\s*-\s*(?=[a-z])/g, '$1 ')
    .replace(/[!?]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { text, flags };
}
