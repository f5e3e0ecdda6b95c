import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { loadConfig } from '../src/config.ts';
import { generalModel } from '../src/edits/masks/models.ts';
import { createSegmenter, type Region, type SubjectModel } from '../src/edits/masks/segmenter.ts';
import { composite } from '../test/helpers/regions.ts';

/**
 * Masks per model, each model in a process of its own so that its peak RSS is its own: the first
 * mask (which loads the model), then the median of later ones (new blobIds: no cache), against
 * the baseline of decoding the same JPEG with sharp in the same process.
 * `node bench/masks.ts` prints the figures; bench/run.ts calls benchMasks.
 */
export interface MaskBenchResult {
  label: string;
  model: SubjectModel;
  region: Region;
  firstMs: number;
  medianMs: number;
  /** sharp decoding the same source to raw pixels, median ms. */
  decodeMs: number;
  peakRssBytes: number;
  sourceWidth: number;
  sourceHeight: number;
}

/** The people and faces models always; the general model when installed. */
export const MASK_BENCHES: Array<{ label: string; model: SubjectModel; region: Region }> = [
  { label: 'people (selfie segmentation + BlazeFace gate)', model: 'people', region: 'subject' },
  { label: 'faces (BlazeFace + face mesh)', model: 'people', region: 'face' },
  { label: 'general (ISNet, opt-in)', model: 'general', region: 'subject' },
];

const SOURCE_WIDTH = 1600;

export async function benchMasks(samples: number): Promise<MaskBenchResult[]> {
  const results: MaskBenchResult[] = [];
  for (const bench of MASK_BENCHES) {
    if (bench.model === 'general' && !generalModel(undefined)) continue;
    const { stdout } = await promisify(execFile)(process.execPath, [import.meta.filename, bench.model, bench.region, String(samples)], { maxBuffer: 1 << 20 });
    results.push({ label: bench.label, ...(JSON.parse(stdout) as Omit<MaskBenchResult, 'label'>) });
  }
  return results;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(model: SubjectModel, region: Region, samples: number): Promise<Omit<MaskBenchResult, 'label'>> {
  const person = await composite('person', SOURCE_WIDTH);
  const segmenter = createSegmenter({ ...loadConfig({}).segmenter, kind: model, queueTimeoutMs: 600_000, timeoutMs: 600_000, cacheBytes: 0 });
  try {
    const times: number[] = [];
    const decodes: number[] = [];
    for (let i = 0; i <= samples; i++) {
      const started = performance.now();
      await segmenter.mask({ source: person.image, blobId: `bench-${i}`, region, maxPixels: 50_000_000 });
      times.push(performance.now() - started);
      const decodeStarted = performance.now();
      await sharp(person.image).raw().toBuffer();
      decodes.push(performance.now() - decodeStarted);
    }
    return { model, region, firstMs: times[0]!, medianMs: median(times.slice(1)), decodeMs: median(decodes), peakRssBytes: process.resourceUsage().maxRSS * 1024, sourceWidth: person.width, sourceHeight: person.height };
  } finally {
    await segmenter.close();
  }
}

if (process.argv[1] === import.meta.filename) {
  const [model, region, samples] = process.argv.slice(2);
  if (model) {
    process.stdout.write(JSON.stringify(await measure(model as SubjectModel, region as Region, Number(samples ?? 5))));
  } else {
    for (const result of await benchMasks(5)) console.log(result);
  }
}
