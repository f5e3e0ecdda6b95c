import type { Color, Gravity, Length } from '../plan.ts';
import type { Clause } from './clause.ts';
import type { Rule } from './rule.ts';

const TRANSPARENT: Color = { r: 0, g: 0, b: 0, alpha: 0 };
const WHITE: Color = { r: 255, g: 255, b: 255, alpha: 1 };
const BLACK: Color = { r: 0, g: 0, b: 0, alpha: 1 };
const pct = (value: number): Length => ({ value, unit: '%' });
const px = (value: number): Length => ({ value, unit: 'px' });

/** Takes every match of the pattern; true if there was one. */
export function takeAll(c: Clause, pattern: RegExp): boolean {
  let found = false;
  while (c.take(pattern)) found = true;
  return found;
}

/** "smart", "on the subject", "around the face": sharp's attention strategy. */
function gravity(c: Clause): Gravity {
  if (takeAll(c, /\b(?:smart(?:ly)?|intelligent(?:ly)?|auto(?:matic(?:ally)?)?|attention|content[\s-]aware|subject|main subject|focus(?:ed|ing)?|interesting part|important part|salient|around|keep(?:ing)?|face|faces|person|centered on)\b/)) return 'attention';
  if (c.take(/\bentropy\b/)) return 'entropy';
  return c.position() ?? 'center';
}

const resize: Rule = {
  op: 'resize',
  parse(c) {
    let shrink = takeAll(c, /\b(?:shrink|shrunk|reduce|reduced|downsize|downscale|downsample|smaller|down|decrease|lower)\b/);
    let grow = takeAll(c, /\b(?:enlarge|enlarged|upscale|upscaled|upsize|upsample|grow|bigger|larger|increase)\b/);
    const verb = takeAll(c, /\b(?:resize[ds]?|resizing|rescale[ds]?|scale[ds]?|scaling|resample|size[ds]?|sized|dimensions?|resolution|as big|as large)\b/);
    let fit: 'inside' | 'cover' | 'fill' | 'contain' | undefined;
    if (takeAll(c, /\b(?:fit(?:s|ting)?(?:\s+(?:in|within|inside|into))?|within|inside|max(?:imum)?|at most|no (?:larger|bigger|more) than|bounding box|proportional(?:ly)?|(?:keep(?:ing)?|preserv(?:e|ing)|maintain(?:ing)?)\s+(?:aspect\s+)?(?:ratio|proportions))\b/)) fit = 'inside';
    if (takeAll(c, /\b(?:stretch(?:ed|ing)?|exact(?:ly)?|distort(?:ed|ing)?|squash(?:ed)?|force[ds]?|ignor(?:e|ing)\s+(?:aspect\s+)?(?:ratio|proportions))\b/)) fit = 'fill';
    if (takeAll(c, /\b(?:cover(?:ing)?|crop(?:ping)?\s+to\s+fill|fill(?:ing)?(?:\s+frame)?)\b/)) fit = 'cover';
    let background: Color | undefined;
    if (takeAll(c, /\b(?:contain|letterbox(?:ed)?|pillarbox(?:ed)?|with bars|pad(?:ded|ding)?)\b/)) {
      fit = 'contain';
      background = c.color();
      c.take(/\b(?:bars?|background)\b/);
    }
    let width: Length | undefined;
    let height: Length | undefined;
    const box = c.size();
    if (box) {
      width = px(box.width);
      height = px(box.height);
      fit ??= 'cover';
    }
    const lines = c.take(/(?:^|\s)(\d{3,4})p(?=\s|$)/);
    if (lines) height = px(Number(lines[1]));
    const named = c.take(/\b(4k|uhd|8k|full\s*hd|fhd|hd)\b/);
    if (named) {
      const [w, h] = { '4k': [3840, 2160], uhd: [3840, 2160], '8k': [7680, 4320], hd: [1280, 720] }[named[1]!.replace(/\s+/g, '')] ?? [1920, 1080];
      [width, height, fit] = [px(w!), px(h!), fit ?? 'inside'];
    }
    const wide = c.take(/(?:^|\s)(\d+)(?:px)?\s+(?:wide|width|across|in width|horizontally)\b/) ?? c.take(/\bwidth(?:\s+(?:of|to|=|at|is))?\s+(\d+)(?:px)?(?=\s|$)/);
    if (wide) width = px(Number(wide[1]));
    const tall = c.take(/(?:^|\s)(\d+)(?:px)?\s+(?:tall|high|height|in height|vertically)\b/) ?? c.take(/\bheight(?:\s+(?:of|to|=|at|is))?\s+(\d+)(?:px)?(?=\s|$)/);
    if (tall) height = px(Number(tall[1]));
    const edge =
      c.take(/\b(?:long(?:est)?|longer|max(?:imum)?)\s+(?:edge|side|dimension)(?:\s+(?:of|to|at|is))?\s+(\d+)(?:px)?(?=\s|$)/) ??
      c.take(/(?:^|\s)(\d+)(?:px)?\s+(?:on|along|for)\s+(?:the\s+)?long(?:est|er)?\s+(?:edge|side)\b/);
    if (edge) [width, height, fit] = [px(Number(edge[1])), px(Number(edge[1])), 'inside'];
    const percent = c.take(/(?:\b(by|to)\s+)?([-+]?\d+(?:\.\d+)?)%(?=\s|$)/);
    const relative = c.take(/\b(smaller|bigger|larger)\b/);
    if (relative) [shrink, grow] = [relative[1] === 'smaller', relative[1] !== 'smaller'];
    if (percent) {
      const p = Math.abs(Number(percent[2]));
      const by = percent[1] === 'by' || relative !== null || (percent[1] !== 'to' && (shrink || grow) && !/^[-+]/.test(percent[2]!));
      const value = by && shrink ? 100 - p : by && grow ? 100 + p : percent[2]!.startsWith('-') ? 100 - p : percent[2]!.startsWith('+') ? 100 + p : p;
      [width, height, fit] = [pct(value), pct(value), 'fill'];
    }
    const times = c.take(/(?:^|\s)(\d+(?:\.\d+)?)x(?=\s|$)/);
    if (times) {
      const value = Number(times[1]) * 100;
      [width, height, fit] = [pct(shrink ? 10000 / value : value), pct(shrink ? 10000 / value : value), 'fill'];
    }
    // "resize by 50" says no unit: a share or pixels, either way, is asked about.
    if (!width && !height && c.has(/\bby\s+\d+(?=\s|$)/)) return undefined;
    if (!width && !height) {
      const bare = c.take(/(?:^|\s)(\d+)(?:px)?(?=\s|$)/);
      if (bare && (verb || shrink || grow)) [width, height, fit] = [px(Number(bare[1])), px(Number(bare[1])), 'inside'];
      else if (bare) return undefined;
    }
    takeAll(c, /\b(?:the\s+)?(?:original|size|as big|as large|big|large|canvas size|image size|dimensions|aspect ratio|proportions)\b/);
    if (!width && !height) {
      if (!shrink && !grow) return undefined;
      const level = c.level();
      const value = shrink ? { slight: 80, normal: 50, strong: 25 }[level] : { slight: 125, normal: 200, strong: 400 }[level];
      return [{ op: 'resize', width: pct(value), height: pct(value), fit: 'fill' }];
    }
    if (!verb && !shrink && !grow && !box && !lines && !named && !wide && !tall && !edge) return undefined;
    if (wide && tall) fit ??= 'cover';
    if (width?.value === 0 || height?.value === 0) return undefined;
    return [{ op: 'resize', ...(width && { width }), ...(height && { height }), fit: fit ?? 'inside', ...(background && { background }) }];
  },
};

const thumbnail: Rule = {
  op: 'thumbnail',
  parse(c) {
    if (!c.take(/\bthumbnails?\b/)) return undefined;
    takeAll(c, /\b(?:create|generate|produce|small|tiny|sized?)\b/);
    const square = c.take(/\bsquare\b/);
    const box = c.size();
    const size = box ? Math.max(box.width, box.height) : c.length()?.value ?? 256;
    if (size < 1) return undefined;
    return square ? [{ op: 'crop_aspect', ratio: [1, 1], gravity: 'attention' }, { op: 'thumbnail', size }] : [{ op: 'thumbnail', size }];
  },
};

const SIDES = /\b(top-and-bottom|left-and-right|top|bottom|left|right|each side|all sides|every side|all edges|each edge|every edge|all around|around|all four sides|sides|edges|on every side|on each side|off)\b/;

/** Which edges a margin applies to; all four when none is named. */
function sides(c: Clause, length: Length): { top: Length; right: Length; bottom: Length; left: Length } {
  const zero = px(0);
  const result = { top: zero, right: zero, bottom: zero, left: zero };
  let named = false;
  for (let m = c.take(SIDES); m; m = c.take(SIDES)) {
    const word = m[1]!;
    if (word === 'top' || word === 'top-and-bottom') [result.top, named] = [length, true];
    if (word === 'bottom' || word === 'top-and-bottom') [result.bottom, named] = [length, true];
    if (word === 'left' || word === 'left-and-right') [result.left, named] = [length, true];
    if (word === 'right' || word === 'left-and-right') [result.right, named] = [length, true];
  }
  return named ? result : { top: length, right: length, bottom: length, left: length };
}

/** What "crop off the top" cuts when no amount is said: a tenth of the picture's height or width. */
export const DEFAULT_CROP_MARGIN: Length = { value: 10, unit: '%' };
/** … and "a little" of it. */
export const SLIGHT_CROP_MARGIN: Length = { value: 5, unit: '%' };

const cropMargin: Rule = {
  op: 'crop_margin',
  parse(c) {
    if (!takeAll(c, /\b(?:crop(?:ped)?|cut|trim|remove|shave|chop|take)\b/)) return undefined;
    if (c.has(/(?:^|\s)\d+x\d+(?=\s|$)/)) return undefined;
    const given = c.length(/(?:^|\s)(\d+(?:\.\d+)?)(px|%)?(?=\s|$)/);
    // "crop 10px off the top" cuts; "crop to the top half" keeps (the crop rule). "crop out the
    // top and bottom" names the edges and no amount: a tenth of the picture off each.
    const named = c.has(/\b(?:top-and-bottom|left-and-right|top|bottom|left|right)\b/);
    // A part of a side ("remove the top part", "crop the bottom portion") is cut off too.
    // … and so is "a little" of one ("crop the top a little").
    // … and so is a side cropped ("crop the bottom of the image"); kept, it is said with "to"
    // ("crop to the bottom") or as a share ("crop the left half"), which the crop rule reads.
    const cut =
      c.has(/\b(?:off|from|away|each|every|all|around|out)\b/) ||
      c.has(/\b(?:top|bottom|left|right)\s+(?:parts?|portions?|sections?|strips?)\b/) ||
      (named && !given && c.has(/\bslightly\b/)) ||
      (/^(?:crop|cut|trim)\s+(?:the\s+)?(?:top|bottom|left|right)(?:\s+(?:side|edge))?(?:\s+(?:by\s+)?\d+(?:\.\d+)?(?:px|%))?(?:\s+of(?:\s+the|\s+this)?)?$/.test(c.canonical) &&
        !(given?.unit === '%' && given.value >= 50));
    if (!(given || named) || !c.has(SIDES) || !cut) return undefined;
    const margins = sides(c, given ?? (c.take(/\bslightly\b/) ? SLIGHT_CROP_MARGIN : DEFAULT_CROP_MARGIN));
    // Cutting all of the picture away ("crop 100% from the top", "50% from each side") is asked about.
    const share = (length: Length) => (length.unit === '%' ? length.value : 0);
    if (share(margins.top) + share(margins.bottom) >= 100 || share(margins.left) + share(margins.right) >= 100) return undefined;
    takeAll(c, /\b(?:off|away|out|edges?|margins?|border|parts?|portions?|sections?|strips?|sides?)\b/);
    return [{ op: 'crop_margin', ...margins }];
  },
};

const crop: Rule = {
  op: 'crop',
  parse(c) {
    const verb = takeAll(c, /\b(?:crop(?:ped|ping)?|cut(?:\s+out)?|keep(?:\s+only)?|extract)\b/);
    if (!verb) return undefined;
    // "crop it closer", "crop more tightly": in from every side, as "zoom in" does.
    if (c.take(/\b(?:in\s+)?(?:closer|tighter|more\s+tightly)\b/)) {
      const keep = { slight: 90, normal: 80, strong: 50 }[c.level()];
      return [{ op: 'crop', width: pct(keep), height: pct(keep), gravity: 'center' }];
    }
    const where = gravity(c);
    const box = c.size();
    if (box) return [{ op: 'crop', width: px(box.width), height: px(box.height), gravity: where }];
    // "keep the left half", "crop to the top third".
    const part = c.take(/(?:^|\s)(\d+(?:\.\d+)?)%(?=\s|$)/);
    if (part && where !== 'attention' && where !== 'entropy') {
      const vertical = where.startsWith('top') || where.startsWith('bottom');
      const horizontal = where.endsWith('left') || where.endsWith('right');
      // Without "to", "keep" or "only" a share may as well be what is cut ("crop 10%", "crop the
      // top 60%"): small shares of a side are (the margin rule), others are asked about; a half
      // of a side ("crop the right half") is the half kept, as people use it.
      const keeps = /\bkeep\b/.test(c.canonical) || c.has(/\b(?:to|only)\b/) || (Number(part[1]) === 50 && (vertical || horizontal));
      if (!keeps || Number(part[1]) <= 0 || Number(part[1]) > 100) return undefined;
      if (!vertical && !horizontal) return [{ op: 'crop', width: pct(Number(part[1])), height: pct(Number(part[1])), gravity: 'center' }];
      return [{ op: 'crop', width: horizontal ? pct(Number(part[1])) : pct(100), height: vertical ? pct(Number(part[1])) : pct(100), gravity: where }];
    }
    return undefined;
  },
};

const cropAspect: Rule = {
  op: 'crop_aspect',
  parse(c) {
    // "square" or "16:9" alone: a crop is the common reading, so the verb is optional.
    takeAll(c, /\b(?:crop(?:ped|ping)?|cut|reframe|make|aspect(?:\s+ratio)?|ratio)\b/);
    const ratio = c.ratio();
    if (!ratio) return undefined;
    takeAll(c, /\b(?:crop|aspect(?:\s+ratio)?|ratio|shape|format)\b/);
    return [{ op: 'crop_aspect', ratio, gravity: gravity(c) }];
  },
};

/** A colour counts only when said to be the background ("with a white background", "fill with red"). */
function rotationBackground(c: Clause): Color {
  if (!c.has(/\b(?:background|fill(?:ed)?|corners?|behind|gaps?|empty|with)\b/)) return TRANSPARENT;
  const color = c.color();
  takeAll(c, /\b(?:background|fill(?:ed)?|corners?|behind|gaps?|empty\s+(?:areas?|space))\b/);
  return color ?? TRANSPARENT;
}

const rotate: Rule = {
  op: 'rotate',
  parse(c) {
    let degrees: number | undefined;
    if (c.take(/(?:^|\s)25%\s+turn\b/)) degrees = 90;
    if (c.take(/(?:^|\s)50%\s+turn\b/)) degrees = 180;
    if (!takeAll(c, /\b(?:rotate[ds]?|rotating|rotation|turn(?:ed)?|spin|tilt(?:ed)?)\b/) && degrees === undefined) return undefined;
    degrees ??= c.degrees() ?? c.number();
    if (c.take(/\bupside[\s-]down\b/)) degrees = 180;
    if (c.take(/\bsideways\b/)) degrees ??= 90;
    const direction = c.take(/\b(clockwise|cw|right|counterclockwise|ccw|left)\b/);
    takeAll(c, /\b(?:direction|around|by|to the)\b/);
    const background = rotationBackground(c);
    // "rotate the image" alone names no angle: the planner asks (see questions.ts).
    if (degrees === undefined && !direction) return undefined;
    degrees ??= 90;
    if (direction && /^(?:counterclockwise|ccw|left)$/.test(direction[1]!)) degrees = -degrees;
    const normalized = ((degrees % 360) + 360) % 360;
    return [{ op: 'rotate', degrees: Math.round(normalized * 1000) / 1000, background }];
  },
};

/**
 * "straighten the image", "level the horizon", "rotate it slightly": a small turn, cropped so no
 * corner is empty. Without an angle the tilt is measured from the image (see the executor).
 */
const straighten: Rule = {
  op: 'straighten',
  parse(c) {
    // "it's tilted 3 degrees to the right" says the fault: the turn that fixes it goes the other way.
    const fault = c.has(/\b(?:crooked|skewed|tilted|slanted|leaning|leans)\b/);
    const level = takeAll(c, /\b(?:straighten(?:\s+up)?|straight|level(?:\s+(?:out|off))?|leveled|levelled|deskew|un-?tilt|fix\s+(?:the\s+)?(?:tilt|angle|horizon)|horizon|crooked|skewed|tilted|slanted|leaning|leans)\b/);
    const rotateSlightly = c.has(/\b(?:rotate|rotation|turn|tilt)\b/) && c.has(/\bslightly\b/);
    if (!level && !rotateSlightly) return undefined;
    takeAll(c, /\b(?:rotate|rotation|turn|tilt|slightly|horizon|horizontal|vertical|lines?|standing|stand|they\s?re|are|so|until|is|out)\b/);
    const degrees = c.degrees() ?? c.number();
    const direction = c.take(/\b(clockwise|cw|right|counterclockwise|ccw|left)\b/);
    // "the horizon is crooked by 3 degrees" says not which way: the turn back is not known.
    if (degrees !== undefined && fault && !direction) return undefined;
    if (degrees !== undefined) {
      const asked = direction && /^(?:counterclockwise|ccw|left)$/.test(direction[1]!) ? -degrees : degrees;
      const signed = fault ? -asked : asked;
      return Math.abs(signed) <= 45 ? [{ op: 'straighten', degrees: signed }] : undefined;
    }
    return direction ? undefined : [{ op: 'straighten' }];
  },
};

/** "zoom in" is a centred crop, "zoom out" extends the canvas (white unless a colour is said). */
const zoom: Rule = {
  op: 'crop',
  parse(c) {
    // "move the picture closer", "make it appear closer": seen from nearer, a zoom in.
    const zoom = c.take(/\b(?:zoom|magnify|close[\s-]?up)(?:\s+(in|out|into))?(?:\s+on)?\b/) ?? c.take(/\b(?:move|bring|appear|seem|look)\s+(?:(?:it|the|this|whole|entire|everything)\s+)*(?=closer\b)/);
    if (!zoom) return undefined;
    const out = zoom[1] === 'out';
    // "zoom" alone says which way only beside "crop" ("crop and zoom") or "on" ("zoom on the picture").
    if (!zoom[1] && !/magnify|close|\son$|^\s*(?:move|bring|appear|seem|look)/.test(zoom[0]) && !c.has(/\bcrop\b/)) return undefined;
    const level = c.level();
    const times = c.take(/(?:^|\s)(?:by\s+)?(\d+(?:\.\d+)?)x(?=\s|$)/);
    const percent = c.take(/(?:^|\s)(?:by\s+)?(\d+(?:\.\d+)?)%(?=\s|$)/);
    let factor = times ? Number(times[1]) : percent ? 1 + Number(percent[1]) / 100 : { slight: 1.1, normal: 1.25, strong: 2 }[level];
    if (!(factor > 1 && factor <= 20)) return undefined;
    takeAll(c, /\b(?:center|centre|middle)\b/);
    if (!out) {
      takeAll(c, /\b(?:closer|tighter|more\s+tightly|tightly)\b/);
      takeAll(c, /\bcrop\b/);
      const keep = Math.round((100 / factor) * 1000) / 1000;
      return [{ op: 'crop', width: pct(keep), height: pct(keep), gravity: 'center' }];
    }
    const background = c.color() ?? barsColor(c);
    takeAll(c, /\b(?:background|with)\b/);
    factor = Math.round(((factor - 1) / 2) * 100 * 1000) / 1000;
    return [{ op: 'pad', top: pct(factor), right: pct(factor), bottom: pct(factor), left: pct(factor), background }];
  },
};

const flip: Rule = {
  op: 'flip',
  parse(c) {
    if (c.take(/\bvertical(?:ly)?\s+(?:flip|mirror)\b/) || c.take(/\b(?:flip(?:ped)?|mirror(?:ed)?)\s+(?:(?:it|this|the|that)\s+)?(?:vertical(?:ly)?|upside[\s-]down|top\s+to\s+bottom|over)\b/)) {
      takeAll(c, /\b(?:vertical(?:ly)?|axis|horizontal axis|x axis)\b/);
      return [{ op: 'flip' }];
    }
    return undefined;
  },
};

const mirror: Rule = {
  op: 'mirror',
  parse(c) {
    if (!takeAll(c, /\b(?:mirror(?:ed)?(?:\s+image)?|flop(?:ped)?|flip(?:ped)?|reflect(?:ed)?|horizontal(?:ly)?\s+(?:flip|mirror))\b/)) return undefined;
    // "flip it to the left": which way it faces after, which is a mirror either way.
    takeAll(c, /\b(?:horizontal(?:ly)?|left\s+to\s+right|right\s+to\s+left|side\s+to\s+side|sideways|vertical\s+axis|y\s+axis|axis|to\s+(?:the\s+)?(?:left|right))\b/);
    return [{ op: 'mirror' }];
  },
};

const trim: Rule = {
  op: 'trim',
  parse(c) {
    // A line or bar of one colour is cut off an edge ("crop the black line out"); removed, it
    // may be anywhere in the picture ("remove the white lines").
    const cropping = c.has(/\b(?:crop|cut|trim(?:med)?|auto[\s-]?crop)\b/);
    const bare = takeAll(c, /\b(?:trim(?:med)?|auto[\s-]?crop)\b/);
    const verb = takeAll(c, /\b(?:remove|cut|crop)(?:\s+out)?\b/);
    const plain = c.take(/\b(?:empty|blank|white|black|plain)\s+(?:space|areas?|borders?|margins?|edges?|parts?)\b/) ?? (cropping ? c.take(/\b(?:empty|blank|white|black|plain)\s+(?:lines?|bars?|strips?|stripes?)\b/) : null);
    const what = takeAll(c, /\b(?:borders?|edges?|white\s*space|margins?|uniform|excess|extra|surrounding|space|padding)\b/) || plain !== null;
    // "trim" alone trims uniform borders; "crop" alone asks for what to crop (questions.ts).
    if (!(bare || (verb && what)) || (!what && !c.has(/^\s*$/))) return undefined;
    // "crop the white area above the girl": a plain area cropped is one at an edge, which
    // trimming finds by itself; where the person says it is only locates it. Removed ("remove
    // the black area behind the logo"), it may be anywhere: that clause is not read.
    if (plain && cropping) c.take(/\b(?:above|below|under|over|around|beside|behind|next\s+to|on\s+top\s+of)\s+(?:the|her|his|their)\s+\w+(?=\s*$)/);
    takeAll(c, /\b(?:around|off|away|out)\b/);
    const level = c.level();
    return [{ op: 'trim', threshold: { slight: 5, normal: 10, strong: 30 }[level] }];
  },
};

/**
 * Words of a padding, in three kinds: growing words ("extend") say one except of a background
 * (below), placing words only beside another padding word, the rest on their own. Each pattern is made
 * from its own list, so a change to one list cannot silently undo another's.
 */
const GROWING_WORDS = ['extend(?:ed)?', 'expand(?:ed)?'];
const PLACING_WORDS = ['place', 'centered'];
const CANVAS_WORDS = ['pad(?:ded|ding)?', 'margins?', 'canvas', 'space', 'whitespace', 'room', 'bars?', 'letterbox(?:ed)?', 'pillarbox(?:ed)?', String.raw`without\s+cropping`, String.raw`by\s+adding`];
const wordsPattern = (words: string[]) => new RegExp(String.raw`\b(?:${words.join('|')})\b`);
const PAD_WORDS = wordsPattern([...CANVAS_WORDS, ...GROWING_WORDS, ...PLACING_WORDS]);

/** Letterbox and pillarbox bars are black, as in film; other padding is white. */
const barsColor = (c: Clause): Color => (/\b(?:letterbox|pillarbox)/.test(c.canonical) ? BLACK : WHITE);

const padAspect: Rule = {
  op: 'pad_aspect',
  parse(c) {
    if (!takeAll(c, PAD_WORDS)) return undefined;
    const ratio = c.ratio();
    if (!ratio) return undefined;
    const background = c.color() ?? barsColor(c);
    takeAll(c, /\b(?:background|aspect(?:\s+ratio)?|ratio|sides?|around|canvas|colou?r)\b/);
    return [{ op: 'pad_aspect', ratio, background }];
  },
};

const padTo: Rule = {
  op: 'pad_to',
  parse(c) {
    if (!takeAll(c, PAD_WORDS)) return undefined;
    const box = c.size();
    if (!box) return undefined;
    const background = c.color() ?? barsColor(c);
    takeAll(c, /\b(?:background|canvas|around|centered|center)\b/);
    return [{ op: 'pad_to', width: box.width, height: box.height, background }];
  },
};

/**
 * Placing a picture on a background says a padding only with a canvas or a size: "place the
 * image on a yellow background" may as well ask for its own background to turn yellow.
 */
const ONLY_PLACED = /\b(?:place|centered)\b/;
const PADDING_NAMED = wordsPattern([...CANVAS_WORDS, ...GROWING_WORDS]);

/**
 * "extend the image", "expand it": more canvas around it, as most people mean (the default
 * margin when no length is said). "extend the background" asks for new content: of a background,
 * growing words say a padding only with its colour.
 */
const GROWING_ONLY = wordsPattern(GROWING_WORDS);
const CANVAS_NAMED = wordsPattern(CANVAS_WORDS);

const pad: Rule = {
  op: 'pad',
  parse(c) {
    if (!c.has(PADDING_NAMED) && c.has(ONLY_PLACED)) return undefined;
    const growingOnly = c.has(GROWING_ONLY) && !c.has(CANVAS_NAMED);
    if (!takeAll(c, PAD_WORDS)) return undefined;
    const given = c.length(/(?:^|\s)(\d+(?:\.\d+)?)(px|%)?(?=\s|$)/);
    const length = given ?? ({ slight: px(10), normal: px(20), strong: px(50) } as const)[c.level()];
    const color = c.color();
    if (growingOnly && !color && c.has(/\bbackground\b/)) return undefined;
    const background = color ?? WHITE;
    takeAll(c, /\b(?:background|colou?r|white)\b/);
    return [{ op: 'pad', ...sides(c, length), background }];
  },
};

const border: Rule = {
  op: 'border',
  parse(c) {
    // "a white background around the picture" is a frame of the whole picture.
    if (!takeAll(c, /\b(?:borders?|frame[ds]?|framing|outline|(?:background|area|band|strip)\s+(?=around\b))\b/)) return undefined;
    const color = c.color();
    let width = c.length(/(?:^|\s)(\d+(?:\.\d+)?)(px)?(?=\s|$)/)?.value;
    const thickness = c.take(/\b(thin|thick|fat|wide|narrow|hairline|fine|bold|heavy)\b/);
    if (width === undefined) {
      const level = c.level();
      width = thickness ? (/thin|narrow|hairline|fine/.test(thickness[1]!) ? 3 : 25) : { slight: 5, normal: 10, strong: 25 }[level];
    }
    takeAll(c, /\b(?:wide|thick|width|around|edges?|colou?red|solid|all)\b/);
    if (width < 1) return undefined;
    return [{ op: 'border', width: Math.round(width), color: color ?? BLACK }];
  },
};

const roundCorners: Rule = {
  op: 'round_corners',
  parse(c) {
    if (!c.take(/\b(?:round(?:ed)?(?:\s+off)?|soft(?:en)?|curved?)\s+(?:the\s+)?corners?\b|\bcorners?\s+(?:radius|rounded|round)\b|\bcorner\s+rounding\b|\bborder[\s-]radius\b|\bradius\b/)) return undefined;
    const length = c.length(/(?:^|\s)(\d+(?:\.\d+)?)(px|%)?(?=\s|$)/);
    const level = c.level();
    takeAll(c, /\b(?:radius|corners?)\b/);
    return [{ op: 'round_corners', radius: length ?? pct({ slight: 4, normal: 8, strong: 20 }[level]) }];
  },
};

const circle: Rule = {
  op: 'circle',
  parse(c) {
    if (!takeAll(c, /\b(?:circle|circular|round|circled|oval|avatar|profile\s+picture)\b/)) return undefined;
    takeAll(c, /\b(?:crop(?:ped)?|cut(?:\s+out)?|shape[ds]?|mask(?:ed)?|style)\b/);
    return [{ op: 'circle' }];
  },
};

export const geometryRules: Rule[] = [thumbnail, roundCorners, circle, zoom, straighten, flip, mirror, rotate, cropMargin, crop, cropAspect, padAspect, padTo, pad, border, trim, resize];
