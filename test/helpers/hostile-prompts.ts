/**
 * Prompts made to be expensive to plan, each at the 4,000-character limit: long runs of digits,
 * quotes, repeated words and units, long unbroken words, separators, half-open brackets. The
 * planner must answer each (plan or refuse) in milliseconds; the bench reports the worst time.
 */
export const PROMPT_LIMIT = 4000;

const fill = (unit: string, prefix = '') => (prefix + unit.repeat(Math.ceil(PROMPT_LIMIT / unit.length))).slice(0, PROMPT_LIMIT);

export function hostilePrompts(): Array<{ name: string; prompt: string }> {
  return [
    { name: 'digits', prompt: fill('1') },
    { name: 'digits after a verb', prompt: fill('9', 'resize to ') },
    { name: 'spaced digits', prompt: fill('1 ') },
    { name: 'digit x digit', prompt: fill('1x1') },
    { name: 'digits by digits', prompt: fill('12 by ') },
    { name: 'double quotes', prompt: fill('"') },
    { name: 'single quotes', prompt: fill("'") },
    { name: 'curly quotes', prompt: fill('“') },
    { name: 'guillemets', prompt: fill('«') },
    { name: 'very very', prompt: fill('very ') },
    { name: 'very, very', prompt: fill('very, ') },
    { name: 'and and', prompt: fill('and ') },
    { name: 'brighter brighter', prompt: fill('brighter ') },
    { name: 'a bit more', prompt: fill('a bit more ') },
    { name: 'units', prompt: fill('10px ') },
    { name: 'percents', prompt: fill('10% ') },
    { name: 'degrees', prompt: fill('90 degrees ') },
    { name: 'number words', prompt: fill('one hundred and ') },
    { name: 'colours', prompt: fill('light blue ') },
    { name: 'rgb(', prompt: fill('rgb(1,') },
    { name: 'hex', prompt: fill('#ff00ff ') },
    { name: 'one long word', prompt: fill('a') },
    { name: 'a long near-typo', prompt: fill('brightnes') },
    { name: 'commas', prompt: fill(',') },
    { name: 'periods', prompt: fill('.') },
    { name: 'newlines', prompt: fill('\n') },
    { name: 'spaces', prompt: fill(' ', 'rotate 90') },
    { name: 'valid edits repeated', prompt: fill('rotate 90, ') },
    { name: 'valid adjustments repeated', prompt: fill('increase the brightness and ') },
    { name: 'text words', prompt: fill('add text ') },
    { name: 'texts one after another', prompt: fill('add text hello ') },
    { name: 'looks after an edit', prompt: fill('bringing out the shadows ', 'raise the contrast ') },
    { name: 'remarks about a slip', prompt: fill('oops mistake brighten it hit by mistake error, ') },
    { name: 'filters that make', prompt: fill('add a filter that makes ') },
    { name: 'file ids', prompt: fill('file_01JCABCDEFGHJKMNPQRSTVWXYZ ') },
    { name: 'unicode', prompt: fill('é🙂') },
    { name: 'mixed punctuation', prompt: fill('(["\'«,.;') },
    { name: 'colour pairs', prompt: fill('red to blue and ', 'change ') },
    { name: 'colour words', prompt: fill('red blue green ', 'change ') },
    { name: 'instead of', prompt: fill('white instead of ', 'make it ') },
    { name: 'parts of the picture', prompt: fill('the girl and the background ', 'brighten ') },
    { name: 'faults and faults', prompt: fill(' and dark', "it's dark") },
    { name: 'statements', prompt: fill("it's not too dark, ") },
    { name: 'limits', prompt: fill('brighten it but not too much ') },
    { name: 'too, too', prompt: fill(' too', 'too dark') },
    { name: 'numbered list', prompt: fill('1. make it brighter 2. ') },
    // As many clauses as a prompt may have (PLANNER_LIMITS.maxClauses), each read beside the next.
    { name: 'sixty texts with places', prompt: Array.from({ length: 60 }, () => 'add text hello wonderful wide world at the top left in red').join(' and ').padEnd(PROMPT_LIMIT, ' ').slice(0, PROMPT_LIMIT) },
    { name: 'sixty lists of verbs', prompt: Array.from({ length: 60 }, () => 'blur remove zoom sharpen brighten darken rotate crop flip mirror').join(' and ').slice(0, PROMPT_LIMIT) },
    { name: 'verbs run together', prompt: fill(`${'blur remove '.repeat(19)}zoom, `) },
    // Fifty-one clauses of content with a number in each, under the clause limit: with a generative
    // provider each is read alone, joined to its neighbours, in pieces and with its number changed
    // before it becomes a generate step, until the edits' limit refuses the prompt.
    { name: 'things replaced one after another', prompt: fill('replace the old wooden chair by the window with a small green plant in 3 pots, ') },
    // Colons read by what stands before each (text.ts, colonsRead): prefaces, labels, a text after one.
    { name: 'colons', prompt: fill('edits: brightness: +20%; add the caption: step 2: see you soon: ') },
    { name: 'long unknown words', prompt: fill(`${Array.from({ length: 39 }, (_, i) => `brightnesz${'qxjv'[i % 4]!.repeat(20)}${i}`).join(' ')}, `) },
  ];
}
