import type { Color } from '../plan.ts';
import { MAX_EXTRA_COLOR_PAIRS } from '../plan-schema.ts';
import { Clause } from './clause.ts';
import { isGrey, luminance, namedColor, namesThing } from './colors.ts';
import { isAttributeNoun } from './adjustment-rules.ts';
import type { Rule } from './rule.ts';

/** Takes every match of the pattern; true if there was one. */
function takeAll(c: Clause, pattern: RegExp): boolean {
  let found = false;
  while (c.take(pattern)) found = true;
  return found;
}

const grayscale: Rule = {
  op: 'grayscale',
  parse(c) {
    // "change it from black and white": that is what it is now, not what it should become.
    if (c.has(/\bfrom\s+(?:the\s+)?(?:grayscale|blackandwhite|monochrome|gray)\b/)) return undefined;
    if (
      !takeAll(c, /\b(?:grayscale|blackandwhite|monochrome|monochromatic|mono|gray|noir|(?:completely|fully|totally|entirely)\s+desaturated?|desaturated?\s+(?:completely|fully|totally|entirely)|(?:remove|drop|strip|no)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?colors?|without\s+colors?|colorless)\b/)
    ) {
      return undefined;
    }
    takeAll(c, /\b(?:convert|change|switch|tones?|shades?\s+of\s+gray|scale|style|colors?|only)\b/);
    return [{ op: 'grayscale' }];
  },
};

/** "desaturate it completely": saturation all the way down is black and white. */
const fullyDesaturated: Rule = {
  op: 'grayscale',
  parse(c) {
    if (!c.take(/\bdesaturated?\b/) || !c.take(/\b(?:completely|fully|totally|entirely|all\s+the\s+way)\b/)) return undefined;
    return [{ op: 'grayscale' }];
  },
};

const sepia: Rule = {
  op: 'sepia',
  parse(c) {
    if (!takeAll(c, /\b(?:sepia(?:[\s-]ton(?:e|ed))?|vintage|old[\s-]fashioned|antique|old\s+photo(?:graph)?|old|older|aged|retro|old[\s-]timey|nostalgic)\b/)) return undefined;
    takeAll(c, /\b(?:tones?|style|feel|toned|filter|old|colou?ring|colou?rs?|change[ds]?|convert|switch|turn|more\s+of\s+a)\b/);
    return [{ op: 'sepia' }];
  },
};

const invert: Rule = {
  op: 'invert',
  parse(c) {
    if (!takeAll(c, /\b(?:invert(?:ed)?|negative|inverse|reverse[ds]?)\b/)) return undefined;
    takeAll(c, /\b(?:colors?|tones?|film|photo|blackandwhite)\b/);
    return [{ op: 'invert' }];
  },
};

/**
 * "make the darks darker", "deepen the shadows and brighten the highlights": the ends of the
 * tones pushed apart is more contrast, in photo editors' words. Said of both ends, one contrast;
 * the darks said alone too ("make the dark darker": deeper blacks).
 */
const DARKS = String.raw`(?:the\s+)?(?:darks?|shadows|blacks|dark\s+(?:areas|parts|tones))`;
const LIGHTS = String.raw`(?:the\s+)?(?:lights|highlights|whites|light\s+(?:areas|parts|tones)|bright\s+(?:areas|parts))`;
const tonalEnds: Rule = {
  op: 'contrast',
  parse(c) {
    const darks = c.take(new RegExp(String.raw`\b(?:(?:make\s+)?${DARKS}\s+(?:darker|deeper|blacker)|(?:deepen|darken)\s+${DARKS})\b`));
    const lights = c.take(new RegExp(String.raw`\b(?:(?:make\s+)?${LIGHTS}\s+(?:lighter|brighter|whiter)|(?:brighten|lighten)\s+${LIGHTS})\b`));
    // The lights alone ("brighten the highlights") may be a part of the picture: only with the darks.
    if (!darks) return undefined;
    if (lights) takeAll(c, /\b(?:and)\b/);
    return [{ op: 'contrast', factor: { slight: 1.15, normal: 1.35, strong: 1.7 }[c.level()] }];
  },
};

const hue: Rule = {
  op: 'hue',
  parse(c) {
    if (!takeAll(c, /\bhues?\b/)) return undefined;
    takeAll(c, /\b(?:shift(?:ed)?|rotate[ds]?|rotation|change[ds]?|cycle|spin|adjust)\b/);
    const degrees = c.degrees() ?? c.number();
    if (degrees === undefined) return undefined;
    return [{ op: 'hue', degrees: ((degrees % 360) + 360) % 360 }];
  },
};

/** The shadows are the dark tones, not shapes: lifting them is a gamma above 1 (mid-tones up, white stays). */
const SHADOW_LIFT =
  /\b(?:(?:brighten|lighten|lift|raise|open)(?:\s+up)?\s+(?:the\s+)?(?:shadows|shadowed\s+areas|dark\s+(?:areas|tones))|(?:increase|raise|boost)\s+(?:the\s+)?(?:brightness|exposure|light)\s+(?:of|in)\s+(?:the\s+)?(?:shadows|shadowed\s+areas|dark\s+(?:areas|tones)))\b/;

const gamma: Rule = {
  op: 'gamma',
  parse(c) {
    if (c.take(SHADOW_LIFT)) {
      takeAll(c, /\b(?:all|more|up)\b/);
      return [{ op: 'gamma', value: { slight: 1.2, normal: 1.4, strong: 1.8 }[c.level()] }];
    }
    if (!takeAll(c, /\bgamma\b/)) return undefined;
    takeAll(c, /\b(?:correction|correct|adjust(?:ment)?|value)\b/);
    const value = c.number() ?? 2.2;
    return value >= 0.1 && value <= 10 ? [{ op: 'gamma', value }] : undefined;
  },
};

/**
 * "fix the white balance", "remove the colour cast", "colour correct it": a cast taken away with
 * no colour named (a named one, "remove the yellow cast", is that colour down: a colour balance).
 * Stretching the levels (normalize) would leave the cast where it is.
 */
const autoWhiteBalance: Rule = {
  op: 'auto_white_balance',
  parse(c) {
    if (
      !takeAll(c, /\b(?:auto(?:matic)?[\s-]?white[\s-]?balance|awb|(?:fix|correct|adjust|balance|neutrali[sz]e)\s+(?:the\s+)?white(?:[\s-]?balance)?|white[\s-]?balance\s+(?:needs\s+to\s+be\s+|should\s+be\s+)?(?:adjusted|fixed|corrected)|(?:remove|fix|correct|neutrali[sz]e)\s+(?:the\s+|any\s+)?(?:colou?r\s+)?cast|color[\s-]?correct(?:ion|ed)?|(?:correct|fix)\s+(?:the\s+)?(?:colors?|coloring))\b/)
    ) {
      return undefined;
    }
    takeAll(c, /\b(?:automatically|auto|colors?|balance)\b/);
    return [{ op: 'auto_white_balance' }];
  },
};

const normalize: Rule = {
  op: 'normalize',
  parse(c) {
    // "enhance the brightness" is more of it, not an auto-enhance.
    if (c.has(/\benhance[ds]?\b/) && !c.has(/\bauto/) && c.canonical.split(' ').some(isAttributeNoun)) return undefined;
    if (
      !takeAll(c, /\b(?:auto[\s-]?(?:enhance[d]?|levels?|contrast|correct(?:ion)?|fix|adjust(?:ment)?|tone|colou?r)|enhance[d]?|normalize[d]?|fix\s+(?:the\s+)?(?:exposure|levels|lighting)|(?:correct|fix)\s+(?:the\s+)?(?:brightness|contrast|exposure)|stretch\s+(?:the\s+)?(?:contrast|histogram|levels)|improve\s+(?:the\s+)?(?:contrast|lighting)|histogram\s+equali[sz]ation|equali[sz]e)\b/)
    ) {
      return undefined;
    }
    takeAll(c, /\b(?:automatically|auto|levels|histogram|colors?|tones|lighting|brightness|contrast|exposure)\b/);
    return [{ op: 'normalize' }];
  },
};

/**
 * "turn it purple", "make everything yellow", "change the colour to red": the whole picture one
 * colour is a tint (black, white and grey are not: a tint of them is no colour at all).
 */
const WHOLE_COLOR = /^\s*(?:turn|make|change|color|paint)\s+(?:(?:it|everything|all)\s+)?(?:the\s+)?(?:colors?\s+)?(?:to\s+|into\s+)?(?:(?:a|an|all)\s+)?([#\w ]+?)(?:\s+(?:colors?|tones?|tint|hue))?\s*$/;
const wholeColor: Rule = {
  op: 'tint',
  parse(c) {
    // "more blue" is more of one colour (a colour balance); "the sky blue" is about the sky.
    if (c.has(/\b(?:more|less)\b/) || namesThing(c.canonical)) return undefined;
    const match = c.take(WHOLE_COLOR);
    // "turn the blue to …" is a colour swap left unfinished.
    const color = match && !/\b(?:to|into|from|with|and)\b/.test(match[1]!) ? colorPhrase(match[1]!, c) : undefined;
    if (!color || isGrey(color)) return undefined;
    return [{ op: 'tint', color: opaque(color) }];
  },
};

const tint: Rule = {
  op: 'tint',
  parse(c) {
    if (!takeAll(c, /\b(?:tint(?:ed)?|colorize[d]?|wash|cast|hue|tone[ds]?|overtone|undertone|filter|overlay|tinge[d]?)\b/)) return undefined;
    const color = c.color();
    if (!color) return undefined;
    // "a green artistic filter": words for the filter's kind, not another edit.
    takeAll(c, /\b(?:color|artistic|colored|photographic|simple|plain)\b/);
    // "change the hue of the picture to blue": one colour over the whole picture ("… more
    // blue" is more of one colour: a colour balance).
    if (c.has(/^\s*change[ds]?\b/) && !c.has(/\b(?:from|more|less)\b/)) c.take(/\bchange[ds]?\b/);
    return [{ op: 'tint', color: opaque(color) }];
  },
};

/** "change the colours to green and black": the picture in those two colours, the darker in the shadows. */
const twoColors: Rule = {
  op: 'duotone',
  parse(c) {
    const match = c.take(/^\s*(?:change|turn|make|convert)\s+(?:all\s+)?(?:the\s+)?colors\s+(?:to|into)\s+(?:just\s+|only\s+)?([#\w ]+?)\s+and\s+([#\w ]+?)\s*$/);
    const [a, b] = match ? [colorPhrase(match[1]!, c), colorPhrase(match[2]!, c)] : [];
    if (!a || !b) return undefined;
    const [shadow, highlight] = luminance(a) <= luminance(b) ? [a, b] : [b, a];
    return [{ op: 'duotone', shadow: opaque(shadow), highlight: opaque(highlight) }];
  },
};

const duotone: Rule = {
  op: 'duotone',
  parse(c) {
    if (!takeAll(c, /\bduo[\s-]?tone[ds]?\b/)) return undefined;
    const navy: Color = { r: 16, g: 24, b: 82, alpha: 1 };
    const gold: Color = { r: 255, g: 200, b: 60, alpha: 1 };
    const first = c.color();
    const firstRole = c.take(/^\s*(shadows?|highlights?|darks?|lights?)\b/) ?? c.take(/\b(shadows?|highlights?|darks?|lights?)\b/);
    const second = c.color();
    c.take(/\b(?:shadows?|highlights?|darks?|lights?)\b/);
    takeAll(c, /\b(?:effect|colors?|between|gradient)\b/);
    if (first && !second) return undefined;
    const swap = firstRole !== null && /^(?:highlight|light)/.test(firstRole[1]!);
    const [shadow, highlight] = first && second ? (swap ? [second, first] : [first, second]) : [navy, gold];
    return [{ op: 'duotone', shadow: opaque(shadow), highlight: opaque(highlight) }];
  },
};

const threshold: Rule = {
  op: 'threshold',
  parse(c) {
    if (
      !takeAll(c, /\b(?:threshold(?:ed|ing)?|(?:pure|stark|strict|true|high[\s-]contrast)\s+blackandwhite|1[\s-]?bit|2[\s-]?tone|two[\s-]?tone|bi[\s-]?level|binari[sz]e[d]?)\b/)
    ) {
      return undefined;
    }
    takeAll(c, /\b(?:level|at|pixels|no\s+gray|without\s+gray)\b/);
    const percent = c.percent();
    const level = percent !== undefined ? Math.round((percent / 100) * 255) : c.number() ?? 128;
    return level >= 0 && level <= 255 ? [{ op: 'threshold', level }] : undefined;
  },
};

const posterize: Rule = {
  op: 'posterize',
  parse(c) {
    if (!takeAll(c, /\b(?:posterize[d]?|posterization|poster(?:\s+(?:effect|look|style))?)\b/)) return undefined;
    takeAll(c, /\b(?:levels?|colors?|tones?|steps?|per\s+channel|bands?)\b/);
    const levels = c.number() ?? 4;
    return levels >= 2 && levels <= 32 && Number.isInteger(levels) ? [{ op: 'posterize', levels }] : undefined;
  },
};

/** A whole phrase that is one colour ("blue", "light blue", "#ff0000", "the reds"), else undefined. */
function colorPhrase(text: string, c: Clause): Color | undefined {
  if (namesThing(text)) return undefined;
  const probe = new Clause(text.replace(/\b([a-z]{3,})s\b/g, (word, singular: string) => (namedColor(singular) ? singular : word)), c.quotes, c.files);
  const color = probe.color();
  return color && probe.leftovers().length === 0 ? color : undefined;
}

const RECOLOR_VERB = /^\s*(?:change[ds]?|turn|replace[ds]?|swap|convert|map|switch|recolor)\s+(?:the\s+)?(?:colors?\s+|fill\s+)?/;
const COLOR_PAIR = new RegExp(
  String.raw`^(?:from\s+)?(?:all\s+)?(?:of\s+)?(?:the\s+)?([#\w ]+?)(?:\s+(?:colors?|tones?|hues?|parts?|areas?|pixels))?\s+(?:to|into|with|for|by)\s+(?:be\s+)?(?:more\s+)?(?:the\s+|an?\s+)?([#\w ]+?)(?:\s+(?:colors?|tones?|hues?|ones?))?$`,
);
/** "swap red and blue", "switch the blues and the greens": both ways at once ("swap the red for green" is one way). */
const SWAP = /^\s*(?:swap|switch|exchange|interchange)\s+(?:the\s+)?(?:colors?\s+)?([#\w ]+?)\s+and\s+(?:the\s+)?([#\w ]+?)(?:\s+colors?)?\s*$/;
/** "make it black instead of white", "a black area instead of the white area". */
const INSTEAD = /^\s*(?:make|use|have|add|want|put)?\s*(?:it\s+)?(?:a\s+|an\s+)?(?!the\b)([#\w ]+?)(?:\s+(?:colors?|areas?|tones?|parts?))?\s+instead\s+of\s+(?:the\s+)?(?:a\s+|an\s+)?([#\w ]+?)(?:\s+(?:colors?|areas?|tones?|parts?))?\s*$/;

type ColorPair = { from: Color; to: Color };

/** The colour pairs a clause asks to swap, each a whole colour phrase; undefined if any is not. */
function colorPairs(c: Clause): ColorPair[] | undefined {
  const text = c.canonical;
  const pair = (from: string, to: string) => {
    const [a, b] = [colorPhrase(from, c), colorPhrase(to, c)];
    return a && b ? { from: opaque(a), to: opaque(b) } : undefined;
  };
  const swap = SWAP.exec(text);
  if (swap) {
    const one = pair(swap[1]!, swap[2]!);
    if (one) return [one, { from: one.to, to: one.from }];
  }
  const instead = INSTEAD.exec(text);
  if (instead) {
    const one = pair(instead[2]!, instead[1]!);
    return one && [one];
  }
  const verb = RECOLOR_VERB.exec(text);
  if (!verb) return undefined;
  // "replace red with blue and yellow with white": every part a pair.
  const pairs: ColorPair[] = [];
  for (const part of text.slice(verb[0].length).trim().split(/\s+and\s+/)) {
    const match = COLOR_PAIR.exec(part);
    const one = match && pair(match[1]!, match[2]!);
    if (!one) return undefined;
    pairs.push(one);
  }
  return pairs.length > 0 && pairs.length <= 1 + MAX_EXTRA_COLOR_PAIRS ? pairs : undefined;
}

/** "change blue to yellow", "replace the red with green", "swap red and blue", "black instead of white". */
const replaceColor: Rule = {
  op: 'replace_color',
  parse(c) {
    const pairs = colorPairs(c);
    if (!pairs) return undefined;
    c.take(/^[\s\S]*$/);
    const [first, ...also] = pairs;
    return [{ op: 'replace_color', ...first!, tolerance: 30, ...(also.length > 0 && { also }) }];
  },
};

function opaque(color: Color): Color {
  return { ...color, alpha: 1 };
}

export const toneRules: Rule[] = [replaceColor, threshold, grayscale, fullyDesaturated, sepia, invert, duotone, twoColors, hue, tonalEnds, gamma, autoWhiteBalance, normalize, tint, wholeColor, posterize];
