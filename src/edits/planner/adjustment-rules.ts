import type { EditOperation } from '../plan.ts';
import { isFiller, quantityOf, type Clause, type Level } from './clause.ts';
import { phrases } from './phrases.ts';
import { namedColor } from './colors.ts';
import {
  COLOR_NOUNS,
  LAID_LOOK_NOUNS,
  AMOUNT_STATES,
  AMOUNT_VERBS,
  AS_IT_IS,
  CHANNEL_COLORS,
  COLOR_NOUN_FORMS,
  COMPARATIVE_COLORS,
  DIRECTED,
  DOWN,
  EXCESS_WORDS,
  NEUTRAL,
  NOUNS,
  OBJECT_LEADS,
  REDUCED_QUALITY_HEADS,
  SHADE_INTENSIFIERS,
  TAKING_AWAY,
  OPPOSITES,
  PARTITIVES,
  ADDING_VERBS,
  EXPOSURE_STOPS,
  LIGHT_HARDNESS,
  LIGHT_NOUNS,
  LOOK_REDUCERS,
  STEP_NOUNS,
  STEPS_NOUNS,
  COUNT_WORDS,
  ESTIMATE_WORDS,
  RANGE_WORDS,
  STEP_DEGREES,
  UNSURE_VERBS,
  FADING_TO,
  UP,
  type Attribute,
  type Direction,
} from './lexicon.ts';
import type { Rule } from './rule.ts';
import { OPERATIONS, STEPS as OPERATION_STEPS } from '../operations/registry.ts';

/** The operations' own names ("sharpen", "blur"). */
const OPERATION_NAMES: ReadonlySet<string> = new Set(OPERATIONS.map((entry) => entry.name));

/**
 * Adjustments read by what a clause is made of, in any word order: an attribute (brightness,
 * contrast, saturation, sharpness, blur, temperature, one colour), a direction (a verb such as
 * increase/lower/remove, a comparative such as "brighter", or "more"/"less"), a degree
 * ("slightly", "a lot", "by 20%") and words that carry nothing ("should be", "needs to be",
 * "make", "the"). "the contrast needs to be turned up", "increase the image brightness" and
 * "make the colours greener" are all read the same way. A word of any other kind (a region such
 * as "the sky", an object) and the reading does not apply: the clause is left to the other rules,
 * or refused.
 */

const STEPS: Record<Exclude<Attribute, 'channel'>, Record<Level, number>> = {
  brightness: { slight: 1.1, normal: 1.25, strong: 1.6 },
  contrast: { slight: 1.15, normal: 1.35, strong: 1.7 },
  saturation: { slight: 1.2, normal: 1.5, strong: 2 },
  sharpness: { slight: 0.5, normal: 1, strong: 2 },
  blur: { slight: 1, normal: 3, strong: 8 },
  temperature: { slight: 0.3, normal: 0.6, strong: 1 },
  gamma: OPERATION_STEPS.gamma!.steps,
};
const CHANNEL_STEP: Record<Level, number> = { slight: 0.08, normal: 0.15, strong: 0.3 };

const ONE_STEP = phrases(`1|a ${[...STEP_NOUNS].join('|')}`);

/**
 * "two shades darker", "about 5 or 6 levels lighter", "a couple of notches brighter": a count of
 * steps (a number, a range of two, a count word), with an estimate before it, taken from the
 * clause; its degree by how many. Undefined, and nothing taken, when the clause says none.
 */
function stepsSaid(c: Clause): Level | undefined {
  const all = c.words();
  const noun = all.findIndex((word) => STEPS_NOUNS.has(word) || STEP_NOUNS.has(word));
  if (noun < 1) return undefined;
  let start = noun;
  if (all[start - 1] === 'of' && all[start - 2] === 'couple') start--;
  const counted = (word: string | undefined) => {
    const q = quantityOf(word ?? '');
    return q !== undefined && q.integer && !q.signed && q.unit === '' ? q.value : COUNT_WORDS.get(word ?? '');
  };
  let count = counted(all[start - 1]);
  if (count === undefined || count < 1) return undefined;
  start--;
  // "5 or 6", "3 to 4": the larger of the two.
  const other = RANGE_WORDS.has(all[start - 1] ?? '') ? counted(all[start - 2]) : undefined;
  if (other !== undefined && other >= 1) [count, start] = [Math.max(count, other), start - 2];
  if (all[start] === 'couple' && all[start - 1] === 'a') start--;
  if (ESTIMATE_WORDS.has(all[start - 1] ?? '')) start--;
  // One step is "one shade"; the singular noun after a count of more is no step phrase.
  if (STEP_NOUNS.has(all[noun]!) && count !== 1) return undefined;
  c.remove(start, noun + 1);
  return count <= STEP_DEGREES.slight ? 'slight' : count <= STEP_DEGREES.normal ? 'normal' : 'strong';
}

/**
 * "one stop brighter", "half a stop darker", "by 2 stops", "about 1.5 stops": how many stops of
 * light, taken from the clause with the words of its count. Undefined, and nothing taken, when the
 * clause names no stop or gives it no count.
 */
function stopsSaid(c: Clause): number | undefined {
  const all = c.words();
  const noun = all.findIndex((word) => EXPOSURE_STOPS.has(word));
  if (noun < 1) return undefined;
  const before = (k: number) => all[noun - k] ?? '';
  // A count ("2 stops"), a share of one ("a half stop" and "half a stop", spelled "50%" by then),
  // or one ("a stop").
  const count = (word: string) => {
    const q = quantityOf(word);
    return !q || q.signed || q.value <= 0 ? undefined : q.unit === '' ? q.value : q.unit === '%' && q.value < 100 ? q.value / 100 : undefined;
  };
  let [stops, start] = [count(before(1)), noun - 1];
  if (stops === undefined && before(1) === 'a') [stops, start] = count(before(2)) !== undefined && count(before(2))! < 1 ? [count(before(2)), noun - 2] : [1, noun - 1];
  else if (stops === undefined && before(1) === 'one') stops = 1;
  if (stops === undefined) return undefined;
  if (ESTIMATE_WORDS.has(all[start - 1] ?? '') || all[start - 1] === 'by') start--;
  c.remove(start, noun + 1);
  return stops;
}

/** "less bright" is darker: these turn a word that has its own direction. */
const TURNING = new Set(['less', 'not', 'fewer']);
/** "warm up", "cool down", "darken up": particles that add nothing to a word with its own direction. */
const PARTICLES = new Set(['up', 'down']);

interface Reading {
  /** `reduced`: a word with its own direction that is the object of a reducing verb ("remove the dull look"): it goes the other way. */
  attributes: Array<{ attribute: Attribute; direction?: Direction; channel?: string; opposite?: boolean; reduced?: boolean; at?: number }>;
  direction?: Direction;
  turned: boolean;
  /** Where the first turning word stands: it turns the words after it ("less bright"), not before ("brighten it less"). */
  turnedAt?: number;
  particle?: Direction;
  fixesCast?: boolean;
  conflicting: boolean;
}

/** Whether a word names an adjustment's attribute ("brightness", "contrast", "warmth"). */
export const isAttributeNoun = (word: string): boolean => NOUNS[word] !== undefined || OPPOSITES[word] !== undefined;

/** Whether a word is about light ("dark", "brighter", "exposure"). */
export const isLightWord = (word: string): boolean => (NOUNS[word] ?? OPPOSITES[word] ?? DIRECTED[word]?.[0]) === 'brightness';

/** Light of a colour ("filter out the red light") is that colour's cast, not brightness. */
const COLOR_LIGHT = new Set(['light', 'lights', 'glow', 'cast']);

/**
 * Brightness words said of the colours ("make the colours brighter", "brighten the colours") ask
 * for more vivid colours, not more light, unless vividness is asked for too; "lighten the
 * contrast" asks for less of it.
 */
export const VIVID_WHEN_COLORS: ReadonlySet<string> = new Set(['brighter', 'brighten', 'bright']);
/** Words before a quality that make it describe the noun after it ("the bright colours", "its dull colours"). */
const ATTRIBUTIVE_LEADS = new Set(['the', 'these', 'those', 'its', 'all', 'any']);
/** Words inside a run of qualities before the colours ("the really bright and warm colours"). */
const QUALITY_RUN = new Set(['and', ...SHADE_INTENSIFIERS]);
/**
 * Whether the quality at i is one of a run between an article and the colours ("mute the bright
 * colours", "mute the really bright, warm colours"), with the verb's edit said outside the run.
 */
function namesWhichColors(words: string[], i: number): boolean {
  const inRun = (word: string) => DIRECTED[word] !== undefined || QUALITY_RUN.has(word);
  let from = i;
  while (from > 0 && inRun(words[from - 1]!)) from--;
  let to = i;
  while (to + 1 < words.length && inRun(words[to + 1]!)) to++;
  if (!COLOR_NOUNS.has(words[to + 1] ?? '') || !ATTRIBUTIVE_LEADS.has(words[from - 1] ?? '')) return false;
  // Two qualities there ("tone down the bright, warm colours") are of the colours whatever the verb.
  const qualities = words.slice(from, to + 1).filter((word) => DIRECTED[word] !== undefined).length;
  return qualities > 1 || words.some((other, j) => (j < from || j > to) && DIRECTED[other] !== undefined);
}
/** "softer colours" are muted ones, not a blur; "faded colours" muted ones, not less contrast. */
const MUTED_WHEN_COLORS = new Set(['softer', 'soften', 'soft', 'fade', 'faded']);
const SOFTENING = new Set(['lighten', 'lighter', 'ease']);
const TONE_NOUNS: ReadonlySet<string> = new Set(['tone', 'tones']);
/** Whether the word at i is said of the contrast right after it ("lighten the contrast"). */
const ofContrastNext = (words: string[], i: number) => {
  let next = i + 1;
  while (words[next] === 'up' || words[next] === 'the') next++;
  // A word that names an operation of its own ("sharpen") is the contrast's verb only with its
  // object said as one ("sharpen the contrast"): in a list run together ("zoom in sharpen
  // contrast") it may as well be that operation, and the two are not read together.
  if (OPERATION_NAMES.has(words[i]!) && next === i + 1) return false;
  return NOUNS[words[next] ?? ''] === 'contrast';
};
/** "sharpen the contrast", "deepen the contrast", "brighten up" or "darken the contrast": more of it. */
const SHARPENING = new Set(['sharpen', 'sharper', 'deepen', 'deeper', 'brighten', 'darken']);

/** Verbs that, after an attribute, start a request of their own. */
const SECOND_VERBS = new Set(['adjust', 'change', 'set', 'edit', 'fix', 'modify', 'tweak']);

/** "correct the yellow", "fix the blue cast": said of one colour, less of it; said of anything else, nothing read here. */
const CAST_FIXES = new Set(['correct', 'fix', 'neutralize']);

/** Words that point at some things in the picture ("make these brighter"): not the whole image. */
const POINTING = new Set(['these', 'those', 'one', 'ones', 'them', 'they', 'that']);

/**
 * Whether the word at i is the object of a reducing verb or of "down" before it, with only
 * articles and degree words between ("remove the washed out look", "tone down the vivid colours",
 * "reduce the overly dark look"): what is reduced is that quality. A reducing word after it
 * ("cool it down", "darken it a bit less") or one joined by "and" ("soften and brighten") is not its verb.
 */
function isReducedObject(words: string[], i: number): boolean {
  let at = i - 1;
  while (at >= 0 && OBJECT_LEADS.has(words[at]!)) at--;
  if (at < 0 || !DOWN.has(words[at]!) || AMOUNT_STATES.has(words[at]!)) return false;
  // What is taken away may be a thing the quality describes ("remove the bright light"), unlike
  // what is toned down: then only a look or the colours as a whole make it the quality. The noun
  // is looked for past the particle of a two-word quality ("washed out", "blown out").
  const head = words[i + 1] === 'out' ? words[i + 2] : words[i + 1];
  return !TAKING_AWAY.has(words[at]!) || head === undefined || REDUCED_QUALITY_HEADS.has(head);
}

/** Whether the word at i follows "a" or "an", across the words describing it ("a bright light", "a warm white light"). */
function afterArticle(words: string[], i: number): boolean {
  let at = i - 1;
  while (at >= 0 && (DIRECTED[words[at]!] !== undefined || namedColor(words[at]!) !== undefined)) at--;
  return words[at] === 'a' || words[at] === 'an';
}

/** Nouns of a colour given to the picture, which say no colour of their own. */
const COLOR_HEADS: ReadonlySet<string> = new Set(['tint', 'cast', 'hue', 'wash']);

function read(words: string[]): Reading | undefined {
  if (words.some((word) => POINTING.has(word))) return undefined;
  // "make the tint lighter", "lighten the filter": the strength of a look laid over the picture,
  // which one not said; not the picture's light. With its colour ("reduce the yellow tint") it is
  // that colour.
  // "softer tones", "make the tones softer": softness said of the tones is of colour or contrast
  // (muted, or gentler), which is not said; never a blur, as it had been read.
  if (words.some((word) => TONE_NOUNS.has(word)) && words.some((word) => MUTED_WHEN_COLORS.has(word))) return undefined;
  // Only the look there is ("the tint"), with the quality said of it next to it: "add a brighter
  // filter" asks for a bright look.
  const ofLaidLook = (word: string, i: number) => LAID_LOOK_NOUNS.has(word) && words[i - 1] === 'the' && (DIRECTED[words[i + 1] ?? ''] !== undefined || DIRECTED[words[i - 2] ?? ''] !== undefined);
  if (words.some(ofLaidLook) && !words.some((word) => CHANNEL_COLORS.has(word) || namedColor(word) !== undefined)) return undefined;
  // "soften and dim it", "darken and soften the backdrop": the blur and the quality are two edits.
  const joined = (i: number, j: number) => words.slice(Math.min(i, j), Math.max(i, j)).includes('and');
  if (words.some((word, i) => LOOK_REDUCERS.has(word) && words.some((other, j) => DIRECTED[other] !== undefined && joined(i, j)))) return undefined;
  // "add a pink [filter]": a colour after an article names a thing, not more of the colour.
  if (words.some((word, i) => CHANNEL_COLORS.has(word) && (words[i - 1] === 'a' || words[i - 1] === 'an'))) return undefined;
  // "add a tint and make it lighter": a colour's noun with no colour, right after an article, is
  // a thing asked for (which tint?), never a word of the quality beside it (the tint was dropped).
  if (words.some((word, i) => COLOR_HEADS.has(word) && (words[i - 1] === 'a' || words[i - 1] === 'an'))) return undefined;
  // "add a light": an attribute's noun after an article is a thing (a lamp), not an amount of it ("some light").
  if (words.some((word, i) => NOUNS[word] !== undefined && afterArticle(words, i))) return undefined;
  // "dark to light", "change it from dull to bright": what it is and what it should be, the
  // ways opposite on either side of "to" (read word by word, the first won): asked.
  const to = words.indexOf('to');
  const ways = (part: string[]) => new Set(part.flatMap((word) => (DIRECTED[word] ? [DIRECTED[word][1]] : word === 'light' ? [1] : [])));
  if (to > 0 && [...ways(words.slice(0, to))].some((way) => ways(words.slice(to + 1)).has(-way as Direction))) return undefined;
  const reading: Reading = { attributes: [], conflicting: false, turned: false };
  const colored = words.some((word) => CHANNEL_COLORS.has(word));
  const setDirection = (d: Direction) => {
    if (reading.direction !== undefined && reading.direction !== d) reading.conflicting = true;
    reading.direction = d;
  };
  // Vividness named as well ("brighter and more vivid colours"): then "brighter" is light.
  const ofColors = words.some((word) => COLOR_NOUNS.has(word)) && !words.some((word) => (NOUNS[word] ?? DIRECTED[word]?.[0]) === 'saturation');
  // "remove extra lighting": with a reducing word, "extra" names the excess taken away.
  const reducing = words.some((word) => DOWN.has(word) && !AMOUNT_STATES.has(word));
  // "soften the lighting", "harsher light": the light's hardness is its contrast, not its amount.
  const hardness = words.some((word) => LIGHT_NOUNS.has(word)) && words.some((word) => LIGHT_HARDNESS.has(word));
  for (const [i, word] of words.entries()) {
    if (reducing && EXCESS_WORDS.has(word)) continue;
    if (hardness && LIGHT_NOUNS.has(word)) {
      reading.attributes.push({ attribute: 'contrast' });
      continue;
    }
    // "harsh" is a fault said of the light as it is ("the light is too harsh"), read below, and
    // nothing else ("harsh lighting" may be a wish or a complaint); the others give the way.
    if (hardness && LIGHT_HARDNESS.has(word) && !AMOUNT_STATES.has(word)) {
      setDirection(LIGHT_HARDNESS.get(word)!);
      continue;
    }
    // "more vivid", "more darker": "more" only marks the comparative of a word with its own direction.
    if (word === 'more' && DIRECTED[words[i + 1] ?? ''] !== undefined) continue;
    if (TURNING.has(word)) {
      reading.turned = true;
      reading.turnedAt ??= i;
    }
    if (colored && COLOR_LIGHT.has(word)) continue;
    // "blur it less": the attribute's noun said as the verb stands where a turning word after it is measured from.
    if (NOUNS[word]) reading.attributes.push({ attribute: NOUNS[word], ...(i === words.findIndex((w) => !isFiller(w)) && { at: i }) });
    else if (OPPOSITES[word]) reading.attributes.push({ attribute: OPPOSITES[word], opposite: true });
    // "mute the bright colours", "desaturate the vivid colours": a quality between an article and
    // the colours says which colours the verb's edit is of, not a second edit.
    else if (DIRECTED[word] && namesWhichColors(words, i)) continue;
    // "make the colours brighter", "brighten the colour", "make color brighter": the picture's
    // colour, said as a mass or as its colours, made brighter is its vividness (as people who
    // label such requests read it). "a brighter colour" is another colour, of more light or more
    // vividness: asked.
    else if (ofColors && VIVID_WHEN_COLORS.has(word) && !words.includes('colors') && words.some((w, k) => (w === 'a' || w === 'an') && k < words.indexOf('color'))) return undefined;
    else if (ofColors && VIVID_WHEN_COLORS.has(word)) reading.attributes.push({ attribute: 'saturation', direction: 1, ...(isReducedObject(words, i) && { reduced: true }) });
    else if (ofColors && MUTED_WHEN_COLORS.has(word)) reading.attributes.push({ attribute: 'saturation', direction: -1, ...(isReducedObject(words, i) && { reduced: true }) });
    else if (SOFTENING.has(word) && ofContrastNext(words, i)) setDirection(-1);
    else if (SHARPENING.has(word) && ofContrastNext(words, i)) setDirection(1);
    // "fade the photo": the fading asked for may be a faded look, to white or to nothing; a
    // fault ("too faded") or the look taken away ("remove the fade") goes one sure way.
    // "the fade is too strong", "fade it in": how strong the look is, or a fade in, not the look: asked.
    else if (UNSURE_VERBS.has(word) && !isReducedObject(words, i) && words[i - 1] !== 'too' && (words.some((said) => FADING_TO.has(said)) || words.includes('too') || [words[i + 1], words[i + 2]].includes('in'))) return undefined;
    else if (DIRECTED[word]) reading.attributes.push({ attribute: DIRECTED[word][0], direction: DIRECTED[word][1], at: i, ...(isReducedObject(words, i) && { reduced: true }) });
    else if (CHANNEL_COLORS.has(word) || COLOR_NOUN_FORMS.has(word)) reading.attributes.push({ attribute: 'channel', channel: COLOR_NOUN_FORMS.get(word) ?? word });
    else if (COMPARATIVE_COLORS[word]) reading.attributes.push({ attribute: 'channel', channel: COMPARATIVE_COLORS[word], direction: 1 });
    else if (STEP_NOUNS.has(word)) continue;
    // "turn the contrast up and down", "… up and the dog down": two ways said of one quality are no one edit.
    else if (PARTICLES.has(word)) {
      const way = word === 'up' ? 1 : -1;
      if (reading.particle !== undefined && reading.particle !== way) reading.conflicting = true;
      reading.particle = way;
    }
    else if (CAST_FIXES.has(word)) reading.fixesCast = true;
    // "the contrast is too low": a fault, fixed the other way.
    else if (AMOUNT_STATES.has(word) && AS_IT_IS.has(words[i - 1] ?? '')) setDirection(-AMOUNT_STATES.get(word)! as Direction);
    else if (UP.has(word)) setDirection(1);
    else if (DOWN.has(word) || TURNING.has(word)) setDirection(-1);
    // "knock the contrast down", "jack it up": a verb of an amount takes its way from its particle.
    else if (!(NEUTRAL.has(word) || AMOUNT_VERBS.has(word) || isFiller(word) || isAmountWord(word))) return undefined;
  }
  if (reading.fixesCast) {
    if (reading.attributes.length !== 1 || reading.attributes[0]!.attribute !== 'channel' || reading.direction !== undefined) return undefined;
    setDirection(-1);
  }
  // Some of a quality given ("give it some contrast", "put a little warmth in"): more of it, where
  // nothing else gives a way.
  const ownWay = reading.attributes.some((a) => a.direction !== undefined);
  if (reading.direction === undefined && !ownWay && words.some((word) => PARTITIVES.has(word)) && words.some((word) => ADDING_VERBS.has(word))) setDirection(1);
  // A particle is a direction only where nothing else gives one ("turn the contrast up"). Against
  // a word that raises, "down" is no intensifier as "up" is against one that lowers ("darken it
  // up"): "brighten it down", "warm it down" say two ways at once, and are asked.
  const raises = reading.direction === 1 || reading.attributes.some((a) => (a.direction === 1 && !a.reduced) || (a.direction === -1 && a.reduced));
  if (reading.particle === -1 && raises) return undefined;
  if (reading.particle !== undefined && !reading.attributes.some((a) => a.direction !== undefined)) setDirection(reading.particle);
  // "intensify the colours", "less colour": the colours alone, with a way to go, are their
  // vividness. Colour added ("add colour") may as well mean colourised: not read. Some of it added
  // ("add some colour", "add a little colour") is more of what the picture has.
  const addedOnly =
    words.some((word) => word === 'add') && !words.some((word) => word !== 'add' && (UP.has(word) || DOWN.has(word) || PARTITIVES.has(word)));
  if (reading.attributes.length === 0 && reading.direction !== undefined && !addedOnly && words.some((word) => COLOR_NOUNS.has(word))) {
    reading.attributes.push({ attribute: 'saturation' });
  }
  // "boost the colours and contrast", "raise the brightness and the colours": the colours joined to
  // another quality are their vividness too, not which contrast (read so, they were dropped).
  const quality = (at: number) => NOUNS[words[at] ?? ''] !== undefined || (words[at] === 'the' && NOUNS[words[at + 1] ?? ''] !== undefined);
  const qualityBefore = (at: number) => NOUNS[words[at] ?? ''] !== undefined;
  const joinedColors = words.some((word, i) => {
    if (!COLOR_NOUNS.has(word)) return false;
    const start = words[i - 1] === 'the' ? i - 1 : i;
    return (words[i + 1] === 'and' && quality(i + 2)) || (words[start - 1] === 'and' && qualityBefore(start - 2));
  });
  if (joinedColors && reading.direction !== undefined && !addedOnly && reading.attributes.length > 0 && !reading.attributes.some((a) => a.attribute === 'saturation')) {
    reading.attributes.push({ attribute: 'saturation' });
  }
  return reading.attributes.length > 0 ? reading : undefined;
}

/** How much a clause says: "by 20%", "to 120%", "+15%", "2x", "1.2"; undefined when what it says cannot be an amount. */
interface Amount {
  percent?: number;
  /** "to 80%": the level, not a change. */
  to?: boolean;
  /** "to 50% bright" ("half as bright"): a level of the quality named after it. */
  ofQuality?: boolean;
  /** "by 20%": a change, which needs a direction. */
  by?: boolean;
  /** "+15%": a change with its own direction. */
  signed?: boolean;
  factor?: number;
  /** "1.2", "0": a bare factor, which is a level. */
  level?: number;
}

function amount(c: Clause): Amount | undefined {
  const all = c.words();
  const percent = all.findIndex((word) => quantityOf(word)?.unit === '%');
  if (percent >= 0) {
    const q = quantityOf(all[percent]!)!;
    const link = all[percent - 1] === 'by' || all[percent - 1] === 'to' ? all[percent - 1] : undefined;
    // "brighten the 50%", "brighten half of it": a share after "the" or before "of" names a part
    // of the picture, not an amount ("by half" is one).
    if (all[percent - 1] === 'the' || all[percent + 1] === 'of') return undefined;
    // "brighten up to 20%", "up to 30% darker": a bound on the change, not a level below 100%; how much is asked.
    if (link === 'to' && all[percent - 2] === 'up' && q.value < 100) return undefined;
    // "half as bright" ("to 50% bright"): the level is said of the quality right after it, which gives no way to go.
    const ofQuality = link === 'to' && DIRECTED[all[percent + 1] ?? ''] !== undefined;
    c.remove(link ? percent - 1 : percent, percent + 1);
    return { percent: q.value, to: link === 'to', by: link === 'by', signed: q.signed, ofQuality };
  }
  const factor = c.takeQuantity((q) => q.unit === 'x' && !q.signed);
  if (factor) return { factor: factor.value };
  // "by 20" of an adjustment is a percentage; "by 1.5" or "by 2" a factor.
  const by = all.findIndex((word, i) => word === 'by' && isPlain(all[all[i + 1] === 'a' ? i + 2 : i + 1]));
  if (by >= 0) {
    const at = all[by + 1] === 'a' ? by + 2 : by + 1;
    const value = quantityOf(all[at]!)!.value;
    c.remove(by, at + 1);
    return Number.isInteger(value) && value >= 10 ? (value <= 100 ? { percent: value, by: true } : undefined) : { factor: value };
  }
  // "contrast 1.2", "zero saturation": a level said as a factor. A bare whole number ("brighter 2") may be anything: asked.
  const level = all.findIndex((word) => word === '0' || (isPlain(word) && !quantityOf(word)!.integer));
  if (level >= 0) {
    c.remove(all[level - 1] === 'to' ? level - 1 : level, level + 1);
    return { level: quantityOf(all[level]!)!.value };
  }
  return hasNumber(c) ? undefined : {};
}

/** A number said as an amount: "20", "-10%", "1.5x". */
const isAmountWord = (word: string) => {
  const unit = quantityOf(word)?.unit;
  return unit === '' || unit === '%' || unit === 'x';
};

/** An unsigned number with no unit. */
const isPlain = (word: string | undefined) => {
  const q = quantityOf(word ?? '');
  return q !== undefined && !q.signed && q.unit === '';
};

/** Whether a word left starts a number ("10", "-5", "+15%"). */
const hasNumber = (c: Clause) => c.words().some((word) => isDigit(word[0]) || ((word[0] === '-' || word[0] === '+') && isDigit(word[1])));
const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';

/**
 * The factor a clause with no direction gives ("set brightness to 80%", "contrast 150%",
 * "brightness +15%", "saturation 1.2"). A change with no direction ("brightness by 20%") says
 * none, and a level below half ("contrast 10%", "brightness 0") would all but blank the picture
 * and is more often meant as a change (or a slider's value): both asked.
 */
function levelOf(given: Amount | undefined, attribute: Attribute): number | undefined {
  if (!given) return undefined;
  if (given.percent !== undefined) {
    if (given.percent > MAX_FACTOR * 100) return undefined;
    // "set brightness to -10%", "to +20%": a sign says a change, which "to" a level does not take
    // (read as a level, -10% was a negative factor, +10% nearly black): asked.
    if (given.to && given.signed) return undefined;
    if (given.to) return given.percent / 100;
    if (given.signed) return 1 + given.percent / 100 > 0 ? 1 + given.percent / 100 : undefined;
    return given.by || given.percent < 50 ? undefined : given.percent / 100;
  }
  // "brightness 0", "contrast 0.2": as a factor, a black or flat grey picture; as a slider's
  // value (0 is no change in many editors) nothing at all: asked, as a level below half is.
  // ("zero saturation" is a picture with no colour, whichever it is read as.)
  const value = given.level ?? given.factor;
  return value !== undefined && value <= MAX_FACTOR && (value >= 0.5 || attribute === 'saturation') ? value : undefined;
}

/**
 * "brighten by -20%", "increase the warmth by -10%": a sign against the verb's direction says the
 * opposite of it, and which one is meant is asked (the sign was dropped, a brightening of 20%).
 */
const against = (direction: Direction, given: Amount): boolean => given.signed === true && given.percent !== undefined && given.percent !== 0 && Math.sign(given.percent) !== Math.sign(direction);

function multiplier(base: number, direction: Direction, given: Amount | undefined): number | undefined {
  if (!given || given.level !== undefined) return undefined;
  if (given.percent !== undefined) {
    // "brighten to 20%", "darken to 150%": a level on the other side of the picture as it is goes
    // against the verb (20% of the light is a darkening): which one is meant is asked.
    // "half as bright" is a level of light; "half as dark" says no level of it: asked.
    if (given.ofQuality) return direction > 0 ? given.percent / 100 : undefined;
    if (given.to) return (given.percent - 100) * direction > 0 ? given.percent / 100 : undefined;
    if (against(direction, given)) return undefined;
    const p = Math.abs(given.percent) / 100;
    // Less by all of it or more would leave nothing: asked.
    return direction > 0 ? 1 + p : p >= 1 ? undefined : 1 - p;
  }
  // A factor says how many times: at most 1 ("by 0.5", "by 1") is no change this way, and past
  // MAX_FACTOR ("brighten it by 5") not what anyone wants of a picture: both asked.
  if (given.factor !== undefined) return given.factor > MAX_FACTOR || given.factor <= 1 ? undefined : direction > 0 ? given.factor : 1 / given.factor;
  return direction > 0 ? base : 1 / base;
}

/** Attributes whose one parameter is a factor, 1 changing nothing. */
const RATIO_ATTRIBUTES: ReadonlySet<Attribute> = new Set(['brightness', 'contrast', 'saturation']);

const round = (value: number) => Math.round(value * 1000) / 1000;

/** The most times brighter, more contrasty or more saturated one edit makes a picture. */
export const MAX_FACTOR = 4;

function channelBalance(name: string, direction: Direction, level: Level): EditOperation {
  const color = namedColor(name)!;
  const mean = (color.r + color.g + color.b) / 3;
  const k = CHANNEL_STEP[level] * direction * 1.5;
  const weight = (v: number) => round(Math.max(0.2, 1 + (k * (v - mean)) / 255));
  return { op: 'color_balance', red: weight(color.r), green: weight(color.g), blue: weight(color.b) };
}

/**
 * A cast changed from one colour to another ("change the cast from yellow to blue"): less of the
 * first and more of the second, in one colour balance.
 */
export function castShift(from: string, to: string, level: Level): EditOperation {
  const [less, more] = [channelBalance(from, -1, level), channelBalance(to, 1, level)] as Extract<EditOperation, { op: 'color_balance' }>[];
  return { op: 'color_balance', red: round(less!.red * more!.red), green: round(less!.green * more!.green), blue: round(less!.blue * more!.blue) };
}

function operation(attribute: Attribute, direction: Direction, level: Level, given: Amount | undefined, channel?: string): EditOperation | undefined {
  switch (attribute) {
    case 'channel':
      return given && given.percent === undefined && given.factor === undefined && given.level === undefined ? channelBalance(channel!, direction, level) : undefined;
    case 'brightness':
    case 'contrast':
    case 'saturation': {
      const factor = multiplier(STEPS[attribute][level], direction, given);
      // Past MAX_FACTOR however it is said ("brighten by 500%", "to 1000%"): asked, as a factor is.
      return factor === undefined || factor > MAX_FACTOR ? undefined : ({ op: attribute, factor: round(factor) } as EditOperation);
    }
    case 'temperature': {
      const p = given?.percent;
      if (given && against(direction, given)) return undefined;
      // Warmth has no level where 100% is the picture as it is: "cool it to 150%", "reduce the
      // warmth to 20%" say no amount of the change (it was read as one, or clipped), and a change
      // past all of the scale ("warmer by 150%") is past what the edit does: both asked.
      if (given?.to || (p !== undefined && Math.abs(p) > 100)) return undefined;
      const value = p !== undefined ? Math.min(1, Math.abs(p) / 100) : STEPS.temperature[level];
      return given?.factor === undefined && given?.level === undefined ? { op: 'temperature', amount: round(direction * value) } : undefined;
    }
    case 'gamma': {
      // "bump the gamma up to 1.2": a level past 1 the way said; "raise the gamma a little": a step
      // (above 1 lightens the mid-tones). A share or a factor of a gamma says no value: asked.
      if (given?.level !== undefined) return (given.level - 1) * direction > 0 && given.level >= 0.1 && given.level <= 10 ? { op: 'gamma', value: given.level } : undefined;
      if (given?.percent !== undefined || given?.factor !== undefined) return undefined;
      return { op: 'gamma', value: round(direction > 0 ? STEPS.gamma[level] : 1 / STEPS.gamma[level]) };
    }
    case 'sharpness':
    case 'blur': {
      // Less blur is sharper; less sharpness is a blur.
      const sharpen = (attribute === 'sharpness') === direction > 0;
      if (given?.percent !== undefined || given?.factor !== undefined || given?.level !== undefined) return undefined;
      return sharpen ? { op: 'sharpen', sigma: STEPS.sharpness[level] } : { op: 'blur', sigma: STEPS.blur[level] };
    }
  }
}

export const adjustment: Rule = {
  op: 'brightness',
  parse(c) {
    if (c.canonical.split(' ').length > 24) return undefined;
    // Stops of light are an amount of brightness; "one shade lighter", "about 5 or 6 levels
    // lighter": the steps are the degree. Both read first.
    const stops = stopsSaid(c);
    const stepped = stops !== undefined ? undefined : c.takePhrase(ONE_STEP) !== undefined ? 'slight' : stepsSaid(c);
    const words = c.words();
    const reading = read(words);
    if (!reading || reading.conflicting) return undefined;
    if (stops !== undefined && (reading.attributes.length !== 1 || reading.attributes[0]!.attribute !== 'brightness')) return undefined;
    // One attribute named twice ("brighten the exposure") is one adjustment.
    // Opposite words for one attribute ("make the dark darker and the colours brighter") are two requests.
    if (reading.attributes.some((a) => reading.attributes.some((b) => a.attribute === b.attribute && a.channel === b.channel && a.direction !== undefined && b.direction !== undefined && a.direction !== b.direction))) return undefined;
    const same = (a: Reading['attributes'][number], b: Reading['attributes'][number]) => a.attribute === b.attribute && a.channel === b.channel;
    reading.attributes = reading.attributes
      .map((a) => reading.attributes.find((b) => same(a, b) && b.direction !== undefined) ?? a)
      .filter((a, i, all) => all.findIndex((b) => same(a, b)) === i);
    // A direction word beside several attributes of which one has its own direction ("darken
    // and remove the blur") cannot be told apart: each part is read on its own instead.
    if (reading.attributes.length > 1 && reading.direction !== undefined && reading.attributes.some((a) => a.direction !== undefined)) return undefined;
    // "increase the exposure adjust the clarity": a second verb after the first attribute starts
    // another request, which the first's direction does not reach.
    const firstAttribute = words.findIndex((word) => NOUNS[word] !== undefined || DIRECTED[word] !== undefined);
    if (reading.attributes.length > 1 && words.some((word, i) => i > firstAttribute && SECOND_VERBS.has(word))) return undefined;
    // Colour words beside another attribute ("the blue saturation") are not a colour balance.
    const channels = reading.attributes.filter((a) => a.attribute === 'channel').length;
    if (channels > 1 || (channels === 1 && reading.attributes.length > 1)) return undefined;
    // "too dark" asks for the opposite of dark ("too" said of the word right after it). Beside
    // another word with a direction ("it's too dark, make it darker") or a verb ("make it too
    // bright") it says two things at once: not read.
    // Said of the colours, their own words count too ("too soft colours" are too muted).
    const colorWords = (word: string) => words.some((w) => COLOR_NOUNS.has(w)) && (MUTED_WHEN_COLORS.has(word) || VIVID_WHEN_COLORS.has(word));
    const too = words.some((word, i) => word === 'too' && (DIRECTED[words[i + 1]!] !== undefined || CHANNEL_COLORS.has(words[i + 1]!) || colorWords(words[i + 1]!))) ? -1 : 1;
    const directed = words.filter((word) => DIRECTED[word] !== undefined || COMPARATIVE_COLORS[word] !== undefined).length;
    if (too === -1 && (directed > 1 || words.some((word) => word === 'make' || word === 'turn' || UP.has(word) || DOWN.has(word)))) return undefined;
    // "one shade lighter", "a notch brighter": a small step.
    const said = c.level();
    const level = stepped ?? said;
    const given = stops !== undefined ? { factor: 2 ** stops } : amount(c);
    // A number the amount cannot read ("sharpen 50", "brighter 2") is not dropped: asked. Two
    // amounts ("contrast by 10 and saturation by 20") say which goes with which only by order: asked.
    if (!given || hasNumber(c)) return undefined;
    // "one shade brighter by 20%", "two notches darker by 10%": a count of steps and a number are
    // two amounts, and the number had won unsaid: asked.
    if (stepped !== undefined && (given.percent !== undefined || given.factor !== undefined || given.level !== undefined)) return undefined;
    const operations: EditOperation[] = [];
    for (const { attribute, direction, channel, opposite, reduced, at } of reading.attributes) {
      // "more" strengthens a word with its own direction ("more darker"), "less" turns it
      // ("less bright"); any other direction word against it is a contradiction.
      let net = reading.direction;
      if (direction !== undefined) {
        // "remove the dull look": the dullness is what goes; the reducing verb says nothing more.
        if (reduced) net = -direction as Direction;
        // "brighten it less": a turning word after the word it would turn says how much, not which
        // way (a smaller brightening, or less bright?): not read.
        else if (reading.turned && at !== undefined && reading.turnedAt! > at) return undefined;
        else if (reading.turned) net = -direction as Direction;
        else if (reading.direction !== undefined && reading.direction !== direction) return undefined;
        else net = (direction * too) as Direction;
      } else if (reading.turned && at !== undefined && reading.turnedAt! > at) {
        // "blur it less": a smaller blur, or less blur (sharper)? Not read ("less blur" is sharper).
        return undefined;
      }
      // "too yellow": a colour's share, down.
      if (net === undefined && too === -1 && attribute === 'channel') net = -1;
      if (net === undefined) {
        // No direction: the amount may be the level itself ("contrast 150%").
        const factor = RATIO_ATTRIBUTES.has(attribute) && reading.attributes.length === 1 ? levelOf(given, attribute) : undefined;
        if (factor === undefined) return undefined;
        operations.push({ op: attribute, factor: round(factor) } as EditOperation);
        continue;
      }
      const op = operation(attribute, opposite ? (-net as Direction) : net, level, given, channel);
      if (!op) return undefined;
      operations.push(op);
    }
    // Every word was one of the kinds above: the clause is read whole.
    c.remove(0, c.words().length);
    return operations;
  },
};
