import { inSlices, mapChannels, SLICE_PIXELS, table, type RawImage } from './raw-image.ts';

/**
 * Automatic white balance. The cast is measured on the pixels that should be grey (walls, sky,
 * paper, shadows: low chroma for their brightness, unclipped) and taken away by scaling each
 * channel so their mean is grey. Which pixels those are depends on the cast, so the estimate is
 * refined: the near-grey pixels as they are, or, where a strong cast leaves too few of them, as
 * they look once every unclipped pixel's mean is made grey (grey world); then the near-grey pixels
 * as they look through each new estimate. A picture with much of one colour (a forest, a sunset)
 * is so judged by its neutral parts, not pushed to the opposite colour. Gains keep the luminance
 * and are bounded.
 */

/** Seen through the current estimate, a pixel is near grey when its chroma is at most this share of its brightest channel. */
const NEAR_GREY_CHROMA = 0.2;
/** Darker or brighter than these, a channel may be clipped and says nothing about the cast. */
const DARKEST = 16;
const BRIGHTEST = 240;
/** Below this share of all pixels, near-grey pixels are too few to trust. */
const MIN_NEAR_GREY = 0.02;
/** Refinements after the first estimate. */
const REFINEMENTS = 2;
/** No channel is scaled by more than this, either way. */
const MAX_GAIN = 1.6;

type Gains = [number, number, number];
type Sums = [number, number, number, number];
const NONE: Gains = [1, 1, 1];

export async function autoWhiteBalance(image: RawImage): Promise<RawImage> {
  const enough = MIN_NEAR_GREY * image.width * image.height;
  const asTheyAre = await channelSums(image, NONE);
  let gains = asTheyAre[3] >= enough ? castGains(asTheyAre) : castGains(await channelSums(image));
  for (let i = 0; i < REFINEMENTS; i++) {
    const near = await channelSums(image, gains);
    if (near[3] < enough) break;
    gains = castGains(near);
  }
  const [r, g, b] = gains;
  return mapChannels(image, [table((v) => v * r), table((v) => v * g), table((v) => v * b)]);
}

/** Sums of r, g, b and their count over unclipped pixels; with `through`, only those near grey once scaled by it. */
async function channelSums(image: RawImage, through?: Gains): Promise<Sums> {
  const { data, channels } = image;
  const sums: Sums = [0, 0, 0, 0];
  await inSlices(image.width * image.height, SLICE_PIXELS, (from, to) => {
    for (let i = from * channels, end = to * channels; i < end; i += channels) {
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      if (Math.min(r, g, b) < DARKEST || Math.max(r, g, b) > BRIGHTEST) continue;
      if (through) {
        const [cr, cg, cb] = [r * through[0], g * through[1], b * through[2]];
        const max = Math.max(cr, cg, cb);
        if (max - Math.min(cr, cg, cb) > NEAR_GREY_CHROMA * max) continue;
      }
      sums[0] += r;
      sums[1] += g;
      sums[2] += b;
      sums[3]++;
    }
  });
  return sums;
}

/** Per-channel gains that make the sums' mean grey, keeping luminance; 1s when there is nothing to go by. */
function castGains(sums: Sums): Gains {
  if (sums[3] === 0) return [1, 1, 1];
  const means = [sums[0] / sums[3], sums[1] / sums[3], sums[2] / sums[3]];
  const target = (means[0]! + means[1]! + means[2]!) / 3;
  const raw = means.map((mean) => (mean > 0 ? target / mean : 1));
  // Rec. 709 weights: the picture's luminance stays where it was.
  const norm = 0.2126 * raw[0]! + 0.7152 * raw[1]! + 0.0722 * raw[2]!;
  const bound = (gain: number) => Math.min(MAX_GAIN, Math.max(1 / MAX_GAIN, gain / norm));
  return [bound(raw[0]!), bound(raw[1]!), bound(raw[2]!)];
}
