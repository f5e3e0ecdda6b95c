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

/** The picture as the subject of a description: "it's", "the photo looks", "this image seems". */
const SUBJECT = String.raw`(?:(?:(?:the|this|my|that|your)\s+)?(?:image|photo|picture|pic|photograph|shot)|it|this|everything)`;
const COPULA = String.raw`(?:\s+(?:is|looks|seems|appears|feels|is\s+looking)|'s)`;
const DEGREES = String.raw`(?:(?:slightly|strongly|quite|rather|pretty|kind\s+of|kinda|so|too|overly|far|a\s+bit|a\s+little(?:\s+bit)?|little|very|really|way|super|somewhat|extremely)\s+)*`;

/** Faults, each with the request that fixes it. */
const FAULTS: [RegExp, string][] = [
  [/^(?:blurry|blurred|fuzzy|soft|out\s+of\s+focus|unfocused)$/, 'sharper'],
  [/^(?:grainy|noisy|speckled|speckly)$/, 'less noise'],
  [/^(?:hazy|foggy|misty)$/, 'less haze'],
  [/^(?:flat)$/, 'more contrast'],
  [/^(?:washed\s+out)$/, 'more saturated'],
  [/^(?:over[\s-]?exposed|blown\s+out|light)$/, 'darker'],
  [/^(?:under[\s-]?exposed)$/, 'brighter'],
  [/^(?:over[\s-]?saturated)$/, 'less saturated'],
  [/^(?:under[\s-]?saturated)$/, 'more saturated'],
  [/^(?:crooked|tilted|skewed|slanted|askew|uneven)$/, 'straighten'],
  // The adjustment reader turns these itself after "too" ("too dark" is brighter).
  [/^(?:dark|bright|dim|saturated|colorful|colourful|vivid|vibrant|intense|punchy|desaturated|muted|warm|cold|cool|contrasty|sharp)$/, ''],
];
/**
 * Faults a plain description names ("it's a bit dark", "the photo looks flat"). Words that may as
 * well describe a wished or a good picture ("it's bright", "the photo is warm", "it's sharp") are
 * faults only with "too".
 */
const STATE_FAULTS = String.raw`blurry|blurred|fuzzy|soft|out\s+of\s+focus|unfocused|grainy|noisy|speckled|speckly|hazy|foggy|misty|flat|washed\s+out|over[\s-]?exposed|blown\s+out|under[\s-]?exposed|over[\s-]?saturated|under[\s-]?saturated|crooked|tilted|skewed|slanted|askew|uneven|dark|dim|desaturated|muted`;
const TOO_FAULTS = String.raw`${STATE_FAULTS}|bright|saturated|colorful|colourful|vivid|vibrant|intense|punchy|warm|cold|cool|contrasty|sharp|light|(?:red|green|blue|yellow|orange|pink|purple|magenta|cyan)(?:dish|ish|y)?|reddish|yellowish|bluish|greenish|orangey|orangish|pinkish|purplish`;

/** "it's a bit dark", "the photo looks flat": the whole clause describes the picture. */
const DESCRIPTION = new RegExp(String.raw`^(?:${SUBJECT}${COPULA}|its|looks|seems|(?:the\s+|all\s+the\s+)?colou?rs?\s+(?:look|are|seem))\s+(${DEGREES})(${STATE_FAULTS})(?:\s+(a\s+bit|a\s+little|slightly))?$`);
/** "overexposed", "washed out": a fault no one asks for by its name alone ("make it washed out" does). */
const BARE_FAULT = new RegExp(String.raw`^(?:(?:${SUBJECT}${COPULA}|its)\s+)?(${DEGREES})(over[\s-]?exposed|under[\s-]?exposed|over[\s-]?saturated|blown\s+out|washed\s+out)$`);
/** "too blurry", "too yellowish": a fault named with "too", anywhere in the clause. */
const TOO = new RegExp(String.raw`\btoo\s+(${TOO_FAULTS})\b`, 'g');
/** Whether a clause names a fault with "too" (the global pattern keeps its place between calls). */
const hasToo = (text: string) => new RegExp(TOO.source).test(text);
/** Any other statement about the picture: "it's a black and white photo", "its not sharp". */
const STATEMENT = new RegExp(String.raw`^(?:${SUBJECT}${COPULA}|its)\s+(.+)$`);
/** … of which these say the wished result, as people describe an edit ("the image is brighter"). */
const RESULT = /\b(?:brighter|darker|lighter|sharper|clearer|crisper|warmer|cooler|colder|bigger|smaller|larger|wider|taller|narrower|shorter|smoother|softer|redder|greener|bluer|yellower|richer|deeper|punchier|more|less|better|made|changed|adjusted|increased|decreased|reduced|raised|lowered|brightened|darkened|lightened|sharpened|needed|needs|should|must|to\s+be)\b/;
/** … and these that it is turned, which says neither how far nor which way back (straightening excepted). */
const TURNED = /^(?:\S+\s+)*?(?:rotated|turned|flipped|upside\s+down|sideways|on\s+its\s+side)\b/;
const TILTED = new RegExp(String.raw`^${DEGREES}(?:tilted|crooked|skewed|slanted|leaning)(?:\s+(?:to\s+(?:the\s+)?)?(?:left|right))?(?:\s+(?:a\s+bit|a\s+little|slightly))?$`);

const CAST_COLORS: Record<string, string> = { reddish: 'red', redish: 'red', yellowish: 'yellow', yellowy: 'yellow', bluish: 'blue', blueish: 'blue', greenish: 'green', orangey: 'orange', orangish: 'orange', pinkish: 'pink', purplish: 'purple' };

/** "it has a yellow cast", "there's a green tint": that colour is the fault. */
const CAST_COLOR = String.raw`(?:red|orange|yellow|green|blue|purple|pink|magenta|cyan)(?:dish|ish|y)?|reddish|yellowish|bluish|greenish|orangey|orangish|pinkish|purplish`;
const HAS_CAST = new RegExp(String.raw`^(?:${SUBJECT}(?:\s+has(?:\s+got)?|'s\s+got|\s+got)|has(?:\s+got)?|there(?:'s|\s+is))\s+(?:a|an|some|this)\s+(?:${DEGREES})(${CAST_COLOR})\s+(?:cast|tint|tone|hue|haze)$`);
/** "yellow cast" alone: a cast is a fault (a wash someone wants is a tint: "yellow tint" stays one). */
const BARE_CAST = new RegExp(String.raw`^(?:an?\s+)?(${CAST_COLOR})\s+cast$`);
const castColor = (word: string) => CAST_COLORS[word] ?? word.replace(/(?:dish|ish|y)$/, '');

/**
 * The request a clause that names a fault asks for; other clauses are returned as they are.
 * `statement`: the clause says how the picture is and asks for nothing, which is not acted on.
 */
export function asRequest(clause: string): { text: string; statement: boolean } {
  const request = (text: string) => ({ text, statement: false });
  const cast = HAS_CAST.exec(clause) ?? BARE_CAST.exec(clause);
  if (cast) return request(`too ${castColor(cast[1]!)}`);
  const described = DESCRIPTION.exec(clause) ?? BARE_FAULT.exec(clause);
  const statement = described ? undefined : STATEMENT.exec(clause)?.[1];
  if (statement !== undefined) {
    // "it's tilted to the left": straightened, by the measured angle (a given one is read by the rule).
    if (TILTED.test(statement)) return request('straighten');
    if (/^not\b/.test(statement) || TURNED.test(statement) || !(RESULT.test(statement) || /\d/.test(statement) || hasToo(statement))) return { text: clause, statement: true };
  }
  // "underexposed a bit": the degree said after the fault is its degree too.
  const text = described ? `${described[3] ? 'slightly ' : ''}${described[1]!.replace(/\btoo\s+/g, '')}too ${described[2]}` : clause;
  return request(
    text.replace(TOO, (whole, fault: string) => {
      const fix = FAULTS.find(([words]) => words.test(fault));
      if (fix) return fix[1] === '' ? whole : fix[1];
      // The adjustment reader turns "too yellow" itself; "too yellowish" is said of that colour.
      return `too ${castColor(fault)}`;
    }),
  );
}

/**
 * "it looks washed out and flat", "too dark and grainy", "too dark too blurry": several faults
 * in one description, each its own clause ("too washed out, too flat"), so that none is read as a
 * request for more of it. Run on the prompt before it is cut into clauses.
 */
const FAULT_LIST = new RegExp(
  String.raw`(^|[.,;!?]\s*)((?:${SUBJECT}${COPULA}|it[’']s|its|looks|seems)\s+${DEGREES}(?:${STATE_FAULTS})|too\s+(?:${TOO_FAULTS}))((?:\s*(?:,|and|also|&|plus|too)\s+(?:also\s+)?${DEGREES}(?:too\s+)?(?:${TOO_FAULTS}))+)(?=\s*(?:[.,;!?]|$))`,
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
