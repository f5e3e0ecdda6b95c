/**
 * The edit plan: what a prompt means, as typed data. The planner produces it from words; the
 * executor performs it with sharp, operation by operation, in the order given. Nothing else
 * passes between them, so either side can be replaced (an LLM planner, a generative executor).
 */

/** sRGB, 0–255 per channel; alpha 0–1. */
export interface Color {
  r: number;
  g: number;
  b: number;
  alpha: number;
}

/** A length in pixels, or in percent of the image's current width (or height, for heights). */
export interface Length {
  value: number;
  unit: 'px' | '%';
}

export type Position = 'top-left' | 'top' | 'top-right' | 'left' | 'center' | 'right' | 'bottom-left' | 'bottom' | 'bottom-right';

/** Where a crop keeps the image: a fixed position, or the most interesting part. */
export type Gravity = Position | 'attention' | 'entropy';

export type OutputFormat = 'png' | 'jpeg' | 'webp' | 'avif' | 'gif' | 'tiff';

export type EditOperation =
  // Geometry
  /** Any of width/height (the other follows the aspect ratio unless fit is 'fill'). */
  | { op: 'resize'; width?: Length; height?: Length; fit: 'inside' | 'cover' | 'fill' | 'contain'; background?: Color }
  /** Fits the image inside a size×size box. */
  | { op: 'thumbnail'; size: number }
  | { op: 'crop'; width: Length; height: Length; gravity: Gravity }
  /** Largest crop of the given aspect ratio (e.g. [16, 9]; [1, 1] for square). */
  | { op: 'crop_aspect'; ratio: [number, number]; gravity: Gravity }
  /** Cuts the given amount off each edge. */
  | { op: 'crop_margin'; top: Length; right: Length; bottom: Length; left: Length }
  /** Clockwise degrees, any angle; uncovered corners get the background. */
  | { op: 'rotate'; degrees: number; background: Color }
  /**
   * Levels a tilted picture: rotates by a small angle (clockwise degrees, -45 to 45; absent: the
   * tilt is measured from the image's own near-horizontal and near-vertical edges) and crops to the
   * largest upright rectangle inside, so no corner is left empty.
   */
  | { op: 'straighten'; degrees?: number }
  /** Upside down (about the horizontal axis). */
  | { op: 'flip' }
  /** Left-right mirror (about the vertical axis). */
  | { op: 'mirror' }
  /** Removes uniform borders; threshold is the colour distance still counted as border. */
  | { op: 'trim'; threshold: number }
  /** Adds canvas on each side. */
  | { op: 'pad'; top: Length; right: Length; bottom: Length; left: Length; background: Color }
  /** Extends the canvas (centred) to at least width×height, without scaling or cropping. */
  | { op: 'pad_to'; width: number; height: number; background: Color }
  /** Extends the canvas (centred) to the given aspect ratio without cropping. */
  | { op: 'pad_aspect'; ratio: [number, number]; background: Color }
  | { op: 'border'; width: number; color: Color }
  | { op: 'round_corners'; radius: Length }
  /** Crops to the largest centred circle; outside becomes transparent. */
  | { op: 'circle' }
  // Tone and colour
  | { op: 'grayscale' }
  | { op: 'sepia' }
  | { op: 'invert' }
  /** Multipliers: 1 leaves the image as it is. */
  | { op: 'brightness'; factor: number }
  | { op: 'contrast'; factor: number }
  | { op: 'saturation'; factor: number }
  | { op: 'hue'; degrees: number }
  /** Positive is warmer (towards orange), negative cooler (towards blue); -1 to 1. */
  | { op: 'temperature'; amount: number }
  /** Multipliers per channel (1 leaves it): "less red" lowers red, "more yellow" raises red and green against blue. */
  | { op: 'color_balance'; red: number; green: number; blue: number }
  /**
   * Pixels near one hue take another ("change blue to yellow"); tolerance is hue degrees either
   * side. `also`: more pairs done in the same pass, each pixel judged by its own colour ("swap
   * red and blue", "red to blue and yellow to white").
   */
  | { op: 'replace_color'; from: Color; to: Color; tolerance: number; also?: Array<{ from: Color; to: Color }> }
  | { op: 'gamma'; value: number }
  /** Auto-enhance: stretch the tonal range. */
  | { op: 'normalize' }
  /** A colour cast taken away: the picture's near-grey parts made grey. */
  | { op: 'auto_white_balance' }
  | { op: 'tint'; color: Color }
  | { op: 'duotone'; shadow: Color; highlight: Color }
  /** Pure black and white at the given luminance level, 0–255. */
  | { op: 'threshold'; level: number }
  /** Levels per channel, 2–32. */
  | { op: 'posterize'; levels: number }
  // Filters
  | { op: 'blur'; sigma: number }
  | { op: 'sharpen'; sigma: number }
  /** Block size in pixels. */
  | { op: 'pixelate'; size: number }
  /** Median filter window, odd, 3–15. */
  | { op: 'denoise'; size: number }
  | { op: 'dehaze'; amount: number }
  /** 0–1: how dark the corners get. */
  | { op: 'vignette'; strength: number }
  | { op: 'emboss' }
  | { op: 'edges' }
  /** A pencil drawing of the image: dark strokes where the edges are, on white. */
  | { op: 'sketch' }
  /** Film grain: monochrome noise; amount 0–1 (0.1 is light grain). */
  | { op: 'noise'; amount: number }
  /** Soft glow: a blurred, brightened copy screened over the image; strength 0–1. */
  | { op: 'glow'; strength: number }
  /**
   * Thicker lines: dark lines on a light ground (or light on dark) grown by width pixels on each
   * side; pixels are compared by luminance and copied whole, so colours stay as they were.
   */
  | { op: 'thicken_lines'; width: number; lines: 'dark' | 'light' }
  /** A wavy distortion: every pixel shifted along sine waves; amount 0–1 (how far, as a share of 4% of the short side). */
  | { op: 'distort'; amount: number }
  // Overlay
  /** size is the text height (in % of the image's height, or pixels); opacity 0–1. */
  | { op: 'text'; text: string; position: Position; color: Color; size: Length; opacity: number }
  /** Another stored image of the same account; scale is its width as a fraction of the image's. */
  | { op: 'watermark'; fileId: string; position: Position; opacity: number; scale: number }
  // Format and metadata (they shape the output, wherever they stand in the prompt)
  | { op: 'format'; format: OutputFormat }
  /** 1–100. */
  | { op: 'quality'; quality: number }
  /** Smaller file at similar looks: stronger compression for the output format. */
  | { op: 'compress' }
  | { op: 'strip_metadata' }
  | { op: 'keep_metadata' }
  /** Replaces transparency with the colour. */
  | { op: 'flatten'; background: Color }
  /** Makes pixels close to the colour transparent (default: the colour of the corners). */
  | { op: 'transparent_color'; color?: Color; tolerance: number }
  // Generative (only with a provider configured; see src/edits/generative/)
  /**
   * New pixels from a generative model, for a clause that edits content ("remove the people in
   * the background"): the instruction is that clause as written. provider and model are filled
   * in when the step is planned for a configured provider, so answers and lineage say who made it.
   */
  | { op: 'generate'; instruction: string; provider?: string; model?: string };

/** The classic operations: the catalogue's, done by the executor with sharp. */
export type OperationName = Exclude<EditOperation['op'], 'generate'>;

export type GenerateOperation = Extract<EditOperation, { op: 'generate' }>;

export interface EditPlan {
  operations: EditOperation[];
}
