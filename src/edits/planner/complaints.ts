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
const DEGREES = String.raw`(?:(?:slightly|strongly|quite|rather|pretty|kind\s+of|kinda|so|too|overly|far|a\s+bit)\s+)*`;

/** Faults a plain description names, each with the request that fixes it. */
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
  [/^(?:dark|bright|dim|saturated|desaturated|muted|warm|cold|cool|contrasty|sharp)$/, ''],
];
const FAULT_WORDS = String.raw`blurry|blurred|fuzzy|soft|out\s+of\s+focus|unfocused|grainy|noisy|speckled|speckly|hazy|foggy|misty|flat|washed\s+out|over[\s-]?exposed|blown\s+out|under[\s-]?exposed|over[\s-]?saturated|under[\s-]?saturated|crooked|tilted|skewed|slanted|askew|uneven|dark|bright|dim|saturated|desaturated|muted|warm|cold|cool|contrasty|sharp`;

/** "it's a bit dark", "the photo looks flat": the whole clause describes the picture. */
const DESCRIPTION = new RegExp(String.raw`^(?:${SUBJECT}${COPULA}|its)\s+(${DEGREES})(${FAULT_WORDS})$`);
/** "overexposed", "washed out": a fault no one asks for by its name alone ("make it washed out" does). */
const BARE_FAULT = new RegExp(String.raw`^(?:(?:${SUBJECT}${COPULA}|its)\s+)?(${DEGREES})(over[\s-]?exposed|under[\s-]?exposed|over[\s-]?saturated|blown\s+out|washed\s+out)$`);
/** "too blurry", "too yellowish": a fault named with "too", anywhere in the clause. */
const TOO = new RegExp(String.raw`\btoo\s+(${FAULT_WORDS}|light|(?:red|green|blue|yellow|orange|pink|purple|magenta|cyan)(?:dish|ish|y)?|reddish|yellowish|bluish|greenish|orangey|orangish|pinkish|purplish)\b`, 'g');

const CAST_COLORS: Record<string, string> = { reddish: 'red', redish: 'red', yellowish: 'yellow', yellowy: 'yellow', bluish: 'blue', blueish: 'blue', greenish: 'green', orangey: 'orange', orangish: 'orange', pinkish: 'pink', purplish: 'purple' };

/** The request a clause that names a fault asks for; other clauses are returned as they are. */
export function asRequest(clause: string): string {
  const described = DESCRIPTION.exec(clause) ?? BARE_FAULT.exec(clause);
  const text = described ? `${described[1]!.replace(/\btoo\s+/g, '')}too ${described[2]}` : clause;
  return text.replace(TOO, (whole, fault: string) => {
    const fix = FAULTS.find(([words]) => words.test(fault));
    if (fix) return fix[1] === '' ? whole : fix[1];
    // The adjustment reader turns "too yellow" itself; "too yellowish" is said of that colour.
    return `too ${CAST_COLORS[fault] ?? fault.replace(/(?:dish|ish|y)$/, '')}`;
  });
}
