import { Type } from 'typebox';
import { color, edges, gravity, length, LENGTH, operation, POSITION, COLOR, ratio, side } from './operation.ts';

const L = Type.Literal;
/** The picture's way up, said to be wrong ("it's sideways", "it's upside down"): mended by turning it (a flip or a mirror may mend a mirrored picture, not a turned one: not counted). */
const WAY_UP = 'the way up';

/** Geometry: the picture's size, shape, orientation and canvas. */
export const GEOMETRY = [
  /** Any of width/height (the other follows the aspect ratio unless fit is 'fill'). */
  operation('resize', {
    group: 'geometry',
    params: { width: Type.Optional(length), height: Type.Optional(length), fit: Type.Union([L('inside'), L('cover'), L('fill'), L('contain')]), background: Type.Optional(color) },
    catalogue: {
      summary: 'Scale the image: to a width, a height, both (WxH: fills the box, cropping the overflow), a percentage or a factor.',
      parameters: { width: LENGTH, height: LENGTH, fit: 'inside (keep within), cover (fill and crop), fill (stretch), contain (letterbox)' },
      examples: ['resize to 1200 wide', 'make it half the size', 'halve it', 'resize to 800x600', 'scale to 1080p', 'fit within 500x500', 'make it twice as big'],
      keywords: ['resize', 'scale', 'size', 'shrink', 'enlarge', 'smaller', 'bigger', 'width', 'height', 'wide', 'tall', 'upscale', 'downscale'],
    },
    questions: [{ slot: 'width|height', needs: 'a size or a direction', examples: ['resize to 1200 wide', 'make it half the size'], words: ['resize', 'size', 'rescale', 'scale', 'dimensions', 'dimension', 'resolution'] }],
    // Kept within a size unless WxH (both sides) is given, which fills the box; "smaller" is half
    // the size, "larger" twice it.
    reading: {
      needs: ['size', 'scale', 'direction'],
      accepts: ['fit', 'color', 'degree'],
      defaults: { fit: 'inside' },
      kinds: { box: { fit: 'cover' } },
      levels: {
        smaller: { slight: 80, normal: 50, strong: 25 },
        larger: { slight: 125, normal: 200, strong: 400 },
      },
    },
  }),
  /**
   * One side made longer or shorter, the other kept: the proportions change. Its own operation,
   * not a resize, because it is asked for by its own words ("stretch it vertically") and does what
   * a resize never does unasked (distort).
   */
  operation('stretch', {
    group: 'geometry',
    params: { axis: Type.Union([L('horizontal'), L('vertical')]), factor: Type.Number({ minimum: 0.1, maximum: 4 }) },
    catalogue: {
      summary: 'Stretch or squash the picture along one side, the other kept (the proportions change).',
      parameters: { axis: 'horizontal (its width) or vertical (its height)', factor: '1.25 makes that side a quarter longer, 0.8 a fifth shorter' },
      examples: ['stretch it vertically', 'squash it horizontally by 20%', 'stretch the photo sideways a little'],
      keywords: ['stretch', 'squash', 'squeeze', 'elongate', 'distort', 'proportions'],
    },
    // A verb of stretching or squashing with the side said; by a share ("by 20%") or a degree.
    reading: {
      needs: ['direction'],
      accepts: ['scale', 'degree'],
      defaults: {},
      levels: {
        longer: { slight: 1.1, normal: 1.25, strong: 1.5 },
        shorter: { slight: 0.9, normal: 0.8, strong: 0.67 },
      },
    },
  }),
  /** Fits the image inside a size×size box. */
  operation('thumbnail', {
    group: 'geometry',
    params: { size: side },
    catalogue: {
      summary: 'A small version that fits in a square box (256 px unless a size is given).',
      parameters: { size: 'the box side in pixels' },
      examples: ['make a thumbnail', 'create a 150px thumbnail', 'square thumbnail 200x200'],
      keywords: ['thumbnail', 'thumb', 'preview', 'small'],
    },
    reading: { needs: [], accepts: ['size'], defaults: { size: 256 } },
  }),
  operation('crop', {
    group: 'geometry',
    params: { width: length, height: length, gravity },
    catalogue: {
      summary: 'Cut out a region of a given size, at a position or around the subject ("smart").',
      parameters: { width: LENGTH, height: LENGTH, gravity: `${POSITION}, or attention (the subject)` },
      examples: ['crop to 800x600', 'crop 300x300 from the top left', 'smart crop to 400x400', 'keep the left half'],
      keywords: ['crop', 'cut', 'region', 'keep', 'extract'],
    },
    questions: [
      { slot: 'width|height', needs: 'a size, an aspect ratio or a margin', examples: ['crop to 800x600', 'crop to 16:9'], note: '(or "zoom in" for a centred crop)', words: ['crop', 'cut', 'shorten', 'trim', 'frame'] },
      // "zoom in" is a centred crop, "zoom out" more canvas (pad): which, the direction says.
      { slot: 'width|height', subject: 'zoom', needs: 'a direction', examples: [['zoom in', 'a centred crop'], ['zoom out by 20%', 'more canvas']], words: ['zoom'] },
    ],
    // Centred unless a position or the subject is said; "closer" keeps 80% of each side, "zoom in" a 1.25× enlargement's.
    reading: {
      needs: ['size', 'share', 'closer', 'direction'],
      accepts: ['position', 'degree', 'scale'],
      defaults: { gravity: 'center' },
      levels: { closer: { slight: 90, normal: 80, strong: 50 }, zoom: { slight: 1.1, normal: 1.25, strong: 2 } },
    },
  }),
  /** Largest crop of the given aspect ratio (e.g. [16, 9]; [1, 1] for square). */
  operation('crop_aspect', {
    group: 'geometry',
    params: { ratio, gravity },
    catalogue: {
      summary: 'The largest crop with an aspect ratio, centred or around the subject.',
      parameters: { ratio: 'W:H, e.g. 16:9, or square', gravity: `${POSITION}, or attention` },
      examples: ['crop to 16:9', 'make it square', 'crop to a 4:5 aspect ratio around the subject'],
      keywords: ['aspect', 'ratio', 'square', 'widescreen', 'crop'],
    },
  }),
  /** Cuts the given amount off each edge. */
  operation('crop_margin', {
    group: 'geometry',
    params: edges,
    catalogue: {
      summary: 'Cut an amount off some or all edges.',
      parameters: { top: LENGTH, right: LENGTH, bottom: LENGTH, left: LENGTH },
      examples: ['crop 10px off each side', 'cut 50 pixels from the top', 'trim 5% off the left and right'],
      keywords: ['crop', 'cut', 'off', 'edges', 'sides', 'margin'],
    },
    // A side named with no amount ("crop off the top") loses a tenth of the picture; "a little" of it, a twentieth ("a lot" is no more).
    reading: { needs: ['size', 'position'], accepts: ['degree'], defaults: {}, levels: { percent: { slight: 5, normal: 10, strong: 10 } } },
  }),
  /** Clockwise degrees, any angle; uncovered corners get the background. */
  operation('rotate', {
    group: 'geometry',
    mends: WAY_UP,
    params: { degrees: Type.Number({ minimum: -360, maximum: 360 }), background: color },
    catalogue: {
      summary: 'Rotate clockwise by any angle (left/counter-clockwise turns the other way); uncovered corners get the background (transparent unless given).',
      parameters: { degrees: 'clockwise, 0–360', background: COLOR },
      examples: ['rotate 90 degrees', 'rotate left', 'rotate it upside down', 'turn it right side up', 'rotate 45° with a white background'],
      keywords: ['rotate', 'rotation', 'turn', 'spin', 'tilt', 'clockwise', 'degrees', 'upside'],
    },
    questions: [{ slot: 'degrees', needs: 'an angle or a direction', examples: ['rotate 90 degrees clockwise', 'rotate left'], note: '("straighten" levels a tilted picture)', words: ['rotate', 'rotation', 'spin', 'turn'] }],
    // A direction alone ("rotate left") is a quarter turn; uncovered corners are transparent unless a background is said.
    reading: { needs: ['size', 'direction'], accepts: ['color'], defaults: { degrees: 90, background: { r: 0, g: 0, b: 0, alpha: 0 } } },
  }),
  /**
   * Levels a tilted picture: rotates by a small angle (clockwise degrees, -45 to 45; absent: the
   * tilt is measured from the image's own near-horizontal and near-vertical edges) and crops to the
   * largest upright rectangle inside, so no corner is left empty.
   */
  operation('straighten', {
    group: 'geometry',
    params: { degrees: Type.Optional(Type.Number({ minimum: -45, maximum: 45 })) },
    catalogue: {
      summary: 'Level a tilted picture: rotate by a small angle (measured from its own near-horizontal and near-vertical edges unless given) and crop so no corner is empty.',
      parameters: { degrees: 'clockwise, -45 to 45; absent: measured (within ±15°; 0 when no clear tilt shows)' },
      examples: ['straighten the image', 'rotate it slightly to level it', 'correct the tilt', 'align the horizon'],
      keywords: ['straighten', 'straight', 'level', 'tilted', 'crooked', 'horizon', 'askew'],
    },
  }),
  /** Upside down (about the horizontal axis). */
  operation('flip', {
    group: 'geometry',
    catalogue: {
      summary: 'Flip upside down (top to bottom).',
      parameters: {},
      examples: ['flip vertically', 'flip it upside down', 'turn it upside down'],
      keywords: ['flip', 'vertical', 'vertically', 'upside'],
    },
  }),
  /** Left-right mirror (about the vertical axis). */
  operation('mirror', {
    group: 'geometry',
    catalogue: {
      summary: 'Mirror left to right.',
      parameters: {},
      examples: ['mirror it', 'flip horizontally', 'flip'],
      keywords: ['mirror', 'flip', 'horizontal', 'horizontally', 'reflect', 'flop'],
    },
  }),
  /** Removes uniform borders; threshold is the colour distance still counted as border. */
  operation('trim', {
    group: 'geometry',
    params: { threshold: Type.Number({ minimum: 0, maximum: 255 }) },
    strength: { param: 'threshold', steps: { slight: 5, normal: 10, strong: 30 } },
    catalogue: {
      summary: 'Remove uniform borders (the colour of the top-left pixel).',
      parameters: { threshold: 'how different a colour may be and still count as border' },
      examples: ['trim the borders', 'remove the whitespace around it', 'auto-crop'],
      keywords: ['trim', 'whitespace', 'borders', 'autocrop', 'empty'],
    },
  }),
  /** Adds canvas on each side. */
  operation('pad', {
    group: 'geometry',
    params: { ...edges, background: color },
    catalogue: {
      summary: 'Add canvas around some or all edges (white unless a colour is given).',
      parameters: { top: LENGTH, right: LENGTH, bottom: LENGTH, left: LENGTH, background: COLOR },
      examples: ['add 20px padding', 'pad by 10% with black', 'extend the canvas by 100px at the bottom', 'extend the image', 'extrude the outer edges'],
      keywords: ['pad', 'padding', 'extend', 'canvas', 'margin', 'space', 'expand'],
    },
    // White canvas, 20 px on each side unless said ("a little": 10, "a lot": 50).
    reading: { needs: [], accepts: ['size', 'position', 'color', 'degree'], defaults: { background: { r: 255, g: 255, b: 255, alpha: 1 } }, levels: { pixels: { slight: 10, normal: 20, strong: 50 } } },
  }),
  /** Extends the canvas (centred) to at least width×height, without scaling or cropping. */
  operation('pad_to', {
    group: 'geometry',
    params: { width: side, height: side, background: color },
    catalogue: {
      summary: 'Centre the image on a canvas of at least the given size, without scaling.',
      parameters: { width: 'pixels', height: 'pixels', background: COLOR },
      examples: ['pad to 1000x1000', 'extend the canvas to 1920x1080 with black'],
      keywords: ['pad', 'canvas', 'extend', 'center'],
    },
  }),
  /** Extends the canvas (centred) to the given aspect ratio without cropping. */
  operation('pad_aspect', {
    group: 'geometry',
    params: { ratio, background: color },
    catalogue: {
      summary: 'Extend the canvas to an aspect ratio instead of cropping (letterbox).',
      parameters: { ratio: 'W:H or square', background: COLOR },
      examples: ['pad to square', 'letterbox to 16:9 with black bars', 'make it square without cropping'],
      keywords: ['letterbox', 'pad', 'square', 'bars', 'aspect'],
    },
  }),
  operation('border', {
    group: 'geometry',
    params: { width: Type.Integer({ minimum: 1, maximum: 10_000 }), color },
    strength: { param: 'width', steps: { slight: 5, normal: 10, strong: 25 } },
    catalogue: {
      summary: 'A solid border around the image (black, 10 px unless given).',
      parameters: { width: 'pixels', color: COLOR },
      examples: ['add a red 10px border', 'thin white border', 'frame it in gold', 'change the frame colour to navy'],
      keywords: ['border', 'frame', 'outline', 'edge'],
    },
    // Black unless a colour is said; its width the strength's step, or a thin (3 px) or thick (25 px) one.
    reading: { needs: [], accepts: ['size', 'color', 'degree', 'kind'], defaults: { color: { r: 0, g: 0, b: 0, alpha: 1 } }, kinds: { thin: { width: 3 }, thick: { width: 25 } } },
  }),
  operation('round_corners', {
    group: 'geometry',
    params: { radius: length },
    catalogue: {
      summary: 'Round the corners (transparent outside).',
      parameters: { radius: LENGTH },
      examples: ['round the corners', 'rounded corners 20px'],
      keywords: ['round', 'rounded', 'corners', 'radius'],
    },
    // A radius of 8% of the picture unless said ("slightly": 4%, "strongly": 20%).
    reading: { needs: [], accepts: ['size', 'degree'], defaults: {}, levels: { percent: { slight: 4, normal: 8, strong: 20 } } },
  }),
  /** Crops to the largest centred circle, or to the oval the whole picture holds; outside becomes transparent. */
  operation('circle', {
    group: 'geometry',
    params: { shape: Type.Optional(Type.Union([L('circle'), L('oval')])) },
    catalogue: {
      summary: 'Crop to the largest centred circle, or to the oval that fills the picture (transparent outside).',
      parameters: { shape: 'circle (default): the largest centred circle, cut from a square; oval: the ellipse touching all four sides' },
      examples: ['crop to a circle', 'make it circular', 'crop it to an oval'],
      keywords: ['circle', 'circular', 'round', 'avatar', 'oval', 'ellipse'],
    },
  }),
] as const;
