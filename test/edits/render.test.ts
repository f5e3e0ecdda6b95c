import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import type { Color, EditOperation } from '../../src/edits/plan.ts';
import { type ImageError, inspectImage, renderEdits } from '../../src/edits/render/index.ts';
import { thickenLines } from '../../src/edits/render/line-weight.ts';
import { dehaze } from '../../src/edits/render/haze.ts';
import { filters } from '../../src/edits/render/filters.ts';
import { geometry, largestInscribed } from '../../src/edits/render/geometry.ts';
import { format } from '../../src/edits/render/format.ts';
import { tone } from '../../src/edits/render/tone.ts';
import { toRaw, type RawImage } from '../../src/edits/render/raw-image.ts';
import { measureTilt } from '../../src/edits/render/tilt.ts';
import { threadCpuMs } from '../helpers/cpu-time.ts';
import { pngHeaderOnly, redBlue } from '../helpers/images.ts';

const RED: Color = { r: 255, g: 0, b: 0, alpha: 1 };
const BLACK: Color = { r: 0, g: 0, b: 0, alpha: 1 };
const WHITE: Color = { r: 255, g: 255, b: 255, alpha: 1 };
const px = (value: number) => ({ value, unit: 'px' as const });
const pct = (value: number) => ({ value, unit: '%' as const });

/** A horizontal grey ramp, 256×20. */
async function ramp(): Promise<Buffer> {
  const data = Buffer.alloc(256 * 20 * 3);
  for (let y = 0; y < 20; y++) for (let x = 0; x < 256; x++) data.fill(x, (y * 256 + x) * 3, (y * 256 + x) * 3 + 3);
  return sharp(data, { raw: { width: 256, height: 20, channels: 3 } }).png().toBuffer();
}

const options = { maxPixels: 50_000_000, timeoutSeconds: 20, loadImage: async () => redBlue() };

async function run(source: Buffer, ...operations: EditOperation[]) {
  const result = await renderEdits(source, { operations }, options);
  const raw = await sharp(result.data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (y * raw.info.width + x) * 4;
    return [raw.data[i]!, raw.data[i + 1]!, raw.data[i + 2]!, raw.data[i + 3]!];
  };
  return { ...result, at, raw };
}

const near = (actual: number[], expected: number[], tolerance = 8) =>
  assert.ok(actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance), `${actual} ≈ ${expected}`);

describe('render: geometry', () => {
  test('resize by width, percent, exact box', async () => {
    assert.deepEqual(pick(await run(await redBlue(), { op: 'resize', width: px(100), fit: 'inside' })), [100, 50]);
    assert.deepEqual(pick(await run(await redBlue(), { op: 'resize', width: pct(50), height: pct(50), fit: 'fill' })), [100, 50]);
    assert.deepEqual(pick(await run(await redBlue(), { op: 'resize', width: px(80), height: px(80), fit: 'fill' })), [80, 80]);
    // One side stretched, the other kept ("stretch it vertically"): the proportions change.
    assert.deepEqual(pick(await run(await redBlue(), { op: 'stretch', axis: 'vertical', factor: 1.25 })), [200, 125]);
    assert.deepEqual(pick(await run(await redBlue(), { op: 'stretch', axis: 'horizontal', factor: 0.5 })), [100, 100]);
    assert.deepEqual(pick(await run(await redBlue(), { op: 'thumbnail', size: 50 })), [50, 25]);
  });
  test('rotate 90 clockwise puts the left (red) half on top', async () => {
    const r = await run(await redBlue(), { op: 'rotate', degrees: 90, background: BLACK });
    assert.deepEqual(pick(r), [100, 200]);
    near(r.at(50, 10), [255, 0, 0, 255]);
    near(r.at(50, 190), [0, 0, 255, 255]);
  });
  test('mirror and flip', async () => {
    near((await run(await redBlue(), { op: 'mirror' })).at(10, 50), [0, 0, 255, 255]);
    const src = await sharp({ create: { width: 10, height: 10, channels: 3, background: RED } })
      .composite([{ input: { create: { width: 10, height: 5, channels: 3, background: { r: 0, g: 255, b: 0 } } }, top: 0, left: 0 }])
      .png()
      .toBuffer();
    near((await run(src, { op: 'flip' })).at(5, 9), [0, 255, 0, 255]);
  });
  test('crop to a size, an aspect ratio and by margins', async () => {
    const left = await run(await redBlue(), { op: 'crop', width: px(50), height: px(50), gravity: 'left' });
    assert.deepEqual(pick(left), [50, 50]);
    near(left.at(25, 25), [255, 0, 0, 255]);
    assert.deepEqual(pick(await run(await redBlue(), { op: 'crop_aspect', ratio: [1, 1], gravity: 'center' })), [100, 100]);
    assert.deepEqual(pick(await run(await redBlue(), { op: 'crop_aspect', ratio: [16, 9], gravity: 'attention' })), [178, 100]);
    assert.deepEqual(pick(await run(await redBlue(), { op: 'crop_margin', top: px(10), right: px(10), bottom: px(10), left: px(10) })), [180, 80]);
  });
  test('border, pad, pad to an aspect ratio', async () => {
    const bordered = await run(await redBlue(), { op: 'border', width: 10, color: { r: 0, g: 255, b: 0, alpha: 1 } });
    assert.deepEqual(pick(bordered), [220, 120]);
    near(bordered.at(0, 0), [0, 255, 0, 255]);
    assert.deepEqual(pick(await run(await redBlue(), { op: 'pad', top: px(5), right: px(0), bottom: px(5), left: px(0), background: WHITE })), [200, 110]);
    assert.deepEqual(pick(await run(await redBlue(), { op: 'pad_aspect', ratio: [1, 1], background: WHITE })), [200, 200]);
    const canvas = await run(await redBlue(), { op: 'pad_to', width: 300, height: 300, background: WHITE });
    assert.deepEqual(pick(canvas), [300, 300]);
    near(canvas.at(150, 20), [255, 255, 255, 255]);
    near(canvas.at(60, 150), [255, 0, 0, 255]);
  });
  test('trim removes a uniform border', async () => {
    const framed = await sharp(await redBlue()).extend({ top: 20, bottom: 20, left: 20, right: 20, background: WHITE }).png().toBuffer();
    assert.deepEqual(pick(await run(framed, { op: 'trim', threshold: 10 })), [200, 100]);
  });
  test('rounded corners and circle make the corners transparent', async () => {
    const rounded = await run(await redBlue(), { op: 'round_corners', radius: px(30) });
    assert.equal(rounded.at(0, 0)[3], 0);
    assert.equal(rounded.at(100, 50)[3], 255);
    const circle = await run(await redBlue(), { op: 'circle' });
    assert.deepEqual(pick(circle), [100, 100]);
    assert.equal(circle.at(1, 1)[3], 0);
    assert.equal(circle.at(50, 50)[3], 255);
    // The oval keeps the whole 200x100 picture: its ends and its middle inside, its corners out.
    const oval = await run(await redBlue(), { op: 'circle', shape: 'oval' });
    assert.deepEqual(pick(oval), [200, 100]);
    assert.equal(oval.at(1, 1)[3], 0);
    assert.equal(oval.at(198, 98)[3], 0);
    assert.equal(oval.at(100, 50)[3], 255);
    assert.equal(oval.at(5, 50)[3], 255);
    assert.equal(oval.at(100, 3)[3], 255);
  });
});

describe('render: tone and colour', () => {
  test('grayscale gives r = g = b', async () => {
    const [r, g, b] = (await run(await redBlue(), { op: 'grayscale' })).at(10, 10);
    assert.ok(r === g && g === b);
  });
  test('sepia, invert, tint, duotone', async () => {
    const sepia = (await run(await ramp(), { op: 'sepia' })).at(128, 5);
    assert.ok(sepia[0]! > sepia[1]! && sepia[1]! > sepia[2]!, `${sepia}`);
    near((await run(await redBlue(), { op: 'invert' })).at(10, 10), [0, 255, 255, 255]);
    const tinted = (await run(await ramp(), { op: 'tint', color: RED })).at(200, 5);
    assert.ok(tinted[0]! > tinted[2]!);
    const duo = await run(await ramp(), { op: 'duotone', shadow: { r: 0, g: 0, b: 128, alpha: 1 }, highlight: { r: 255, g: 192, b: 203, alpha: 1 } });
    near(duo.at(0, 5), [0, 0, 128, 255]);
    near(duo.at(255, 5), [255, 192, 203, 255]);
  });
  test('brightness, contrast, gamma, saturation, hue, temperature move pixels the right way', async () => {
    const mid = async (...ops: EditOperation[]) => (await run(await ramp(), ...ops)).at(100, 5)[0]!;
    assert.ok((await mid({ op: 'brightness', factor: 1.5 })) > 110);
    assert.ok((await mid({ op: 'brightness', factor: 0.5 })) < 90);
    assert.ok((await mid({ op: 'contrast', factor: 2 })) < 90, 'below mid-grey gets darker');
    assert.ok((await mid({ op: 'gamma', value: 2 })) > 130);
    near((await run(await redBlue(), { op: 'saturation', factor: 0 })).at(10, 10).slice(0, 3), [127, 127, 127], 60);
    const hue = (await run(await redBlue(), { op: 'hue', degrees: 120 })).at(10, 10);
    assert.ok(hue[1]! > hue[0]!, `hue 120 turns red towards green: ${hue}`);
    const warm = (await run(await ramp(), { op: 'temperature', amount: 1 })).at(128, 5);
    assert.ok(warm[0]! > warm[2]!);
    const cool = (await run(await ramp(), { op: 'temperature', amount: -1 })).at(128, 5);
    assert.ok(cool[2]! > cool[0]!);
  });
  test('normalize stretches a dull range', async () => {
    const dull = await sharp(await ramp()).linear(0.25, 96).png().toBuffer();
    const r = await run(dull, { op: 'normalize' });
    assert.ok(r.at(0, 5)[0]! < 20 && r.at(255, 5)[0]! > 235);
  });
  test('threshold leaves only black and white; posterize only its levels', async () => {
    const t = await run(await ramp(), { op: 'threshold', level: 128 });
    assert.deepEqual(new Set([...Array(256).keys()].map((x) => t.at(x, 5)[0])), new Set([0, 255]));
    near(t.at(127, 5), [0, 0, 0, 255], 0);
    const p = await run(await ramp(), { op: 'posterize', levels: 4 });
    assert.deepEqual([...new Set([...Array(256).keys()].map((x) => p.at(x, 5)[0]))].sort((a, b) => a! - b!), [0, 85, 170, 255]);
  });
});

/** A light 600×400 picture with a dark box and a dark line, turned clockwise by `degrees`. */
async function scene(degrees: number): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="600" height="400" fill="#eee"/>` +
    `<g transform="rotate(${degrees} 300 200)"><rect x="150" y="100" width="300" height="200" fill="#345"/>` +
    `<line x1="-100" y1="330" x2="700" y2="330" stroke="#222" stroke-width="6"/></g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A flat RGBA image (alpha included), width×height. */
function flat(width: number, height: number, rgba: [number, number, number, number]) {
  return sharp({ create: { width, height, channels: 4, background: { r: rgba[0], g: rgba[1], b: rgba[2], alpha: rgba[3] / 255 } } }).png().toBuffer();
}

/** Mean and standard deviation of one channel over the whole result. */
function channelStats(r: Awaited<ReturnType<typeof run>>, channel: number): { mean: number; sd: number } {
  let sum = 0;
  let squares = 0;
  const n = r.raw.info.width * r.raw.info.height;
  for (let i = channel; i < r.raw.data.length; i += 4) {
    sum += r.raw.data[i]!;
    squares += r.raw.data[i]! ** 2;
  }
  const mean = sum / n;
  return { mean, sd: Math.sqrt(squares / n - mean * mean) };
}

describe('render: colour balance, colour replacement, straighten', () => {
  test('color_balance moves each channel the way asked', async () => {
    const grey = await flat(50, 50, [120, 120, 120, 255]);
    const r = await run(grey, { op: 'color_balance', red: 0.8, green: 1.2, blue: 1 });
    near(r.at(10, 10), [96, 144, 120, 255], 1);
    const yellower = await run(await ramp(), { op: 'color_balance', red: 1.1, green: 1.1, blue: 0.85 });
    const [red, green, blue] = [0, 1, 2].map((c) => channelStats(yellower, c).mean);
    assert.ok(red! > blue! + 20 && green! > blue! + 20, `${red} ${green} ${blue}`);
  });
  test('replace_color turns a blue patch yellow and leaves red, grey and white alone', async () => {
    const patches = await sharp({ create: { width: 300, height: 100, channels: 3, background: WHITE } })
      .composite([
        { input: { create: { width: 100, height: 100, channels: 3, background: { r: 20, g: 40, b: 200 } } }, left: 0, top: 0 },
        { input: { create: { width: 100, height: 100, channels: 3, background: { r: 220, g: 20, b: 20 } } }, left: 100, top: 0 },
        { input: { create: { width: 50, height: 100, channels: 3, background: { r: 128, g: 128, b: 128 } } }, left: 200, top: 0 },
      ])
      .png()
      .toBuffer();
    const blue = { r: 0, g: 0, b: 255, alpha: 1 };
    const yellow = { r: 255, g: 255, b: 0, alpha: 1 };
    const r = await run(patches, { op: 'replace_color', from: blue, to: yellow, tolerance: 30 });
    const [yr, yg, yb] = r.at(50, 50);
    assert.ok(yr! > 150 && yg! > 150 && yb! < 60 && Math.abs(yr! - yg!) < 10, `blue became yellow: ${r.at(50, 50)}`);
    near(r.at(150, 50), [220, 20, 20, 255], 0);
    near(r.at(225, 50), [128, 128, 128, 255], 0);
    near(r.at(275, 50), [255, 255, 255, 255], 0);
    // A grey "from" works by lightness: the white turns red, the grey and the colours stay.
    const w = await run(patches, { op: 'replace_color', from: WHITE, to: RED, tolerance: 30 });
    near(w.at(275, 50), [255, 0, 0, 255], 2);
    near(w.at(225, 50), [128, 128, 128, 255], 0);
    near(w.at(50, 50), [20, 40, 200, 255], 0);
  });
  test('replace_color with more pairs does them in one pass: a swap swaps', async () => {
    const halves = await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 220, g: 20, b: 20 } } })
      .composite([{ input: { create: { width: 100, height: 100, channels: 3, background: { r: 20, g: 20, b: 220 } } }, left: 100, top: 0 }])
      .png()
      .toBuffer();
    const blue = { r: 0, g: 0, b: 255, alpha: 1 };
    const swapped = await run(halves, { op: 'replace_color', from: RED, to: blue, tolerance: 30, also: [{ from: blue, to: RED }] });
    near(swapped.at(50, 50), [20, 20, 220, 255], 2);
    near(swapped.at(150, 50), [220, 20, 20, 255], 2);
    // One after the other, the second pair would undo the first.
    const chained = await run(halves, { op: 'replace_color', from: RED, to: blue, tolerance: 30 }, { op: 'replace_color', from: blue, to: RED, tolerance: 30 });
    near(chained.at(50, 50), [220, 20, 20, 255], 2);
  });
  test('thicken_lines grows dark lines (or light ones) by the width on each side, keeping their colour', async () => {
    // A 1px red vertical line and a 1px black horizontal one on white, 41x41.
    const lines = await sharp({ create: { width: 41, height: 41, channels: 3, background: WHITE } })
      .composite([
        { input: { create: { width: 1, height: 41, channels: 3, background: { r: 200, g: 0, b: 0 } } }, left: 10, top: 0 },
        { input: { create: { width: 41, height: 1, channels: 3, background: { r: 0, g: 0, b: 0 } } }, left: 0, top: 30 },
      ])
      .png()
      .toBuffer();
    const thick = await run(lines, { op: 'thicken_lines', width: 2, lines: 'dark' });
    const row = (y: number) => Array.from({ length: 41 }, (_, x) => thick.at(x, y));
    // The red line is 5px wide now (8..12), still the same red; white beyond.
    assert.deepEqual(row(5).map((p, x) => (p[0] === 200 && p[1] === 0 ? x : -1)).filter((x) => x >= 0), [8, 9, 10, 11, 12]);
    near(thick.at(7, 5), [255, 255, 255, 255], 0);
    // The black line wins where the two meet (it is darker), and is 5px tall (28..32).
    assert.deepEqual(Array.from({ length: 41 }, (_, y) => (thick.at(30, y)[0] === 0 ? y : -1)).filter((y) => y >= 0), [28, 29, 30, 31, 32]);
    near(thick.at(10, 30), [0, 0, 0, 255], 0);
    // Light lines: a white line on black grows; asked for dark lines, the dark ground grows over it.
    const white = await sharp({ create: { width: 20, height: 20, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .composite([{ input: { create: { width: 1, height: 20, channels: 3, background: WHITE } }, left: 10, top: 0 }])
      .png()
      .toBuffer();
    const grown = await run(white, { op: 'thicken_lines', width: 1, lines: 'light' });
    assert.deepEqual([8, 9, 10, 11, 12].map((x) => grown.at(x, 10)[0]), [0, 255, 255, 255, 0]);
    const untouched = await run(white, { op: 'thicken_lines', width: 1, lines: 'dark' });
    assert.deepEqual([8, 9, 10, 11, 12].map((x) => untouched.at(x, 10)[0]), [0, 0, 0, 0, 0]);
  });
  test('darken_lines moves the black point: grey strokes go darker, the white ground stays white, hues are kept', async () => {
    // A mid-grey pencil stroke and a light blue one on white.
    const drawing = await sharp({ create: { width: 30, height: 10, channels: 3, background: WHITE } })
      .composite([
        { input: { create: { width: 10, height: 10, channels: 3, background: { r: 128, g: 128, b: 128 } } }, left: 0, top: 0 },
        { input: { create: { width: 10, height: 10, channels: 3, background: { r: 120, g: 160, b: 230 } } }, left: 10, top: 0 },
      ])
      .png()
      .toBuffer();
    const darker = await run(drawing, { op: 'darken_lines', amount: 0.3 });
    // (128 - 76.5) / (1 - 0.3) = 73.6: the stroke is darker by about 54 levels.
    near(darker.at(5, 5), [74, 74, 74, 255], 2);
    near(darker.at(25, 5), [255, 255, 255, 255], 0);
    // Each channel moved alike: the blue stroke is darker and still blue (b the largest, then g, then r).
    const [r, g, b] = darker.at(15, 5);
    assert.ok(b! > g! && g! > r! && r! < 120 && b! < 230, `${r},${g},${b}`);
    // A stroke below the black point is black; a stronger amount darkens more.
    const strong = await run(drawing, { op: 'darken_lines', amount: 0.5 });
    near(strong.at(5, 5), [1, 1, 1, 255], 2);
  });
  test('thicken_lines takes, for every pixel, exactly the darkest pixel of its square window', async () => {
    // Against a direct search of each window, on random pixels (ties: the top-most, then left-most).
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
    for (const [w, h, width, channels] of [[37, 23, 1, 3], [23, 37, 3, 4], [5, 40, 2, 3], [40, 1, 4, 3]] as const) {
      const data = Buffer.from(Array.from({ length: w * h * channels }, (_, i) => (i % 7 === 0 ? 0 : random())));
      for (const lines of ['dark', 'light'] as const) {
        const out = await thickenLines({ data: Buffer.from(data), width: w, height: h, channels }, width, lines);
        const key = (p: number) => {
          const luma = (54 * data[p * channels]! + 183 * data[p * channels + 1]! + 19 * data[p * channels + 2]! + 128) >> 8;
          return lines === 'dark' ? luma : 255 - luma;
        };
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            let best = -1;
            for (let v = Math.max(0, y - width); v <= Math.min(h - 1, y + width); v++) {
              for (let u = Math.max(0, x - width); u <= Math.min(w - 1, x + width); u++) if (best < 0 || key(v * w + u) < key(best)) best = v * w + u;
            }
            const got = out.data.subarray((y * w + x) * channels, (y * w + x + 1) * channels);
            assert.deepEqual([...got], [...data.subarray(best * channels, (best + 1) * channels)], `${w}x${h} ${lines} width ${width} at ${x},${y}`);
          }
        }
      }
    }
  });
  test('auto white balance takes a cast off a scene with grey in it, leaves a neutral one alone, and a green one green', async () => {
    // A scene: a grey ramp (a wall, a road) over the top half, saturated patches below.
    const [w, h, channels] = [200, 120, 3] as const;
    const patches = [[40, 150, 50], [200, 60, 40], [60, 90, 190], [220, 190, 60]];
    const scene = (greyRows: number) => {
      const data = Buffer.alloc(w * h * channels);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const v = 30 + Math.round((190 * x) / w);
          const rgb = y < greyRows ? [v, v, v] : patches[Math.floor((x * patches.length) / w)]!;
          data.set(rgb, (y * w + x) * channels);
        }
      }
      return data;
    };
    const cast = (data: Buffer, gains: number[]) => Buffer.from(data.map((v, i) => Math.min(255, Math.round(v * gains[i % channels]!))));
    // Mean difference in levels once the overall exposure is matched: a white balance keeps the
    // picture's luminance, which a cast changes too, so only the colour is compared.
    const error = (a: Buffer, b: Buffer) => {
      const k = b.reduce((sum, v, i) => sum + v * a[i]!, 0) / a.reduce((sum, v) => sum + v * v, 0);
      return a.reduce((sum, v, i) => sum + Math.abs(v * k - b[i]!), 0) / a.length;
    };
    const balance = async (data: Buffer) => (await tone.auto_white_balance({ data: Buffer.from(data), width: w, height: h, channels }, { op: 'auto_white_balance' }, options)).data;

    const clear = scene(60);
    const warm = cast(clear, [1.18, 1, 0.8]);
    const before = error(warm, clear);
    const after = error(await balance(warm), clear);
    assert.ok(after < before * 0.25, `mean error ${before.toFixed(1)} levels with the cast, ${after.toFixed(1)} after`);
    const blue = cast(clear, [0.85, 0.95, 1.2]);
    assert.ok(error(await balance(blue), clear) < error(blue, clear) * 0.25);
    assert.ok(error(await balance(clear), clear) < 1, 'a neutral picture stays as it is');
    // Mostly green with a little grey and no cast: judged by the grey, so not pushed to magenta.
    const green = scene(12);
    assert.ok(error(await balance(green), green) < 2, `a green scene moved by ${error(await balance(green), green).toFixed(1)} levels`);
  });
  test('dehaze takes a haze laid over a clear picture most of the way off again, and leaves a clear one alone', async () => {
    // A clear scene: every pixel dark in some channel (as outdoor scenes are, patch by patch).
    const [w, h, channels] = [240, 160, 4] as const;
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const clear = Buffer.alloc(w * h * channels);
    for (let p = 0; p < w * h; p++) {
      const x = p % w;
      const rgb = [40 + Math.round(180 * (x / w)), 60 + Math.round(150 * random()), Math.round(20 * random())];
      const dark = Math.floor(random() * 3);
      [rgb[dark], rgb[2]] = [rgb[2]!, rgb[dark]!];
      clear.set([...rgb, 128], p * channels);
    }
    // The haze model: I = J·t + A·(1 − t), a sky band at the top nearly all air.
    const air = [215, 222, 230];
    const sky = 30;
    const hazy = Buffer.from(clear);
    for (let p = 0; p < w * h; p++) {
      const t = Math.floor(p / w) < sky ? 0.05 : 0.55;
      for (let c = 0; c < 3; c++) hazy[p * channels + c] = Math.round(clear[p * channels + c]! * t + air[c]! * (1 - t));
    }
    const error = (image: Buffer) => {
      let sum = 0;
      let n = 0;
      for (let y = sky + 20; y < h; y++) for (let x = 0; x < w * channels; x++) if (x % channels !== 3) [sum, n] = [sum + Math.abs(image[y * w * channels + x]! - clear[y * w * channels + x]!), n + 1];
      return sum / n;
    };
    const before = error(hazy);
    const after = error((await dehaze({ data: Buffer.from(hazy), width: w, height: h, channels }, 0.95, options)).data);
    assert.ok(after < before * 0.25, `mean error ${before.toFixed(1)} levels with the haze, ${after.toFixed(1)} after`);
    const untouched = (await dehaze({ data: Buffer.from(clear), width: w, height: h, channels }, 0.95, options)).data;
    assert.ok(error(untouched) < 4, `a clear picture moved by ${error(untouched).toFixed(1)} levels`);
    // The alpha channel is kept as it was.
    assert.ok(untouched.every((v, i) => i % channels !== 3 || v === 128));
  });
  test('thicken_lines refuses a side past the positions it can pack', async () => {
    const thin = { data: Buffer.alloc(2_100_000 * 3), width: 2_100_000, height: 1, channels: 3 as const };
    await assert.rejects(thickenLines(thin, 1, 'dark'), RangeError);
  });
  test('the loops over pixels in JS let the event loop run on a large image', async () => {
    // 24 megapixels: up to about a second of work in JS each, done in slices of a few milliseconds.
    const [w, h] = [6000, 4000];
    const works: Array<[string, (image: RawImage) => Promise<RawImage>]> = [
      ['thicken_lines', (image) => thickenLines(image, 3, 'dark')],
      ['dehaze', (image) => filters.dehaze(image, { op: 'dehaze', amount: 0.8 }, options)],
      ['auto_white_balance', (image) => tone.auto_white_balance(image, { op: 'auto_white_balance' }, options)],
      ['replace_color', (image) => tone.replace_color(image, { op: 'replace_color', from: RED, to: WHITE, tolerance: 30 }, options)],
      ['grayscale', (image) => tone.grayscale(image, { op: 'grayscale' }, options)],
      ['contrast', (image) => tone.contrast(image, { op: 'contrast', factor: 1.3 }, options)],
      ['duotone', (image) => tone.duotone(image, { op: 'duotone', shadow: RED, highlight: WHITE }, options)],
      ['noise', (image) => filters.noise(image, { op: 'noise', amount: 0.2 }, options)],
      ['distort', (image) => filters.distort(image, { op: 'distort', amount: 0.5 }, options)],
      ['radial_blur', (image) => filters.radial_blur(image, { op: 'radial_blur', amount: 0.6 }, options)],
      ['glow', (image) => filters.glow(image, { op: 'glow', strength: 0.5 }, options)],
      ['sketch', (image) => filters.sketch(image, { op: 'sketch' }, options)],
      ['emboss', (image) => filters.emboss(image, { op: 'emboss' }, options)],
      ['transparent_color', (image) => format.transparent_color(image, { op: 'transparent_color', tolerance: 10 }, options)],
      ['straighten', (image) => geometry.straighten(image, { op: 'straighten', degrees: 5 }, options)],
    ];
    // A stall is measured in this thread's CPU time between two ticks, which other processes on
    // the machine cannot stretch (the wall clock, under four test files at once, showed 300-600 ms
    // gaps for slices of a few ms); the wall clock keeps a bound that catches a blow-up.
    for (const [name, work] of works) {
      const image = { data: Buffer.alloc(w * h * 3, 200), width: w, height: h, channels: 3 as const };
      let [last, lastCpu] = [performance.now(), threadCpuMs()];
      let [longest, longestCpu] = [0, 0];
      const tick = () => {
        const [now, cpu] = [performance.now(), threadCpuMs()];
        [longest, longestCpu] = [Math.max(longest, now - last), Math.max(longestCpu, cpu - lastCpu)];
        [last, lastCpu] = [now, cpu];
      };
      const ticks = setInterval(tick, 5);
      await work(image);
      clearInterval(ticks);
      tick();
      // Unsliced, one of these holds the loop for up to a second; 250 ms catches that with room
      // for a loaded machine (the longest step, dehaze's work on its small copy, takes 30-70 ms).
      assert.ok(longestCpu < 250, `${name}: the event loop was held for ${longestCpu.toFixed(0)} ms of CPU`);
      assert.ok(longest < 3000, `${name}: the event loop waited ${longest.toFixed(0)} ms`);
    }
  });
  test('replace_color fades out at the edge of the tolerance', async () => {
    // Hue 0 (red) against from at hue 30 (orange): inside 40°, outside 20°, partly at 30°.
    const red = await flat(10, 10, [255, 0, 0, 255]);
    const orange = { r: 255, g: 128, b: 0, alpha: 1 };
    const green = { r: 0, g: 255, b: 0, alpha: 1 };
    assert.equal((await run(red, { op: 'replace_color', from: orange, to: green, tolerance: 40 })).at(5, 5)[0], 0);
    assert.equal((await run(red, { op: 'replace_color', from: orange, to: green, tolerance: 20 })).at(5, 5)[0], 255);
    const edge = (await run(red, { op: 'replace_color', from: orange, to: green, tolerance: 30 })).at(5, 5);
    assert.ok(edge[0]! > 60 && edge[0]! < 200 && edge[1]! > 60 && edge[1]! < 200, `half way: ${edge}`);
  });
  test('the tilt is measured from the edges, within a degree', async () => {
    for (const degrees of [7, -7, 3, 12]) {
      const tilt = await measureTilt(await toRaw(sharp(await scene(degrees))), options);
      assert.ok(Math.abs(tilt - degrees) <= 1, `turned ${degrees}°, measured ${tilt}°`);
    }
    const translucent = await sharp(await scene(-7)).ensureAlpha(0.8).png().toBuffer();
    const throughAlpha = await measureTilt(await toRaw(sharp(translucent)), options);
    assert.ok(Math.abs(throughAlpha + 7) <= 1, `with alpha: ${throughAlpha}°`);
    assert.equal(await measureTilt(await toRaw(sharp(await scene(0))), options), 0);
    assert.equal(await measureTilt(await toRaw(sharp(await flat(100, 100, [90, 90, 90, 255]))), options), 0, 'nothing to measure');
    const noise = Buffer.alloc(300 * 300 * 3);
    for (let i = 0, s = 7; i < noise.length; i++) noise[i] = (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 24;
    const random = await sharp(noise, { raw: { width: 300, height: 300, channels: 3 } }).png().toBuffer();
    assert.equal(await measureTilt(await toRaw(sharp(random)), options), 0, 'no direction stands out');
  });
  test('straighten levels a tilted picture and crops away the empty corners', async () => {
    const tilted = await scene(7);
    const r = await run(tilted, { op: 'straighten' });
    assert.ok(r.width < 600 && r.height < 400, `${r.width}×${r.height}`);
    assert.ok(r.width > 450 && r.height > 280, `no more cut than needed: ${r.width}×${r.height}`);
    for (const [x, y] of [[0, 0], [r.width - 1, 0], [0, r.height - 1], [r.width - 1, r.height - 1]] as const) {
      near(r.at(x, y), [238, 238, 238, 255], 12);
    }
    const level = await measureTilt(await toRaw(sharp(r.data)), options);
    assert.ok(Math.abs(level) <= 1, `level afterwards: ${level}°`);
    // With transparency: the corners stay opaque.
    const withAlpha = await run(await sharp(tilted).ensureAlpha().png().toBuffer(), { op: 'straighten', degrees: -5 });
    for (const [x, y] of [[0, 0], [withAlpha.width - 1, withAlpha.height - 1]] as const) assert.equal(withAlpha.at(x, y)[3], 255);
  });
  test('the crop after straightening is the largest upright rectangle inside the turned picture', () => {
    for (const [width, height, degrees] of [[600, 400, 7], [400, 600, -12], [1000, 100, 10], [300, 300, 45], [500, 480, 1]] as const) {
      const angle = (Math.abs(degrees) * Math.PI) / 180;
      const [w, h] = largestInscribed(width, height, Math.sin(angle), Math.cos(angle));
      // Each corner of the crop, turned back into the picture's frame, lies inside the picture.
      const inside = (scale: number) =>
        [[1, 1], [1, -1], [-1, 1], [-1, -1]].every(([sx, sy]) => {
          const [x, y] = [(sx! * w * scale) / 2, (sy! * h * scale) / 2];
          const [u, v] = [x * Math.cos(angle) + y * Math.sin(angle), -x * Math.sin(angle) + y * Math.cos(angle)];
          return Math.abs(u) <= width / 2 + 1e-6 && Math.abs(v) <= height / 2 + 1e-6;
        });
      assert.ok(inside(1), `${width}×${height} at ${degrees}°: ${w}×${h} fits`);
      assert.ok(!inside(1.01), `${width}×${height} at ${degrees}°: ${w}×${h} touches the turned edges`);
    }
  });
  test('straighten leaves a level picture exactly as it was', async () => {
    const level = await scene(0);
    const before = await run(level);
    const after = await run(level, { op: 'straighten' });
    assert.deepEqual(pick(after), [600, 400]);
    assert.ok(after.raw.data.equals(before.raw.data));
  });
});

describe('render: filters and overlays', () => {
  test('blur softens the red/blue edge; sharpen and denoise keep size', async () => {
    const edge = (await run(await redBlue(), { op: 'blur', sigma: 5 })).at(99, 50);
    assert.ok(edge[0]! < 250 && edge[2]! > 5, `${edge}`);
  });
  test('sharpen steepens a soft edge; denoise removes an isolated speck', async () => {
    const soft = await sharp(await redBlue()).blur(3).png().toBuffer();
    const steepness = (r: { at(x: number, y: number): number[] }) => Math.abs(r.at(101, 50)[0]! - r.at(98, 50)[0]!);
    const before = await run(soft);
    const after = await run(soft, { op: 'sharpen', sigma: 2 });
    assert.deepEqual(pick(after), [200, 100]);
    assert.ok(steepness(after) > steepness(before), `${steepness(after)} > ${steepness(before)}`);
    const grey = Buffer.alloc(20 * 20 * 3, 128);
    grey.fill(255, (10 * 20 + 10) * 3, (10 * 20 + 10) * 3 + 3);
    const speck = await sharp(grey, { raw: { width: 20, height: 20, channels: 3 } }).png().toBuffer();
    near((await run(speck)).at(10, 10), [255, 255, 255, 255], 0);
    near((await run(speck, { op: 'denoise', size: 3 })).at(10, 10), [128, 128, 128, 255], 0);
  });
  test('pixelate makes uniform blocks', async () => {
    const r = await run(await ramp(), { op: 'pixelate', size: 16 });
    assert.equal(r.at(16, 5)[0], r.at(31, 5)[0]);
    assert.notEqual(r.at(15, 5)[0], r.at(16, 5)[0]);
  });
  test('vignette darkens corners, not the centre', async () => {
    const white = await sharp({ create: { width: 100, height: 100, channels: 3, background: WHITE } }).png().toBuffer();
    const r = await run(white, { op: 'vignette', strength: 0.8 });
    assert.ok(r.at(0, 0)[0]! < 120);
    near(r.at(50, 50), [255, 255, 255, 255], 4);
  });
  test('edges and emboss respond to edges only', async () => {
    const e = await run(await redBlue(), { op: 'edges' });
    assert.ok(e.at(100, 50)[0]! > 0 || e.at(99, 50)[0]! > 0);
    assert.equal(e.at(50, 50)[0], 0);
    const m = await run(await redBlue(), { op: 'emboss' });
    assert.deepEqual(pick(m), [200, 100]);
    near(m.at(50, 50), [255, 0, 0, 255], 2);
    assert.notDeepEqual(m.at(100, 50), m.at(50, 50), 'the edge stands out');
  });
  test('sketch: mostly white, dark strokes along the edges', async () => {
    const r = await run(await scene(0), { op: 'sketch' });
    let white = 0;
    for (let i = 0; i < r.raw.data.length; i += 4) if (r.raw.data[i]! > 230) white++;
    assert.ok(white / (600 * 400) > 0.8, `${((100 * white) / (600 * 400)).toFixed(1)}% white`);
    near(r.at(300, 200), [255, 255, 255, 255], 10); // inside the dark box, far from its edges
    near(r.at(40, 40), [255, 255, 255, 255], 10);
    const stroke = Math.min(...[149, 150, 151, 152].map((x) => r.at(x, 200)[0]!));
    assert.ok(stroke < 120, `the box's left edge is drawn: ${stroke}`);
    const [red, green, blue] = r.at(151, 200);
    assert.ok(red === green && green === blue, 'pencil is grey');
  });
  test('noise: monochrome grain, the same every time', async () => {
    const grey = await flat(100, 100, [128, 128, 128, 255]);
    const first = await run(grey, { op: 'noise', amount: 0.2 });
    const second = await run(grey, { op: 'noise', amount: 0.2 });
    assert.ok(first.raw.data.equals(second.raw.data), 'deterministic');
    const { mean, sd } = channelStats(first, 0);
    assert.ok(Math.abs(mean - 128) < 2 && sd > 8 && sd < 25, `mean ${mean}, sd ${sd}`);
    const [r, g, b] = first.at(17, 42);
    assert.ok(r === g && g === b, 'monochrome');
    const other = await run(await flat(100, 100, [127, 128, 128, 255]), { op: 'noise', amount: 0.2 });
    assert.ok(!other.raw.data.equals(first.raw.data), 'another image, another grain');
  });
  test('glow brightens mid-tones near highlights more than far from them', async () => {
    const grey = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 100, g: 100, b: 100 } } })
      .composite([{ input: { create: { width: 60, height: 60, channels: 3, background: WHITE } }, left: 120, top: 120 }])
      .png()
      .toBuffer();
    const r = await run(grey, { op: 'glow', strength: 0.6 });
    const near_ = r.at(110, 150)[0]!;
    const far = r.at(10, 10)[0]!;
    assert.ok(near_ > 100 + 15, `next to the light: ${near_}`);
    assert.ok(far >= 100 && far <= 102, `far from the light: ${far}`);
    near(r.at(150, 150), [255, 255, 255, 255], 0);
  });
  test('distort: straight edges come out wavy, size and colours kept', async () => {
    const r = await run(await redBlue(), { op: 'distort', amount: 1 });
    assert.deepEqual(pick(r), [200, 100]);
    // The red/blue boundary (x = 100) moves along it: red on one row is blue on another.
    const column = Array.from({ length: 100 }, (_, y) => r.at(100, y)[0]! > 128);
    assert.ok(column.includes(true) && column.includes(false), 'the edge is no longer straight');
    near(r.at(20, 50), [255, 0, 0, 255], 2);
    near(r.at(180, 50), [0, 0, 255, 255], 2);
    const none = await run(await redBlue(), { op: 'distort', amount: 0 });
    near(none.at(99, 50), [255, 0, 0, 255], 0);
  });
  test('radial_blur: streaks out from the centre, which stays sharp; longer with more amount', async () => {
    // A white square near the top-left corner of black: pixels farther out along the lines to the
    // centre take some of its white, the centre and the lines that miss it keep their black.
    const square = await sharp({ create: { width: 200, height: 200, channels: 3, background: BLACK } })
      .composite([{ input: await sharp({ create: { width: 30, height: 30, channels: 3, background: WHITE } }).png().toBuffer(), left: 10, top: 10 }])
      .png()
      .toBuffer();
    const strong = await run(square, { op: 'radial_blur', amount: 1 });
    const slight = await run(square, { op: 'radial_blur', amount: 0.3 });
    assert.deepEqual(pick(strong), [200, 200]);
    const streak = strong.at(5, 5)[0]!;
    assert.ok(streak > 60 && streak < 230, `outside the square, on its line to the centre: ${streak}`);
    assert.ok(slight.at(5, 5)[0]! < streak, `a slight blur streaks less: ${slight.at(5, 5)[0]} against ${streak}`);
    near(strong.at(100, 100), [0, 0, 0, 255], 0);
    near(strong.at(2, 120), [0, 0, 0, 255], 0);
    near(strong.at(25, 25), [255, 255, 255, 255], 40);
  });
  test('the new operations never touch the alpha channel', async () => {
    const translucent = await flat(80, 60, [40, 60, 200, 128]);
    const ops: EditOperation[] = [
      { op: 'color_balance', red: 1.2, green: 0.8, blue: 1 },
      { op: 'replace_color', from: { r: 0, g: 0, b: 255, alpha: 1 }, to: RED, tolerance: 40 },
      { op: 'sketch' },
      { op: 'noise', amount: 0.3 },
      { op: 'glow', strength: 0.8 },
      { op: 'distort', amount: 0.5 },
      { op: 'radial_blur', amount: 0.5 },
      { op: 'straighten', degrees: 4 },
    ];
    for (const op of ops) {
      const r = await run(translucent, op);
      let off = 0;
      for (let i = 3; i < r.raw.data.length; i += 4) off = Math.max(off, Math.abs(r.raw.data[i]! - 128));
      assert.ok(off <= (op.op === 'straighten' ? 1 : 0), `${op.op}: alpha off by ${off}`);
    }
  });
  test('text lands in the named corner', async () => {
    const white = await sharp({ create: { width: 300, height: 200, channels: 3, background: WHITE } }).png().toBuffer();
    const r = await run(white, { op: 'text', text: 'Hello <&> "x"', position: 'bottom-right', color: BLACK, size: px(40), opacity: 1 });
    const dark = (x0: number, y0: number) => {
      let n = 0;
      for (let y = y0; y < y0 + 100; y++) for (let x = x0; x < x0 + 150; x++) if (r.at(x, y)[0]! < 128) n++;
      return n;
    };
    assert.ok(dark(150, 100) > 50, 'text in the bottom right');
    assert.equal(dark(0, 0), 0, 'nothing in the top left');
  });
  test('watermark composites another image at the position', async () => {
    const white = await sharp({ create: { width: 400, height: 400, channels: 3, background: WHITE } }).png().toBuffer();
    const r = await run(white, { op: 'watermark', fileId: 'file_x', position: 'bottom-right', opacity: 1, scale: 0.25 });
    near(r.at(320, 370), [255, 0, 0, 255]);
    near(r.at(20, 20), [255, 255, 255, 255]);
  });
  test('flatten and transparent_color', async () => {
    const transparent = await run(await redBlue(), { op: 'transparent_color', color: RED, tolerance: 10 });
    assert.equal(transparent.at(10, 10)[3], 0);
    assert.equal(transparent.at(150, 10)[3], 255);
    const flat = await run(await redBlue(), { op: 'transparent_color', tolerance: 10 }, { op: 'flatten', background: { r: 0, g: 255, b: 0, alpha: 1 } });
    near(flat.at(10, 10), [0, 255, 0, 255]);
  });
});

describe('render: order, format, metadata, safety', () => {
  test('operations apply in the order given', async () => {
    const rotateThenCrop = await run(await redBlue(), { op: 'rotate', degrees: 90, background: BLACK }, { op: 'crop', width: px(50), height: px(50), gravity: 'top' });
    near(rotateThenCrop.at(25, 25), [255, 0, 0, 255]);
    const cropThenRotate = await run(await redBlue(), { op: 'crop', width: px(50), height: px(50), gravity: 'right' }, { op: 'rotate', degrees: 90, background: BLACK });
    near(cropThenRotate.at(25, 25), [0, 0, 255, 255]);
  });
  test('output format: the source, unless asked', async () => {
    const same = await renderEdits(await redBlue('jpeg'), { operations: [{ op: 'grayscale' }] }, options);
    assert.equal(same.mimeType, 'image/jpeg');
    assert.deepEqual([...same.data.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    const webp = await renderEdits(await redBlue(), { operations: [{ op: 'format', format: 'webp' }, { op: 'quality', quality: 60 }] }, options);
    assert.equal(webp.data.subarray(8, 12).toString(), 'WEBP');
    const smaller = await renderEdits(await redBlue('jpeg'), { operations: [{ op: 'compress' }] }, options);
    assert.equal(smaller.format, 'jpeg');
  });
  test('EXIF orientation is applied first; GPS and EXIF never reach the result', async () => {
    const tagged = await sharp(await redBlue('jpeg'))
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Copyright: 'me' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .jpeg()
      .toBuffer();
    assert.equal((await sharp(tagged).metadata()).orientation, 6);
    const result = await renderEdits(tagged, { operations: [{ op: 'grayscale' }] }, options);
    assert.deepEqual([result.width, result.height], [100, 200], 'upright before editing');
    const meta = await sharp(result.data).metadata();
    assert.equal(meta.exif, undefined);
    assert.equal(meta.orientation, undefined);
  });
  test('keep_metadata embeds the colour profile; strip_metadata (like every result) carries none', async () => {
    const kept = await sharp((await renderEdits(await redBlue('jpeg'), { operations: [{ op: 'keep_metadata' }] }, options)).data).metadata();
    assert.ok(kept.icc && kept.icc.length > 0);
    const stripped = await sharp((await renderEdits(await redBlue('jpeg'), { operations: [{ op: 'strip_metadata' }] }, options)).data).metadata();
    assert.equal(stripped.icc, undefined);
    assert.equal(stripped.exif, undefined);
  });
  test('a decompression bomb is refused from its header', async () => {
    const bomb = pngHeaderOnly(20_000, 20_000);
    const started = performance.now();
    await assert.rejects(inspectImage(bomb, 50_000_000), (e: ImageError) => e.kind === 'too_many_pixels');
    const ms = performance.now() - started;
    console.log(`refused a ${bomb.length}-byte 400-megapixel PNG in ${ms.toFixed(1)} ms`);
  });
  test('non-images and corrupt images are not_an_image', async () => {
    await assert.rejects(inspectImage(Buffer.from('just some text'), 1e8), (e: ImageError) => e.kind === 'not_an_image');
    const png = await redBlue();
    await assert.rejects(renderEdits(png.subarray(0, png.length / 2), { operations: [{ op: 'grayscale' }] }, options), (e: ImageError) => e.kind === 'not_an_image');
  });
  test('SVG with external references is refused; plain SVG renders', async () => {
    for (const svg of [
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><image href="http://127.0.0.1:9/x.png" width="10" height="10"/></svg>',
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10" fill="url(http://127.0.0.1/a)"/></svg>',
    ]) {
      await assert.rejects(inspectImage(Buffer.from(svg), 1e8), (e: ImageError) => e.kind === 'not_an_image', svg);
    }
    const ok = await renderEdits(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#f00"/></svg>'), { operations: [{ op: 'mirror' }] }, options);
    assert.equal(ok.mimeType, 'image/png');
    assert.deepEqual([ok.width, ok.height], [40, 20]);
  });
});

function pick(r: { width: number; height: number }): [number, number] {
  return [r.width, r.height];
}
