import type { Color, EditOperation } from '../plan.ts';
import { MAX_EXTRA_COLOR_PAIRS } from '../plan-schema.ts';
import { STEPS } from '../operations/registry.ts';
import { castShift, isAttributeNoun } from './adjustment-rules.ts';
import { Clause, isFiller, quantityOf } from './clause.ts';
import { isGrey, luminance, namedColor, namesThing } from './colors.ts';
import { phrases, wordClass, words, type Phrases } from './phrases.ts';
import { CHANNEL_COLORS, COLOR_ASPECT_NOUNS, COLOR_SWAP_VERBS, DOWN, POSTER_LOOK, UP } from './lexicon.ts';
import type { Rule } from './rule.ts';

/**
 * How the tone operations other than the adjustments are read: black and white, sepia, a tint,
 * a colour swapped for another, levels. Simple ones are one row of `READINGS`; the colour
 * readings take the clause's words apart by their kind.
 */

wordClass('fully', ['completely', 'fully', 'totally', 'entirely']);
/** Colours a cast over the whole picture may be named by ("the sepia tone", "a yellow cast"). */
wordClass('castColor', [...CHANNEL_COLORS, 'sepia', 'color']);

interface Reading {
  op: EditOperation['op'];
  asks: Phrases;
  /** Said with these, the clause is not this operation. */
  unless?: Phrases;
  accepts?: Phrases;
}

const READINGS: readonly Reading[] = [
  {
    op: 'grayscale',
    // "change it from black and white": that is what it is now, not what it should become.
    unless: phrases('from [the] grayscale|blackandwhite|monochrome|gray'),
    asks: phrases(
      '@fully desaturate|desaturated',
      'desaturate|desaturated @fully',
      'remove|drop|strip|no [all] [of] [the] color|colors',
      // "remove the saturation", "drop all the saturation": all of it ("drop the saturation" is less).
      'remove|strip|no [all] [of] [the] [color] saturation',
      'drop all [of] [the] [color] saturation',
      'without color|colors',
      'grayscale|blackandwhite|monochrome|monochromatic|mono|gray|noir|colorless',
    ),
    accepts: phrases('shade|shades of gray', 'convert|change|switch|tone|tones|scale|style|color|colors|only'),
  },
  {
    op: 'sepia',
    asks: phrases('sepia [tone|toned]', 'old fashioned|timey', 'old photo|photograph', 'vintage|oldfashioned|antique|old|older|aged|retro|nostalgic'),
    accepts: phrases('more of a', 'tone|tones|style|feel|toned|filter|old|coloring|color|colors|change|changes|changed|convert|switch|turn'),
  },
  {
    op: 'invert',
    // "reverse" alone may as well be a mirror ("reverse the image"): an inversion only of its colours.
    asks: phrases('invert|inverted|negative|inverse', 'reverse|reverses|reversed [the|its|all] [the] color|colors|tone|tones'),
    // "invert the black and white photo", "invert the black and white colours": what the photo
    // or its colours are, after an article or before the colours; "… and make it black and white"
    // asks for more.
    accepts: phrases('color|colors|tone|tones|film|photo', 'the|this|a|an|my|its blackandwhite', 'blackandwhite color|colors|tone|tones'),
  },
  {
    op: 'auto_white_balance',
    asks: phrases(
      'auto|automatic white balance',
      'auto|automatic whitebalance',
      'autowhitebalance|awb',
      'fix|correct|adjust|balance|neutralize [the] white [balance]',
      'fix|correct|adjust|balance|neutralize [the] whitebalance',
      'white balance [needs] [should] [to] [be] adjusted|fixed|corrected',
      'whitebalance [needs] [should] [to] [be] adjusted|fixed|corrected',
      // The compound as a verb ("white balance it", "it needs to be white balanced").
      'white|whitebalance balanced|balancing',
      'whitebalanced|whitebalancing',
      'white|whitebalance balance it|this|the',
      'remove|fix|correct|neutralize [the|any] [color] cast',
      // "reduce the tint", "make the tint less": a tint of no colour named, taken away, is a cast.
      'remove|reduce|decrease|lessen|less|lower [the|any|this] [color] tint|cast',
      'tint|cast less',
      'color correct|correction|corrected',
      'colorcorrect|colorcorrection|colorcorrected',
      'correct|fix [the] color|colors|coloring',
    ),
    // "white balance it to remove the sepia tone": a cast taken away is what a white balance does.
    accepts: phrases('to remove|fix|correct|neutralize [the|any|this] [@castColor] cast|tint|tone|hue', 'automatically|auto|color|colors|balance'),
  },
];

function reader(reading: Reading): Rule {
  return {
    op: reading.op as Rule['op'],
    needs: [reading.asks],
    parse(c) {
      if (reading.unless && c.hasPhrase(reading.unless)) return undefined;
      if (!c.takeEvery(reading.asks)) return undefined;
      if (reading.accepts) c.takeEvery(reading.accepts);
      return [{ op: reading.op } as EditOperation];
    },
  };
}

/** "desaturate it completely": saturation all the way down is black and white. */
const fullyDesaturated: Rule = {
  op: 'grayscale',
  parse(c) {
    if (!c.takePhrase(words('desaturate desaturated')) || !c.takePhrase(phrases('all the way', '@fully'))) return undefined;
    return [{ op: 'grayscale' }];
  },
};

/**
 * "make the darks darker", "deepen the shadows and brighten the highlights": the ends of the
 * tones pushed apart is more contrast, in photo editors' words. Said of both ends, one contrast;
 * the darks said alone too ("make the dark darker": deeper blacks).
 */
const DARKS = phrases(
  '[make] [the] dark|darks|shadows|blacks darker|deeper|blacker',
  '[make] [the] dark areas|parts|tones darker|deeper|blacker',
  'deepen|darken [the] dark areas|parts|tones',
  'deepen|darken [the] dark|darks|shadows|blacks',
);
const LIGHTS = phrases(
  '[make] [the] lights|highlights|whites lighter|brighter|whiter',
  '[make] [the] light areas|parts|tones lighter|brighter|whiter',
  '[make] [the] bright areas|parts lighter|brighter|whiter',
  'brighten|lighten [the] light areas|parts|tones',
  'brighten|lighten [the] bright areas|parts',
  'brighten|lighten [the] lights|highlights|whites',
);
const tonalEnds: Rule = {
  op: 'contrast',
  needs: [DARKS],
  parse(c) {
    const darks = c.takePhrase(DARKS);
    const lights = c.takePhrase(LIGHTS);
    // The lights alone ("brighten the highlights") may be a part of the picture: only with the darks.
    if (!darks) return undefined;
    if (lights) c.takeEvery(words('and'));
    return [{ op: 'contrast', factor: STEPS.contrast!.steps[c.level()] }];
  },
};

const signedNumber = (q: { unit: string }) => q.unit === '';

const HUE_VERBS: ReadonlySet<string> = new Set(['shift', 'shifted', 'rotate', 'rotates', 'rotated', 'rotation', 'change', 'changes', 'changed', 'cycle', 'spin', 'adjust']);
const HUE_VERB_WORDS = words([...HUE_VERBS].join(' '));

const hue: Rule = {
  op: 'hue',
  needs: [words('hue hues')],
  parse(c) {
    // "rotate 90 and change the hue", "rotate the hue and the image 180": two requests, each of its
    // own verb or object, are never one hue shift (the turn would be lost).
    const said = c.canonical.split(' ');
    if (said.includes('and') || new Set(said.filter((word) => HUE_VERBS.has(word))).size > 1) return undefined;
    if (!c.takeEvery(words('hue hues'))) return undefined;
    c.takeEvery(HUE_VERB_WORDS);
    const degrees = c.takeQuantity((q) => q.unit === 'deg')?.value ?? c.takeQuantity(signedNumber)?.value;
    if (degrees === undefined) return undefined;
    return [{ op: 'hue', degrees: ((degrees % 360) + 360) % 360 }];
  },
};

/** The shadows are the dark tones, not shapes: lifting them is a gamma above 1 (mid-tones up, white stays). */
const SHADOW_LIFT = phrases(
  'brighten|lighten|lift|raise|open [up] [the] shadows',
  'brighten|lighten|lift|raise|open [up] [the] shadowed areas',
  'brighten|lighten|lift|raise|open [up] [the] dark areas|tones',
  'increase|raise|boost [the] brightness|exposure|light of|in [the] shadows',
  'increase|raise|boost [the] brightness|exposure|light of|in [the] shadowed areas',
  'increase|raise|boost [the] brightness|exposure|light of|in [the] dark areas|tones',
);

const gamma: Rule = {
  op: 'gamma',
  parse(c) {
    if (c.takePhrase(SHADOW_LIFT)) {
      c.takeEvery(words('all more up'));
      return [{ op: 'gamma', value: STEPS.gamma!.steps[c.level()] }];
    }
    if (!c.takeEvery(words('gamma'))) return undefined;
    // "apply gamma correction": the usual 2.2 when no value is said; "adjust the gamma" says no
    // way to move it (the adjustment rules ask, as for "adjust the contrast").
    const adjusted = c.takeEvery(words('adjust adjustment'));
    c.takeEvery(words('correction correct value'));
    const given = c.takeQuantity(signedNumber)?.value;
    if (given === undefined && adjusted) return undefined;
    const value = given ?? 2.2;
    return value >= 0.1 && value <= 10 ? [{ op: 'gamma', value }] : undefined;
  },
};

const normalize: Rule = {
  op: 'normalize',
  parse(c) {
    // "enhance the brightness" is more of it, not an auto-enhance.
    if (c.hasPhrase(words('enhance enhanced enhances')) && !c.words().some((word) => word.startsWith('auto')) && c.canonical.split(' ').some((word) => isAttributeNoun(word) && word !== 'quality')) return undefined;
    const asked = c.takeEvery(
      phrases(
        'auto enhance|enhanced|level|levels|contrast|correct|correction|fix|adjust|adjustment|tone|color',
        'autoenhance|autoenhanced|autolevel|autolevels|autocontrast|autocorrect|autocorrection|autofix|autoadjust|autoadjustment|autotone|autocolor',
        'fix [the] exposure|levels|lighting',
        'correct|fix [the] brightness|contrast|exposure',
        // A colour correction said of the light ("colour correct it for brightness", "… to adjust
        // the exposure"): the levels, not the white balance.
        'color correct|corrected|correction [it|this|the] for|to [adjust|fix|correct|improve|balance] [the] brightness|exposure|lighting|contrast|levels',
        'colorcorrect|colorcorrected|colorcorrection [it|this|the] for|to [adjust|fix|correct|improve|balance] [the] brightness|exposure|lighting|contrast|levels',
        'color correct|corrected|correction [the] brightness|exposure|lighting|contrast|levels',
        'stretch [the] contrast|histogram|levels',
        // "improve the colours", "better exposure": bettered with no way said, as the labels'
        // rubric reads them (more of them would be a guess at which way is better).
        // ("better contrast" is more of it, as people say it.)
        'improve [the] contrast|lighting|light|exposure|color|colors|tones',
        'better [the] lighting|light|exposure|color|colors|tones',
        // "improve the quality of the photo": bettered as a whole, with nothing named to change
        // (the labels' readers take it as an auto-enhance; "quality 80" is the file's).
        'improve|enhance [the] quality',
        '[the] lighting|light|exposure|color|colors|tones better',
        'histogram equalization|equalisation',
        'enhance|enhanced|normalize|normalized|equalize|equalise',
      ),
    );
    if (!asked) return undefined;
    c.takeEvery(words('automatically auto levels histogram color colors tones lighting brightness contrast exposure'));
    return [{ op: 'normalize' }];
  },
};

/** Words that may stand in a colour phrase: letters, digits and "#". */
const isWordish = (word: string) => [...word].every((ch) => (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '_' || ch === '#');

/** The words from `at` that are each in `optional`, in order, one each at most. */
function skip(all: readonly string[], at: number, ...optional: ReadonlySet<string>[]): number {
  for (const set of optional) if (set.has(all[at] ?? '')) at++;
  return at;
}
const set = (list: string) => new Set(list.split(' '));

/** A phrase's last word dropped when it is one of these ("blue tones" is blue). */
const withoutLast = (part: readonly string[], suffixes: ReadonlySet<string>) => (part.length > 1 && suffixes.has(part.at(-1)!) ? part.slice(0, -1) : part);

const WHOLE_VERBS = set('turn make change color paint');
const WHOLE_OBJECTS = set('it everything all');
const THE = set('the');
const COLOR_WORDS = set('color colors');
const INTO = set('to into');
const A_ALL = set('a an all');
const WHOLE_SUFFIXES = set('color colors tone tones tint hue');
const NOT_A_COLOR = set('to into from with and');

/**
 * "turn it purple", "make everything yellow", "change the colour to red": the whole picture one
 * colour is a tint (black, white and grey are not: a tint of them is no colour at all).
 */
const wholeColor: Rule = {
  op: 'tint',
  needs: [phrases('turn|make|change|color|paint')],
  parse(c) {
    // "more blue" is more of one colour (a colour balance); "the sky blue" is about the sky.
    if (c.hasPhrase(words('more less')) || turnsAmount(c) || namesThing(c.canonical)) return undefined;
    const all = c.words();
    if (!WHOLE_VERBS.has(all[0] ?? '')) return undefined;
    const start = skip(all, 1, WHOLE_OBJECTS, THE, COLOR_WORDS, INTO, A_ALL);
    const phrase = withoutLast(all.slice(start), WHOLE_SUFFIXES);
    // "turn the blue to …" is a colour swap left unfinished.
    if (phrase.length === 0 || !phrase.every(isWordish) || phrase.some((word) => NOT_A_COLOR.has(word))) return undefined;
    const color = colorPhrase(phrase, c);
    if (!color || isGrey(color)) return undefined;
    c.remove(0, all.length);
    return [{ op: 'tint', color: opaque(color) }];
  },
};

// "add purple lighting": light of one colour over the whole picture is its tint.
const TINT_WORDS = words('tint tinted colorize colorized wash cast hue tone tones toned overtone undertone filter overlay tinge tinged lighting');

/**
 * "turn up the reds", "turn the blue tint up": a colour turned up or down is more or less of it (a
 * colour balance), never the picture turned that colour. Adding a colour ("add a blue tint") is.
 */
const turnsAmount = (c: Clause): boolean => c.canonical.split(' ').some((word) => (UP.has(word) && word !== 'add') || DOWN.has(word));

const tint: Rule = {
  op: 'tint',
  needs: [TINT_WORDS],
  parse(c) {
    if (turnsAmount(c) || !c.takeEvery(TINT_WORDS)) return undefined;
    const color = c.color();
    if (!color) return undefined;
    // "a green artistic filter": words for the filter's kind, not another edit.
    c.takeEvery(words('color artistic colored photographic simple plain'));
    // "change the hue of the picture to blue": one colour over the whole picture ("… more
    // blue" is more of one colour: a colour balance).
    const first = c.words()[0];
    if ((first === 'change' || first === 'changes' || first === 'changed') && !c.hasPhrase(words('from more less'))) c.remove(0, 1);
    return [{ op: 'tint', color: opaque(color) }];
  },
};

const CHANGE_VERBS = set('change turn make convert');
const ALL = set('all');
const JUST = set('just only');

/** "change the colours to green and black": the picture in those two colours, the darker in the shadows. */
const twoColors: Rule = {
  op: 'duotone',
  needs: [phrases('colors')],
  parse(c) {
    const all = c.words();
    if (!CHANGE_VERBS.has(all[0] ?? '')) return undefined;
    let at = skip(all, 1, ALL, THE);
    if (all[at] !== 'colors' || !INTO.has(all[at + 1] ?? '')) return undefined;
    at = skip(all, at + 2, JUST);
    const rest = all.slice(at);
    const and = rest.indexOf('and');
    if (and <= 0 || and === rest.length - 1 || !rest.every(isWordish)) return undefined;
    const [a, b] = [colorPhrase(rest.slice(0, and), c), colorPhrase(rest.slice(and + 1), c)];
    if (!a || !b) return undefined;
    c.remove(0, all.length);
    const [shadow, highlight] = luminance(a) <= luminance(b) ? [a, b] : [b, a];
    return [{ op: 'duotone', shadow: opaque(shadow), highlight: opaque(highlight) }];
  },
};

const NAVY: Color = { r: 16, g: 24, b: 82, alpha: 1 };
const GOLD: Color = { r: 255, g: 200, b: 60, alpha: 1 };
const ROLES = words('shadow shadows highlight highlights dark darks light lights');

const HIGHLIGHT_ROLES: ReadonlySet<string> = new Set(['highlight', 'highlights', 'light', 'lights']);
/**
 * Whether the roles said put the first colour in the highlights (true), the second (false), none
 * said (undefined), or roles that contradict each other (null). A role is the colour's just before
 * it ("gold highlights"), else the next one's ("highlights gold"); "dark" or "light" before a
 * colour is its shade ("dark blue"), no role.
 */
function rolesSaid(all: readonly string[]): boolean | null | undefined {
  const colours = all.flatMap((word, i) => (namedColor(word) !== undefined && namedColor(all[i + 1] ?? '') === undefined ? [i] : []));
  if (colours.length !== 2) return undefined;
  let firstIsHighlight: boolean | undefined;
  for (const [i, word] of all.entries()) {
    if (!ROLES.starts?.has(word) || namedColor(all[i + 1] ?? '') !== undefined) continue;
    const owner = colours.includes(i - 1) ? i - 1 : colours.find((at) => at > i);
    if (owner === undefined) continue;
    const highlight = HIGHLIGHT_ROLES.has(word);
    const says = owner === colours[0] ? highlight : !highlight;
    if (firstIsHighlight !== undefined && firstIsHighlight !== says) return null;
    firstIsHighlight = says;
  }
  return firstIsHighlight;
}

const duotone: Rule = {
  op: 'duotone',
  needs: [phrases('duo tone|tones|toned', 'duotone|duotones|duotoned')],
  parse(c) {
    if (!c.takeEvery(phrases('duo tone|tones|toned', 'duotone|duotones|duotoned'))) return undefined;
    const roles = rolesSaid(c.words());
    if (roles === null) return undefined;
    const first = c.color();
    const second = c.color();
    c.takeEvery(ROLES);
    c.takeEvery(words('effect color colors between gradient'));
    if (first && !second) return undefined;
    // The roles said win ("gold highlights and navy shadows", "yellow and navy highlights"); with
    // none, the darker colour takes the shadows ("duotone red and black": black ones, not a
    // negative in red and black).
    const swap = roles !== undefined ? roles : first !== undefined && second !== undefined && luminance(first) > luminance(second);
    const [shadow, highlight] = first && second ? (swap ? [second, first] : [first, second]) : [NAVY, GOLD];
    return [{ op: 'duotone', shadow: opaque(shadow), highlight: opaque(highlight) }];
  },
};

const threshold: Rule = {
  op: 'threshold',
  parse(c) {
    const asked = c.takeEvery(
      phrases(
        // Not "high contrast black and white": in photography a greyscale with more contrast.
        'pure|stark|strict|true blackandwhite',
        '1 bit',
        '2 tone',
        'bi level',
        'threshold|thresholded|thresholding|1bit|1-bit|2tone|2-tone|bilevel|binarize|binarise|binarized|binarised',
      ),
    );
    if (!asked) return undefined;
    c.takeEvery(phrases('no|without gray', 'level|at|pixels'));
    const percent = c.takeQuantity((q) => q.unit === '%');
    const number = percent === undefined ? c.takeQuantity(signedNumber)?.value : undefined;
    // "threshold 0.5": a share of the way from black to white, as a slider from 0 to 1 says it
    // (read as the level 0.5 of 255, it had turned nearly every pixel white).
    const share = number !== undefined && number > 0 && number < 1 ? number : undefined;
    const level = percent !== undefined ? Math.round((percent.value / 100) * 255) : share !== undefined ? Math.round(share * 255) : (number ?? 128);
    return level >= 0 && level <= 255 ? [{ op: 'threshold', level }] : undefined;
  },
};

/**
 * "a poster" with nothing of a look about it ("make me a poster", "create a poster") asks for a
 * poster made, not the look named after one.
 */
const madePoster = (c: Clause) => {
  const words = c.canonical.split(' ');
  return words.some((word, i) => word === 'poster' && (words[i - 1] === 'a' || words[i - 1] === 'an')) && !words.some((word) => POSTER_LOOK.has(word) || quantityOf(word) !== undefined);
};

/**
 * "use fewer colours", "reduce the number of colours": fewer of them, not less of them (less
 * colour is less saturation), which is posterizing.
 */
const FEWER_COLORS = phrases('fewer colors|tones|shades', 'reduce|limit|lower|cut|decrease [the] number of colors|tones|shades', 'limited|reduced color palette');
const POSTERIZING = phrases('poster effect|look|style', 'posterize|posterized|posterization|poster');
const posterize: Rule = {
  op: 'posterize',
  needs: [[...POSTERIZING, ...FEWER_COLORS]],
  parse(c) {
    const fewer = c.takeEvery(FEWER_COLORS);
    if (!fewer && (madePoster(c) || !c.takeEvery(POSTERIZING))) return undefined;
    c.takeEvery(words('use'));
    c.takeEvery(phrases('per channel', 'level|levels|color|colors|tone|tones|step|steps|band|bands'));
    const levels = c.takeQuantity(signedNumber)?.value ?? 4;
    return levels >= 2 && levels <= 32 && Number.isInteger(levels) ? [{ op: 'posterize', levels }] : undefined;
  },
};

/** A whole phrase that is one colour ("blue", "light blue", "#ff0000", "the reds"), else undefined. */
function colorPhrase(phrase: readonly string[], c: Clause): Color | undefined {
  if (phrase.length === 0 || namesThing(phrase.join(' '))) return undefined;
  const singular = phrase.map((word) => (word.length > 3 && word.endsWith('s') && namedColor(word.slice(0, -1)) ? word.slice(0, -1) : word));
  const probe = new Clause(singular.join(' '), c.quotes, c.files);
  const color = probe.color();
  return color && probe.leftovers().length === 0 ? color : undefined;
}

type ColorPair = { from: Color; to: Color };

const RECOLOR_VERBS = set('change changes changed turn replace replaces replaced swap convert map switch recolor');
const RECOLOR_OBJECTS = new Set([...COLOR_ASPECT_NOUNS, 'fill']);
const FROM_LEADS = [set('from'), ALL, set('of'), THE] as const;
const FROM_SUFFIXES = new Set([...COLOR_ASPECT_NOUNS, ...set('part parts area areas pixels portion portions bit bits spot spots')]);
const TO_LINKS = set('to into with for by');
const TO_LEADS = [set('be'), set('more'), set('the a an')] as const;
const TO_SUFFIXES = new Set([...COLOR_ASPECT_NOUNS, ...set('one ones')]);
/** How far apart in RGB two colours of a swap said without a link word must be (off-white and white are 10 apart). */
const MIN_SWAP_DISTANCE = 60;
const colorDistance = (a: Color, b: Color) => Math.hypot(a.r - b.r, a.g - b.g, a.b - b.b);
/** Verbs that make some parts a colour with no link word ("make the reds orange", "turn the blue areas white"). */
const MAKING_VERBS = set('make turn');
const INSTEAD_VERBS = set('make use have add want put');
const IT = set('it');
const A = set('a an');
const INSTEAD_SUFFIXES = set('color colors area areas tone tones part parts');

/** The verbs a swap of colours may begin with, fillers elsewhere ("make", "turn", "put"). */
const PAIR_VERBS: ReadonlySet<string> = new Set([...RECOLOR_VERBS, ...MAKING_VERBS, ...COLOR_SWAP_VERBS, ...INSTEAD_VERBS]);

/** "blue to yellow", "the red with green": one pair, each a whole colour phrase. */
function pairOf(part: readonly string[], c: Clause): ColorPair | undefined {
  const start = skip(part, 0, ...FROM_LEADS);
  for (let link = start + 1; link < part.length - 1; link++) {
    if (!TO_LINKS.has(part[link]!)) continue;
    const from = withoutLast(part.slice(start, link), FROM_SUFFIXES);
    const to = withoutLast(part.slice(skip(part, link + 1, ...TO_LEADS)), TO_SUFFIXES);
    return pair(from, to, c);
  }
  return undefined;
}

function pair(from: readonly string[], to: readonly string[], c: Clause): ColorPair | undefined {
  const [a, b] = [colorPhrase(from, c), colorPhrase(to, c)];
  return a && b ? { from: opaque(a), to: opaque(b) } : undefined;
}

/** The two colours of the black-and-white look. */
const BLACK_AND_WHITE: ReadonlySet<string> = new Set(['black', 'white']);

/** The colour pairs a clause asks to swap, each a whole colour phrase; undefined if any is not. */
function colorPairs(c: Clause): ColorPair[] | undefined {
  // "could you please change blue to yellow": the words of asking before the verb carry nothing.
  const said = c.canonical.split(' ').filter(Boolean);
  const verbAt = said.findIndex((word) => !isFiller(word) || PAIR_VERBS.has(word));
  const all = verbAt < 0 ? said : said.slice(verbAt);
  if (!all.every(isWordish)) return undefined;
  // "swap red and blue", "switch the blues and the greens": both ways at once ("swap the red for green" is one way).
  if (COLOR_SWAP_VERBS.has(all[0] ?? '')) {
    const start = skip(all, 1, THE, COLOR_WORDS);
    // "switch black and white": the look's two colours joined as one word (text.ts) are two
    // colours after a verb of swapping; only "to" makes them the look ("switch to black and white").
    if (all[start] === 'blackandwhite' && all.slice(start + 1).every((word) => isFiller(word) || COLOR_ASPECT_NOUNS.has(word))) {
      const one = pair(['black'], ['white'], c);
      if (one) return [one, { from: one.to, to: one.from }];
    }
    const and = all.indexOf('and', start + 1);
    if (and > start && and < all.length - 1) {
      const second = withoutLast(all.slice(skip(all, and + 1, THE)), COLOR_WORDS);
      const one = pair(all.slice(start, and), second, c);
      if (one) return [one, { from: one.to, to: one.from }];
    }
  }
  // "make it black instead of white", "a black area instead of the white area".
  const instead = all.findIndex((word, i) => word === 'instead' && all[i + 1] === 'of');
  if (instead > 0) {
    const start = skip(all, 0, INSTEAD_VERBS, IT, A);
    if (all[start] === 'the') return undefined;
    const wanted = withoutLast(all.slice(start, instead), INSTEAD_SUFFIXES);
    const now = withoutLast(all.slice(skip(all, instead + 2, THE, A)), INSTEAD_SUFFIXES);
    const one = pair(now, wanted, c);
    return one && [one];
  }
  // "make the reds orange", "turn all the blue areas white", "make the blues more white": the
  // colour of some parts made another, with no link word between the two.
  if (MAKING_VERBS.has(all[0] ?? '')) {
    const start = skip(all, 1, ALL, set('of'), THE);
    for (let to = start + 1; to < all.length; to++) {
      const from = all.slice(start, to);
      // A colour named alone is of some parts when plural ("the reds") or after "the" ("make the
      // green red", "turn all the yellow orange"): "make it grey blue" is one colour.
      // (Not black and white, the look's own pair: "make the black white" may be the look said short;
      // nor a colour made more of another, "make the grey more blue", a shift of its shade.)
      const bare = namedColor(all[to] ?? '') !== undefined && !(BLACK_AND_WHITE.has(from[0]!) && BLACK_AND_WHITE.has(all[to]!));
      if (!(from.length > 1 ? FROM_SUFFIXES.has(from.at(-1)!) : from[0]!.endsWith('s') || (all[start - 1] === 'the' && bare))) continue;
      const one = pair(withoutLast(from, FROM_SUFFIXES), all.slice(skip(all, to, ...TO_LEADS)), c);
      // "make the off-white colours more white": a colour made more of one next to it is a
      // shift of its shade, not a swap.
      if (one && colorDistance(one.from, one.to) >= MIN_SWAP_DISTANCE) return [one];
    }
  }
  if (!RECOLOR_VERBS.has(all[0] ?? '')) return undefined;
  const rest = all.slice(skip(all, 1, THE, RECOLOR_OBJECTS));
  // "replace red with blue and yellow with white": every part a pair.
  const pairs: ColorPair[] = [];
  for (let from = 0; from <= rest.length; ) {
    const and = rest.indexOf('and', from);
    const end = and < 0 ? rest.length : and;
    const one = pairOf(rest.slice(from, end), c);
    if (!one) return undefined;
    pairs.push(one);
    from = end + 1;
  }
  return pairs.length > 0 && pairs.length <= 1 + MAX_EXTRA_COLOR_PAIRS ? pairs : undefined;
}

const SEE_THROUGH: ReadonlySet<string> = new Set(['transparent', 'clear', 'invisible', 'transparency']);

/** "change blue to yellow", "replace the red with green", "swap red and blue", "black instead of white". */
const replaceColor: Rule = {
  op: 'replace_color',
  parse(c) {
    // "change the white to transparent": no colour to take but a hole (transparent_color's), never black.
    if (c.words().some((word) => SEE_THROUGH.has(word))) return undefined;
    const pairs = colorPairs(c);
    if (!pairs) return undefined;
    c.remove(0, c.words().length);
    const [first, ...also] = pairs;
    return [{ op: 'replace_color', ...first!, tolerance: 30, ...(also.length > 0 && { also }) }];
  },
};

function opaque(color: Color): Color {
  return { ...color, alpha: 1 };
}

/**
 * "change the cast from yellow to blue", "shift the colour cast from green to magenta": a cast
 * changed is the first colour taken out and the second put in. Only a cast: a tint or a tone
 * from one colour to another is a colour swapped ("change the tone from red to blue": replaceColor).
 */
const CAST_CHANGE = phrases('change|changed|shift|switch|turn [the] [color] cast');
const castChange: Rule = {
  op: 'color_balance',
  needs: [words('cast')],
  parse(c) {
    const all = c.words();
    const at = all.indexOf('from');
    const [from, to] = [all[at + 1] ?? '', all[at + 3] ?? ''];
    if (at < 0 || all[at + 2] !== 'to' || !CHANNEL_COLORS.has(from) || !CHANNEL_COLORS.has(to) || from === to) return undefined;
    c.remove(at, at + 4);
    if (!c.takePhrase(CAST_CHANGE)) return undefined;
    return [castShift(from, to, c.level())];
  },
};

/** The channels a picture is stored in: "the yellow channel" names none of them. */
const PRIMARIES = ['red', 'green', 'blue'] as const;
type Primary = (typeof PRIMARIES)[number];
const CHANNEL_NOUNS = phrases('channel|channels');
/** Ways to take a channel out altogether ("turn off the red channel"): its multiplier is 0. */
const CHANNEL_OFF = phrases('turn|switch|shut off', 'take out', 'get rid [of]', 'remove|delete|kill|disable|eliminate|zero|hide|no|without');
/** A channel's multiplier for one step more of it, by how strongly it is asked. */
const CHANNEL_FACTOR: Record<'slight' | 'normal' | 'strong', number> = { slight: 1.1, normal: 1.25, strong: 1.5 };

/**
 * "turn off the red channel", "boost the green channel by 20%", "reduce the blue channels": a
 * channel of the picture, named as one, is its multiplier in a colour balance, the others left
 * as they are (unlike "less red", which keeps the picture's brightness by moving the others).
 */
const channel: Rule = {
  op: 'color_balance',
  needs: [CHANNEL_NOUNS],
  parse(c) {
    if (!c.takeEvery(CHANNEL_NOUNS)) return undefined;
    const named = new Set<Primary>();
    for (const primary of PRIMARIES) if (c.takeEvery(words(primary))) named.add(primary);
    c.takeEvery(words('and'));
    if (named.size === 0) return undefined;
    const off = c.takeEvery(CHANNEL_OFF);
    const level = c.level();
    const percent = c.takeQuantity((q) => q.unit === '%' && q.value > 0 && q.value < 100);
    const rest = c.words();
    const up = rest.filter((word) => UP.has(word));
    const down = rest.filter((word) => DOWN.has(word));
    if ([off, up.length > 0, down.length > 0].filter(Boolean).length !== 1) return undefined;
    for (const word of [...up, ...down]) c.takeEvery(words(word));
    // Taken out, a channel is gone: a step or an amount said with it asks something else.
    if (off && (percent || level !== 'normal')) return undefined;
    const factor = off ? 0 : percent ? 1 + (up.length > 0 ? 1 : -1) * (percent.value / 100) : up.length > 0 ? CHANNEL_FACTOR[level] : 1 / CHANNEL_FACTOR[level];
    const weight = (primary: Primary) => (named.has(primary) ? Math.round(factor * 1000) / 1000 : 1);
    return [{ op: 'color_balance', red: weight('red'), green: weight('green'), blue: weight('blue') }];
  },
};

/** The readings of tone operations besides the adjustments, in the order they are tried. */
export const toneReadings: Rule[] = [
  channel,
  castChange,
  replaceColor,
  threshold,
  reader(READINGS[0]!),
  fullyDesaturated,
  reader(READINGS[1]!),
  reader(READINGS[2]!),
  duotone,
  twoColors,
  hue,
  tonalEnds,
  gamma,
  reader(READINGS[3]!),
  normalize,
  tint,
  wholeColor,
  posterize,
];

