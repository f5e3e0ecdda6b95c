import { inSlices, luminance, nextTurn, pipeline, SLICE_PIXELS, toRaw, type PassOptions, type RawImage } from './raw-image.ts';

/**
 * Haze removal by the dark channel prior (He, Sun and Tang, 2009). In a clear outdoor photo
 * nearly every small patch has a pixel dark in some channel; haze lifts those towards the
 * colour of the air. So the patch minimum, over that colour, estimates how much haze lies
 * over each point, and the haze model I = J·t + A·(1 − t) is solved for the clear picture J.
 *
 * The estimate is made on a copy at most HAZE_SAMPLE_SIDE long (a patch of about 15 px there,
 * as in the paper at this size), and refined by a guided filter on that copy's luminance, so
 * the haze map follows the picture's edges instead of its square patches; the filter's
 * coefficients are spread back to full size bilinearly and applied to each pixel's own
 * luminance (the fast guided filter of He and Sun, 2015). Only the last pass touches every
 * pixel: linear in them, in slices between which the event loop runs. The work on the copy
 * (about 150 ms of CPU in all on a loaded machine) lets the loop run between its steps too.
 */
export async function dehaze(image: RawImage, amount: number, options: PassOptions): Promise<RawImage> {
  const { width: w, height: h, channels } = image;
  const scale = Math.min(1, HAZE_SAMPLE_SIDE / Math.max(w, h));
  const small = await toRaw(pipeline(image, options).removeAlpha().resize({ width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)), fit: 'fill' }));
  const { width: sw, height: sh } = small;
  const patch = Math.max(1, Math.round((7 * Math.max(sw, sh)) / HAZE_SAMPLE_SIDE));
  const air = airLight(small, patch);
  await nextTurn();
  // How much of the air's colour each patch holds, at most: 1 − that is what still comes through.
  const normalized = new Float32Array(sw * sh);
  for (let p = 0, q = 0; p < normalized.length; p++, q += 3) {
    normalized[p] = Math.min(small.data[q]! / air[0], small.data[q + 1]! / air[1], small.data[q + 2]! / air[2]);
  }
  const darkest = patchMinimum(normalized, sw, sh, patch);
  await nextTurn();
  const transmission = darkest.map((d) => 1 - amount * d);
  const guide = new Float32Array(sw * sh);
  for (let p = 0, q = 0; p < guide.length; p++, q += 3) guide[p] = luminance(small.data[q]!, small.data[q + 1]!, small.data[q + 2]!) / 255;
  const { a, b } = await guidedCoefficients(guide, transmission, sw, sh, Math.max(1, Math.round(Math.max(sw, sh) / 12)), GUIDE_EPSILON);

  // Full size: bilinear positions in the small grid, once per column and once per row.
  const columns = samples(w, sw);
  const rows = samples(h, sh);
  const data = image.data; // handlers own their input (see Handler)
  await inSlices(h, SLICE_PIXELS / w, (from, to) => {
    for (let y = from; y < to; y++) {
      const [y0, y1, fy] = [rows.low[y]!, rows.high[y]!, rows.weight[y]!];
      for (let x = 0, i = y * w * channels; x < w; x++, i += channels) {
        const [x0, x1, fx] = [columns.low[x]!, columns.high[x]!, columns.weight[x]!];
        const ca = bilinear(a, sw, x0, x1, y0, y1, fx, fy);
        const cb = bilinear(b, sw, x0, x1, y0, y1, fx, fy);
        const t = Math.max(MIN_TRANSMISSION, Math.min(1, ca * (luminance(data[i]!, data[i + 1]!, data[i + 2]!) / 255) + cb));
        for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, Math.round((data[i + c]! - air[c]!) / t + air[c]!)));
      }
    }
  });
  return image;
}

/** The long side of the copy the haze is measured on. */
export const HAZE_SAMPLE_SIDE = 512;
/** Haze never taken as thicker than this lets through: below it the noise would be multiplied past use. */
const MIN_TRANSMISSION = 0.1;
/** The guided filter's regularisation (luminance in 0–1): smaller follows weaker edges. */
const GUIDE_EPSILON = 1e-3;

/**
 * The colour of the air: the mean colour of the haziest 0.1% of the picture (the brightest
 * patch minima), rather than its brightest pixel, which is often a white object.
 */
function airLight(small: RawImage, patch: number): [number, number, number] {
  const n = small.width * small.height;
  const lowest = new Float32Array(n);
  for (let p = 0, q = 0; p < n; p++, q += 3) lowest[p] = Math.min(small.data[q]!, small.data[q + 1]!, small.data[q + 2]!);
  const dark = patchMinimum(lowest, small.width, small.height, patch);
  const histogram = new Uint32Array(256);
  for (const d of dark) histogram[Math.round(d)]!++;
  const wanted = Math.max(1, Math.ceil(n / 1000));
  let threshold = 255;
  for (let count = histogram[255]!; count < wanted && threshold > 0; ) count += histogram[--threshold]!;
  const sum = [0, 0, 0];
  let taken = 0;
  for (let p = 0; p < n; p++) {
    if (Math.round(dark[p]!) < threshold) continue;
    for (let c = 0; c < 3; c++) sum[c]! += small.data[p * 3 + c]!;
    taken++;
  }
  // At least 1 per channel: the model divides by it.
  return sum.map((s) => Math.max(1, s / taken)) as [number, number, number];
}

/** The minimum over a (2r+1)² square around each point (edges clamp). */
const patchMinimum = (values: Float32Array, w: number, h: number, r: number) => rowsThenColumns(values, w, h, r, lineMinimum);

/**
 * The guided filter's coefficients (He, Sun and Tang, 2010), already averaged: the output at a
 * point is a·guide + b there. Each window's p is fitted as a line in the guide; a and b are the
 * means of the lines of the windows over each point.
 */
async function guidedCoefficients(guide: Float32Array, p: Float32Array, w: number, h: number, r: number, epsilon: number): Promise<{ a: Float32Array; b: Float32Array }> {
  const n = w * h;
  const meanI = boxMean(guide, w, h, r);
  const meanP = boxMean(p, w, h, r);
  await nextTurn();
  const product = new Float32Array(n);
  const square = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    product[i] = guide[i]! * p[i]!;
    square[i] = guide[i]! * guide[i]!;
  }
  const meanIP = boxMean(product, w, h, r);
  const meanII = boxMean(square, w, h, r);
  await nextTurn();
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    a[i] = (meanIP[i]! - meanI[i]! * meanP[i]!) / (meanII[i]! - meanI[i]! * meanI[i]! + epsilon);
    b[i] = meanP[i]! - a[i]! * meanI[i]!;
  }
  await nextTurn();
  return { a: boxMean(a, w, h, r), b: boxMean(b, w, h, r) };
}

/** The mean over a (2r+1)² window clipped to the image. */
const boxMean = (values: Float32Array, w: number, h: number, r: number) => rowsThenColumns(values, w, h, r, lineMean);

/** One window pass along a line of `n` values from `start`, `step` apart, into the same places of `out`. */
type LinePass = (values: Float32Array, out: Float32Array, start: number, step: number, n: number, r: number) => void;

/** A square window as two passes of a line window: along every row, then along every column. */
function rowsThenColumns(values: Float32Array, w: number, h: number, r: number, pass: LinePass): Float32Array {
  const across = new Float32Array(values.length);
  for (let y = 0; y < h; y++) pass(values, across, y * w, 1, w, r);
  const out = new Float32Array(values.length);
  for (let x = 0; x < w; x++) pass(across, out, x, w, h, r);
  return out;
}

const lineMinimum: LinePass = (values, out, start, step, n, r) => {
  for (let i = 0; i < n; i++) {
    let m = Infinity;
    for (let j = Math.max(0, i - r), end = Math.min(n - 1, i + r); j <= end; j++) m = Math.min(m, values[start + j * step]!);
    out[start + i * step] = m;
  }
};

/** By a running sum: constant work per value whatever the radius. */
const lineMean: LinePass = (values, out, start, step, n, r) => {
  let sum = 0;
  for (let j = 0; j <= Math.min(n - 1, r); j++) sum += values[start + j * step]!;
  for (let i = 0; i < n; i++) {
    out[start + i * step] = sum / (Math.min(n - 1, i + r) - Math.max(0, i - r) + 1);
    if (i + r + 1 < n) sum += values[start + (i + r + 1) * step]!;
    if (i - r >= 0) sum -= values[start + (i - r) * step]!;
  }
};

/** For each of `size` pixel centres, the two cells of a `cells`-long grid around it and the weight of the second. */
function samples(size: number, cells: number): { low: Int32Array; high: Int32Array; weight: Float32Array } {
  const low = new Int32Array(size);
  const high = new Int32Array(size);
  const weight = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    const at = Math.max(0, Math.min(cells - 1, ((i + 0.5) * cells) / size - 0.5));
    low[i] = Math.floor(at);
    high[i] = Math.min(cells - 1, low[i]! + 1);
    weight[i] = at - low[i]!;
  }
  return { low, high, weight };
}

function bilinear(grid: Float32Array, w: number, x0: number, x1: number, y0: number, y1: number, fx: number, fy: number): number {
  const top = grid[y0 * w + x0]! + (grid[y0 * w + x1]! - grid[y0 * w + x0]!) * fx;
  const bottom = grid[y1 * w + x0]! + (grid[y1 * w + x1]! - grid[y1 * w + x0]!) * fx;
  return top + (bottom - top) * fy;
}
