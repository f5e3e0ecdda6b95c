/**
 * What is wrong with a picture, said instead of what to do: "it's too blurry", "the photo looks
 * flat", "overexposed", "it's a little dark". The fix is the opposite of the fault, never the
 * fault itself: read literally, "it's blurry, sharpen it" would blur and then sharpen, and
 * "overexposed" would brighten an already bright picture.
 *
 * A comparative says the wished result ("the image is brighter", as people describe an edit
 * made), so only the plain adjective is a fault. Colours are faults only with "too" ("it's too
 * yellow"): "the picture is yellow" may as well describe the wished result.
 */

import { COMPARED_TAILS, DESCRIPTION_TAILS, DIRECTED, PICTURE_KINDS, PICTURE_NOUNS } from './lexicon.ts';
import { endAt, find, isWhole, phrases, wordClass, wordsOf, type Phrases } from './phrases.ts';

/** The same words as patterns, for the pass over the whole prompt that lists faults (faultsAsClauses). */
const SUBJECT_PATTERN = String.raw`(?:(?:(?:the|this|my|that|your)\s+)?(?:image|photo|picture|pic|photograph|shot)|it|this|everything)`;
const COPULA = String.raw`(?:\s+(?:is|looks|seems|appears|feels|is\s+looking)|'s)`;
const DEGREES = String.raw`(?:(?:slightly|strongly|quite|rather|pretty|kind\s+of|kinda|so|too|overly|far|a\s+bit|a\s+little(?:\s+bit)?|little|very|really|way|super|somewhat|extremely)\s+)*`;

/**
 * Faults a plain description names ("it's a bit dark", "the photo looks flat"), for the list
 * pass below (faultsAsClauses). Words that may as well describe a wished or a good picture
 * ("it's bright", "the photo is warm", "it's sharp") are faults only with "too".
 */
const STATE_FAULTS = String.raw`blurry|blurred|fuzzy|soft|out\s+of\s+focus|unfocused|grainy|noisy|speckled|speckly|hazy|foggy|misty|flat|washed\s+out|over[\s-]?exposed|blown\s+out|under[\s-]?exposed|over[\s-]?saturated|under[\s-]?saturated|crooked|tilted|skewed|slanted|askew|uneven|dark|dim|desaturated|muted|blinding`;
const TOO_FAULTS = String.raw`${STATE_FAULTS}|bright|saturated|colorful|colourful|vivid|vibrant|intense|punchy|warm|cold|cool|contrasty|sharp|light|(?:red|green|blue|yellow|orange|pink|purple|magenta|cyan)(?:dish|ish|y)?|reddish|yellowish|bluish|greenish|orangey|orangish|pinkish|purplish`;

// --- A clause that describes the picture, read word by word --------------------------------

const set = (list: string) => new Set(wordsOf(list));

/** Faults, each with the request that fixes it ('' : the adjustment reader turns "too dark" itself). */
const FIXES: ReadonlyArray<[string, string]> = [
  ['blurry|blurred|fuzzy|soft|unfocused', 'sharper'],
  ['out of focus', 'sharper'],
  ['grainy|noisy|speckled|speckly', 'less noise'],
  ['hazy|foggy|misty', 'less haze'],
  ['flat', 'more contrast'],
  ['washed out', 'more saturated'],
  // "it's blinding": too bright to look at.
  ['overexposed|light|blinding', 'darker'],
  ['over exposed', 'darker'],
  ['blown out', 'darker'],
  // "their faces look shadowy": in shadow, too little light.
  ['underexposed|shadowy', 'brighter'],
  ['under exposed', 'brighter'],
  ['oversaturated', 'less saturated'],
  ['over saturated', 'less saturated'],
  ['undersaturated', 'more saturated'],
  ['under saturated', 'more saturated'],
  ['crooked|tilted|skewed|slanted|askew|uneven', 'straighten'],
  // The lexicon's words with a direction of their own ("dark", "dull", "faded"): the adjustment reader fixes them.
  [['desaturated', ...Object.keys(DIRECTED)].join('|'), ''],
];
/** Said of the picture as it is, these are faults; the rest only with "too". */
const STATE = phrases(
  'out of focus',
  'washed|blown out',
  'over|under exposed|saturated',
  'blurry|blurred|fuzzy|soft|unfocused|grainy|noisy|speckled|speckly|hazy|foggy|misty|flat|overexposed|underexposed|oversaturated|undersaturated|crooked|tilted|skewed|slanted|askew|uneven|dark|dim|shadowy|desaturated|muted|dull|faded|blinding',
);
/** Faults no one asks for by their name alone ("make it washed out" does). */
const BARE = phrases('over|under exposed', 'over saturated', 'blown|washed out', 'overexposed|underexposed|oversaturated');
const CAST_BASES = wordsOf('red orange yellow green blue purple pink magenta cyan');
const CAST_FORMS: Record<string, string> = {
  reddish: 'red', redish: 'red', yellowish: 'yellow', yellowy: 'yellow', bluish: 'blue', blueish: 'blue', greenish: 'green', orangey: 'orange', orangish: 'orange', pinkish: 'pink', purplish: 'purple',
  ...Object.fromEntries(CAST_BASES.flatMap((color) => [[color, color], [`${color}dish`, color], [`${color}ish`, color], [`${color}y`, color]])),
};
wordClass('castcolor', Object.keys(CAST_FORMS));
const TOO_FAULT = phrases(
  ...STATE.map((phrase) => phrase.slots.map((slot) => [...slot.words].join('|')).join(' ')),
  'bright|saturated|colorful|vivid|vibrant|intense|punchy|warm|cold|cool|contrasty|sharp|light|@castcolor',
);

const DEGREE = '[slightly|strongly|quite|rather|pretty|kind|of|kinda|so|too|overly|far|a|bit|little|very|really|way|super|somewhat|extremely]*';
/** Degree words said with a fault ("too", "a bit", "really"): complaints.ts and text.ts read the same ones. */
export const DEGREE_WORDS = set('slightly strongly quite rather pretty kind of kinda so too overly far a bit little very really way super somewhat extremely');
// "the whole photo has a blue cast": the whole picture is the picture (it had been read as a cast to add).
const SUBJECT = `[the|this|my|that|your] [whole|entire] ${[...PICTURE_NOUNS, ...PICTURE_KINDS].join('|')}`;
const PRONOUN = 'it|this|everything';
const POSSESSIVE_IS = "image's|photo's|picture's|pic's|photograph's|shot's";
/** The picture as the subject of a description: "it's", "the photo looks", "this image seems". */
const SUBJECT_IS = phrases(
  `${SUBJECT} is looking`,
  `${SUBJECT} is|looks|seems|appears|feels`,
  `[the|this|my|that|your] ${POSSESSIVE_IS}`,
  `${PRONOUN} is looking`,
  `${PRONOUN} is|looks|seems|appears|feels`,
  "it's|this's|everything's",
);
const SAID_OF = [...SUBJECT_IS, ...phrases('its')];
/**
 * "the colours look faded": the fault is the colours', and said of them it may mean another edit
 * ("soft colours" are muted, not blurred). "the colours have faded": a state they came to is how
 * they are, as "are faded" is.
 */
const COLORS_ARE = phrases('[all] [the] color|colors look|are|seem|have|has');
const DESCRIBED = [...SAID_OF, ...phrases('looks|seems'), ...COLORS_ARE];
const HAS_CAST = phrases(
  `${SUBJECT} has|got [got] a|an|some|this ${DEGREE} @castcolor cast|tint|tone|hue|haze`,
  `${PRONOUN} has|got [got] a|an|some|this ${DEGREE} @castcolor cast|tint|tone|hue|haze`,
  `[the|this|my|that|your] ${POSSESSIVE_IS} got a|an|some|this ${DEGREE} @castcolor cast|tint|tone|hue|haze`,
  `it's|this's|everything's got a|an|some|this ${DEGREE} @castcolor cast|tint|tone|hue|haze`,
  `has [got] a|an|some|this ${DEGREE} @castcolor cast|tint|tone|hue|haze`,
  `there's a|an|some|this ${DEGREE} @castcolor cast|tint|tone|hue|haze`,
  `there is a|an|some|this ${DEGREE} @castcolor cast|tint|tone|hue|haze`,
  // "the lighting has a yellow cast to it", "there's a red cast from the lighting here": the light's cast is the picture's.
  `[the] lighting|light has|got [got] a|an|some|this ${DEGREE} @castcolor cast|tint|tone|hue [to] [it]`,
  `there's a|an|some|this ${DEGREE} @castcolor cast|tint|tone|hue from|in the lighting|light [here]`,
  `there is a|an|some|this ${DEGREE} @castcolor cast|tint|tone|hue from|in the lighting|light [here]`,
  '[a|an] @castcolor cast',
);
const TILTED = phrases(`${DEGREE} tilted|crooked|skewed|slanted|leaning [to] [the] [left|right] [slightly]`, `${DEGREE} tilted|crooked|skewed|slanted|leaning [to] [the] [left|right] a bit|little`);
/** Words of a statement that say the wished result, as people describe an edit ("the image is brighter"). */
const RESULT = set(
  `brighter darker lighter sharper clearer crisper warmer cooler colder bigger smaller larger wider taller narrower shorter smoother softer
   redder greener bluer yellower richer deeper punchier more less better made changed adjusted increased decreased reduced raised lowered
   brightened darkened lightened sharpened needed needs should must`,
);
/** A size said against another's ("half as big", "twice as large"): with no word of a wished result, how it is. */
const AS_SIZE = phrases('as big|large|wide|tall|high|small|long|short|narrow');
/** … and these that it is turned, which says neither how far nor which way back (straightening excepted). */
const TURNED = phrases('upside down', 'on its side', 'rotated|turned|flipped|sideways');

/** Words of a size or a shape: a dimension's name, or a number with a unit of size ("800px", "1080x1080", "16:9"). */
const SIZE_NAMES: ReadonlySet<string> = new Set(['wide', 'tall', 'high', 'long', 'width', 'height', 'pixels', 'px', 'resolution', 'megapixels', 'mp', 'square', 'landscape', 'portrait', 'hd', '4k', '1080p', '720p']);
function isSizeWord(word: string): boolean {
  if (SIZE_NAMES.has(word) || word.endsWith('px')) return true;
  const cut = Math.max(word.indexOf('x'), word.indexOf(':'));
  const digits = (part: string) => part.length > 0 && [...part].every((ch) => (ch >= '0' && ch <= '9') || ch === '.');
  return cut > 0 && digits(word.slice(0, cut)) && digits(word.slice(cut + 1));
}

/** The end of a phrase of the list at the start of the words, or -1. */
const startsWith = (tokens: readonly string[], list: Phrases): number => endAt(tokens, list, 0);

/** A cast's colour, from any of its forms. */
const castColor = (word: string) => CAST_FORMS[word] ?? word;

/** "too dark", "too blurry": each fault said with "too" as its fix (or left for the adjustment reader). */
function fixesOfToo(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const end = tokens[i] === 'too' ? startsWith(tokens.slice(i + 1), TOO_FAULT) : -1;
    if (end < 0) {
      out.push(tokens[i]!);
      continue;
    }
    const fault = tokens.slice(i + 1, i + 1 + end);
    // Said of the colours, the fault is theirs ("too soft colours" are muted): left to the adjustment reader.
    const fix = tokens.some((word) => word === 'color' || word === 'colors') ? ([fault.join('|'), ''] as const) : FIXES.find(([list]) => isWhole(fault, phrases(list)));
    if (fix && fix[1] === '') out.push('too', ...fault);
    else if (fix) {
      // "quite speckled" is less noise: a degree other than a step's own ("slightly") says nothing of the fix.
      while (out.length > 0 && DEGREE_WORDS.has(out.at(-1)!) && out.at(-1) !== 'slightly' && out.at(-1) !== 'strongly') out.pop();
      out.push(...wordsOf(fix[1]));
    }
    // The adjustment reader turns "too yellow" itself; "too yellowish" is said of that colour.
    else out.push('too', castColor(fault[0]!));
    i += end;
  }
  return out;
}

const TAILS = phrases(...DESCRIPTION_TAILS);
const TAILS_OF_TOO = phrases(...DESCRIPTION_TAILS, ...COMPARED_TAILS);
/** A description's words without those that only place it ("… right now", "… all over", "… for my taste"). */
function withoutTails(tokens: readonly string[]): readonly string[] {
  let words = tokens;
  for (let cut = true; cut; ) {
    cut = false;
    for (let i = Math.max(2, words.length - 4); i < words.length && !cut; i++) {
      if (endAt(words, words.includes('too') ? TAILS_OF_TOO : TAILS, i) === words.length) [words, cut] = [words.slice(0, i), true];
    }
  }
  return words;
}

/** A description "LEAD degrees FAULT [a bit]" of the whole clause: its degrees, its fault, whether "a bit" follows. */
function described(tokens: readonly string[], leads: Phrases | undefined, faults: Phrases): { degrees: string[]; fault: string[]; slight: boolean } | undefined {
  let at = leads ? startsWith(tokens, leads) : 0;
  if (at < 0) return undefined;
  const start = at;
  while (DEGREE_WORDS.has(tokens[at] ?? '') && startsWith(tokens.slice(at), faults) < 0) at++;
  const end = startsWith(tokens.slice(at), faults);
  if (end < 0) return undefined;
  const rest = tokens.slice(at + end).join(' ');
  if (!(rest === '' || rest === 'slightly' || rest === 'a bit' || rest === 'a little')) return undefined;
  return { degrees: tokens.slice(start, at), fault: tokens.slice(at, at + end), slight: rest !== '' };
}

/**
 * The request a clause that names a fault asks for; other clauses are returned as they are.
 * `statement`: the clause says how the picture is and asks for nothing, which is not acted on.
 */
export function asRequest(clause: string): { text: string; statement: boolean; fault: boolean; turned?: boolean; sized?: boolean } {
  const said = wordsOf(clause);
  const tokens = startsWith(said, DESCRIBED) > 0 ? withoutTails(said) : said;
  const request = (words: readonly string[], fault = true) => ({ text: words.join(' '), statement: false, fault });
  if (isWhole(tokens, HAS_CAST)) {
    const color = tokens.findLast((word) => CAST_FORMS[word] !== undefined)!;
    return request(['too', castColor(color)]);
  }
  const description = described(tokens, DESCRIBED, STATE) ?? described(tokens, SAID_OF, BARE) ?? described(tokens, undefined, BARE);
  if (!description) {
    const lead = startsWith(tokens, SAID_OF);
    const statement = lead > 0 && lead < tokens.length ? tokens.slice(lead) : undefined;
    if (statement) {
      // "it's tilted to the left": straightened, by the measured angle (a given one is read by the rule).
      if (isWhole(statement, TILTED)) return request(['straighten']);
      const result = statement.some((word) => RESULT.has(word)) || find(statement, phrases('to be')) !== undefined;
      const hasDigit = statement.some((word) => [...word].some((ch) => ch >= '0' && ch <= '9'));
      // "it's 3000 wide", "it is 1080x1080 now", "it's 16:9": its size or shape as it is, said (read
      // as a request, it was resized to the size it has before the one asked).
      const sized = hasDigit && statement.some(isSizeWord);
      const hasToo = statement.some((word, i) => word === 'too' && startsWith(statement.slice(i + 1), TOO_FAULT) > 0);
      // "it is half as big", "the photo is twice as large": its size measured against another, said, not asked.
      const compared = !result && find(statement, AS_SIZE) !== undefined;
      // "it's sideways", "it's upside down": said, and mended by a turn asked beside it (`turned`).
      const turned = statement[0] !== 'not' && find(statement, TURNED) !== undefined;
      // The size as it is is context for a request beside it ("it's 3000 wide, make it 1500 wide").
      if (sized && !result && statement[0] !== 'not') return { text: clause, statement: true, fault: false, sized: true };
      if (statement[0] === 'not' || turned || compared || !(result || hasDigit || hasToo)) return { text: clause, statement: true, fault: false, turned };
    }
  }
  // "the colours are warm", "the colors look vivid": how the colours are, with no fault's word
  // ("dull"), no "too" and no wished result ("warmer"), is said, not asked (read, they had been
  // made warmer).
  const colorsLead = startsWith(tokens, COLORS_ARE);
  if (!description && colorsLead > 0 && colorsLead < tokens.length) {
    const state = tokens.slice(colorsLead);
    const asked = state.some((word) => RESULT.has(word) || word === 'too' || [...word].some((ch) => ch >= '0' && ch <= '9'));
    if (!asked && tokens[colorsLead - 1] !== 'have' && tokens[colorsLead - 1] !== 'has') return { text: clause, statement: true, fault: false };
  }
  // The colours' fault is left to the adjustment reader with the colours named ("too faded colors":
  // more vivid), never the picture's fix ("the colours look too soft" had sharpened it).
  if (description && startsWith(tokens, COLORS_ARE) > 0) {
    return request([...(description.slight ? ['slightly'] : []), ...description.degrees.filter((word) => word !== 'too'), 'too', ...description.fault, 'colors']);
  }
  // "underexposed a bit": the degree said after the fault is its degree too.
  const words = description ? [...(description.slight ? ['slightly'] : []), ...description.degrees.filter((word) => word !== 'too'), 'too', ...description.fault] : tokens;
  const fixed = fixesOfToo(words);
  // A fault said ("it's grainy", "too dark") rather than an edit asked ("brighten it").
  return request(fixed, description !== undefined || words.includes('too') || fixed.join(' ') !== words.join(' '));
}

/**
 * "it looks washed out and flat", "too dark and grainy", "too dark too blurry": several faults
 * in one description, each its own clause ("too washed out, too flat"), so that none is read as a
 * request for more of it. Run on the prompt before it is cut into clauses.
 */
const FAULT_LIST = new RegExp(
  String.raw`(^|[.,;!?]\s*)((?:${SUBJECT_PATTERN}${COPULA}|it[’']s|its|looks|seems)\s+${DEGREES}(?:${STATE_FAULTS})|too\s+(?:${TOO_FAULTS}))((?:\s*(?:,|and|also|&|plus|too)\s+(?:also\s+)?${DEGREES}(?:too\s+)?(?:${TOO_FAULTS}))+)(?=\s*(?:[.,;!?]|$))`,
  'gi',
);
const LISTED_FAULT = new RegExp(String.raw`(${DEGREES})(?:too\s+)?(${TOO_FAULTS})\s*$`, 'i');

/** "flat and washed out", "dark, grainy": faults listed with no subject are a description too. */
const BARE_FAULT_LIST = new RegExp(
  String.raw`(^|[.,;!?]\s*)(${DEGREES}(?:${STATE_FAULTS}))((?:\s*(?:,|and|&)\s+${DEGREES}(?:${STATE_FAULTS}))+)(?=\s*(?:[.,;!?]|$))`,
  'gi',
);

export function faultsAsClauses(prompt: string): string {
  const asTooFault = (part: string) => {
    const m = LISTED_FAULT.exec(part);
    return m ? `${m[1]!.replace(/\btoo\s+/gi, '')}too ${m[2]}` : undefined;
  };
  const each = (_match: string, lead: string, first: string, rest: string, bare: boolean) => {
    const faults = rest
      .split(/\s*(?:,|\band\b|\balso\b|&|\bplus\b)\s+|\s+(?=too\s)/i)
      .map(asTooFault)
      .filter((fault) => fault !== undefined);
    return `${lead}${bare ? (asTooFault(first) ?? first) : first}, ${faults.join(', ')}`;
  };
  return prompt
    .replace(FAULT_LIST, (match, lead: string, first: string, rest: string) => each(match, lead, first, rest, false))
    .replace(BARE_FAULT_LIST, (match, lead: string, first: string, rest: string) => each(match, lead, first, rest, true));
}
