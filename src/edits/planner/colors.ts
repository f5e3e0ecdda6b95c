import type { Color } from '../plan.ts';

/** The 148 CSS named colours (CSS Color Module Level 4), plus `transparent`. */
const NAMED =
  'aliceblue:f0f8ff antiquewhite:faebd7 aqua:00ffff aquamarine:7fffd4 azure:f0ffff beige:f5f5dc bisque:ffe4c4 black:000000 ' +
  'blanchedalmond:ffebcd blue:0000ff blueviolet:8a2be2 brown:a52a2a burlywood:deb887 cadetblue:5f9ea0 chartreuse:7fff00 ' +
  'chocolate:d2691e coral:ff7f50 cornflowerblue:6495ed cornsilk:fff8dc crimson:dc143c cyan:00ffff darkblue:00008b ' +
  'darkcyan:008b8b darkgoldenrod:b8860b darkgray:a9a9a9 darkgreen:006400 darkgrey:a9a9a9 darkkhaki:bdb76b ' +
  'darkmagenta:8b008b darkolivegreen:556b2f darkorange:ff8c00 darkorchid:9932cc darkred:8b0000 darksalmon:e9967a ' +
  'darkseagreen:8fbc8f darkslateblue:483d8b darkslategray:2f4f4f darkslategrey:2f4f4f darkturquoise:00ced1 ' +
  'darkviolet:9400d3 deeppink:ff1493 deepskyblue:00bfff dimgray:696969 dimgrey:696969 dodgerblue:1e90ff ' +
  'firebrick:b22222 floralwhite:fffaf0 forestgreen:228b22 fuchsia:ff00ff gainsboro:dcdcdc ghostwhite:f8f8ff gold:ffd700 ' +
  'goldenrod:daa520 gray:808080 green:008000 greenyellow:adff2f grey:808080 honeydew:f0fff0 hotpink:ff69b4 ' +
  'indianred:cd5c5c indigo:4b0082 ivory:fffff0 khaki:f0e68c lavender:e6e6fa lavenderblush:fff0f5 lawngreen:7cfc00 ' +
  'lemonchiffon:fffacd lightblue:add8e6 lightcoral:f08080 lightcyan:e0ffff lightgoldenrodyellow:fafad2 lightgray:d3d3d3 ' +
  'lightgreen:90ee90 lightgrey:d3d3d3 lightpink:ffb6c1 lightsalmon:ffa07a lightseagreen:20b2aa lightskyblue:87cefa ' +
  'lightslategray:778899 lightslategrey:778899 lightsteelblue:b0c4de lightyellow:ffffe0 lime:00ff00 limegreen:32cd32 ' +
  'linen:faf0e6 magenta:ff00ff maroon:800000 mediumaquamarine:66cdaa mediumblue:0000cd mediumorchid:ba55d3 ' +
  'mediumpurple:9370db mediumseagreen:3cb371 mediumslateblue:7b68ee mediumspringgreen:00fa9a mediumturquoise:48d1cc ' +
  'mediumvioletred:c71585 midnightblue:191970 mintcream:f5fffa mistyrose:ffe4e1 moccasin:ffe4b5 navajowhite:ffdead ' +
  'navy:000080 oldlace:fdf5e6 olive:808000 olivedrab:6b8e23 orange:ffa500 orangered:ff4500 orchid:da70d6 ' +
  'palegoldenrod:eee8aa palegreen:98fb98 paleturquoise:afeeee palevioletred:db7093 papayawhip:ffefd5 peachpuff:ffdab9 ' +
  'peru:cd853f pink:ffc0cb plum:dda0dd powderblue:b0e0e6 purple:800080 rebeccapurple:663399 red:ff0000 rosybrown:bc8f8f ' +
  'royalblue:4169e1 saddlebrown:8b4513 salmon:fa8072 sandybrown:f4a460 seagreen:2e8b57 seashell:fff5ee sienna:a0522d ' +
  'silver:c0c0c0 skyblue:87ceeb slateblue:6a5acd slategray:708090 slategrey:708090 snow:fffafa springgreen:00ff7f ' +
  'steelblue:4682b4 tan:d2b48c teal:008080 thistle:d8bfd8 tomato:ff6347 turquoise:40e0d0 violet:ee82ee wheat:f5deb3 ' +
  'white:ffffff whitesmoke:f5f5f5 yellow:ffff00 yellowgreen:9acd32';

const BY_NAME = new Map<string, Color>(
  NAMED.split(' ').map((entry) => {
    const [name, hex] = entry.split(':') as [string, string];
    return [name, fromHex(hex)!];
  }),
);
BY_NAME.set('transparent', { r: 0, g: 0, b: 0, alpha: 0 });

/**
 * Colours people name that CSS does not, or names in one word where people say two ("navy blue",
 * "baby blue", "blue grey"): written joined, as namedColor reads a name said in words.
 */
const COMMON =
  // CSS's darkgray is lighter than its gray; "a dark grey border" is darker than grey.
  'darkgray:4d4d4d darkgrey:4d4d4d ' +
  'peach:ffe5b4 cream:fffdd0 offwhite:faf9f6 babyblue:89cff0 navyblue:000080 bluegrey:7393b3 bluegray:7393b3 greyblue:7393b3 ' +
  'grayblue:7393b3 burgundy:800020 mustard:ffdb58 mint:98ff98 mintgreen:98ff98';
for (const entry of COMMON.split(' ')) {
  const [name, hex] = entry.split(':') as [string, string];
  BY_NAME.set(name, fromHex(hex)!);
}

/**
 * CSS names that people say of the thing, not the colour: "put the dog on a snow background", "add
 * a snow overlay" ask for snow (a scene a model paints), not CSS's near-white; "chocolate brown" and
 * "tomato red" still name their colour by its second word.
 */
for (const thing of ['snow', 'chocolate', 'tomato', 'wheat', 'linen', 'seashell', 'honeydew', 'moccasin']) BY_NAME.delete(thing);

/** Words for a light shade of a colour, read as CSS's "light" one. */
const LIGHT_SHADES: readonly string[] = ['pale', 'pastel'];

/** A CSS colour name, ignoring spaces and hyphens ("light blue", "dark-red"). */
export function namedColor(words: string): Color | undefined {
  const name = words.includes(' ') || words.includes('-') ? words.split(' ').join('').split('-').join('') : words;
  // "pale yellow", "pastel pink": the light shade where CSS names no pale one (it has palegreen, not paleyellow).
  const light = LIGHT_SHADES.find((shade) => name.startsWith(shade));
  return BY_NAME.get(name) ?? (light ? BY_NAME.get(`light${name.slice(light.length)}`) : undefined);
}

/** #rgb, #rgba, #rrggbb, #rrggbbaa. */
export function fromHex(hex: string): Color | undefined {
  const digits = (hex.startsWith('#') ? hex.slice(1) : hex).toLowerCase();
  if (![3, 4, 6, 8].includes(digits.length) || ![...digits].every((ch) => (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) return undefined;
  const full = digits.length <= 4 ? [...digits].map((d) => d + d).join('') : digits;
  const channel = (i: number) => parseInt(full.slice(i * 2, i * 2 + 2), 16);
  return { r: channel(0), g: channel(1), b: channel(2), alpha: full.length === 8 ? Math.round((channel(3) / 255) * 100) / 100 : 1 };
}

/** rgb(1, 2, 3) and rgba(1, 2, 3, 0.5), channels 0–255, alpha 0–1. */
export function fromRgbFunction(text: string): Color | undefined {
  const match = /^rgba?\(\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*(?:[,/]\s*(\d*(?:\.\d+)?)\s*)?\)$/.exec(text);
  if (!match) return undefined;
  const [r, g, b] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  const alpha = match[4] === undefined || match[4] === '' ? 1 : Number(match[4]);
  if (r > 255 || g > 255 || b > 255 || alpha > 1) return undefined;
  return { r, g, b, alpha };
}

export const COLOR_NAMES: readonly string[] = [...BY_NAME.keys()];

/**
 * Words of colour names that also name things in a picture: "change the sky blue to grey" may be
 * about the sky, "turn the lime green" about a lime. A swap of colours does not read them.
 */
const THING_WORDS = new Set(['sky', 'sea', 'snow', 'forest', 'lawn', 'spring', 'sand', 'sandy', 'chocolate', 'tomato', 'salmon', 'olive', 'lime', 'plum', 'wheat', 'linen', 'orchid', 'thistle', 'coral', 'lavender', 'honeydew', 'seashell', 'moccasin', 'peach', 'ivory', 'steel', 'ghost', 'midnight', 'fire', 'brick', 'indian', 'navajo', 'cornflower', 'papaya', 'baby', 'cream', 'mint', 'mustard']);
export const namesThing = (phrase: string): boolean => phrase.split(' ').flatMap((word) => word.split('-')).some((word) => THING_WORDS.has(word));

/** Rec. 709 luminance, 0–255. */
export const luminance = (color: Color): number => 0.2126 * color.r + 0.7152 * color.g + 0.0722 * color.b;
/** White, black or a grey: too little chroma to tint with. */
export const isGrey = (color: Color): boolean => Math.max(color.r, color.g, color.b) - Math.min(color.r, color.g, color.b) < 32;
