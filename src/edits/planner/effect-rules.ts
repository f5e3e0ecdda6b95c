import type { Color, Length, OutputFormat, Position } from '../plan.ts';
import { MAX_LINE_GROWTH } from '../plan-schema.ts';
import type { Clause } from './clause.ts';
import { takeAll } from './geometry-rules.ts';
import type { Rule } from './rule.ts';

const WHITE: Color = { r: 255, g: 255, b: 255, alpha: 1 };

const blur: Rule = {
  op: 'blur',
  parse(c) {
    if (!takeAll(c, /\b(?:blur(?:red|ry|ring)?|gaussian|soften(?:ed)?|defocus(?:ed)?|out\s+of\s+focus|unfocus(?:ed)?|smooth(?:en|ed)?)\b/)) return undefined;
    takeAll(c, /\b(?:radius|sigma|amount|strength|effect|it\s+out|out|everything|(?:the\s+)?focus(?:\s+of)?)\b/);
    const level = c.level();
    const amount = c.length(/(?:^|\s)(\d+(?:\.\d+)?)(px)?(?=\s|$)/)?.value ?? { slight: 1, normal: 3, strong: 8 }[level];
    return amount >= 0.3 && amount <= 100 ? [{ op: 'blur', sigma: amount }] : undefined;
  },
};

const sharpen: Rule = {
  op: 'sharpen',
  parse(c) {
    if (!takeAll(c, /\b(?:sharpen(?:ed|ing)?|sharper|sharpness|crisp(?:er|en)?|unsharp(?:\s+mask)?|(?:more|enhance)\s+details?|clarity|clearer|deblur)\b/)) return undefined;
    takeAll(c, /\b(?:radius|sigma|amount|edges|details?|focus)\b/);
    const level = c.level();
    const amount = c.length(/(?:^|\s)(\d+(?:\.\d+)?)(px)?(?=\s|$)/)?.value ?? { slight: 0.5, normal: 1, strong: 2 }[level];
    return amount >= 0.1 && amount <= 10 ? [{ op: 'sharpen', sigma: amount }] : undefined;
  },
};

const pixelate: Rule = {
  op: 'pixelate',
  parse(c) {
    if (!takeAll(c, /\b(?:pixelate[d]?|pixelation|pixelize[d]?|mosaic|8[\s-]?bit|pixel[\s-]art|blocky|pixels?)\b/)) return undefined;
    takeAll(c, /\b(?:blocks?|block\s+size|cells?|tiles?|size|effect|style|look|big|large|each)\b/);
    const level = c.level();
    const size = c.length(/(?:^|\s)(\d+)(px)?(?=\s|$)/)?.value ?? { slight: 5, normal: 10, strong: 24 }[level];
    return size >= 2 && size <= 500 ? [{ op: 'pixelate', size }] : undefined;
  },
};

/** Film grain; "grainy" and "add noise" ask for it, "reduce the noise" is denoise. */
const noise: Rule = {
  op: 'noise',
  parse(c) {
    const asked = takeAll(c, /\b(?:(?:film\s+)?grain|grainy|noise|noisy|grit(?:ty)?)\b/);
    if (!asked || c.has(/\b(?:reduce|remove|less|clean|cut|rid|fix|without|no|decrease|lower|denoise)\b/)) return undefined;
    takeAll(c, /\b(?:film|effect|texture|look)\b/);
    const level = c.level();
    const percent = c.percent();
    const amount = percent !== undefined ? percent / 100 : { slight: 0.06, normal: 0.12, strong: 0.25 }[level];
    return amount > 0 && amount <= 1 ? [{ op: 'noise', amount }] : undefined;
  },
};

const glow: Rule = {
  op: 'glow',
  parse(c) {
    // Not "halo": one is added over a head as often as around the lights.
    // "dreamy" is a soft glow, not a defocus.
    if (!takeAll(c, /\b(?:glow(?:ing|y)?|bloom|orton(?:\s+effect)?|soft\s+focus|dreamy(?:\s+glow)?)\b/)) return undefined;
    takeAll(c, /\b(?:soft|effect|dreamy)\b/);
    const level = c.level();
    const percent = c.percent();
    const strength = percent !== undefined ? percent / 100 : { slight: 0.25, normal: 0.45, strong: 0.7 }[level];
    return strength > 0 && strength <= 1 ? [{ op: 'glow', strength }] : undefined;
  },
};

const distort: Rule = {
  op: 'distort',
  parse(c) {
    if (!takeAll(c, /\b(?:distort(?:ed|ion)?|wav(?:e|y)(?:\s+distortion)?|ripple[ds]?|warp(?:ed)?|swirl(?:s|ed|ing|y)?)\b/)) return undefined;
    takeAll(c, /\b(?:effect|distortion|wave|like|water)\b/);
    const level = c.level();
    const percent = c.percent();
    const amount = percent !== undefined ? percent / 100 : { slight: 0.3, normal: 0.6, strong: 1 }[level];
    return amount > 0 && amount <= 1 ? [{ op: 'distort', amount }] : undefined;
  },
};

const sketch: Rule = {
  op: 'sketch',
  parse(c) {
    if (!takeAll(c, /\b(?:(?:pencil|charcoal|hand[\s-]drawn)\s+(?:sketch|drawing)|sketch(?:ed|y)?|pencil\s+(?:effect|style|look)|line\s+drawing|drawing)\b/)) return undefined;
    takeAll(c, /\b(?:pencil|effect|style|like|look|into|convert|of)\b/);
    return [{ op: 'sketch' }];
  },
};

/** "make the black lines thicker", "thicken the outlines", "bolder lines": lines of a drawing, dark unless said light. */
const thickenLines: Rule = {
  op: 'thicken_lines',
  parse(c) {
    const lines = /\b(?:lines?|outlines?|strokes?|line\s*work|line\s*art|linework|lineart)\b/;
    if (!c.has(lines) || !takeAll(c, /\b(?:thick(?:er|en|ened)?|bold(?:er|en)?|heavier|fatter|wider)\b/)) return undefined;
    takeAll(c, lines);
    const light = c.take(/\b(?:white|light|lighter|bright)\b/);
    const dark = c.take(/\b(?:black|dark|darker)\b/);
    if (light && dark) return undefined;
    takeAll(c, /\b(?:all)\b/);
    const given = c.length(/(?:^|\s)(?:by\s+)?(\d+)(px)?(?=\s|$)/)?.value;
    const width = given ?? { slight: 1, normal: 2, strong: 4 }[c.level()];
    return width >= 1 && width <= MAX_LINE_GROWTH ? [{ op: 'thicken_lines', width, lines: light ? 'light' : 'dark' }] : undefined;
  },
};

const denoise: Rule = {
  op: 'denoise',
  parse(c) {
    if (!takeAll(c, /\b(?:denoise[d]?|noise\s+reduction|(?:reduce|remove|clean\s+up|less|cut|get\s+rid\s+of|fix|decrease|lower)\s+(?:some\s+of\s+)?(?:the\s+)?(?:noise|grain|speckles?)|despeckle|median(?:\s+filter)?|less\s+(?:grainy|noisy)|(?:reduce|remove|fix)\s+(?:the\s+)?(?:grainy|noisy)\s+(?:look|appearance|effect)|(?:reduce|remove|fix)\s+(?:the\s+)?(?:graininess|noisiness)|(?:no|without)\s+(?:noise|grain)|(?:take|get)\s+(?:some\s+of\s+)?(?:the\s+)?(?:noise|grain)\s+out)\b/)) return undefined;
    takeAll(c, /\b(?:size|window|filter|of|quality)\b/);
    const level = c.level();
    const size = c.length(/(?:^|\s)(\d+)(px)?(?=\s|$)/)?.value ?? { slight: 3, normal: 3, strong: 5 }[level];
    const odd = size % 2 === 0 ? size + 1 : size;
    return odd >= 3 && odd <= 15 ? [{ op: 'denoise', size: odd }] : undefined;
  },
};

/** Haze over the whole picture. Not "the clouds" (the sky's content) nor a coloured haze, which is a cast. */
const dehaze: Rule = {
  op: 'dehaze',
  parse(c) {
    const veil = /(?:haze|haziness|fog|fogginess|mist|cloudiness|(?:hazy|foggy|misty)\s+(?:look|effect|veil|layer))/.source;
    if (!takeAll(c, new RegExp(`\\b(?:dehaze[d]?|haze\\s+removal|(?:remove|reduce|clear(?:\\s+up)?|cut(?:\\s+through)?|less|lower|decrease|eliminate|lessen|fix)\\s+(?:some\\s+of\\s+)?(?:the\\s+|this\\s+)?${veil}|less\\s+(?:hazy|foggy|misty)|(?:no|without)\\s+${veil})\\b`))) return undefined;
    const level = c.level();
    return [{ op: 'dehaze', amount: { slight: 0.5, normal: 0.8, strong: 0.95 }[level] }];
  },
};

const vignette: Rule = {
  op: 'vignette',
  parse(c) {
    if (!takeAll(c, /\b(?:vignett(?:e|ing|ed)|darken\s+(?:the\s+)?(?:corners|edges)|dark(?:er|ened)?\s+(?:corners|edges))\b/)) return undefined;
    takeAll(c, /\b(?:black|dark|around|edges|corners|effect)\b/);
    const level = c.level();
    const percent = c.percent();
    const strength = percent !== undefined ? percent / 100 : { slight: 0.3, normal: 0.55, strong: 0.85 }[level];
    return strength > 0 && strength <= 1 ? [{ op: 'vignette', strength }] : undefined;
  },
};

const emboss: Rule = {
  op: 'emboss',
  parse(c) {
    if (!takeAll(c, /\b(?:emboss(?:ed|ing)?|relief)\b/)) return undefined;
    takeAll(c, /\b(?:effect|style|look)\b/);
    return [{ op: 'emboss' }];
  },
};

const edges: Rule = {
  op: 'edges',
  parse(c) {
    if (!takeAll(c, /\b(?:(?:only\s+)?show\s+(?:the\s+|only\s+(?:the\s+)?)?outlines?|edge[\s-]?detect(?:ion|ed)?|detect\s+(?:the\s+)?edges|find\s+(?:the\s+)?edges|edges?\s+only|only\s+(?:the\s+)?edges|show\s+(?:the\s+)?edges|edge\s+(?:filter|map)|outlines?\s+only|edges|laplacian)\b/)) return undefined;
    return [{ op: 'edges' }];
  },
};

function opacity(c: Clause, fallback: number): number | undefined {
  const explicit = c.take(/(?:^|\s)(?:at\s+)?(\d+(?:\.\d+)?)%\s+(opacity|opaque|transparen(?:t|cy)|alpha|visible)\b/) ?? c.take(/\b(opacity|transparency|alpha)\s+(?:of\s+|at\s+)?(\d+(?:\.\d+)?)%/);
  if (explicit) {
    const [value, word] = /^\d/.test(explicit[1]!) ? [Number(explicit[1]), explicit[2]!] : [Number(explicit[2]), explicit[1]!];
    const fraction = value / 100;
    return fraction > 1 ? undefined : /^transparen/.test(word) ? 1 - fraction : fraction;
  }
  if (c.take(/\b(?:semi[\s-]?transparent|translucent|half[\s-]transparent|see[\s-]through)\b/)) return 0.5;
  if (c.take(/\b(?:faint|subtle|ghosted|light)\b/)) return 0.3;
  if (c.take(/\b(?:solid|opaque|fully\s+visible)\b/)) return 1;
  return fallback;
}

const text: Rule = {
  op: 'text',
  parse(c) {
    // "the letter C": only a letter that is the text itself ("add «C» as the first letter" is not an overlay).
    takeAll(c, /\b(?:(?:capital|uppercase|lowercase)\s+)?letters?(?=\s+«q)/);
    // "add a copyright watermark": the © sign, before the owner's name when one is given.
    const copyright = c.take(/\b(?:copyright(?:ed)?|©)(?:\s+(?:symbol|sign|notice|mark))?\b/) !== null;
    const quoted = c.quote();
    const content = copyright ? (quoted?.trim() ? `© ${quoted.trim().replace(/^©\s*/, '')}` : '©') : quoted;
    if (content === undefined || content.trim() === '') return undefined;
    const kind = (c.take(/\b(watermark(?:ed)?|caption(?:ed)?|title[ds]?|heading|headline|label(?:led)?|signature|sign(?:ed)?|stamp(?:ed)?)\b/)?.[1] ?? '') || (copyright ? 'watermark' : '');
    takeAll(c, /\b(?:text|words?|write|written|writing|saying|says|say|reading|reads|overlay|font|letters|lettering|type|typed|print|printed|place[d]?|captioned|that|which|across|corner|stamp|insert(?:ed)?|sign)\b/);
    const isWatermark = /^(?:watermark|signature|sign|stamp)/.test(kind);
    const below = takeAll(c, /\b(?:underneath|below|under|beneath)\b/) ? 'bottom' : takeAll(c, /\babove\b/) ? 'top' : undefined;
    const position: Position = c.position() ?? below ?? (isWatermark ? 'bottom-right' : /^(?:title|heading|headline)/.test(kind) ? 'top' : 'bottom');
    const color = c.color();
    const alpha = opacity(c, isWatermark ? 0.5 : 1);
    let size: Length | undefined;
    const sized = c.take(/\b(?:size|font[\s-]size)\s+(\d+(?:\.\d+)?)(px|%)?(?=\s|$)/) ?? c.take(/(?:^|\s)(\d+(?:\.\d+)?)(px|%)(?:\s+(?:high|tall|size|font))?(?=\s|$)/);
    if (sized) size = { value: Number(sized[1]), unit: sized[2] === '%' ? '%' : 'px' };
    const word = c.take(/\b(tiny|small|smaller|medium|normal|big|bigger|large|larger|huge|giant|bold)\b/);
    size ??= { value: word ? ({ tiny: 3, small: 4, smaller: 4, medium: 7, normal: 7, big: 12, bigger: 12, large: 12, larger: 12, huge: 20, giant: 20, bold: 9 } as Record<string, number>)[word[1]!]! : 7, unit: '%' };
    if (alpha === undefined || size.value <= 0) return undefined;
    return [{ op: 'text', text: content, position, color: { ...(color ?? WHITE), alpha: 1 }, size, opacity: alpha }];
  },
};

const watermark: Rule = {
  op: 'watermark',
  parse(c) {
    const fileId = c.file();
    if (!fileId) return undefined;
    const kind = c.take(/\b(watermark(?:ed)?|logo|stamp|overlay|badge|sticker|icon)\b/)?.[1] ?? '';
    takeAll(c, /\b(?:place[d]?|paste[d]?|insert(?:ed)?|overlay|corner|on\s+top|over|image|file|logo)\b/);
    const position = c.position() ?? 'bottom-right';
    const scaleMatch = c.take(/(?:^|\s)(?:at\s+)?(\d+(?:\.\d+)?)%\s+(?:of\s+(?:the\s+)?)?(?:size|width|wide|scale)\b/) ?? c.take(/\b(?:size|width|scale[d]?)\s+(?:of\s+|to\s+)?(\d+(?:\.\d+)?)%/);
    const sizeWord = c.take(/\b(tiny|small|medium|big|large|huge)\b/);
    const scale = scaleMatch ? Number(scaleMatch[1]) / 100 : sizeWord ? ({ tiny: 0.08, small: 0.12, medium: 0.2, big: 0.35, large: 0.35, huge: 0.6 } as Record<string, number>)[sizeWord[1]!]! : 0.2;
    const alpha = opacity(c, /^watermark/.test(kind) ? 0.5 : 1);
    if (alpha === undefined || scale <= 0 || scale > 1) return undefined;
    return [{ op: 'watermark', fileId, position, opacity: alpha, scale }];
  },
};

const FORMATS = /\b(png|jpeg|webp|avif|gif|tiff)\b/;

function quality(c: Clause): number | undefined {
  const explicit =
    c.take(/(?:^|\s)(\d+)%?\s+quality\b/) ??
    c.take(/\bquality(?:\s+(?:of|to|at|=|level))?\s+(\d+)%?(?=\s|$)/) ??
    c.take(/\bq\s*=?\s*(\d+)\b/);
  if (explicit) return Number(explicit[1]);
  const word = c.take(/\b(max(?:imum)?|best|high(?:est)?|good|medium|low(?:est)?|lossless)\s+quality\b/);
  if (word) return ({ max: 100, maximum: 100, best: 95, high: 90, highest: 100, good: 85, medium: 70, low: 50, lowest: 30, lossless: 100 } as Record<string, number>)[word[1]!];
  return undefined;
}

const format: Rule = {
  op: 'format',
  parse(c) {
    const match = c.take(FORMATS);
    if (!match) return undefined;
    takeAll(c, /\b(?:convert(?:ed)?|save[ds]?|saving|export(?:ed)?|encode[ds]?|format|file|output|change|switch|type|re-?encode|as|an?)\b/);
    const q = quality(c);
    if (q !== undefined && (q < 1 || q > 100)) return undefined;
    return [{ op: 'format', format: match[1] as OutputFormat }, ...(q === undefined ? [] : [{ op: 'quality' as const, quality: q }])];
  },
};

const qualityRule: Rule = {
  op: 'quality',
  parse(c) {
    const q = quality(c);
    if (q === undefined || q < 1 || q > 100) return undefined;
    takeAll(c, /\b(?:set|save|export|compression|encode|jpeg)\b/);
    return [{ op: 'quality', quality: q }];
  },
};

const compress: Rule = {
  op: 'compress',
  parse(c) {
    if (
      !takeAll(c, /\b(?:compress(?:ed|ion)?|(?:smaller|lighter|lower|reduce[ds]?|shrink|minimi[sz]e)\s+(?:the\s+)?file(?:\s+size)?|file(?:\s+size)?\s+(?:smaller|lighter)|(?:smaller|lighter|less)\s+(?:download|bytes|disk\s+space|storage)|optimi[sz]e[ds]?(?:\s+for\s+(?:the\s+)?web)?|web[\s-]optimi[sz]ed|minify|smaller\s+file)\b/)
    ) {
      return undefined;
    }
    takeAll(c, /\b(?:size|for\s+(?:the\s+)?web|web|file|more|quality)\b/);
    return [{ op: 'compress' }];
  },
};

const METADATA = /\b(?:metadata|meta[\s-]data|exif(?:\s+data)?|gps(?:\s+(?:data|info|information|location|coordinates|tags?))?|location(?:\s+(?:data|info|information))?|geo[\s-]?tags?|geolocation|camera\s+(?:info|data|details)|xmp|iptc|tags)\b/;

const stripMetadata: Rule = {
  op: 'strip_metadata',
  parse(c) {
    if (!c.take(/\b(?:strip(?:ped)?|remove[ds]?|delete[ds]?|drop|clear|erase|scrub|wipe|no|without|discard|clean)\b/) || !takeAll(c, METADATA)) return undefined;
    takeAll(c, /\b(?:all|any|data|info)\b/);
    return [{ op: 'strip_metadata' }];
  },
};

const keepMetadata: Rule = {
  op: 'keep_metadata',
  parse(c) {
    if (!c.take(/\b(?:keep|preserve|retain|maintain|leave|carry\s+over|copy)\b/) || !takeAll(c, METADATA)) return undefined;
    takeAll(c, /\b(?:all|data|info|intact|original)\b/);
    return [{ op: 'keep_metadata' }];
  },
};

const flatten: Rule = {
  op: 'flatten',
  parse(c) {
    if (
      !takeAll(c, /\b(?:flatten(?:ed)?|(?:remove|drop|no|without|get\s+rid\s+of)\s+(?:the\s+)?(?:transparency|alpha(?:\s+channel)?)|fill\s+(?:in\s+)?(?:the\s+)?transparen(?:t|cy)(?:\s+(?:areas?|parts?|pixels|background|regions?))?|replace\s+(?:the\s+)?transparen(?:t|cy)(?:\s+(?:areas?|parts?|pixels|background))?|(?:make\s+)?(?:it\s+)?(?:fully\s+)?opaque|solid\s+background)\b/)
    ) {
      return undefined;
    }
    const background = c.color();
    takeAll(c, /\b(?:background|onto|over|behind|colou?r)\b/);
    return [{ op: 'flatten', background: { ...(background ?? WHITE), alpha: 1 } }];
  },
};

const transparentColor: Rule = {
  op: 'transparent_color',
  parse(c) {
    // Only "make <a named colour> transparent": removing a background, or "removing yellow" (a
    // colour cast), is not a uniform colour made transparent.
    const made = takeAll(c, /\b(?:transparent|transparency|see[\s-]through)\b/);
    if (!made) return undefined;
    const color = c.color();
    takeAll(c, /\b(?:background|backdrop|screen|bg)\b/);
    if (!color || color.alpha === 0) return undefined;
    takeAll(c, /\b(?:colou?r|uniform|solid|plain|pixels|areas?|everything|all)\b/);
    const level = c.level();
    const tolerance = c.take(/\btolerance\s+(\d+)\b/);
    return [{ op: 'transparent_color', ...(color && { color }), tolerance: tolerance ? Number(tolerance[1]) : { slight: 10, normal: 24, strong: 60 }[level] }];
  },
};

export const effectRules: Rule[] = [blur, sharpen, pixelate, noise, glow, sketch, distort, thickenLines, denoise, dehaze, vignette, emboss, edges, text, watermark, format, qualityRule, compress, stripMetadata, keepMetadata, flatten, transparentColor];
