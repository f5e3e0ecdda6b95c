import type { Color, Gravity, Length } from '../plan.ts';
import { readingOf, STEPS } from '../operations/registry.ts';
import { boxOf, isFiller, isPixels, isWholePixels, quantityOf, type Clause, type Quantity } from './clause.ts';
import { namedColor } from './colors.ts';
import { GROWING_VERBS, GROWTH_WAYS, MENDING_VERBS, namesCorner, PICTURE_NOUNS, SHADE_INTENSIFIERS, SHADE_WORDS, SIDE_NAME_WORDS } from './lexicon.ts';
import { endAt, find, isWhole, phrases, wordClass, words, type Phrases } from './phrases.ts';
import type { Rule } from './rule.ts';
import { defaultsOf, givesNeeded, levelOf } from './slots.ts';

/**
 * How the geometry operations are read: sizes, crops, turns, margins and frames. Each reading is
 * a small function over word tables (the phrases below); numbers are read as quantities.
 */

const WHITE: Color = { r: 255, g: 255, b: 255, alpha: 1 };
const BLACK: Color = { r: 0, g: 0, b: 0, alpha: 1 };
const pct = (value: number): Length => ({ value, unit: '%' });
const px = (value: number): Length => ({ value, unit: 'px' });
const anyLength = (q: Quantity) => !q.signed && (q.unit === '' || q.unit === 'px' || q.unit === '%');
const lengthOf = (q: Quantity | undefined): Length | undefined => (q ? { value: q.value, unit: q.unit === '%' ? '%' : 'px' } : undefined);
const unsignedPercent = (q: Quantity) => q.unit === '%' && !q.signed;
const unsignedTimes = (q: Quantity) => q.unit === 'x' && !q.signed;

/** "smart", "on the subject", "around the face": sharp's attention strategy. */
const ATTENTION = phrases(
  'content aware',
  'main subject',
  'interesting|important part',
  'centered on',
  'smart|smartly|intelligent|intelligently|auto|automatic|automatically|attention|subject|focus|focused|focusing|salient|around|keep|keeping|face|faces|person',
);

function gravity(c: Clause): Gravity {
  if (c.takeEvery(ATTENTION)) return 'attention';
  if (c.takePhrase(words('entropy'))) return 'entropy';
  return c.position() ?? 'center';
}

/** "800 wide", "width 800", "800 in width": a side in pixels said with its name. */
function side(c: Clause, after: Phrases, before: ReadonlySet<string>): number | undefined {
  const all = c.words();
  for (const [i, word] of all.entries()) {
    const q = quantityOf(word);
    if (!q || !isWholePixels(q)) continue;
    const end = endAt(all, after, i + 1);
    if (end > 0) {
      c.remove(i, end);
      return q.value;
    }
  }
  for (const [i, word] of all.entries()) {
    if (!before.has(word)) continue;
    const at = SIDE_LINKS.has(all[i + 1] ?? '') ? i + 2 : i + 1;
    const q = quantityOf(all[at] ?? '');
    if (q && isWholePixels(q)) {
      c.remove(i, at + 1);
      return q.value;
    }
  }
  return undefined;
}
const SIDE_LINKS = new Set(['of', 'to', '=', 'at', 'is']);
const WIDE = phrases('in width', 'wide|width|across|horizontally');
const TALL = phrases('in height', 'tall|high|height|vertically');

const ON_LONG_EDGE = phrases('on|along|for [the] long|longest|longer edge|side');

/** "longest side 1200", "1200 on the long edge": both sides at most that. */
function longEdge(c: Clause): number | undefined {
  const all = c.words();
  const named = find(all, phrases('long|longest|longer|max|maximum edge|side|dimension [of|to|at|is]'));
  if (named) {
    const q = quantityOf(all[named.end] ?? '');
    if (q && isWholePixels(q)) {
      c.remove(named.start, named.end + 1);
      return q.value;
    }
  }
  for (const [i, word] of all.entries()) {
    const q = quantityOf(word);
    const end = q && isWholePixels(q) ? endAt(all, ON_LONG_EDGE, i + 1) : -1;
    if (end > 0) {
      c.remove(i, end);
      return q!.value;
    }
  }
  return undefined;
}

/** Named screen sizes. */
const SCREENS: Record<string, [number, number]> = { '4k': [3840, 2160], uhd: [3840, 2160], '8k': [7680, 4320], hd: [1280, 720], fhd: [1920, 1080], fullhd: [1920, 1080] };

/** "1080p": a height in lines. */
function linesHeight(c: Clause): number | undefined {
  const all = c.words();
  const at = all.findIndex((word) => word.endsWith('p') && (word.length === 4 || word.length === 5) && quantityOf(word.slice(0, -1))?.integer === true && quantityOf(word.slice(0, -1))?.unit === '');
  if (at < 0) return undefined;
  c.remove(at, at + 1);
  return Number(all[at]!.slice(0, -1));
}

const SHRINK = words('shrink shrunk downsize downscale downsample smaller tinier littler');
/** A size in pixels said with no unit up to this reads as well as a percentage. */
const MAX_SHARE_LIKE = 100;
const GROW = words('enlarge enlarged upscale upscaled upsize upsample grow bigger larger');
/**
 * "reduce the size", "increase the resolution": verbs of any amount are the size's way only with
 * the size said (its noun, a length, a box). Of the picture alone ("increase it by 20%", "reduce
 * it", "lower it 10%") light, contrast or colour may as well be meant: asked (refusal.ts).
 */
const LESS_OF = words('reduce reduced decrease decreased lower lowered');
const MORE_OF = words('increase increased raise raised');
/**
 * "scale it up", "size it down": a particle is the size's way only with a verb of size. Alone
 * ("turn it up to 120%", "turn it down a lot") it names no quality: light, contrast or colour may
 * as well be meant (asked, refusal.ts).
 */
const UP_PARTICLE = words('up');
const WAY_PARTICLE_WORDS = words('up down');
const DOWN_PARTICLE = words('down');
/**
 * The number of pixels said with its way ("more pixels", "use more megapixels", "higher
 * resolution", "lower res"): a larger or smaller picture. Nouns of the count, and the words that
 * say which way it goes.
 */
const RESOLUTION_UP = phrases('more|higher|greater pixels|megapixels|megapixel|resolution|res', 'high|hi resolution|res');
const RESOLUTION_DOWN = phrases('fewer|less|lower pixels|megapixels|megapixel|resolution|res', 'low|lo resolution|res');
const RESIZE_VERBS = phrases('as big|large', 'resize|resizes|resized|resizing|rescale|rescales|rescaled|scale|scales|scaled|scaling|resample|size|sizes|sized|dimension|dimensions|resolution|megapixels');
const FIT_INSIDE = phrases(
  'fit|fits|fitting [in|within|inside|into]',
  'at most',
  'no larger|bigger|more than',
  'bounding box',
  'keep|keeping|preserve|preserving|maintain|maintaining [aspect] ratio|proportions',
  'within|inside|max|maximum|proportional|proportionally',
);
const FIT_FILL = phrases('ignore|ignoring [aspect] ratio|proportions', 'stretch|stretched|stretching|exact|exactly|distort|distorted|distorting|squash|squashed|force|forces|forced');
const FIT_COVER = phrases('crop|cropping to fill', 'fill|filling [frame]', 'cover|covering');
const FIT_CONTAIN = phrases('with|add bars', 'contain|letterbox|letterboxed|pillarbox|pillarboxed|pad|padded|padding');
// "increase the width and height": both sides said together are the size (one alone may be a stretch, canvas or a crop).
const SIZE_WORDS = phrases(
  '[the] as big|large',
  '[the] canvas|image size',
  '[the] aspect ratio',
  '[both] [the] width and [the] height',
  '[both] [the] height and [the] width',
  '[the] original|size|big|large|dimensions|proportions',
);

/** What a resize needs, accepts and takes when not said: the registry's (operations/geometry.ts). */
const RESIZE = readingOf('resize');

const resize: Rule = {
  op: 'resize',
  parse(c) {
    const fewerPixels = c.takeEvery(RESOLUTION_DOWN);
    const morePixels = c.takeEvery(RESOLUTION_UP);
    if (fewerPixels && morePixels) return undefined;
    let shrink = c.takeEvery(SHRINK) || fewerPixels;
    let grow = c.takeEvery(GROW) || morePixels;
    const verb = c.takeEvery(RESIZE_VERBS);
    // "change the size to 800x600", "set the dimensions to …": the size named is what changes
    // ("change the size by 10%" says no way, and is asked).
    if (verb && !c.hasPhrase(words('by'))) c.takeEvery(words('change changed set adjust alter modify'));
    const [up, down] = [c.takeEvery(UP_PARTICLE), c.takeEvery(DOWN_PARTICLE)];
    if ((up || down) && !verb && !shrink && !grow) return undefined;
    const [less, more] = [c.takeEvery(LESS_OF), c.takeEvery(MORE_OF)];
    // Whether the clause says its way only by a verb of any amount; then the size must be named.
    const amountOnly = (less || more) && !shrink && !grow;
    shrink ||= down || less;
    grow ||= up || more;
    // "increase the width and decrease the height", "enlarge it and shrink it": both ways at once: asked.
    if (shrink && grow) return undefined;
    let fit: 'inside' | 'cover' | 'fill' | 'contain' | undefined;
    if (c.takeEvery(FIT_INSIDE)) fit = 'inside';
    if (c.takeEvery(FIT_FILL)) fit = 'fill';
    if (c.takeEvery(FIT_COVER)) fit = 'cover';
    // "with white bars": the bars' colour said between "with" and "bars".
    let background: Color | undefined = c.words().some((word) => BAR_WORDS.has(word)) ? c.color() : undefined;
    if (c.takeEvery(FIT_CONTAIN)) {
      fit = 'contain';
      background ??= c.color();
      c.takePhrase(words('bar bars background'));
    }
    let width: Length | undefined;
    let height: Length | undefined;
    const box = c.size();
    if (box) {
      width = px(box.width);
      height = px(box.height);
      fit ??= defaultsOf(RESIZE, 'box').fit;
    }
    const lines = linesHeight(c);
    if (lines !== undefined) height = px(lines);
    const named = c.takePhrase(phrases('full hd', '4k|uhd|8k|fhd|fullhd|hd'));
    // "make it HD", "more hd": a screen's name alone is a wish for quality as often as a size, and
    // fitted inside it a large photo shrinks: a size only with a verb of size ("resize to 4k").
    if (named && !verb && !grow && !shrink) return undefined;
    if (named) {
      const [w, h] = SCREENS[named.words.join('')] ?? [1920, 1080];
      [width, height, fit] = [px(w), px(h), fit ?? 'inside'];
    }
    const wide = side(c, WIDE, new Set(['width']));
    if (wide !== undefined) width = px(wide);
    const tall = side(c, TALL, new Set(['height']));
    if (tall !== undefined) height = px(tall);
    const edge = longEdge(c);
    if (edge !== undefined) [width, height, fit] = [px(edge), px(edge), 'inside'];
    const all = c.words();
    const at = all.findIndex((word) => quantityOf(word)?.unit === '%');
    // "resize to 800x600 and 50%": a share beside a size said otherwise is two sizes (the share had won): asked.
    const sized = width !== undefined || height !== undefined;
    if (sized && (at >= 0 || all.some((word) => quantityOf(word) !== undefined && unsignedTimes(quantityOf(word)!)))) return undefined;
    if (at >= 0) {
      const q = quantityOf(all[at]!)!;
      const link = all[at - 1] === 'by' || all[at - 1] === 'to' ? all[at - 1] : undefined;
      c.remove(link ? at - 1 : at, at + 1);
      const p = Math.abs(q.value);
      // "enlarge to 50%", "shrink to 150%": a size on the other side of the picture as it is goes against the verb: asked.
      if (link === 'to' && ((grow && p <= 100) || (shrink && p >= 100))) return undefined;
      // "shrink by 200%" would leave nothing (it was a size of -100%), "enlarge by 0%" changes nothing: asked.
      if (link !== 'to' && (shrink || grow) && !q.signed && (p === 0 || (shrink && p >= 100))) return undefined;
      const by = link === 'by' || (link !== 'to' && (shrink || grow) && !q.signed);
      // "make it 200% bigger", "enlarge by 150%": a growth of more than a whole size is as often
      // meant as the size it ends at (twice as big, 150%) as added to it: asked.
      if (by && grow && p > 100) return undefined;
      const value = by && shrink ? 100 - p : by && grow ? 100 + p : q.signed && q.value < 0 ? 100 - p : q.signed ? 100 + p : p;
      [width, height, fit] = [pct(value), pct(value), 'fill'];
    }
    const times = c.takeQuantity(unsignedTimes);
    if (times) {
      // "0.5 times bigger", "0.8 times smaller": a factor against the way: asked (it had shrunk the picture).
      if (times.value <= 1 && (shrink || grow)) return undefined;
      const value = times.value * 100;
      const share = Math.round((shrink ? 10000 / value : value) * 1000) / 1000;
      [width, height, fit] = [pct(share), pct(share), 'fill'];
    }
    // "resize by 50" says no unit: a share or pixels, either way, is asked about.
    const rest = c.words();
    if (!width && !height && rest.some((word, i) => word === 'by' && isBare(rest[i + 1]))) return undefined;
    if (!width && !height) {
      const at = rest.findIndex((word) => quantityOf(word) !== undefined && isWholePixels(quantityOf(word)!));
      const bare = c.takeQuantity(isWholePixels);
      // "enlarge it by 100 pixels", "make it 2 pixels bigger": a change in pixels, which only the
      // size as it is turns into a size (it was read as the size itself): asked. "enlarge it to
      // 2000 pixels" is the size.
      if (bare && (shrink || grow) && rest[at - 1] !== 'to') return undefined;
      // "resize to 50", "resize 80": a number no picture is wide in pixels may as well be a share: asked.
      if (bare && bare.value <= MAX_SHARE_LIKE) return undefined;
      if (bare && (verb || shrink || grow)) [width, height, fit] = [px(bare.value), px(bare.value), 'inside'];
      else if (bare) return undefined;
    }
    const sizeSaid = c.takeEvery(SIZE_WORDS);
    if (amountOnly && !sizeSaid && !verb && !fewerPixels && !morePixels && !box && lines === undefined && !named && wide === undefined && tall === undefined && edge === undefined) return undefined;
    if (!width && !height) {
      // A scale keeps the proportions ("make it smaller, keep the proportions"); another fit
      // said with it is another request ("add padding and make it smaller" dropped the padding).
      if (fit !== undefined && fit !== 'inside') return undefined;
      if (!givesNeeded(RESIZE, { direction: shrink || grow })) return undefined;
      const value = levelOf(RESIZE, shrink ? 'smaller' : 'larger', c.level());
      return [{ op: 'resize', width: pct(value), height: pct(value), fit: 'fill' }];
    }
    if (!verb && !shrink && !grow && !box && lines === undefined && !named && wide === undefined && tall === undefined && edge === undefined) return undefined;
    if (wide !== undefined && tall !== undefined) fit ??= defaultsOf(RESIZE, 'box').fit;
    if (width?.value === 0 || height?.value === 0) return undefined;
    return [{ op: 'resize', ...(width && { width }), ...(height && { height }), fit: fit ?? defaultsOf(RESIZE).fit!, ...(background && { background }) }];
  },
};

/**
 * One side of the picture made longer or shorter, the other kept ("stretch it vertically", "squash
 * it horizontally by 20%"): a stretch, which changes the proportions. The verb needs its side said:
 * "stretch it" alone may be any side, or a bigger picture. A side's comparative alone ("make it
 * wider", "taller", "narrower") is not read: more canvas, a crop or a stretch may be meant.
 */
const STRETCHING = words('stretch stretched stretching lengthen lengthened elongate elongated');
const SQUASHING = words('squash squashed squish squished squeeze squeezed compress compressed shrink shrunk');
const ACROSS = words('horizontally sideways widthwise');
const UPRIGHT = words('vertically lengthwise heightwise');
const STRETCH = readingOf('stretch');

const stretch: Rule = {
  op: 'stretch',
  needs: [STRETCHING, SQUASHING],
  parse(c) {
    const way = c.takeEvery(STRETCHING) ? 1 : c.takeEvery(SQUASHING) ? -1 : undefined;
    const axis = c.takeEvery(ACROSS) ? 'horizontal' : c.takeEvery(UPRIGHT) ? 'vertical' : undefined;
    if (way === undefined || axis === undefined) return undefined;
    const all = c.words();
    const at = all.findIndex((word) => quantityOf(word)?.unit === '%' && !quantityOf(word)!.signed);
    let factor: number;
    if (at >= 0) {
      const p = quantityOf(all[at]!)!.value;
      c.remove(all[at - 1] === 'by' ? at - 1 : at, at + 1);
      factor = way > 0 ? 1 + p / 100 : 1 - p / 100;
    } else factor = levelOf(STRETCH, way > 0 ? 'longer' : 'shorter', c.level());
    if (factor < 0.1 || factor > 4) return undefined;
    return [{ op: 'stretch', axis, factor: Math.round(factor * 1000) / 1000 }];
  },
};

/** A whole number with no unit and no sign. */
const isBare = (word: string | undefined) => {
  const q = quantityOf(word ?? '');
  return q !== undefined && q.integer && !q.signed && q.unit === '';
};

const THUMBNAIL = readingOf('thumbnail');

const thumbnail: Rule = {
  op: 'thumbnail',
  needs: [words('thumbnail thumbnails')],
  parse(c) {
    if (!c.takePhrase(words('thumbnail thumbnails'))) return undefined;
    c.takeEvery(words('create generate produce small tiny size sized'));
    const square = c.takePhrase(words('square'));
    const box = c.size();
    // "thumbnail 50%": a share of the picture is no size of the thumbnail in pixels (it had been 50px): asked.
    if (!box && c.words().some((word) => quantityOf(word)?.unit === '%')) return undefined;
    const size = box ? Math.max(box.width, box.height) : (c.takeQuantity(anyLength)?.value ?? THUMBNAIL.defaults.size!);
    if (size < 1) return undefined;
    return square ? [{ op: 'crop_aspect', ratio: [1, 1], gravity: 'attention' }, { op: 'thumbnail', size }] : [{ op: 'thumbnail', size }];
  },
};

/** Verbs of adding, shapes, and the articles that make a shape a thing: "add a circle", "put a square on it". */
const ADDING: ReadonlySet<string> = new Set(['add', 'put', 'place', 'insert', 'overlay']);
const SHAPES: ReadonlySet<string> = new Set(['circle', 'oval', 'square', 'rectangle']);
const ARTICLE: ReadonlySet<string> = new Set(['a', 'an']);
/** Whether a clause adds a shape ("add a circle", "draw a square"): a thing on the picture, which no crop is. */
const addsAShape = (all: string[]) => all.some((word) => ADDING.has(word)) && all.some((word, i) => SHAPES.has(word) && ARTICLE.has(all[i - 1] ?? ''));

const SIDES = phrases('all four sides', 'all sides|edges|around', 'each|every side|edge', 'on every|each side', 'top|bottom|left|right|around|sides|edges|off');
const SIDE_NAMES = words([...SIDE_NAME_WORDS].join(' '));

/**
 * "crop 10px off the sides", "pad the sides": "the sides" with no word of how many may be the left
 * and right or all four (it had been all four): asked. "all sides", "each side", "the left and
 * right sides" say which.
 */
const COUNTED_SIDES = new Set(['all', 'each', 'every', 'four', 'left', 'right', 'top', 'bottom']);
export const sidesUncounted = (words: readonly string[]): boolean => words.includes('sides') && !words.some((word) => COUNTED_SIDES.has(word));

/** "add white space above and below": of a padding, where it goes said of the picture, with nothing after. */
const ABOVE_WORDS: readonly string[] = ['above'];
const BELOW_WORDS: readonly string[] = ['below', 'beneath', 'underneath'];
const OVER_UNDER: ReadonlyArray<[side: 'top' | 'bottom', said: Phrases]> = [
  ['top', phrases(`[up] ${ABOVE_WORDS.join('|')}`)],
  ['bottom', phrases(`[down] ${BELOW_WORDS.join('|')}`)],
];
const OVER_UNDER_WORDS: ReadonlySet<string> = new Set([...ABOVE_WORDS, ...BELOW_WORDS]);

/** What may stand between a growing verb and the way it grows: the picture ("extend the image upwards"). */
const GROWN_OBJECT: ReadonlySet<string> = new Set([...PICTURE_NOUNS, 'the', 'this', 'it', 'its', 'whole', 'entire', 'canvas']);
/** Words after a way that make it no way: a limit ("up to 2000px", "upwards of 100px") or a side's own phrase ("up top", "down below"). */
const WAY_LIMITS: ReadonlySet<string> = new Set(['to', 'of', 'top', 'above', 'bottom', 'below', 'beneath', 'underneath']);

/**
 * "extend the image upwards", "… downwards", "… sideways": of a padding, the way it grows names
 * its sides (the lexicon's `GROWTH_WAYS`). The lexicon reads "upwards" as "up", a word that is
 * otherwise a particle ("set up some padding", "turn it down"), so a way names sides only right
 * after a growing verb and the picture, and never before "to" or "of", which give a limit ("up
 * to 2000px", "upwards of 100px"); read as a particle, "upwards" had padded all four sides.
 */
function grownTowards(all: readonly string[]): string[] {
  const ways: string[] = [];
  for (const [i, word] of all.entries()) {
    if (GROWTH_WAYS[word] === undefined || WAY_LIMITS.has(all[i + 1] ?? '')) continue;
    let verb = i - 1;
    // Over the picture, other ways and sides ("extend the image right and up": a way beside a side, asked below).
    while (verb >= 0 && (GROWN_OBJECT.has(all[verb]!) || GROWTH_WAYS[all[verb]!] !== undefined || SIDE_NAME_WORDS.has(all[verb]!))) verb--;
    if (verb >= 0 && GROWING_VERBS.has(all[verb]!)) ways.push(word);
  }
  return ways;
}

/** Which edges a margin applies to; all four when none is named. `overUnder`: "above" and "below" name a padding's top and bottom; `ways`, the ways it grows (`grownTowards`). */
function sides(c: Clause, length: Length, overUnder = false, ways: readonly string[] = []): { top: Length; right: Length; bottom: Length; left: Length } {
  const zero = px(0);
  const result = { top: zero, right: zero, bottom: zero, left: zero };
  let named = false;
  for (const [side, said] of overUnder ? OVER_UNDER : []) {
    if (c.takePhrase(said)) [result[side], named] = [length, true];
  }
  for (const way of ways) {
    const at = c.words().indexOf(way);
    if (at < 0) continue;
    for (const side of GROWTH_WAYS[way]!) [result[side], named] = [length, true];
    c.remove(at, at + 1);
  }
  for (let m = c.takePhrase(SIDES); m; m = c.takePhrase(SIDES)) {
    const word = m.words[0]! as 'top' | 'right' | 'bottom' | 'left';
    if (word in result) [result[word], named] = [length, true];
  }
  return named ? result : { top: length, right: length, bottom: length, left: length };
}

/** What "crop off the top" cuts when no amount is said, and "a little" of it: the registry's (operations/geometry.ts). */
const CROP_MARGIN = readingOf('crop_margin');
const DEFAULT_CROP_MARGIN: Length = pct(levelOf(CROP_MARGIN, 'percent', 'normal'));
const SLIGHT_CROP_MARGIN: Length = pct(levelOf(CROP_MARGIN, 'percent', 'slight'));

const TAKING_AWAY_VERBS: ReadonlySet<string> = new Set(['remove', 'shave', 'chop']);
/** Words of asking around a crop that say nothing of it ("crop the edges please"). */
const CLOSING_WORDS: ReadonlySet<string> = new Set(['please', 'pls', 'plz', 'thanks', 'thx', 'now']);

/** "crop the top", "cut the left side by 10%": a side named right after the verb, cut. */
// "crop the top and bottom", "trim the left and right edges": two sides cut, a tenth of each.
const SIDE_CUT = phrases(
  'crop|cut|trim [the] top|bottom|left|right [side|edge] [of] [the|this]',
  // "crop the edges", "trim the edges off": in from every side (plain edges are trimmed: "crop the white edges").
  'crop|cut|trim|remove [out|off] [the|all] [four] edges [out|off] [of] [the|this]',
  'crop|cut|trim [the] top|bottom|left|right and [the] top|bottom|left|right [side|sides|edge|edges] [of] [the|this]',
);

const cropMargin: Rule = {
  op: 'crop_margin',
  needs: [words('crop cropped cut trim remove shave chop take')],
  parse(c) {
    if (!c.takeEvery(words('crop cropped cut trim remove shave chop take'))) return undefined;
    if (c.words().some((word) => boxOf(word) !== undefined)) return undefined;
    // "crop out the top left quarter": a corner cut away leaves no rectangle (read as its two
    // sides, an L of the picture went).
    if (namesCorner(c.words())) return undefined;
    const given = lengthOf(c.takeQuantity(anyLength));
    // "crop 10px off the top" cuts; "crop to the top half" keeps (the crop reading). "crop out the
    // top and bottom" names the edges and no amount: a tenth of the picture off each.
    const named = c.hasPhrase(SIDE_NAMES) || isWhole(c.canonical.split(' ').filter((word) => word !== 'slightly' && !isFiller(word)), SIDE_CUT);
    // A part of a side ("remove the top part"), "a little" of one ("crop the top a little"), or a
    // side cropped ("crop the bottom of the image") is cut off too; kept, it is said with "to"
    // ("crop to the bottom") or as a share ("crop the left half"), which the crop reading reads.
    const byGiven = c.canonical.split(' ').some((word, i, all) => word === 'by' && quantityOf(all[i + 1] ?? '') !== undefined);
    const said = c.canonical.split(' ').filter((word, i, all) => !(quantityOf(word) && (quantityOf(word)!.unit === 'px' || quantityOf(word)!.unit === '%')) && !(word === 'by' && quantityOf(all[i + 1] ?? '')));
    // "remove the left half": a verb of taking away with a share or length says the part is cut
    // ("remove the top" alone may be a garment); so does an amount said with "by" ("crop the edges by 10%").
    const cut =
      byGiven ||
      (given !== undefined && c.canonical.split(' ').some((word) => TAKING_AWAY_VERBS.has(word))) ||
      c.hasPhrase(words('off from away each every all around out')) ||
      c.hasPhrase(phrases('top|bottom|left|right part|parts|portion|portions|section|sections|strip|strips')) ||
      (named && !given && c.hasPhrase(words('slightly'))) ||
      // A share of a side said bare ("crop the left third", "crop the bottom 10%") may be the part
      // kept or the part cut away, whatever its size: asked (refusal.ts). "by" says it is cut.
      (isWhole(said.filter((word) => !CLOSING_WORDS.has(word)), SIDE_CUT) && !(given?.unit === '%' && !byGiven));
    if (!(given || named) || !c.hasPhrase(SIDES) || !cut || sidesUncounted(c.canonical.split(' '))) return undefined;
    const margins = sides(c, given ?? (c.takePhrase(words('slightly')) ? SLIGHT_CROP_MARGIN : DEFAULT_CROP_MARGIN));
    // Cutting all of the picture away ("crop 100% from the top", "50% from each side") is asked about.
    const share = (length: Length) => (length.unit === '%' ? length.value : 0);
    if (share(margins.top) + share(margins.bottom) >= 100 || share(margins.left) + share(margins.right) >= 100) return undefined;
    c.takeEvery(words('off away out edge edges margin margins border part parts portion portions section sections strip strips side sides'));
    return [{ op: 'crop_margin', ...margins }];
  },
};


/** What a crop needs, accepts and takes when not said: the registry's (operations/geometry.ts). */
const CROP = readingOf('crop');
const CENTER = defaultsOf(CROP).gravity!;

const crop: Rule = {
  op: 'crop',
  needs: [phrases('cut out', 'keep only', 'crop|cropped|cropping|cut|keep|extract')],
  parse(c) {
    const verb = c.takeEvery(phrases('cut out', 'keep only', 'crop|cropped|cropping|cut|keep|extract'));
    if (!verb) return undefined;
    // "crop it closer", "crop more tightly": in from every side, as "zoom in" does.
    if (c.takePhrase(phrases('[in] closer|tighter', '[in] more tightly'))) {
      const keep = levelOf(CROP, 'closer', c.level());
      return [{ op: 'crop', width: pct(keep), height: pct(keep), gravity: CENTER }];
    }
    const where = gravity(c);
    const box = c.size();
    if (box) return [{ op: 'crop', width: px(box.width), height: px(box.height), gravity: where }];
    // "keep the left half", "crop to the top third".
    const part = c.takeQuantity(unsignedPercent)?.value;
    if (part !== undefined && where !== 'attention' && where !== 'entropy') {
      const vertical = where.startsWith('top') || where.startsWith('bottom');
      const horizontal = where.endsWith('left') || where.endsWith('right');
      // Without "to", "keep" or "only" a share may as well be what is cut ("crop 10%", "crop the
      // left third", "crop the right half"), whatever its size: asked (refusal.ts), never kept
      // for one size and cut for another.
      const keeps = c.canonical.split(' ').includes('keep') || c.hasPhrase(words('to only'));
      if (!keeps || part <= 0 || part > 100) return undefined;
      if (!vertical && !horizontal) return [{ op: 'crop', width: pct(part), height: pct(part), gravity: CENTER }];
      // "keep the top left quarter": a corner's quarter of the picture is half of each side
      // (read as a quarter of each, a sixteenth was kept); another share of a corner is asked.
      if (vertical && horizontal) return part === 25 ? [{ op: 'crop', width: pct(50), height: pct(50), gravity: where }] : undefined;
      return [{ op: 'crop', width: horizontal ? pct(part) : pct(100), height: vertical ? pct(part) : pct(100), gravity: where }];
    }
    return undefined;
  },
};

const ASPECT = phrases('aspect [ratio]', 'crop|ratio|shape|format');
const CROP_SIDES: ReadonlySet<string> = new Set(['top', 'bottom', 'left', 'right', 'upper', 'lower', 'middle', 'center', 'centre']);

const cropAspect: Rule = {
  op: 'crop_aspect',
  parse(c) {
    // "add a square": a shape added to the picture, not the picture cut to one.
    if (addsAShape(c.words())) return undefined;
    // "square" or "16:9" alone: a crop is the common reading, so the verb is optional.
    c.takeEvery(phrases('aspect [ratio]', 'crop|cropped|cropping|cut|reframe|make|ratio', 'down'));
    // "crop to the top 2/3", "the left 3/4": a fraction right after a side is that side's share
    // of the picture, not a shape (read as one, it had cropped to 2:3).
    const said = c.words();
    if (said.some((word, i) => word.includes('/') && CROP_SIDES.has(said[i - 1] ?? ''))) return undefined;
    const ratio = c.ratio();
    if (!ratio) return undefined;
    c.takeEvery(ASPECT);
    return [{ op: 'crop_aspect', ratio, gravity: gravity(c) }];
  },
};

/** What a rotation takes when not said: the registry's (operations/geometry.ts). */
const ROTATE = defaultsOf(readingOf('rotate'));
const TRANSPARENT: Color = ROTATE.background!;

/** A colour counts only when said to be the background ("with a white background", "fill with red"). */
function rotationBackground(c: Clause): Color {
  if (!c.hasPhrase(words('background fill filled corner corners behind gap gaps empty with'))) return TRANSPARENT;
  const color = c.color();
  c.takeEvery(phrases('empty area|areas|space', 'background|fill|filled|corner|corners|behind|gap|gaps'));
  return color ?? TRANSPARENT;
}

const TURNS = words('clockwise cw right counterclockwise ccw left');
const BACKWARDS = new Set(['counterclockwise', 'ccw', 'left']);
const signedDegrees = (q: Quantity) => q.unit === 'deg';
const signedNumber = (q: Quantity) => q.unit === '';

/** "a quarter turn" (25% by now): the turn it names. */
function fractionOfTurn(c: Clause): number | undefined {
  const all = c.words();
  const at = all.findIndex((word, i) => (word === '25%' || word === '50%') && all[i + 1] === 'turn');
  if (at < 0) return undefined;
  c.remove(at, at + 2);
  return all[at] === '25%' ? 90 : 180;
}

/**
 * "change it to 90 degrees", "set the angle to 45°": an angle in degrees that the picture is
 * changed to is a turn by it. Only with the degrees said: "change it to 90" may be anything.
 */
const CHANGED_TO = phrases('change|changed|set|switch|adjust [it|the] [image|photo|picture|angle|orientation] to');
function angleChanged(c: Clause): boolean {
  if (!c.words().some((word) => quantityOf(word)?.unit === 'deg') || !c.hasPhrase(CHANGED_TO)) return false;
  c.takeEvery(CHANGED_TO);
  return true;
}

const rotate: Rule = {
  op: 'rotate',
  parse(c) {
    // "it's tilted 3 degrees": how it leans now, a fault whose way back is not said (straighten
    // reads it when the way is said), never a further turn; "make it tilted", "tilt it" make one.
    if (c.hasPhrase(FAULT_WORDS) && !c.hasPhrase(MAKING) && !c.hasPhrase(ASKED_TURNS)) return undefined;
    // "turn it upside down": said with a turn that names no angle, it is the flip (read there);
    // "rotate it upside down" names the turn, half of one. "turn it right side up" rights a
    // picture that is upside down, which a half turn does (a flip would leave it mirrored).
    if (c.hasPhrase(UPSIDE_DOWN) && !c.hasPhrase(ROTATING_VERBS)) return undefined;
    let degrees = fractionOfTurn(c);
    // "tilt it to the left": a tilt is a small turn, never the quarter turn a direction alone gives.
    const tiltOnly = c.hasPhrase(TILTS) && !c.hasPhrase(TURNING_VERBS);
    // "put it the right way up", "flip it right side up": righted, whatever the verb.
    const righted = c.hasPhrase(RIGHT_WAY_UP) && c.takeEvery(words('make put get set flip flipped'));
    if (!c.takeEvery(words('rotate rotates rotated rotating rotation turn turned spin tilt tilted')) && !righted && degrees === undefined && !angleChanged(c)) return undefined;
    const angle = degrees === undefined ? (c.takeQuantity(signedDegrees) ?? c.takeQuantity(signedNumber)) : undefined;
    degrees ??= angle?.value;
    // "turn it upside down then rotate 90 degrees": an angle said beside it is another turn (read
    // together, the half turn had overridden the 90 degrees).
    if (c.hasPhrase(TOP_TO_BOTTOM) && degrees !== undefined) return undefined;
    if (c.takePhrase(TOP_TO_BOTTOM)) degrees = 180;
    if (c.takePhrase(phrases('sideways', 'on|onto its|the side'))) degrees ??= 90;
    // "turn it up on the left": up or down beside a turn is the way of an amount (of what?), not
    // of the turn, and never a filler here: asked.
    if (c.hasPhrase(WAY_PARTICLE_WORDS)) return undefined;
    const direction = c.takePhrase(TURNS)?.words[0];
    c.takeEvery(phrases('to the', 'direction|around|by'));
    const background = rotationBackground(c);
    // "rotate the image" alone names no angle: the planner asks (see questions.ts).
    if (degrees === undefined && (!direction || tiltOnly)) return undefined;
    // "rotate it counterclockwise by -90": a sign beside a way is two ways at once (which wins?): asked.
    if (direction && angle?.signed && angle.value < 0) return undefined;
    degrees ??= ROTATE.degrees!;
    if (direction && BACKWARDS.has(direction)) degrees = -degrees;
    const normalized = ((degrees % 360) + 360) % 360;
    return [{ op: 'rotate', degrees: Math.round(normalized * 1000) / 1000, background }];
  },
};

const FAULT_WORDS = words('crooked skewed tilted slanted leaning leans tilt');
/** "upside down", "right side up": the picture's top and bottom swapped. */
const UPSIDE_DOWN = phrases('upside down');
const RIGHT_WAY_UP = phrases('right|correct side|way up', 'the right|correct way up');
const TOP_TO_BOTTOM = phrases('upside down', 'right|correct side|way up', 'the right|correct way up');
/** Verbs that name a turn by an angle ("rotate", "spin"), as against "turn", said of a flip too. */
const ROTATING_VERBS = words('rotate rotates rotated rotating rotation spin');
/** "turn it upside down", "make it upside down": a flip top to bottom. */
const FLIPPED_OVER = phrases('turn|turned|make|put|get|set [it|this|the|that] upside down');
const TILTS = words('tilt tilted tilting tilts');
const TURNING_VERBS = words('rotate rotates rotated rotating rotation turn turned spin');
/** Verbs that ask for a turn, as against the participles that may say one made ("rotated", "tilted"). */
const ASKED_TURNS = words('rotate turn spin tilt');
/** Beside a tilt said ("the horizon has a 2 degree tilt"), only these ask the turn: "tilt" there is the fault's noun. */
const TURNS_ASKED_BESIDE_TILT = words('rotate turn spin');
/** "make it tilted", "add a slight tilt": a tilt made, the opposite of levelling, unless a word of levelling is said too ("make it straight"). */
const MAKING = words('make makes made add give put');
const LEVEL_WORDS_SAID = words('straighten straight level leveled levelled deskew untilt fix horizon');
wordClass('mend', MENDING_VERBS);
const LEVELLING = phrases(
  'auto straighten|level',
  'straighten [up]',
  'level [out|off]',
  // A mending verb takes the lean away, whatever the lean is called ("correct the slant").
  '@mend [the] tilt|slant|skew|angle|horizon|lean',
  'remove|reduce [the] tilt|slant|skew|lean',
  'align [the] horizon',
  'de skew',
  'un tilt',
  'straight|leveled|levelled|deskew|untilt|horizon|crooked|skewed|tilted|slanted|leaning|leans',
);

/**
 * "straighten the image", "level the horizon", "rotate it slightly": a small turn, cropped so no
 * corner is empty. Without an angle the tilt is measured from the image (see the executor).
 */
const straighten: Rule = {
  op: 'straighten',
  parse(c) {
    // "it's tilted 3 degrees to the right" says the fault: the turn that fixes it goes the other way.
    const fault = c.hasPhrase(FAULT_WORDS) && !(c.hasPhrase(TILTS) && !c.hasPhrase(LEVELLING) && c.hasPhrase(CROPPED_AFTER_TURN));
    // "it's crooked, rotate it 2 degrees right": the way said with a turn asked is the turn's.
    const turnAsked = c.hasPhrase(TURNS_ASKED_BESIDE_TILT);
    if (c.hasPhrase(MAKING) && !c.hasPhrase(LEVEL_WORDS_SAID)) return undefined;
    // "rotate it 2 degrees and crop", "tilt one degree to the right, recrop", "straighten and
    // crop": a small turn cropped after it, with no size said, is cropped so no corner is empty,
    // which levelling by that angle does (the turn asked, not a tilt said of the picture).
    const said = c.words();
    const cropAt = find(said, CROPPED_AFTER_TURN)?.start ?? -1;
    const cropped = cropAt > 0 && said.slice(0, cropAt).some((word) => TURNED_OR_LEVELLED.has(word)) && c.takeEvery(CROPPED_AFTER_TURN);
    const level = c.takeEvery(LEVELLING);
    // "tilt it a bit" makes a tilt: no levelling.
    const rotateSlightly = c.hasPhrase(words('rotate rotation turn')) && c.hasPhrase(words('slightly'));
    if (!level && !rotateSlightly && !cropped) return undefined;
    c.takeEvery(phrases('they re', 'rotate|rotation|turn|tilt|slightly|horizon|horizontal|vertical|line|lines|standing|stand|stands|theyre|are|so|until|till|is|out'));
    const degrees = c.takeQuantity(signedDegrees)?.value ?? c.takeQuantity(signedNumber)?.value;
    const direction = c.takePhrase(TURNS)?.words[0];
    // "the horizon is crooked by 3 degrees" says not which way: the turn back is not known.
    if (degrees !== undefined && fault && !direction) return undefined;
    // "rotate it and crop": a turn with no angle is not a levelling measured from the picture.
    if (degrees === undefined && !level && !rotateSlightly) return undefined;
    if (degrees !== undefined) {
      const asked = direction && BACKWARDS.has(direction) ? -degrees : degrees;
      const signed = fault && !turnAsked ? -asked : asked;
      return Math.abs(signed) <= 45 ? [{ op: 'straighten', degrees: signed }] : undefined;
    }
    return direction ? undefined : [{ op: 'straighten' }];
  },
};

/** Words of a turn or a levelling, after which a crop with nothing of its own is the levelling's. */
const TURNED_OR_LEVELLED: ReadonlySet<string> = new Set(['rotate', 'rotation', 'turn', 'tilt', 'straighten', 'level']);
/** A crop said after a turn with nothing of its own: "and crop", "then recrop it". */
const CROPPED_AFTER_TURN = phrases('[and|then] [re] crop|recrop|cropped|recropped [it|again]');
const ZOOMS = phrases('zoom|magnify|closeup [in|out|into] [on]', 'close up [in|out|into] [on]');
const OUTER_CUT = phrases('crop|cut|trim [off|out|away] [the|all] outer|outside|outermost area|areas|part|parts|portion|portions|edges|region|regions [off|out|away]');
const NEARER_VERBS = new Set(['move', 'bring', 'appear', 'seem', 'look']);
const NEARER_OBJECTS = new Set(['it', 'the', 'this', 'whole', 'entire', 'everything']);
const PARTICLES = new Set(['in', 'out', 'into']);

/** "move the picture closer", "make it appear closer": seen from nearer, a zoom in (the verb and its object taken, "closer" left). */
function nearer(c: Clause): boolean {
  const all = c.words();
  for (const [i, word] of all.entries()) {
    if (!NEARER_VERBS.has(word)) continue;
    let end = i + 1;
    while (NEARER_OBJECTS.has(all[end] ?? '')) end++;
    if (all[end] === 'closer') {
      c.remove(i, end);
      return true;
    }
  }
  return false;
}

/** "zoom in" is a centred crop, "zoom out" extends the canvas (white unless a colour is said). */
const zoom: Rule = {
  op: 'crop',
  parse(c) {
    const zoomed = c.takePhrase(ZOOMS);
    // "crop the outer area of the image", "cut off the outside parts": the picture's own outside
    // taken off all round, which is what a zoom in does.
    const moved = !zoomed && (nearer(c) || c.takePhrase(OUTER_CUT) !== undefined);
    if (!zoomed && !moved) return undefined;
    const particle = zoomed?.words.find((word) => PARTICLES.has(word));
    const out = particle === 'out';
    // "zoom" alone says which way only beside "crop" ("crop and zoom") or "on" ("zoom on the
    // picture"); said alone as a clause it was read as "zoom in" before (rule-planner.ts).
    if (zoomed && !particle && zoomed.words[0] === 'zoom' && zoomed.words.at(-1) !== 'on' && !c.hasPhrase(words('crop'))) return undefined;
    const degree = c.level();
    const times = c.takeQuantity(unsignedTimes);
    // "zoom in to 200%" is the zoom's level (2x), as "brighten to 150%" is; "zoom in 50%" and "by
    // 50%" a change (1.5x). A level on the other side of 100% ("zoom in to 50%") is asked.
    const all = c.words();
    const to = all.findIndex((word, i) => word === 'to' && quantityOf(all[i + 1] ?? '')?.unit === '%');
    if (to >= 0) c.remove(to, to + 1);
    // "zoom in 50% more", "by 50%": a change said. "by 150%" may be the zoom it ends at or that
    // much added, as "enlarge by 150%" may: asked (amounts.ts says why).
    const changeSaid = c.hasPhrase(words('by more'));
    const percent = c.takeQuantity(unsignedPercent);
    if (percent && percent.value >= 100 && c.hasPhrase(words('by')) && !c.hasPhrase(words('more'))) return undefined;
    // From 100% up a share says the level too ("zoom in 150%" is 1.5x, as a viewer shows its zoom),
    // never that much more unless "by" or "more" says so (it had cropped to 40%, a 2.5x zoom);
    // "zoom in 100%" changes nothing: asked.
    const asLevel = percent !== undefined && (to >= 0 || (!out && percent.value >= 100 && !changeSaid));
    const level = percent && asLevel ? (out ? 100 / percent.value : percent.value / 100) : undefined;
    let factor = times ? times.value : level !== undefined ? level : percent ? 1 + percent.value / 100 : levelOf(CROP, 'zoom', degree);
    if (!(factor > 1 && factor <= 20)) return undefined;
    c.takeEvery(words('center centre middle'));
    if (!out) {
      c.takeEvery(phrases('more tightly', 'closer|tighter|tightly'));
      c.takeEvery(words('crop'));
      const keep = Math.round((100 / factor) * 1000) / 1000;
      return [{ op: 'crop', width: pct(keep), height: pct(keep), gravity: CENTER }];
    }
    const background = c.color() ?? barsColor(c);
    c.takeEvery(words('background with'));
    factor = Math.round(((factor - 1) / 2) * 100 * 1000) / 1000;
    return [{ op: 'pad', top: pct(factor), right: pct(factor), bottom: pct(factor), left: pct(factor), background }];
  },
};

const flip: Rule = {
  op: 'flip',
  needs: [words('vertical vertically flip flipped mirror mirrored upside side')],
  parse(c) {
    // The labels' and most people's "upside down" is the flip, top to bottom.
    if (c.takePhrase(FLIPPED_OVER)) return c.hasPhrase(words('axis')) ? undefined : [{ op: 'flip' }];
    const flipped = c.takePhrase(
      phrases('vertical|vertically flip|mirror', 'flip|flipped|mirror|mirrored [it|this|the|that] vertical|vertically|over', 'flip|flipped|mirror|mirrored [it|this|the|that] upside down', 'flip|flipped|mirror|mirrored [it|this|the|that] top to bottom'),
    );
    if (!flipped || c.hasPhrase(words('axis'))) return undefined;
    c.takeEvery(phrases('vertical|vertically'));
    return [{ op: 'flip' }];
  },
};

/** The way a mirror turns the picture ("left to right", "horizontally"). */
const SIDE_TO_SIDE = phrases('left [to] right', 'right [to] left', 'side to side', 'horizontal|horizontally|sideways');

const mirror: Rule = {
  op: 'mirror',
  needs: [phrases('mirror|mirrored [image]', 'flop|flopped|flip|flipped|reflect|reflected|reverse|reversed', 'horizontal|horizontally flip|mirror')],
  parse(c) {
    // "flip it on the horizontal axis": an axis named is the line flipped across (top to bottom)
    // to some and the direction of the flip (left to right) to others: asked.
    if (c.hasPhrase(words('axis'))) return undefined;
    // "reverse it left to right": reversed along a way, a mirror (reversed alone, its colours may be meant).
    const reversed = c.hasPhrase(SIDE_TO_SIDE) && c.takeEvery(words('reverse reversed'));
    if (!c.takeEvery(phrases('mirror|mirrored [image]', 'flop|flopped|flip|flipped|reflect|reflected', 'horizontal|horizontally flip|mirror')) && !reversed) return undefined;
    // "flip it to the left": which way it faces after, which is a mirror either way. "flip it
    // over horizontally": over, that way.
    c.takeEvery(phrases('[over] left [to] right', '[over] right [to] left', 'side to side', 'to [the] left|right', '[over] horizontal|horizontally|sideways'));
    return [{ op: 'mirror' }];
  },
};

const PLAIN_COLORS: ReadonlySet<string> = new Set(['black', 'white']);
// Bars of one colour are at the edges (letterbox bars), whoever says them; a line or a strip may be anywhere.
const PLAIN_AREAS = phrases('empty|blank|white|black|plain space|area|areas|border|borders|margin|margins|edge|edges|part|parts|bar|bars');
const PLAIN_LINES = phrases('empty|blank|white|black|plain line|lines|strip|strips|stripe|stripes|box|boxes');
const TRIMMED = phrases('white space', 'border|borders|whitespace|margin|margins|uniform|excess|extra|surrounding|space|padding');
const EDGE_PLACES = phrases('on|at|along|from|around [the|both|all|each] side|sides|edge|edges|top|bottom|left|right|border|borders|top-and-bottom', 'on|at either side');
const BESIDE = phrases('above|below|under|over|around|beside|behind the|her|his|their', 'next to the|her|his|their', 'on top of the|her|his|their');

const trim: Rule = {
  op: 'trim',
  parse(c) {
    // A line or bar of one colour is cut off an edge ("crop the black line out"); removed, it
    // may be anywhere in the picture ("remove the white lines").
    const cropping = c.hasPhrase(phrases('auto crop', 'crop|cut|trim|trimmed|autocrop'));
    const bare = c.takeEvery(phrases('auto crop', 'trim|trimmed|autocrop'));
    // "remove the frame": a frame taken off is a plain border trimmed (a frame put on is a border).
    const framed = c.hasPhrase(words('remove removed removing')) && c.takeEvery(words('frame frames'));
    // ("take off the white border", "take away the black bars": taken off, as removed.)
    const verb = c.takeEvery(phrases('remove|delete|erase|cut|crop [out]', 'take off|away|out'));
    // "remove the black", "crop out the white": a plain colour said as a noun, with nothing after
    // it, is the plain area at the edges ("all of the black", "the black colour" are the colour).
    const rest = c.words().filter((word) => word !== 'out');
    const nominal = verb && rest.length === 2 && rest[0] === 'the' && PLAIN_COLORS.has(rest[1]!);
    if (nominal) c.remove(0, c.words().length);
    const plain = nominal ? { start: 0, end: 0, words: rest } : (c.takePhrase(PLAIN_AREAS) ?? (cropping ? c.takePhrase(PLAIN_LINES) : undefined));
    const what = c.takeEvery(TRIMMED) || plain !== undefined || framed;
    // "trim" alone trims uniform borders; "crop" alone asks for what to crop (questions.ts).
    if (!(bare || (verb && what)) || (!what && c.words().length > 0)) return undefined;
    // "crop the white area above the girl": a plain area cropped is one at an edge, which
    // trimming finds by itself; where the person says it is only locates it. Removed ("remove
    // the black area behind the logo"), it may be anywhere: that clause is not read.
    if (plain && cropping) {
      const all = c.words();
      for (let from = 0, m = find(all, BESIDE); m; m = find(all, BESIDE, ++from)) {
        if (m.end === all.length - 1) {
          c.remove(m.start, all.length);
          break;
        }
        from = m.start;
      }
    }
    // "cut off the black bars on the sides", "the white border at the top and bottom": the edges
    // they are at, where trimming finds them by itself.
    if (plain || what) c.takeEvery(EDGE_PLACES);
    c.takeEvery(words('around off away out'));
    if (c.words().some((word) => !isFiller(word))) return undefined;
    return [{ op: 'trim', threshold: STEPS.trim!.steps[c.level()] }];
  },
};

/**
 * Words of a padding, in three kinds: growing words ("extend") say one except of a background
 * (below), placing words only beside another padding word, the rest on their own.
 */
const GROWING = [...GROWING_VERBS].join('|');
const PLACING = 'place|centered';
const CANVAS = 'pad|padded|padding|margin|margins|canvas|space|whitespace|room|bar|bars|letterbox|letterboxed|pillarbox|pillarboxed';
const PAD_WORDS = phrases('without cropping', 'by adding', `${CANVAS}|${GROWING}|${PLACING}`);
const CANVAS_NOUNS: ReadonlySet<string> = new Set(CANVAS.split('|'));
/** The bars a picture fitted into a box of another shape gets ("with black bars", "letterbox"). */
const BAR_WORDS: ReadonlySet<string> = new Set(['bar', 'bars', 'letterbox', 'letterboxed', 'pillarbox', 'pillarboxed']);
/** Words that make a colour after them an amount of it ("some red", "more blue"). */
const COLOR_AMOUNTS: ReadonlySet<string> = new Set(['some', 'more', 'less', 'extra']);
const PADDING_NAMED = phrases('without cropping', 'by adding', `${CANVAS}|${GROWING}`);
const CANVAS_NAMED = phrases('without cropping', 'by adding', CANVAS);
const GROWING_ONLY = phrases(GROWING);
const ONLY_PLACED = phrases(PLACING);

/** Letterbox and pillarbox bars are black, as in film; other padding is white. */
const barsColor = (c: Clause): Color => (c.canonical.split(' ').some((word) => word.startsWith('letterbox') || word.startsWith('pillarbox')) ? BLACK : WHITE);

const padAspect: Rule = {
  op: 'pad_aspect',
  needs: [PAD_WORDS],
  parse(c) {
    if (!c.takeEvery(PAD_WORDS)) return undefined;
    const ratio = c.ratio();
    if (!ratio) return undefined;
    const background = c.color() ?? barsColor(c);
    c.takeEvery(phrases('aspect [ratio]', 'background|ratio|side|sides|around|canvas|color'));
    return [{ op: 'pad_aspect', ratio, background }];
  },
};

const padTo: Rule = {
  op: 'pad_to',
  needs: [PAD_WORDS],
  parse(c) {
    // "make it 1080x1080 with white bars": bars round a size are the picture fitted into it (a
    // resize that letterboxes); padded only, a larger picture came back unchanged.
    if (c.words().some((word) => BAR_WORDS.has(word)) && !c.words().some((word) => CANVAS_NOUNS.has(word) && !BAR_WORDS.has(word))) return undefined;
    if (!c.takeEvery(PAD_WORDS)) return undefined;
    const box = c.size();
    if (!box) return undefined;
    const background = c.color() ?? barsColor(c);
    c.takeEvery(words('background canvas around centered center'));
    return [{ op: 'pad_to', width: box.width, height: box.height, background }];
  },
};

/**
 * "extend the image", "expand it": more canvas around it, as most people mean (the default
 * margin when no length is said). "extend the background" asks for new content: of a background,
 * growing words say a padding only with its colour. Placing a picture on a background says a
 * padding only with a canvas or a size: "place the image on a yellow background" may as well ask
 * for its own background to turn yellow.
 */
const PAD = readingOf('pad');

/** "enlarge at the bottom", "lengthen it on the left": a size grown at a side named is more canvas there (grown all round, it is a resize). */
const GROWN_AT = phrases('enlarge|enlarged|lengthen|lengthened|grow|widen');
const AT_A_SIDE = phrases('at|on|along|to [the] top|bottom|left|right [side|edge]');

/**
 * "add more black area below", "expand the white area on the left": an area is new canvas only as
 * the object of a verb of adding or growing, with at most its colour and a degree between them,
 * and nothing after it but the sides it goes at. Any other area is a part of the picture ("the
 * white area", "add some blue to the area at the top", "make the area on the left more white").
 */
const AREA_NOUN_SET: ReadonlySet<string> = new Set(['area', 'areas']);
const AREA_NOUNS = words([...AREA_NOUN_SET].join(' '));
const AREA_VERBS: ReadonlySet<string> = new Set(['add', 'added', 'adding', ...GROWING_VERBS]);
const AREA_LEADS: ReadonlySet<string> = new Set(['a', 'an', 'the', 'some', 'more', 'little', 'bit', 'extra', 'slightly', 'strongly', 'light', 'dark', 'pale']);
/** Words that may follow a new area: where it goes ("… down below and up above", "… on the left and the right"). */
const AREA_PLACES: ReadonlySet<string> = new Set([...SIDE_NAME_WORDS, ...OVER_UNDER_WORDS, ...PICTURE_NOUNS, 'at', 'on', 'to', 'in', 'along', 'the', 'and', 'both', 'up', 'down', 'side', 'sides', 'edge', 'edges', 'of', 'it']);

function areaAdded(all: readonly string[]): boolean {
  const noun = all.findIndex((word) => AREA_NOUN_SET.has(word));
  if (noun < 0) return false;
  let verb = noun - 1;
  let colors = 0;
  for (; verb >= 0; verb--) {
    const word = all[verb]!;
    if (namedColor(word) !== undefined) colors++;
    // A length is how much ("add a 50px black area"); a bare number is how many ("add 2 white areas").
    else if (!AREA_LEADS.has(word) && quantityOf(word)?.unit !== 'px' && quantityOf(word)?.unit !== '%') break;
  }
  if (verb < 0 || !AREA_VERBS.has(all[verb]!) || colors > 1) return false;
  const after = all.slice(noun + 1);
  // Two sides are said joined ("below and above"); "at the bottom to the top" is where it reaches, not two areas.
  const sidesSaid = after.filter((word) => SIDE_NAME_WORDS.has(word) || OVER_UNDER_WORDS.has(word)).length;
  return all.slice(0, verb).every(isFiller) && after.every((word) => AREA_PLACES.has(word)) && sidesSaid > 0 && (sidesSaid === 1 || after.includes('and'));
}
const areaAtASide = (c: Clause): boolean => !c.hasPhrase(CANVAS_NAMED) && areaAdded(c.words());

const pad: Rule = {
  op: 'pad',
  needs: [[...PAD_WORDS, ...GROWN_AT, ...AREA_NOUNS]],
  parse(c) {
    if (areaAtASide(c)) {
      c.takeEvery(AREA_NOUNS);
      c.takeEvery(phrases([...AREA_VERBS].join('|')));
      const length = lengthOf(c.takeQuantity(anyLength)) ?? px(levelOf(PAD, 'pixels', c.level()));
      const background = c.color() ?? defaultsOf(PAD).background!;
      return [{ op: 'pad', ...sides(c, length, true), background }];
    }
    if (c.hasPhrase(GROWN_AT) && !c.hasPhrase(PAD_WORDS)) {
      if (!c.hasPhrase(AT_A_SIDE)) return undefined;
      c.takeEvery(GROWN_AT);
      c.takeEvery(words('at on along to side edge'));
      return [{ op: 'pad', ...sides(c, px(levelOf(PAD, 'pixels', c.level())), true), background: c.color() ?? defaultsOf(PAD).background! }];
    }
    if (!c.hasPhrase(PADDING_NAMED) && c.hasPhrase(ONLY_PLACED)) return undefined;
    // "extend the image upwards on all sides", "… downwards at the top": a way grown and a side
    // named disagree: asked.
    const ways = grownTowards(c.words());
    if (ways.length > 0 && (c.hasPhrase(SIDES) || OVER_UNDER.some(([, said]) => c.hasPhrase(said)))) return undefined;
    // "upwards extend the image": a way said elsewhere than after the verb and the picture is
    // asked, never passed over as a particle (it had padded all four sides).
    if (c.hasPhrase(GROWING_ONLY) && c.words().some((word, i, all) => GROWTH_WAYS[word] !== undefined && !WAY_LIMITS.has(all[i + 1] ?? '') && !ways.includes(word))) return undefined;
    // "add some red and extend the image sideways": a colour said as an amount ("some red", "more
    // blue") is colour for the picture, never the new canvas's (read as it, the bars had been red).
    if (c.words().some((word, i, all) => namedColor(word) !== undefined && COLOR_AMOUNTS.has(all[i - 1] ?? '') && !CANVAS_NOUNS.has(all[i + 1] ?? ''))) return undefined;
    const growing = c.hasPhrase(GROWING_ONLY);
    const growingOnly = growing && !c.hasPhrase(CANVAS_NAMED);
    const canvas = c.hasPhrase(CANVAS_NAMED);
    if (!c.takeEvery(PAD_WORDS)) return undefined;
    // "make the canvas bigger": a larger canvas is more of it round the picture.
    if (canvas) c.takeEvery(words('bigger larger'));
    // "extend the outer areas", "extrude the edges of the image": the picture's own edges grown outwards.
    if (growingOnly) c.takeEvery(phrases('[the] outer|outside area|areas|edge|edges|parts|border|borders [of]', '[the] edges|edge [of]'));
    // "extend the image (up) to 2000px", "expand the canvas to 3000px": grown, a length after "to"
    // is the size wanted, not a margin (it had been 2000px on every side); "increase the padding
    // to 40px" is the padding's.
    if (growing && c.words().some((word, i, all) => all[i - 1] === 'to' && quantityOf(word) !== undefined)) return undefined;
    const given = lengthOf(c.takeQuantity(anyLength));
    const length = given ?? px(levelOf(PAD, 'pixels', c.level()));
    const color = c.color();
    if (growingOnly && !color && c.hasPhrase(words('background'))) return undefined;
    // Letterbox bars are black, above and below; pillarbox bars at the sides.
    const said = c.canonical.split(' ');
    const letterbox = said.some((word) => word.startsWith('letterbox'));
    const pillarbox = said.some((word) => word.startsWith('pillarbox'));
    const background = color ?? (letterbox || pillarbox ? BLACK : defaultsOf(PAD).background!);
    c.takeEvery(words('background color white'));
    if (sidesUncounted(said)) return undefined;
    const zero = px(0);
    const barred = letterbox !== pillarbox ? (letterbox ? { top: length, right: zero, bottom: length, left: zero } : { top: zero, right: length, bottom: zero, left: length }) : undefined;
    return [{ op: 'pad', ...(barred ?? sides(c, length, true, ways)), background }];
  },
};

const FRAME_NOUNS = new Set(['background', 'area', 'band', 'strip', 'line']);
const THIN = new Set(['thin', 'narrow', 'hairline', 'fine']);
/**
 * Words said of a border that give its colour by a shade alone, right before the border's noun
 * ("a dark border", "a dark line border"): the plain colour of that shade. Only before the noun:
 * "make the border dark" changes a border already there.
 */
const BORDER_SHADES: Readonly<Record<string, string>> = { dark: 'black' };
/** "a line border", "a black line around the picture": a border drawn as a line is a thin one. */
const LINE_WORDS: ReadonlySet<string> = new Set(['line']);

/** The border's shade said right before its noun, or before "line" and its noun: taken, as a colour. */
function borderShade(c: Clause): Color | undefined {
  const all = c.words();
  const at = all.findIndex((word, i) => BORDER_SHADES[word] !== undefined && (BORDER_NOUNS.has(all[i + 1] ?? '') || (LINE_WORDS.has(all[i + 1] ?? '') && BORDER_NOUNS.has(all[i + 2] ?? ''))));
  if (at < 0) return undefined;
  const shade = BORDER_SHADES[all[at]!]!;
  c.remove(at, at + 1);
  return namedColor(shade);
}

/** "a line border": the line that is the border, taken; true when there was one. */
function lineOfBorder(c: Clause): boolean {
  const all = c.words();
  const at = all.findIndex((word, i) => LINE_WORDS.has(word) && BORDER_NOUNS.has(all[i + 1] ?? ''));
  if (at < 0) return false;
  c.remove(at, at + 1);
  return true;
}

/** "a white background around the picture" is a frame of the whole picture: the noun before "around" taken. */
function frameAround(c: Clause): boolean {
  let found = false;
  for (;;) {
    const all = c.words();
    const at = all.findIndex((word, i) => FRAME_NOUNS.has(word) && all[i + 1] === 'around');
    if (at < 0) return found;
    c.remove(at, at + 1);
    found = true;
  }
}

/** What a border takes when not said: the registry's (operations/geometry.ts). */
const BORDER = readingOf('border');

const CHANGING = phrases('change|changed|switch|turn [the] [color] to|into');
const BORDER_NOUNS: ReadonlySet<string> = new Set(['border', 'borders', 'frame', 'frames']);
const PLURAL_FRAMES: ReadonlySet<string> = new Set(['borders', 'frames']);

/** Nouns of several sides a number may count ("a border on three sides"). */
const SIDE_NOUNS: ReadonlySet<string> = new Set(['sides', 'edges', 'corners']);

const border: Rule = {
  op: 'border',
  needs: [words('border borders frame framed frames framing outline background area band strip line')],
  parse(c) {
    // "add 2 borders": a count of borders, not a width (it drew one 2 px wide); so is a count of
    // sides ("a border on three sides": which three?).
    if (c.words().some((word, i, all) => (PLURAL_FRAMES.has(word) || SIDE_NOUNS.has(word)) && quantityOf(all[i - 1] ?? '')?.unit === '' && all[i - 2] !== 'all')) return undefined;
    // "a very dark border", "a really light grey frame": the intensifier is the shade's, not the width's.
    const intensified = c.words().findIndex((word, i, all) => SHADE_INTENSIFIERS.has(word) && (SHADE_WORDS.has(all[i + 1] ?? '') || namedColor(all[i + 1] ?? '') !== undefined));
    if (intensified >= 0) c.remove(intensified, intensified + 1);
    const shade = borderShade(c);
    const line = lineOfBorder(c) || c.words().some((word, i, all) => LINE_WORDS.has(word) && all[i + 1] === 'around');
    const framed = c.takeEvery(words('border borders frame framed frames framing outline'));
    if (!framed && !frameAround(c)) return undefined;
    if (framed) frameAround(c);
    const said = c.color();
    if (said && shade) return undefined;
    const color = said ?? shade;
    // "change the border to black", "change the frame colour to red": the border's colour said as
    // a change to it; a border of that colour is what is asked. A bare outline changed may be a
    // drawn thing's ("change the outline to black"): only the picture's own (spellings.ts).
    if (color && c.hasPhrase(CHANGING)) {
      if (!c.canonical.split(' ').some((word) => BORDER_NOUNS.has(word))) return undefined;
      c.takeEvery(CHANGING);
      c.takeEvery(words('color'));
    }
    // "on all four sides": every side, no width.
    c.takeEvery(phrases('all 4|four sides|edges'));
    let width = c.takeQuantity(isPixels)?.value;
    const thickness = c.takePhrase(words('thin thick fat wide narrow hairline fine bold heavy'))?.words[0];
    if (width === undefined) {
      const level = c.level();
      width = thickness || line ? defaultsOf(BORDER, !thickness || THIN.has(thickness) ? 'thin' : 'thick').width! : STEPS.border!.steps[level];
    }
    if (width < 1) return undefined;
    // "add a white border at the bottom": a border on the sides named is canvas of its colour
    // there (a border goes all round; refused, it had asked for a model).
    // Added ("add", "put"), on sides named one by one, never a corner ("at the bottom left" may be either side).
    if (c.hasPhrase(SIDE_NAMES) && !c.hasPhrase(words('around all every each')) && c.words().some((word) => ADDING.has(word)) && !namesCorner(c.words())) {
      const margins = sides(c, px(Math.round(width)));
      c.takeEvery(words('side sides edge edges only'));
      return [{ op: 'pad', ...margins, background: color ?? defaultsOf(BORDER).color! }];
    }
    // "a rectangular outline": the shape every border has.
    c.takeEvery(words('wide thick width around edge edges side sides colored solid all every each rectangular rectangle'));
    return [{ op: 'border', width: Math.round(width), color: color ?? defaultsOf(BORDER).color! }];
  },
};

const ROUNDING = phrases(
  'round|rounded [off] [the] corner|corners',
  // "round the edges", "make the frame curvy": a rectangle's edges rounded are its corners.
  'round|rounded|curve|curved|curvy [off] [the] edges|frame',
  'edges|frame|corner|corners round|rounded|curved|curvy',
  'soft|soften|curve|curved [the] corner|corners',
  'corner|corners radius|rounded|round',
  'corner rounding',
  'border radius',
  'borderradius|radius',
);

const ROUND_CORNERS = readingOf('round_corners');
/** Words that name the rounding itself, beside a radius. */
const ROUNDING_NAMES: ReadonlySet<string> = new Set(['round', 'rounded', 'rounding', 'corner', 'corners', 'edges', 'frame', 'curve', 'curved', 'curvy', 'border', 'borderradius']);

const roundCorners: Rule = {
  op: 'round_corners',
  needs: [ROUNDING],
  parse(c) {
    // "add a vignette with a radius of 50%": "a radius" with nothing of corners is another edit's
    // (read with "with" as a thing added, rounded corners were added); "round the corners with a
    // radius of 20px" and "radius 20px" name the rounding.
    const said = c.canonical.split(' ');
    if (said.some((word, i) => word === 'radius' && said[i - 1] === 'a') && said.every((word) => !ROUNDING_NAMES.has(word))) return undefined;
    if (!c.takePhrase(ROUNDING)) return undefined;
    const length = lengthOf(c.takeQuantity(anyLength));
    const level = c.level();
    c.takeEvery(words('radius corner corners'));
    return [{ op: 'round_corners', radius: length ?? pct(levelOf(ROUND_CORNERS, 'percent', level)) }];
  },
};


const CIRCLE_WORDS: ReadonlySet<string> = new Set(['circle', 'circular', 'round', 'oval', 'ellipse']);
/** Words of the oval the whole picture holds, where a circle is cut from a square. */
const OVAL_WORDS = words('oval ovals ellipse elliptical');
const THING_DETERMINERS: ReadonlySet<string> = new Set(['the', 'this', 'that', 'these', 'those', 'his', 'her', 'their', 'my']);

const circle: Rule = {
  op: 'circle',
  needs: [phrases('profile picture', 'circle|circular|round|circled|avatar|oval|ellipse|elliptical')],
  parse(c) {
    // "add a circle", "draw a circle", "put a circle on it": a shape added to the picture, not the picture cut to one.
    if (addsAShape(c.words())) return undefined;
    // "crop out the oval mirror", "the round logo": a thing of that shape in the picture, not the picture's.
    const all = c.words();
    if (all.some((word, i) => CIRCLE_WORDS.has(word) && THING_DETERMINERS.has(all[i - 1] ?? ''))) return undefined;
    const oval = c.takeEvery(OVAL_WORDS);
    if (!c.takeEvery(phrases('profile picture', 'circle|circular|round|circled|avatar')) && !oval) return undefined;
    c.takeEvery(phrases('cut|crop [out]', 'cropped|shape|shaped|shapes|mask|masked|style'));
    return [oval ? { op: 'circle', shape: 'oval' } : { op: 'circle' }];
  },
};

/** The readings of geometry, in the order they are tried. */
export const geometryReadings: Rule[] = [thumbnail, roundCorners, circle, zoom, straighten, flip, mirror, rotate, cropMargin, crop, cropAspect, padAspect, padTo, pad, border, trim, resize, stretch];
