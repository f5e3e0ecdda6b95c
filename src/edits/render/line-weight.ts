import { inSlices, SLICE_PIXELS, type RawImage } from './raw-image.ts';

/**
 * Thicker lines: every pixel takes the darkest (for dark lines) or the lightest (for light lines)
 * pixel within `width` pixels of it, horizontally and vertically (a square window), so a line
 * grows by `width` on each side. Pixels are compared by luminance and copied whole, so a red
 * line on white stays that red rather than turning into a per-channel mix no pixel had.
 *
 * The square window is two passes, along rows and then along columns. Each compares packed
 * numbers, luminance above and position below, so a minimum also says where it came from; and
 * each finds the minimum of every window by doubling (the minimum over 2, 4, 8… cells, then two
 * overlapping spans): a few straight loops over contiguous memory, linear in the pixels whatever
 * the width, and the column pass walks rows, not strides. The loops are small functions called
 * once per row, which V8 optimises within the first rows of an image.
 */
export async function thickenLines(image: RawImage, width: number, lines: 'dark' | 'light'): Promise<RawImage> {
  const { width: w, height: h, channels } = image;
  if (Math.max(w, h) > POSITION_MASK) throw new RangeError(`thicker lines are drawn on images up to ${POSITION_MASK} px a side, not ${w}×${h}`);
  const flip = lines === 'dark' ? 0 : 255;
  // Rows per slice of work between turns of the event loop (see inSlices).
  const rowsPerSlice = SLICE_PIXELS / w;
  // One grid serves both passes (fresh memory is slow to touch at first): its middle rows hold
  // key | x for the row pass, then key | y of the row minima for the column pass, which needs
  // `width` rows of padding above and below.
  const grid = new Uint32Array((h + 2 * width) * w);
  grid.fill(INFINITE, 0, width * w);
  grid.fill(INFINITE, (width + h) * w);
  const middle = width * w;
  // Along rows: the x of each window's minimum is kept aside, its key goes back with y.
  const rowX = w <= 65_536 ? new Uint16Array(w * h) : new Uint32Array(w * h);
  const line = new Uint32Array(w + 2 * width);
  await inSlices(h, rowsPerSlice, (from, to) => {
    for (let y = from; y < to; y++) {
      packRow(image.data, channels, flip, grid, middle + y * w, y * w, w);
      rowMinimum(grid, middle + y * w, rowX, y * w, line, w, width, y);
    }
  });
  // Along columns, by doubling over whole rows.
  const window = 2 * width + 1;
  const span = largestPowerOfTwo(window);
  for (let s = 1; s < span; s *= 2) {
    await inSlices(h + 2 * width - s, rowsPerSlice, (from, to) => {
      for (let y = from; y < to; y++) minimumOfRows(grid, y * w, (y + s) * w, w);
    });
  }
  const data = Buffer.allocUnsafe(image.data.length);
  await inSlices(h, rowsPerSlice, (from, to) => {
    for (let y = from; y < to; y++) copyRow(image.data, data, channels, rowX, grid, y, w, (window - span) * w);
  });
  return { ...image, data };
}

/**
 * Packed numbers are key << 21 | a coordinate: under 2^29, so small integers to V8 throughout.
 * A side of 2^21 px or more (possible only for very thin images) is refused.
 */
const POSITION_BITS = 21;
const POSITION_MASK = (1 << POSITION_BITS) - 1;
const INFINITE = 2 ** 30 - 1;

function largestPowerOfTwo(n: number): number {
  let p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

/** Integer Rec. 709 luminance, as grayscale uses; flipped (255 −) for light lines, so the pixel to keep is always the smallest. */
function packRow(src: Buffer, channels: number, flip: number, grid: Uint32Array, at: number, pixel: number, w: number): void {
  for (let x = 0, i = pixel * channels; x < w; x++, i += channels) grid[at + x] = ((flip ^ ((54 * src[i]! + 183 * src[i + 1]! + 19 * src[i + 2]! + 128) >> 8)) << POSITION_BITS) | x;
}

/**
 * One row's window minima, by doubling over a copy of the row padded with `radius` infinite cells
 * each side: the x of each goes to rowX, the key with y back into the grid.
 */
function rowMinimum(grid: Uint32Array, at: number, rowX: Uint16Array | Uint32Array, pixel: number, line: Uint32Array, w: number, radius: number, y: number): void {
  line.fill(INFINITE);
  line.set(grid.subarray(at, at + w), radius);
  const window = 2 * radius + 1;
  const span = largestPowerOfTwo(window);
  for (let s = 1; s < span; s *= 2) for (let i = 0, end = line.length - s; i < end; i++) line[i] = Math.min(line[i]!, line[i + s]!);
  for (let x = 0, tail = window - span; x < w; x++) {
    const minimum = Math.min(line[x]!, line[x + tail]!);
    rowX[pixel + x] = minimum & POSITION_MASK;
    grid[at + x] = (minimum & ~POSITION_MASK) | y;
  }
}

function minimumOfRows(grid: Uint32Array, at: number, below: number, w: number): void {
  for (let x = 0; x < w; x++) grid[at + x] = Math.min(grid[at + x]!, grid[below + x]!);
}

/** Output row y: the pixel the column pass chose (its y), at the x the row pass chose in that row. */
function copyRow(src: Buffer, data: Buffer, channels: number, rowX: Uint16Array | Uint32Array, grid: Uint32Array, y: number, w: number, tail: number): void {
  for (let x = 0, p = y * w, to = p * channels; x < w; x++, p++, to += channels) {
    const fromY = Math.min(grid[p]!, grid[p + tail]!) & POSITION_MASK;
    const from = (fromY * w + rowX[fromY * w + x]!) * channels;
    data[to] = src[from]!;
    data[to + 1] = src[from + 1]!;
    data[to + 2] = src[from + 2]!;
    if (channels === 4) data[to + 3] = src[from + 3]!;
  }
}
