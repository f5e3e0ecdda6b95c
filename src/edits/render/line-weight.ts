import { luminance, type RawImage } from './raw-image.ts';

/**
 * Thicker lines: every pixel takes the darkest (for dark lines) or the lightest (for light lines)
 * pixel within `width` pixels of it, horizontally and vertically (a square window), so a line
 * grows by `width` on each side. Pixels are compared by luminance and copied whole, so a red
 * line on white stays that red rather than turning into a per-channel mix no pixel had.
 *
 * The square window is two passes (rows, then columns), each a sliding-window extreme kept in a
 * monotonic queue: linear in the pixels whatever the width.
 */
export function thickenLines(image: RawImage, width: number, lines: 'dark' | 'light'): RawImage {
  const { width: w, height: h, channels } = image;
  const n = w * h;
  // Keyed so that the pixel to keep is always the smallest key.
  const key = new Uint8Array(n);
  for (let p = 0, i = 0; p < n; p++, i += channels) {
    const y = luminance(image.data[i]!, image.data[i + 1]!, image.data[i + 2]!);
    key[p] = lines === 'dark' ? y : 255 - y;
  }
  const rows = new Uint32Array(n);
  const queue = new Int32Array(Math.max(w, h));
  for (let y = 0; y < h; y++) slidingArgmin(key, y * w, 1, w, width, queue, (at, chosen) => (rows[y * w + at] = chosen));
  const byRows = new Uint8Array(n);
  for (let p = 0; p < n; p++) byRows[p] = key[rows[p]!]!;
  const data = Buffer.alloc(image.data.length);
  for (let x = 0; x < w; x++) {
    slidingArgmin(byRows, x, w, h, width, queue, (at, chosen) => {
      const from = rows[chosen]! * channels;
      const to = (at * w + x) * channels;
      for (let c = 0; c < channels; c++) data[to + c] = image.data[from + c]!;
    });
  }
  return { ...image, data };
}

/**
 * For each of `count` positions along a line of `values` (start, step), the index of the smallest
 * value within `radius` positions either side; ties keep the nearer-ahead one. `queue` is scratch.
 */
function slidingArgmin(values: Uint8Array, start: number, step: number, count: number, radius: number, queue: Int32Array, emit: (at: number, chosen: number) => void): void {
  let head = 0;
  let tail = 0;
  const at = (i: number) => values[start + i * step]!;
  for (let i = 0; i < count + radius; i++) {
    if (i < count) {
      // Larger values behind a new one can never be the smallest again.
      while (tail > head && at(queue[tail - 1]!) >= at(i)) tail--;
      queue[tail++] = i;
    }
    const centre = i - radius;
    if (centre < 0) continue;
    while (queue[head]! < centre - radius) head++;
    emit(centre, start + queue[head]! * step);
  }
}
