import sharp from 'sharp';
import { executePlan } from '../src/edits/generative/executor.ts';
import { OpenAiImagesProvider } from '../src/edits/generative/openai-provider.ts';
import { WorkLimiter } from '../src/edits/limiter.ts';
import { ModelPlanner } from '../src/edits/model-planner.ts';
import { PromptError, RulePlanner } from '../src/edits/planner/rule-planner.ts';
import { OpenAiTestServer } from '../test/helpers/openai-server.ts';
import { percentile } from './http-client.ts';

/**
 * What the generative path adds on our side, with the model's own time taken out: a local
 * server speaking the protocols answers at once (the chat answer is fixed; the image answer is
 * the image inverted). Real models add their inference time on top (see docs/benchmarks.md).
 *   node bench/generative.ts
 */
async function timed(samples: number, run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return percentile(times, 50);
}

const server = await new OpenAiTestServer().start();
server.chatAnswer = () => JSON.stringify({ operations: [{ op: 'saturation', factor: 1.5 }, { op: 'vignette', strength: 0.4 }] });
const rules = new RulePlanner({ generative: true });
const model = new ModelPlanner(rules, { baseUrl: server.url, apiKey: '', model: 'bench', timeoutMs: 5000, generative: true });
const provider = new OpenAiImagesProvider({ baseUrl: server.url, apiKey: '', model: 'bench', size: 'auto', quality: 'auto', timeoutMs: 30_000 });
const imageWork = new WorkLimiter(2, 10_000);
const render = { maxPixels: 50_000_000, timeoutSeconds: 30, loadImage: async () => Buffer.alloc(0) };
const photo = await sharp({ create: { width: 1536, height: 1024, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg({ quality: 88 }).toBuffer();
const generative = { provider, limiter: new WorkLimiter(4, 10_000), maxSide: 1536, restoreSize: false };

const rows: Array<[string, number]> = [
  ['rules plan "increase the contrast and remove the people in the background"', await timed(500, () => rules.plan('increase the contrast and remove the people in the background'))],
  ['rules refuse "give it a moody film look" (what the model is asked after)', await timed(500, () => rules.plan('give it a moody film look').catch((e: unknown) => e instanceof PromptError))],
  ['model planner, rules miss, local server answers at once', await timed(100, () => model.plan('give it a moody film look'))],
  ['edit 1536x1024 JPEG: contrast only (classic)', await timed(20, () => executePlan(photo, { operations: [{ op: 'contrast', factor: 1.35 }] }, { render, imageWork }))],
  [
    'edit 1536x1024 JPEG: contrast + generate (local server inverts at once)',
    await timed(20, () => executePlan(photo, { operations: [{ op: 'contrast', factor: 1.35 }, { op: 'generate', instruction: 'remove the people in the background' }] }, { render, imageWork, generative })),
  ],
];
for (const [what, ms] of rows) console.log(`${ms.toFixed(2).padStart(9)} ms  ${what}`);
await server.close();
