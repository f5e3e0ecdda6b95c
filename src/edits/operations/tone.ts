import { Type } from 'typebox';
import { color, COLOR, factor, inRegion, operation } from './operation.ts';

/** Pairs a replace_color does beyond its first: a palette swap, not a per-pixel lookup table. */
export const MAX_EXTRA_COLOR_PAIRS = 7;

/** Tone and colour of the whole picture. */
/** A colour cast: mended warmer or cooler, with a channel less, or by the white balance. */
const COLOUR_CAST = 'colour cast';

export const TONE = [
  operation('grayscale', {
    group: 'tone',
    params: inRegion,
    catalogue: {
      summary: 'Black and white (shades of grey).',
      parameters: {},
      examples: ['make it black and white', 'greyscale', 'monochrome', 'b&w', 'make it bw'],
      keywords: ['grayscale', 'greyscale', 'black', 'white', 'monochrome', 'gray', 'grey', 'colorless'],
    },
  }),
  operation('sepia', {
    group: 'tone',
    params: inRegion,
    catalogue: {
      summary: 'Warm brown old-photo tones.',
      parameters: {},
      examples: ['sepia', 'give it a vintage look'],
      keywords: ['sepia', 'vintage', 'old', 'antique', 'retro'],
    },
  }),
  operation('invert', {
    group: 'tone',
    catalogue: {
      summary: 'Invert the colours (a negative).',
      parameters: {},
      examples: ['invert the colours', 'make it a negative'],
      keywords: ['invert', 'negative', 'inverse', 'reverse'],
    },
  }),
  /** Multipliers: 1 leaves the image as it is. */
  operation('brightness', {
    group: 'tone',
    params: { ...inRegion, factor },
    strength: { param: 'factor', steps: { slight: 1.1, normal: 1.25, strong: 1.6 }, neutral: { value: 1, scale: 'ratio' } },
    catalogue: {
      summary: 'Brighter or darker, by a degree word ("a bit", "a lot") or a percentage.',
      parameters: { factor: '1 leaves it unchanged; 1.2 is 20% brighter' },
      examples: ['make it brighter', 'darken it a little', 'increase the brightness by 20%', 'one shade lighter', 'one stop brighter'],
      keywords: ['brightness', 'brighter', 'brighten', 'lighten', 'darker', 'darken', 'exposure', 'light', 'dark', 'dim'],
    },
    questions: [{ slot: 'factor', needs: 'a direction', examples: ['increase the brightness', 'make it 20% darker'], words: ['brightness', 'exposure', 'lighting', 'light', 'lightness'] }],
  }),
  operation('contrast', {
    group: 'tone',
    params: { ...inRegion, factor },
    strength: { param: 'factor', steps: { slight: 1.15, normal: 1.35, strong: 1.7 }, neutral: { value: 1, scale: 'ratio' } },
    catalogue: {
      summary: 'More or less contrast.',
      parameters: { factor: '1 leaves it unchanged' },
      examples: ['increase the contrast', 'reduce contrast by 30%', 'a lot more contrast'],
      keywords: ['contrast', 'punchy', 'flat'],
    },
    questions: [{ slot: 'factor', needs: 'a direction', examples: ['increase the contrast', 'reduce the contrast by 30%'], words: ['contrast'] }],
  }),
  operation('saturation', {
    group: 'tone',
    params: { ...inRegion, factor },
    strength: { param: 'factor', steps: { slight: 1.2, normal: 1.5, strong: 2 }, neutral: { value: 1, scale: 'ratio' } },
    catalogue: {
      summary: 'More vivid or more muted colours.',
      parameters: { factor: '1 leaves it unchanged; 0 is grey' },
      examples: ['make it more vibrant', 'desaturate a bit', 'boost the saturation by 50%', 'tone up the colours', 'add a little colour'],
      keywords: ['saturation', 'saturate', 'desaturate', 'vivid', 'vibrant', 'colorful', 'muted', 'pop', 'colors'],
    },
    questions: [
      { slot: 'factor', subject: 'a colour change', needs: 'a direction or a colour', examples: ['make the colours more vivid', 'make it warmer'], note: '(or "change blue to yellow")', words: ['saturation', 'colors', 'color'] },
    ],
  }),
  operation('hue', {
    group: 'tone',
    params: { degrees: Type.Number({ minimum: -360, maximum: 360 }) },
    catalogue: {
      summary: 'Rotate all hues around the colour wheel.',
      parameters: { degrees: '0–360' },
      examples: ['shift the hue by 90 degrees', 'hue 180'],
      keywords: ['hue', 'shift', 'wheel'],
    },
  }),
  /** Positive is warmer (towards orange), negative cooler (towards blue); -1 to 1. */
  operation('temperature', {
    group: 'tone',
    mends: COLOUR_CAST,
    params: { ...inRegion, amount: Type.Number({ minimum: -1, maximum: 1 }) },
    strength: { param: 'amount', steps: { slight: 0.3, normal: 0.6, strong: 1 }, neutral: { value: 0, scale: 'offset' } },
    catalogue: {
      summary: 'Warmer (towards orange) or cooler (towards blue).',
      parameters: { amount: '-1 (cool) to 1 (warm)' },
      examples: ['make it warmer', 'cool it down a bit', 'put in some extra warmth'],
      keywords: ['warm', 'warmer', 'cool', 'cooler', 'cold', 'temperature', 'balance'],
    },
    questions: [{ slot: 'amount', needs: 'a direction', examples: ['make it warmer', 'make it cooler'], words: ['temperature', 'white', 'balance'], requires: ['temperature', 'balance'] }],
  }),
  /** Multipliers per channel (1 leaves it): "less red" lowers red, "more yellow" raises red and green against blue. */
  operation('color_balance', {
    group: 'tone',
    mends: COLOUR_CAST,
    params: { ...inRegion, red: Type.Number({ minimum: 0, maximum: 4 }), green: Type.Number({ minimum: 0, maximum: 4 }), blue: Type.Number({ minimum: 0, maximum: 4 }) },
    catalogue: {
      summary: 'More or less of a colour: each of red, green and blue multiplied (more yellow is more red and green against blue).',
      parameters: { red: 'multiplier, 1 leaves it', green: 'multiplier, 1 leaves it', blue: 'multiplier, 1 leaves it' },
      examples: ['make the colours greener', 'less red', 'more yellow', 'more yellowness', 'insert a bit more blue', 'turn off the red channel'],
      keywords: ['greener', 'redder', 'bluer', 'yellower', 'channel', 'channels'],
    },
  }),
  /**
   * Pixels near one hue take another ("change blue to yellow"); tolerance is hue degrees either
   * side. `also`: more pairs done in the same pass, each pixel judged by its own colour ("swap
   * red and blue", "red to blue and yellow to white").
   */
  operation('replace_color', {
    group: 'tone',
    params: {
      from: color,
      to: color,
      tolerance: Type.Number({ minimum: 1, maximum: 180 }),
      also: Type.Optional(Type.Array(Type.Object({ from: color, to: color }, { additionalProperties: false }), { maxItems: MAX_EXTRA_COLOR_PAIRS })),
    },
    catalogue: {
      summary: 'Replace one colour with another across the image: pixels near its hue take the new hue, keeping their shading; white, black or grey is matched by lightness.',
      parameters: {
        from: COLOR,
        to: COLOR,
        tolerance: 'hue degrees either side of from (fading out at the edge)',
        also: `optional: up to ${MAX_EXTRA_COLOR_PAIRS} more {from, to} pairs done in the same pass, each pixel judged by its own colour (so a swap swaps)`,
      },
      examples: ['change blue to yellow', 'turn the red into green', 'swap red and blue', 'change the hue from blue to purple'],
      keywords: ['replace', 'swap', 'recolor', 'recolour'],
    },
  }),
  operation('gamma', {
    group: 'tone',
    params: { value: Type.Number({ minimum: 0.1, maximum: 10 }) },
    strength: { param: 'value', steps: { slight: 1.2, normal: 1.4, strong: 1.8 }, neutral: { value: 1, scale: 'ratio' } },
    catalogue: {
      summary: 'Gamma correction (above 1 lightens the mid-tones).',
      parameters: { value: '0.1–10' },
      examples: ['gamma 2.2', 'apply gamma correction of 1.5'],
      keywords: ['gamma', 'midtones'],
    },
  }),
  /** A colour cast taken away: the picture's near-grey parts made grey. */
  operation('auto_white_balance', {
    group: 'tone',
    mends: COLOUR_CAST,
    catalogue: {
      summary: 'Take a colour cast away: measured from the parts of the picture that should be grey, each of red, green and blue is scaled so they are (luminance kept, gains within 0.625–1.6).',
      parameters: {},
      examples: ['fix the white balance', 'auto white balance', 'remove the colour cast', 'white balance it'],
      keywords: ['white', 'balance', 'cast', 'neutral', 'awb', 'correct'],
    },
  }),
  /** Auto-enhance: stretch the tonal range. */
  operation('normalize', {
    group: 'tone',
    catalogue: {
      summary: 'Auto-enhance: stretch the tonal range to full black and white.',
      parameters: {},
      examples: ['auto enhance', 'normalise the levels', 'fix the exposure', 'colour correct it for the lighting'],
      keywords: ['enhance', 'auto', 'normalize', 'levels', 'improve', 'fix'],
    },
  }),
  operation('tint', {
    group: 'tone',
    params: { ...inRegion, color },
    catalogue: {
      summary: 'Tint with a colour, keeping the light and shade.',
      parameters: { color: COLOR },
      examples: ['tint it blue', 'add a #ff8800 tint'],
      keywords: ['tint', 'colorize', 'cast', 'wash'],
    },
  }),
  operation('duotone', {
    group: 'tone',
    params: { shadow: color, highlight: color },
    catalogue: {
      summary: 'Map shadows to one colour and highlights to another.',
      parameters: { shadow: COLOR, highlight: COLOR },
      examples: ['duotone navy and gold', 'duotone with purple shadows and pink highlights'],
      keywords: ['duotone', 'two', 'shadows', 'highlights'],
    },
  }),
  /** Pure black and white at the given luminance level, 0–255. */
  operation('threshold', {
    group: 'tone',
    params: { level: Type.Integer({ minimum: 0, maximum: 255 }) },
    catalogue: {
      summary: 'Pure black and white: every pixel black or white at a luminance level.',
      parameters: { level: '0–255, default 128' },
      examples: ['pure black and white', 'threshold at 100', 'make it 1-bit'],
      keywords: ['threshold', 'pure', 'binary', 'bit', 'stark'],
    },
  }),
  /** Levels per channel, 2–32. */
  operation('posterize', {
    group: 'tone',
    params: { levels: Type.Integer({ minimum: 2, maximum: 32 }) },
    catalogue: {
      summary: 'Reduce each channel to a few levels (poster look).',
      parameters: { levels: '2–32, default 4' },
      examples: ['posterize', 'posterise to 6 levels'],
      keywords: ['posterize', 'poster', 'levels', 'bands'],
    },
  }),
] as const;
