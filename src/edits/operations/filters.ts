import { Type } from 'typebox';
import { inRegion, operation } from './operation.ts';

const L = Type.Literal;

/** Pixels a thicken_lines grows each line by on each side: past this it is a blot, not a line. */
export const MAX_LINE_GROWTH = 20;

/** Filters: the picture's texture and detail, computed from neighbouring pixels. */
export const FILTERS = [
  operation('blur', {
    group: 'filter',
    opposite: 'sharpen',
    params: { ...inRegion, sigma: Type.Number({ minimum: 0.3, maximum: 1000 }) },
    strength: { param: 'sigma', steps: { slight: 1, normal: 3, strong: 8 } },
    catalogue: {
      summary: 'Gaussian blur.',
      parameters: { sigma: '0.3–100 (slightly 1, default 3, a lot 8)' },
      examples: ['blur it', 'blur slightly', 'gaussian blur 5'],
      keywords: ['blur', 'blurry', 'soften', 'smooth', 'focus', 'gaussian'],
    },
  }),
  operation('sharpen', {
    group: 'filter',
    opposite: 'blur',
    params: { ...inRegion, sigma: Type.Number({ minimum: 0.01, maximum: 10 }) },
    strength: { param: 'sigma', steps: { slight: 0.5, normal: 1, strong: 2 } },
    catalogue: {
      summary: 'Sharpen details.',
      parameters: { sigma: '0.1–10' },
      examples: ['sharpen', 'sharpen a little', 'make it crisper'],
      keywords: ['sharpen', 'sharper', 'crisp', 'crisper', 'detail', 'clarity', 'unsharp'],
    },
    questions: [{ slot: 'sigma', subject: 'sharpness', needs: 'a direction', examples: ['sharpen it', 'blur it slightly'], words: ['sharpness', 'focus'] }],
  }),
  /** Block size in pixels. */
  operation('pixelate', {
    group: 'filter',
    params: { ...inRegion, size: Type.Integer({ minimum: 2, maximum: 1000 }) },
    strength: { param: 'size', steps: { slight: 5, normal: 10, strong: 24 } },
    catalogue: {
      summary: 'Large square pixels (mosaic).',
      parameters: { size: 'block size in pixels, default 10' },
      examples: ['pixelate', 'pixelate with 20px blocks', 'mosaic effect'],
      keywords: ['pixelate', 'pixel', 'mosaic', 'blocky', 'censor'],
    },
  }),
  /** Median filter window, odd, 3–15. */
  operation('denoise', {
    group: 'filter',
    opposite: 'noise',
    params: { size: Type.Integer({ minimum: 3, maximum: 15, multipleOf: 1 }) },
    strength: { param: 'size', steps: { slight: 3, normal: 3, strong: 5 } },
    catalogue: {
      summary: 'Remove noise with a median filter.',
      parameters: { size: 'odd window, 3–15' },
      examples: ['reduce the noise', 'denoise', 'median filter 5', 'despeckle it'],
      keywords: ['denoise', 'noise', 'grain', 'grainy', 'median', 'speckle'],
    },
  }),
  operation('dehaze', {
    group: 'filter',
    params: { amount: Type.Number({ minimum: 0.1, maximum: 1 }) },
    strength: { param: 'amount', steps: { slight: 0.5, normal: 0.8, strong: 0.95 } },
    catalogue: {
      summary: 'Remove haze, fog or a washed-out veil over the whole picture (dark channel prior).',
      parameters: { amount: 'how much of the haze to take away, 0.1–1 (slightly 0.5, default 0.8, fully 0.95)' },
      examples: ['remove the haze', 'dehaze', 'make it less foggy'],
      keywords: ['dehaze', 'haze', 'hazy', 'fog', 'foggy', 'mist', 'misty', 'cloudiness'],
    },
  }),
  /** 0–1: how dark the corners get. */
  operation('vignette', {
    group: 'filter',
    params: { strength: Type.Number({ minimum: 0, maximum: 1 }) },
    strength: { param: 'strength', steps: { slight: 0.3, normal: 0.55, strong: 0.85 } },
    catalogue: {
      summary: 'Darken the corners.',
      parameters: { strength: '0–1' },
      examples: ['add a vignette', 'darken the corners', 'make the edges darker', 'a light vignette'],
      keywords: ['vignette', 'corners', 'edges', 'dark'],
    },
  }),
  operation('emboss', {
    group: 'filter',
    catalogue: {
      summary: 'Embossed relief effect.',
      parameters: {},
      examples: ['emboss', 'embossed effect'],
      keywords: ['emboss', 'relief', 'embossed'],
    },
  }),
  operation('edges', {
    group: 'filter',
    catalogue: {
      summary: 'Edge detection: edges light, the rest black.',
      parameters: {},
      examples: ['detect edges', 'edge detection'],
      keywords: ['edges', 'edge', 'outline', 'detect', 'lines'],
    },
  }),
  /**
   * Thicker lines: dark lines on a light ground (or light on dark) grown by width pixels on each
   * side; pixels are compared by luminance and copied whole, so colours stay as they were.
   */
  operation('thicken_lines', {
    group: 'filter',
    params: { width: Type.Integer({ minimum: 1, maximum: MAX_LINE_GROWTH }), lines: Type.Union([L('dark'), L('light')]) },
    strength: { param: 'width', steps: { slight: 1, normal: 2, strong: 4 } },
    catalogue: {
      summary: 'Thicker lines: dark lines on a light ground (or light on dark) grown on each side, keeping their colours.',
      parameters: { width: `pixels added on each side, 1–${MAX_LINE_GROWTH} (default 2)`, lines: 'dark (default) or light' },
      examples: ['make the lines thicker', 'make the white lines bolder'],
      keywords: ['thicker', 'thicken', 'bolder', 'lines', 'outlines', 'strokes'],
    },
  }),
  /**
   * Darker lines: the black point moved up, so the dark strokes of a drawing or a scan go darker
   * while its white ground stays white (a levels move, each channel alike: hues kept).
   */
  operation('darken_lines', {
    group: 'filter',
    params: { amount: Type.Number({ exclusiveMinimum: 0, maximum: 0.9 }) },
    strength: { param: 'amount', steps: { slight: 0.15, normal: 0.3, strong: 0.5 } },
    catalogue: {
      summary: 'Darker lines: the dark strokes of a drawing or a scan made darker, its white ground kept (the black point moved up).',
      parameters: { amount: 'share of the tone range turned black, 0–0.9 (slightly 0.15, default 0.3, a lot 0.5)' },
      examples: ['darken the lines', 'make the pencil strokes darker'],
      keywords: ['lines', 'strokes', 'linework', 'pencil'],
    },
  }),
  /** A pencil drawing of the image: dark strokes where the edges are, on white. */
  operation('sketch', {
    group: 'filter',
    catalogue: {
      summary: 'A pencil drawing: dark strokes along the edges, on white.',
      parameters: {},
      examples: ['make it look like a pencil sketch', 'pencil drawing'],
      keywords: ['sketch', 'pencil', 'drawing', 'drawn', 'charcoal', 'lineart'],
    },
  }),
  /** Film grain: monochrome noise; amount 0–1 (0.1 is light grain). */
  operation('noise', {
    group: 'filter',
    opposite: 'denoise',
    params: { amount: Type.Number({ exclusiveMinimum: 0, maximum: 1 }) },
    strength: { param: 'amount', steps: { slight: 0.06, normal: 0.12, strong: 0.25 } },
    catalogue: {
      summary: 'Monochrome film grain, strongest in the mid-tones; the same image always gets the same grain.',
      parameters: { amount: '0–1 (0.1 is light grain)' },
      examples: ['add film grain', 'add some noise', 'add tv static'],
      keywords: ['noise', 'grain', 'grainy', 'film', 'analog', 'analogue'],
    },
  }),
  /** A wavy distortion: every pixel shifted along sine waves; amount 0–1 (how far, as a share of 4% of the short side). */
  operation('distort', {
    group: 'filter',
    params: { amount: Type.Number({ minimum: 0, maximum: 1 }) },
    strength: { param: 'amount', steps: { slight: 0.3, normal: 0.6, strong: 1 } },
    catalogue: {
      summary: 'A wavy distortion: the picture ripples along sine waves.',
      parameters: { amount: '0–1 (how far pixels move; 1 is 4% of the short side)' },
      examples: ['distort the image', 'add a wave distortion', 'make it ripple'],
      keywords: ['distort', 'distortion', 'wave', 'wavy', 'ripple', 'warp', 'swirl'],
    },
  }),
  /**
   * A radial (zoom) blur: each pixel averaged along its line to the centre, as if the camera had
   * zoomed during the exposure; amount 0–1, the streaks' length as a share of a fifth of the way.
   */
  operation('radial_blur', {
    group: 'filter',
    params: { amount: Type.Number({ exclusiveMinimum: 0, maximum: 1 }) },
    strength: { param: 'amount', steps: { slight: 0.3, normal: 0.6, strong: 1 } },
    catalogue: {
      summary: 'A radial (zoom) blur: streaks out from the centre, which stays sharp.',
      parameters: { amount: '0–1 (streak length; 1 reaches a fifth of the way to the centre)' },
      examples: ['apply radial blur', 'add a zoom blur', 'strong radial blur'],
      keywords: ['radial', 'burst'],
    },
  }),
  /** Soft glow: a blurred, brightened copy screened over the image; strength 0–1. */
  operation('glow', {
    group: 'filter',
    params: { strength: Type.Number({ exclusiveMinimum: 0, maximum: 1 }) },
    strength: { param: 'strength', steps: { slight: 0.25, normal: 0.45, strong: 0.7 } },
    catalogue: {
      summary: 'A soft glow: the light parts, blurred and brightened, screened over the image.',
      parameters: { strength: '0–1' },
      examples: ['add a soft glow', 'glow effect'],
      keywords: ['glow', 'glowing', 'dreamy', 'bloom', 'radiant'],
    },
  }),
] as const;
