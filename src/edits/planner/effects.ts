import type { Color, EditOperation, Length, OutputFormat, Position } from '../plan.ts';
import { MAX_LINE_GROWTH } from '../plan-schema.ts';
import { readingOf, STEPS } from '../operations/registry.ts';
import { isPercent, isPixels, isWholePixels, quantityOf, type Clause, type Quantity } from './clause.ts';
import { phrases, wordClass, words, type Phrases } from './phrases.ts';
import { POSSESSIVES, WRITING_NOUNS } from './lexicon.ts';
import type { Rule } from './rule.ts';
import { namedColor } from './colors.ts';
import { defaultsOf, givesNeeded } from './slots.ts';

/**
 * How the filter, overlay and format operations are read. Most are data: the words that ask for
 * the operation (`asks`), words that turn the clause into another operation's (`unless`), words
 * it takes besides (`accepts`), and the one number a clause may give for its strength, whose
 * default at each degree is the registry's. A few (text, watermark, format) read several slots
 * and are small functions over the same kind of word tables.
 */

interface Reading {
  op: EditOperation['op'];
  asks: Phrases;
  unless?: Phrases;
  accepts?: Phrases;
  /** The number a clause may give for the strength, and what it is in the parameter. */
  amount?: { fits: (q: Quantity) => boolean; value?: (q: Quantity) => number };
  /** The strength's range as the planner takes it: [min, max], or (0, max] when min is 0. */
  range?: readonly [number, number];
  /** Changes the number before the range is checked (a median window is odd). */
  adjust?: (value: number) => number;
}

const fraction = { fits: isPercent, value: (q: Quantity) => q.value / 100 };
const pixels = { fits: isPixels };
const wholePixels = { fits: isWholePixels };

// The verbs that lessen a haze or the noise ("lessen", "weaken" and "minimize" are read as "diminish"), and the haze itself.
wordClass('lessen', 'remove reduce clear cut less lower decrease diminish eliminate fix'.split(' '));
wordClass('veil', 'haze haziness fog fogginess mist cloudiness'.split(' '));

const READINGS: readonly Reading[] = [
  {
    op: 'blur',
    asks: phrases('blur|blurred|blurry|blurring|gaussian|soften|softened|defocus|defocused|unfocus|unfocused', 'out of focus'),
    accepts: phrases('radius|sigma|amount|strength|effect|out|everything', '[the] focus [of]'),
    amount: pixels,
    range: [0.3, 100],
  },
  {
    op: 'sharpen',
    asks: phrases('sharpen|sharpened|sharpening|sharper|sharpness|crisp|crisper|crispen|clarity|clearer|deblur', 'unsharp [mask]', 'more|enhance detail|details'),
    accepts: words('radius sigma amount edges detail details focus'),
    amount: pixels,
    range: [0.1, 10],
  },
  {
    op: 'pixelate',
    asks: phrases('pixelate|pixelated|pixelation|pixelize|pixelized|mosaic|8bit|8-bit|blocky', '8 bit', 'pixel art', 'pixel|pixels'),
    // "more pixels", "fewer megapixels": how many pixels the picture has, its resolution (geometry.ts), not big ones.
    unless: phrases('more|fewer|less|higher|lower|greater pixels|megapixels', 'megapixel|megapixels'),
    accepts: phrases('block size', 'block|blocks|cell|cells|tile|tiles|size|effect|style|look|big|large|each'),
    amount: wholePixels,
    range: [2, 500],
  },
  // Film grain: "grainy" and "add noise" ask for it, "reduce the noise" is denoise.
  {
    op: 'noise',
    // "a rough texture": a surface said to be coarse is grain over the picture.
    // "tv static": a screen's snow is grain; "static" alone may be what does not move.
    asks: phrases('film grain', 'rough|coarse|gritty|grainy texture', '[analog|analogue|old] tv|television|screen static', 'analog|analogue static', 'static noise|effect|texture|look|grain', 'grain|grainy|noise|noisy|grit|gritty'),
    unless: words('reduce remove less clean cut rid fix without no decrease diminish lower denoise'),
    accepts: words('film effect texture look'),
    amount: fraction,
    range: [0, 1],
  },
  // Not "halo": one is added over a head as often as around the lights. "dreamy" is a soft glow, not a defocus.
  {
    op: 'glow',
    asks: phrases('glow|glowing|glowy|bloom', 'orton [effect]', 'soft focus', 'dreamy [glow]'),
    accepts: words('soft effect dreamy'),
    amount: fraction,
    range: [0, 1],
  },
  { op: 'sketch', asks: phrases('pencil|charcoal sketch|drawing', 'hand drawn sketch|drawing', 'sketch|sketched|sketchy', 'pencil effect|style|look', 'line drawing', 'drawing'), accepts: words('pencil effect style like look into convert of') },
  // A radial (zoom) blur, asked by its name; "zoom in" alone is a crop (geometry.ts).
  {
    op: 'radial_blur',
    asks: phrases('radial|zoom|burst blur|blurring', 'blur [it|this] radially', 'radial|radially [motion] blur'),
    accepts: words('effect style look filter from the center centre middle out outward outwards'),
    amount: fraction,
    range: [0, 1],
  },
  {
    op: 'distort',
    asks: phrases('distort|distorted|distortion', 'wave|wavy [distortion]', 'ripple|rippled|ripples|warp|warped|swirl|swirls|swirled|swirling|swirly'),
    accepts: words('effect distortion wave like water'),
    amount: fraction,
    range: [0, 1],
  },
  {
    op: 'denoise',
    asks: phrases(
      'denoise|denoised|despeckle',
      // A picture smoothed keeps its edges: the grain goes, not the detail ("smooth this image").
      'smooth|smoothen|smoothed|smoother [out]',
      'noise reduction',
      '@lessen [some] [of] [the] noise|grain|speckle|speckles|static',
      'clean up [some] [of] [the] noise|grain|speckle|speckles',
      'median [filter]',
      'less grainy|noisy',
      'reduce|remove|fix [the] grainy|noisy look|appearance|effect',
      'reduce|remove|fix [the] graininess|noisiness',
      'no|without noise|grain',
      'take|get [some] [of] [the] noise|grain out',
    ),
    accepts: words('size window filter of quality out noise grain'),
    amount: wholePixels,
    adjust: (size) => (size % 2 === 0 ? size + 1 : size),
    range: [3, 15],
  },
  // Haze over the whole picture. Not "the clouds" (the sky's content) nor a coloured haze, which is a cast.
  {
    op: 'dehaze',
    asks: phrases(
      'dehaze|dehazed',
      'haze removal',
      '@lessen [up|through] [some] [of] [the|this] @veil',
      '@lessen [up|through] [some] [of] [the|this] hazy|foggy|misty look|effect|veil|layer',
      'less hazy|foggy|misty',
      'no|without @veil',
      'no|without hazy|foggy|misty look|effect|veil|layer',
    ),
  },
  {
    op: 'vignette',
    // "add shading around the edges", "shadows on the sides": shade put at the picture's rim all round.
    asks: phrases(
      'vignette|vignetting|vignetted',
      'darken [the] corners|edges|sides',
      'dark|darker|darkened corners|edges|sides',
      // "make the edges darker", "burn the corners", "fade the edges to black": the rim darkened.
      'make [the] corners|edges darker|dark',
      'burn|shade [in] [the] corners|edges',
      'fade [the] corners|edges to|into black|dark',
      'shadow|shadows|shadowing|shading|darkness|darkening on|around|at|along|to [all] [the] corners|edges|sides',
    ),
    accepts: words('black dark around edges corners sides effect'),
    amount: fraction,
    range: [0, 1],
  },
  { op: 'emboss', asks: words('emboss embossed embossing relief'), accepts: words('effect style look') },
  {
    op: 'edges',
    asks: phrases(
      '[only] show [the] [only] [the] outline|outlines',
      'edge detect|detection|detected',
      'edgedetect|edgedetection',
      'detect|find|show [the] edges',
      'edge|edges only',
      'only [the] edges',
      'edge filter|map',
      'outline|outlines only',
      // "outline all the shapes": the lines of every thing drawn, not a border (which outlines
      // the picture); "turn it into an outline", "an outline drawing" is that drawing.
      'outline|outlines|outlining [all] [of] [the] objects|things|shapes',
      // "a filter that outlines everything": every thing's lines (a border outlines the picture alone).
      'outline|outlines|outlining everything',
      'into [an] outline|outlines [drawing|sketch]',
      // "an outline effect", "make it look like an outline": the picture drawn as one, a look (a border is no effect).
      'outline|outlines effect|filter|look|style',
      'like [an] outline|outlines [drawing|sketch]',
      'outline drawing|sketch',
      'edges|laplacian',
    ),
  },
  {
    op: 'compress',
    // "reduce the quality and size": the size is the picture's too (a resize), not only the file's.
    unless: phrases('quality and|& size', 'size and|& quality'),
    asks: phrases(
      'compress|compressed|compression',
      'smaller|lighter|lower|reduce|reduces|reduced|shrink|minimize [the] file [size]',
      // "lower the quality" with no level: a smaller file, the encoder's default.
      'lower|reduce|reduced|decrease|drop [the] [image|jpeg|jpg] quality',
      'file [size] smaller|lighter',
      'smaller|lighter|less download|bytes|storage',
      'smaller|lighter|less disk space',
      'optimize|optimizes|optimized for [the] web',
      'optimize|optimizes|optimized|minify',
      'web optimized',
      'smaller file',
    ),
    accepts: phrases('for [the] web', 'size|web|file|more|quality'),
  },
];


function reader(reading: Reading): Rule {
  return {
    op: reading.op as Rule['op'],
    needs: [reading.asks],
    parse(c) {
      // Before the asking words are taken: an `unless` phrase may hold one ("more pixels").
      if (reading.unless && c.hasPhrase(reading.unless)) return undefined;
      if (!c.takeEvery(reading.asks)) return undefined;
      if (reading.accepts) c.takeEvery(reading.accepts);
      const strength = STEPS[reading.op];
      if (!strength) return [{ op: reading.op } as EditOperation];
      const level = c.level();
      const given = reading.amount && c.takeQuantity(reading.amount.fits);
      // "make it 20% stronger", "50% more grain": an amount said against the default step is no
      // level of the effect (0.2 would be weaker): asked.
      if (given && c.canonical.split(' ').some((word) => RELATIVE_WORDS.has(word))) return undefined;
      const raw = given ? (reading.amount!.value?.(given) ?? given.value) : strength.steps[level];
      const value = reading.adjust ? reading.adjust(raw) : raw;
      const [min, max] = reading.range ?? [-Infinity, Infinity];
      const inRange = (min === 0 ? value > 0 : value >= min) && value <= max;
      return inRange ? [{ op: reading.op, [strength.param]: value } as EditOperation] : undefined;
    },
  };
}

/** Comparatives that make an amount a change of the default, not a level of it. */
const RELATIVE_WORDS: ReadonlySet<string> = new Set(['more', 'less', 'stronger', 'weaker', 'bigger', 'smaller', 'larger', 'heavier', 'lighter', 'softer', 'harder', 'strongly']);

// --- Readings of several slots ------------------------------------------------------------

const WHITE: Color = { r: 255, g: 255, b: 255, alpha: 1 };

/** "make the black lines thicker", "thicken the outlines", "bolder lines": lines of a drawing, dark unless said light. */
const LINES = phrases('line work', 'line art', 'line|lines|outline|outlines|stroke|strokes|linework|lineart');
const thickenLines: Rule = {
  op: 'thicken_lines',
  needs: [LINES],
  parse(c) {
    if (!c.hasPhrase(LINES) || !c.takeEvery(words('thick thicker thicken thickened bold bolder bolden heavier fatter wider'))) return undefined;
    c.takeEvery(LINES);
    const light = c.takePhrase(words('white light lighter bright'));
    const dark = c.takePhrase(words('black dark darker'));
    if (light && dark) return undefined;
    c.takeEvery(words('all'));
    c.takeEvery(words('by'));
    const given = c.takeQuantity(isWholePixels)?.value;
    const width = given ?? STEPS.thicken_lines!.steps[c.level()];
    return width >= 1 && width <= MAX_LINE_GROWTH ? [{ op: 'thicken_lines', width, lines: light ? 'light' : 'dark' }] : undefined;
  },
};

/** "darken the lines", "make the pencil strokes darker", "blacken the ink": the strokes of a drawing, darker. */
const STROKES = phrases('line work', 'line art', 'line|lines|stroke|strokes|linework|lineart|ink|inking');
const darkenLines: Rule = {
  op: 'darken_lines',
  needs: [STROKES],
  parse(c) {
    if (!c.takeEvery(STROKES) || !c.takeEvery(words('darken darkened darker blacken blackened deepen deeper'))) return undefined;
    // What the strokes are drawn in ("the pencil lines", "the sketch lines"); a colour would say which lines.
    c.takeEvery(words('pencil sketch drawing drawn all the'));
    const amount = STEPS.darken_lines!.steps[c.level()];
    return [{ op: 'darken_lines', amount }];
  },
};

const OPACITY_WORDS = new Set(['opacity', 'opaque', 'transparent', 'transparency', 'alpha', 'visible']);
const OPACITY_NOUNS = new Set(['opacity', 'transparency', 'alpha']);

/** How opaque an overlay is: "50% opacity", "transparency of 30%", "semi-transparent", "faint". */
function opacity(c: Clause, fallback: number): number | undefined {
  const all = c.words();
  for (const [i, word] of all.entries()) {
    const q = quantityOf(word);
    let named: string | undefined;
    let [start, end] = [i, i + 1];
    if (q && q.unit === '%' && !q.signed && OPACITY_WORDS.has(all[i + 1] ?? '')) {
      named = all[i + 1];
      end = i + 2;
      if (all[i - 1] === 'at') start = i - 1;
    } else if (OPACITY_NOUNS.has(word)) {
      const at = all[i + 1] === 'of' || all[i + 1] === 'at' ? i + 2 : i + 1;
      const value = quantityOf(all[at] ?? '');
      if (value && value.unit === '%' && !value.signed) [named, end] = [word, at + 1];
    }
    if (named === undefined) continue;
    const percent = quantityOf(all.slice(start, end).find((w) => quantityOf(w) !== undefined)!)!.value;
    c.remove(start, end);
    const share = percent / 100;
    return share > 1 ? undefined : named.startsWith('transparen') ? 1 - share : share;
  }
  if (c.takePhrase(phrases('semi transparent', 'half transparent', 'see through', 'semitransparent|translucent'))) return 0.5;
  // "light blue" is a colour (CSS's light shade), not faint blue text.
  const left = c.words();
  const lightShade = left.some((word, i) => word === 'light' && namedColor(`light ${left[i + 1] ?? ''}`) !== undefined);
  if (c.takePhrase(words(lightShade ? 'faint subtle ghosted' : 'faint subtle ghosted light'))) return 0.3;
  if (c.takePhrase(phrases('solid|opaque', 'fully visible'))) return 1;
  return fallback;
}

/** Text sizes in words, in percent of the picture's height. */
const TEXT_SIZES: Record<string, number> = { tiny: 3, small: 4, smaller: 4, medium: 7, normal: 7, big: 12, bigger: 12, large: 12, larger: 12, huge: 20, giant: 20, bold: 9 };
const TEXT_KINDS = words('watermark watermarked caption captioned title titled titles heading headline label labelled signature sign signed stamp stamped');
const TEXT_KIND_WORDS: ReadonlySet<string> = new Set(TEXT_KINDS.flatMap((phrase) => [...phrase.slots[0]!.words]));
const WATERMARK_KINDS = new Set(['watermark', 'watermarked', 'signature', 'sign', 'signed', 'stamp', 'stamped']);
const TITLE_KINDS = new Set(['title', 'titled', 'titles', 'heading', 'headline']);
const TEXT_WORDS = words(`text words word ${[...WRITING_NOUNS].join(' ')} write written writing saying says say reading reads overlay font letters lettering type typed print printed place placed captioned that which stamp insert inserted sign`);
const LETTER_CASES = new Set(['capital', 'uppercase', 'lowercase']);

/** "size 24", "font size 5%", "24px high": the text's size, if one is said. */
const OFFSET_WORDS: ReadonlySet<string> = new Set(['from', 'up', 'down', 'in', 'away', 'off', 'above', 'below', 'left', 'right', 'inside', 'inward', 'inwards']);

function textSize(c: Clause): Length | undefined {
  const all = c.words();
  for (const [i, word] of all.entries()) {
    const q = quantityOf(word);
    if (!q || q.signed || !(q.unit === '' || q.unit === 'px' || q.unit === '%')) continue;
    const sizeBefore = all[i - 1] === 'size';
    // "20px from the bottom", "30px up", "10% in": how far from an edge, not how big: no size read
    // (the clause then keeps the words and is asked about).
    if (!sizeBefore && OFFSET_WORDS.has(all[i + 1] ?? '')) continue;
    if (sizeBefore || q.unit !== '') {
      const start = sizeBefore ? (all[i - 2] === 'font' ? i - 2 : i - 1) : i;
      const after = !sizeBefore && ['high', 'tall', 'size', 'font'].includes(all[i + 1] ?? '') ? 1 : 0;
      c.remove(start, i + 1 + after);
      return { value: q.value, unit: q.unit === '%' ? '%' : 'px' };
    }
  }
  return undefined;
}

/** What a text needs, accepts and takes when not said: the registry's (overlay.ts). */
const TEXT = readingOf('text');

const text: Rule = {
  op: 'text',
  parse(c) {
    // "the letter C": only a letter that is the text itself ("add «C» as the first letter" is not an overlay).
    for (;;) {
      const all = c.words();
      const i = all.findIndex((w, j) => (w === 'letter' || w === 'letters') && all[j + 1]?.startsWith('«q'));
      if (i < 0) break;
      c.remove(LETTER_CASES.has(all[i - 1] ?? '') ? i - 1 : i, i + 1);
    }
    // "add a copyright watermark": the © sign, before the owner's name when one is given.
    const copyright = c.takePhrase(phrases('copyright|copyrighted|© [symbol|sign|notice|mark]')) !== undefined;
    // "add «X» and a watermark": a kind joined on by "and" is a second thing, not this text's kind.
    const said = c.words();
    const [quoteAt, kindAt] = [said.findIndex((w) => w.startsWith('«q')), said.findIndex((w) => TEXT_KIND_WORDS.has(w))];
    if (quoteAt >= 0 && kindAt >= 0 && said.slice(Math.min(quoteAt, kindAt) + 1, Math.max(quoteAt, kindAt)).includes('and')) return undefined;
    // "add «SOLD» and my watermark": someone's own mark or signature is a thing of theirs to add
    // (not given), never the kind of this text; "my watermark «Jo»": the quote right after it is
    // that mark. (Read before the quote is taken, while it still stands where it was said.)
    if (said.some((w, j) => WATERMARK_KINDS.has(w) && POSSESSIVES.has(said[j - 1] ?? '') && !said[j + 1]?.startsWith('«q'))) return undefined;
    const quoted = c.quote();
    const owner = quoted?.trim() ?? '';
    const content = copyright ? (owner ? `© ${owner.startsWith('©') ? owner.slice(1).trim() : owner}` : '©') : quoted;
    if (content === undefined || !givesNeeded(TEXT, { quoted: content.trim() })) return undefined;
    const word = c.takePhrase(TEXT_KINDS)?.words[0] ?? (copyright ? 'watermark' : '');
    c.takeEvery(TEXT_WORDS);
    const defaults = defaultsOf(TEXT, WATERMARK_KINDS.has(word) ? 'watermark' : TITLE_KINDS.has(word) ? 'title' : undefined);
    const corner = c.words().some((w) => w === 'corner' || w === 'corners');
    const below = c.takeEvery(words('underneath below under beneath')) ? 'bottom' : c.takeEvery(words('above')) ? 'top' : undefined;
    const placed = c.position() ?? below;
    // "in the corner": a watermark's own corner (its default); a text's is not said: asked. "in the
    // right corner" names one side of two corners, not which: asked too, for a watermark as well.
    // "across the picture": through its middle.
    const cornerOnly = c.takeEvery(words('corner corners'));
    if (cornerOnly && placed === undefined && !WATERMARK_KINDS.has(word)) return undefined;
    if (corner && placed !== undefined && !placed.includes('-')) return undefined;
    const across = c.takeEvery(words('across'));
    const position: Position = placed ?? (across ? 'center' : defaults.position!);
    // The opacity first: "50% transparent" is how much shows, never a colour nor a size.
    const alpha = opacity(c, defaults.opacity!);
    const color = c.color();
    // "add transparent text": how transparent is not said (and wholly so would show nothing); a
    // watermark is see-through by its own default.
    if (color?.alpha === 0 && !WATERMARK_KINDS.has(word)) return undefined;
    const shown = color?.alpha === 0 ? undefined : color;
    let size = textSize(c);
    // "… and make it 50% smaller", "half as big": a size said against the default, not a size.
    if (size?.unit === '%' && c.canonical.split(' ').some((word) => RELATIVE_WORDS.has(word) || word === 'as')) return undefined;
    const sizeWord = c.takePhrase(words(Object.keys(TEXT_SIZES).join(' ')))?.words[0];
    size ??= sizeWord ? { value: TEXT_SIZES[sizeWord]!, unit: '%' } : { ...defaults.size! };
    if (alpha === undefined || size.value <= 0) return undefined;
    return [{ op: 'text', text: content, position, color: { ...(shown ?? defaults.color!), alpha: 1 }, size, opacity: alpha }];
  },
};

/** A logo's size in words, as a share of the picture's width. */
const LOGO_SIZES: Record<string, number> = { tiny: 0.08, small: 0.12, medium: 0.2, big: 0.35, large: 0.35, huge: 0.6 };
const SCALE_NOUNS = new Set(['size', 'width', 'wide', 'scale']);

/** "at 20% of the size", "scaled to 30%": the logo's width as a share of the picture's. */
function logoScale(c: Clause): number | undefined {
  const all = c.words();
  for (const [i, word] of all.entries()) {
    const q = quantityOf(word);
    if (!q || q.unit !== '%' || q.signed) continue;
    let end = i + 1;
    if (all[end] === 'of') end += all[end + 1] === 'the' ? 2 : 1;
    if (SCALE_NOUNS.has(all[end] ?? '')) {
      c.remove(all[i - 1] === 'at' ? i - 1 : i, end + 1);
      return q.value / 100;
    }
    let start = i - 1;
    if (all[start] === 'of' || all[start] === 'to') start--;
    if (['size', 'width', 'scale', 'scaled'].includes(all[start] ?? '')) {
      c.remove(start, i + 1);
      return q.value / 100;
    }
  }
  return undefined;
}

/** What a logo takes when not said: the registry's (overlay.ts). */
const WATERMARK = readingOf('watermark');

const watermark: Rule = {
  op: 'watermark',
  parse(c) {
    const fileId = c.file();
    if (!fileId || !givesNeeded(WATERMARK, { file: fileId })) return undefined;
    const kind = c.takePhrase(words('watermark watermarked logo stamp overlay badge sticker icon'))?.words[0] ?? '';
    c.takeEvery(phrases('on top', 'place|placed|paste|pasted|insert|inserted|overlay|corner|over|image|file|logo'));
    const defaults = defaultsOf(WATERMARK, kind.startsWith('watermark') ? 'watermark' : undefined);
    const position = c.position() ?? defaults.position!;
    const scaled = logoScale(c);
    const sizeWord = c.takePhrase(words(Object.keys(LOGO_SIZES).join(' ')))?.words[0];
    const scale = scaled ?? (sizeWord ? LOGO_SIZES[sizeWord]! : defaults.scale!);
    const alpha = opacity(c, defaults.opacity!);
    if (alpha === undefined || scale <= 0 || scale > 1) return undefined;
    return [{ op: 'watermark', fileId, position, opacity: alpha, scale }];
  },
};

const FORMATS = words('png jpeg webp avif gif tiff');
const QUALITY_WORDS: Record<string, number> = { max: 100, maximum: 100, best: 95, high: 90, highest: 100, good: 85, medium: 70, low: 50, lowest: 30, lossless: 100 };
const QUALITY_LINKS = new Set(['of', 'to', 'at', '=', 'level']);
const wholeOrPercent = (q: Quantity | undefined) => q !== undefined && q.integer && !q.signed && (q.unit === '' || q.unit === '%');

/** "quality 80", "80% quality", "q=80", "high quality": the encoder's quality, if one is said. */
function quality(c: Clause): number | undefined {
  const all = c.words();
  for (const [i, word] of all.entries()) {
    if (word === 'quality') {
      if (wholeOrPercent(quantityOf(all[i - 1] ?? ''))) {
        c.remove(i - 1, i + 1);
        return quantityOf(all[i - 1]!)!.value;
      }
      const at = QUALITY_LINKS.has(all[i + 1] ?? '') ? i + 2 : i + 1;
      if (wholeOrPercent(quantityOf(all[at] ?? ''))) {
        c.remove(i, at + 1);
        return quantityOf(all[at]!)!.value;
      }
      if (QUALITY_WORDS[all[i - 1] ?? ''] !== undefined) {
        c.remove(i - 1, i + 1);
        return QUALITY_WORDS[all[i - 1]!];
      }
    }
    // "q80", "q=80", "q 80", "q = 80".
    if (word.startsWith('q')) {
      const glued = word.slice(word[1] === '=' ? 2 : 1);
      if (glued !== '' && wholeOrPercent(quantityOf(glued)) && quantityOf(glued)!.unit === '') {
        c.remove(i, i + 1);
        return Number(glued);
      }
      if (word === 'q') {
        const at = all[i + 1] === '=' ? i + 2 : i + 1;
        const q = quantityOf(all[at] ?? '');
        if (q && q.integer && !q.signed && q.unit === '') {
          c.remove(i, at + 1);
          return q.value;
        }
      }
    }
  }
  return undefined;
}

const format: Rule = {
  op: 'format',
  needs: [FORMATS],
  parse(c) {
    const match = c.takePhrase(FORMATS);
    if (!match) return undefined;
    c.takeEvery(phrases('re encode', 'convert|converted|save|saves|saved|saving|export|exported|encode|encodes|encoded|format|file|output|change|switch|type|reencode|as|a|an'));
    const q = quality(c);
    if (q !== undefined && (q < 1 || q > 100)) return undefined;
    return [{ op: 'format', format: match.words[0] as OutputFormat }, ...(q === undefined ? [] : [{ op: 'quality' as const, quality: q }])];
  },
};

const qualityReading: Rule = {
  op: 'quality',
  parse(c) {
    const q = quality(c);
    if (q === undefined || q < 1 || q > 100) return undefined;
    // "lower the quality to 60", "raise it to quality 90": a verb of the way with the level said
    // sets that level (which way it goes from the source's own is the source's).
    c.takeEvery(words('set save export compression encode jpeg lower reduce decrease drop raise increase change the its'));
    return [{ op: 'quality', quality: q }];
  },
};

const METADATA = phrases(
  'meta data',
  'metadata|geolocation|xmp|iptc|tags|geotag|geotags',
  'exif [data]',
  'gps [data|info|information|location|coordinates|tag|tags]',
  'location [data|info|information]',
  'geo tag|tags',
  'camera info|data|details',
);

const stripMetadata: Rule = {
  op: 'strip_metadata',
  parse(c) {
    if (!c.takePhrase(words('strip stripped remove removes removed delete deletes deleted drop clear erase scrub wipe no without discard clean')) || !c.takeEvery(METADATA)) return undefined;
    c.takeEvery(words('all any data info'));
    return [{ op: 'strip_metadata' }];
  },
};

const keepMetadata: Rule = {
  op: 'keep_metadata',
  parse(c) {
    if (!c.takePhrase(phrases('carry over', 'keep|preserve|retain|maintain|leave|copy')) || !c.takeEvery(METADATA)) return undefined;
    c.takeEvery(words('all data info intact original'));
    return [{ op: 'keep_metadata' }];
  },
};

const flatten: Rule = {
  op: 'flatten',
  needs: [words('flatten flattened remove drop no without fill replace make it fully opaque solid')],
  parse(c) {
    const asked = c.takeEvery(
      phrases(
        'flatten|flattened',
        'remove|drop|no|without [the] transparency',
        'remove|drop|no|without [the] alpha [channel]',
        'fill [in] [the] transparent|transparency [areas|area|parts|part|pixels|background|regions|region]',
        'replace [the] transparent|transparency [areas|area|parts|part|pixels|background]',
        '[make] [it] [fully] opaque',
        'solid background',
      ),
    );
    if (!asked) return undefined;
    const background = c.color();
    c.takeEvery(words('background onto over behind color'));
    return [{ op: 'flatten', background: { ...(background ?? WHITE), alpha: 1 } }];
  },
};

const transparentColor: Rule = {
  op: 'transparent_color',
  needs: [phrases('see through', 'transparent|transparency')],
  parse(c) {
    // Only "make <a named colour> transparent": removing a background, or "removing yellow" (a
    // colour cast), is not a uniform colour made transparent.
    if (!c.takeEvery(phrases('see through', 'transparent|transparency'))) return undefined;
    const color = c.color();
    c.takeEvery(words('background backdrop screen bg'));
    if (!color || color.alpha === 0) return undefined;
    c.takeEvery(words('color uniform solid plain pixels area areas everything all'));
    const level = c.level();
    const all = c.words();
    const at = all.findIndex((word, i) => word === 'tolerance' && wholeOrPercent(quantityOf(all[i + 1] ?? '')) && quantityOf(all[i + 1]!)!.unit === '');
    const tolerance = at >= 0 ? Number(all[at + 1]) : STEPS.transparent_color!.steps[level];
    if (at >= 0) c.remove(at, at + 2);
    return [{ op: 'transparent_color', color, tolerance }];
  },
};

/** The readings of filters, overlays and the file, in the order they are tried. */
/**
 * Readings tried after the two readings of drawn lines, so that those take first the words they
 * share ("outline", "edges", "darken"). Named, not counted: a reading added to the table above
 * had shifted every index after it (compress was read as nothing).
 */
const AFTER_LINES: ReadonlySet<string> = new Set(['denoise', 'dehaze', 'vignette', 'emboss', 'edges']);
/** Read after the format's readings: "save as jpeg, compressed to quality 60" is theirs. */
const AFTER_FORMAT: ReadonlySet<string> = new Set(['compress']);
const readingsWhere = (keep: (op: string) => boolean) => READINGS.filter((reading) => keep(reading.op)).map(reader);

export const effectReadings: Rule[] = [
  ...readingsWhere((op) => !AFTER_LINES.has(op) && !AFTER_FORMAT.has(op)),
  thickenLines,
  darkenLines,
  ...readingsWhere((op) => AFTER_LINES.has(op)),
  text,
  watermark,
  format,
  qualityReading,
  ...readingsWhere((op) => AFTER_FORMAT.has(op)),
  stripMetadata,
  keepMetadata,
  flatten,
  transparentColor,
];
