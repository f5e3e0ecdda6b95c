import { pipeline, type PassOptions, type RawImage } from './raw-image.ts';

/** The image is measured at this longest side: enough for edges, cheap to scan. */
const MEASURE_SIDE = 512;
/** Tilts are looked for within this many degrees of level. */
const MAX_TILT = 15;
/** Sobel magnitude (0–1442) below which a gradient is texture or noise, not an edge. */
const EDGE_MAGNITUDE = 48;
const SMOOTHING = 1.5; // Gaussian sigma, pixels at MEASURE_SIDE
const BIN = 0.25; // degrees
const BINS = 90 / BIN; // gradient directions folded into [-45°, 45°)
const PEAK_HALF_WIDTH = 4; // bins: a peak is judged over ±1°
/** A tilt counts only when its peak holds this share of all edge weight (uniform: 2.5%)… */
const MIN_PEAK_SHARE = 0.1;
/** …and outweighs any other direction within ±MAX_TILT, 3° or more away, this many times. */
const MIN_PEAK_RATIO = 2;
/** Smaller measured tilts are within what the measurement can tell at MEASURE_SIDE: left as 0. */
const LEAST_TILT = 0.25;

/**
 * How far the picture's content is turned clockwise from level, in degrees (−15 to 15), or 0
 * when no clear tilt shows. On a greyscale copy at most 512 px long, smoothed (σ 1.5), every
 * Sobel gradient strong enough to be an edge votes, weighted by its magnitude, for its direction
 * folded modulo 90° (so near-horizontal and near-vertical edges, which a tilt turns alike, vote
 * together). The
 * heaviest ±1° window within ±15° wins if it holds at least a tenth of all the edge weight and
 * twice any other window 3° or more away; its weighted mean direction is the tilt. A tilt under
 * a quarter of a degree is reported as 0. Straightening rotates by the opposite angle.
 */
export async function measureTilt(image: RawImage, options: PassOptions): Promise<number> {
  // Shrink and smooth in colour, then take the grey in JS: sharp's greyscale would convert every
  // pixel of the full-size image first (ten times the cost at 12 megapixels). Both are linear,
  // so the order does not change the result.
  const small = await pipeline(image, options)
    .resize({ width: MEASURE_SIDE, height: MEASURE_SIDE, fit: 'inside', withoutEnlargement: true })
    // Smoothing first: on a sharp staircase edge Sobel directions scatter by degrees.
    .blur(SMOOTHING)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels: bands } = small.info;
  if (width < 8 || height < 8) return 0;
  const grey = new Float32Array(width * height);
  for (let p = 0, i = 0; p < grey.length; p++, i += bands) {
    const luma = 0.2126 * small.data[i]! + 0.7152 * small.data[i + 1]! + 0.0722 * small.data[i + 2]!;
    // Transparent parts show as white, as a viewer would show them.
    grey[p] = bands === 4 ? (luma * small.data[i + 3]!) / 255 + 255 - small.data[i + 3]! : luma;
  }
  const weights = new Float64Array(BINS);
  const moments = new Float64Array(BINS); // weight × angle, for the mean inside a peak
  let total = 0;
  const row = width;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * row + 1; x < width - 1; x++, i++) {
      const tl = grey[i - row - 1]!, tc = grey[i - row]!, tr = grey[i - row + 1]!; // prettier-ignore
      const ml = grey[i - 1]!, mr = grey[i + 1]!; // prettier-ignore
      const bl = grey[i + row - 1]!, bc = grey[i + row]!, br = grey[i + row + 1]!; // prettier-ignore
      const gx = tr + 2 * mr + br - tl - 2 * ml - bl;
      const gy = bl + 2 * bc + br - tl - 2 * tc - tr;
      const magnitude = Math.sqrt(gx * gx + gy * gy);
      if (magnitude < EDGE_MAGNITUDE) continue;
      // Image rows grow downwards, so a clockwise turn raises atan2's angle.
      const degrees = (Math.atan2(gy, gx) * 180) / Math.PI;
      const folded = ((((degrees + 45) % 90) + 90) % 90) - 45;
      const bin = Math.min(BINS - 1, Math.floor((folded + 45) / BIN));
      weights[bin] += magnitude;
      moments[bin] += magnitude * folded;
      total += magnitude;
    }
  }
  if (total === 0) return 0;
  const windowWeight = (centre: number) => {
    let sum = 0;
    for (let b = centre - PEAK_HALF_WIDTH; b <= centre + PEAK_HALF_WIDTH; b++) sum += weights[(b + BINS) % BINS]!;
    return sum;
  };
  const first = Math.ceil((45 - MAX_TILT) / BIN);
  const last = Math.floor((45 + MAX_TILT) / BIN) - 1;
  let best = -1;
  let bestWeight = 0;
  for (let b = first; b <= last; b++) {
    const w = windowWeight(b);
    if (w > bestWeight) [best, bestWeight] = [b, w];
  }
  if (best < 0 || bestWeight < MIN_PEAK_SHARE * total) return 0;
  const apart = Math.round(3 / BIN);
  for (let b = first; b <= last; b++) {
    if (Math.abs(b - best) >= apart && windowWeight(b) * MIN_PEAK_RATIO > bestWeight) return 0;
  }
  let weight = 0;
  let moment = 0;
  for (let b = best - PEAK_HALF_WIDTH; b <= best + PEAK_HALF_WIDTH; b++) {
    weight += weights[b]!;
    moment += moments[b]!;
  }
  const tilt = moment / weight;
  return Math.abs(tilt) < LEAST_TILT ? 0 : Math.round(tilt * 100) / 100;
}
