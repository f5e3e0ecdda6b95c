import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { ModelFiles } from './models.ts';

/**
 * A worker thread that runs the models on small, already scaled pixels, so that inference (tens of
 * milliseconds to seconds of CPU) never holds up the event loop. Each model is loaded on its first
 * use and kept. The main thread scales masks back to the source's size (see segmenter.ts).
 */
export type InferenceTask = 'people' | 'faces' | 'general';

export interface InferenceRequest {
  id: number;
  task: InferenceTask;
  /** 8-bit RGB, width × height × 3. */
  rgb: Uint8Array;
  width: number;
  height: number;
}

/** A face in the request's pixel coordinates: its box, and its outline when the mesh found one. */
export interface DetectedFace {
  box: [x: number, y: number, width: number, height: number];
  outline: Array<[x: number, y: number]>;
  score: number;
}

export type InferenceResponse =
  | { id: number; ok: true; mask?: Uint8Array; maskWidth?: number; maskHeight?: number; faces?: DetectedFace[] }
  | { id: number; ok: false; error: string };

const files = workerData as ModelFiles;
const require = createRequire(import.meta.url);

// Weights come from files only: a library that reached for the network would fail here at once.
globalThis.fetch = () => Promise.reject(new Error('the segmentation worker has no network access: models load from files'));

/* eslint-disable @typescript-eslint/no-explicit-any -- TensorFlow.js and Human are loaded untyped, as CommonJS, so that both share one engine */
type Tf = any;
let tfReady: Promise<Tf> | undefined;
let peopleModel: Promise<any> | undefined;
let human: Promise<any> | undefined;
let generalSession: Promise<any> | undefined;

/** TensorFlow.js on its WASM backend, with its binaries read from node_modules. */
function tensorflow(): Promise<Tf> {
  tfReady ??= (async () => {
    const tf = require('@tensorflow/tfjs-core');
    const wasm = require('@tensorflow/tfjs-backend-wasm');
    wasm.setWasmPaths(files.wasmDir);
    await tf.setBackend('wasm');
    await tf.ready();
    // Graph models named by file:// (Human's) are read from disk here.
    tf.io.registerLoadRouter((url: unknown) => (typeof url === 'string' && url.startsWith('file://') ? { load: () => readGraphModel(url.slice('file://'.length)) } : null));
    return tf;
  })();
  return tfReady;
}

/** A TensorFlow.js graph model (model.json and its weight files) as in-memory artifacts. */
async function readGraphModel(jsonPath: string): Promise<Record<string, unknown>> {
  const json = JSON.parse(await fs.readFile(jsonPath, 'utf8')) as { modelTopology: unknown; format?: string; weightsManifest: Array<{ paths: string[]; weights: unknown[] }> };
  const weights = Buffer.concat(await Promise.all(json.weightsManifest.flatMap((group) => group.paths.map((p) => fs.readFile(path.join(path.dirname(jsonPath), p))))));
  return {
    modelTopology: json.modelTopology,
    format: json.format,
    weightSpecs: json.weightsManifest.flatMap((group) => group.weights),
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
  };
}

async function people(request: InferenceRequest): Promise<InferenceResponse> {
  const tf = await tensorflow();
  peopleModel ??= (async () => {
    const converter = require('@tensorflow/tfjs-converter');
    return converter.loadGraphModel(`file://${files.peopleModel}`);
  })();
  const model = await peopleModel;
  const { rgb, width, height } = request;
  const output = tf.tidy(() => {
    const input = tf.tensor4d(Float32Array.from(rgb, (v) => v / 255), [1, height, width, 3]);
    return model.execute(input);
  });
  const values = (await output.data()) as Float32Array;
  output.dispose();
  return { id: request.id, ok: true, mask: toBytes(values), maskWidth: width, maskHeight: height };
}

async function faces(request: InferenceRequest): Promise<InferenceResponse> {
  const tf = await tensorflow();
  human ??= (async () => {
    const { Human } = require(files.humanScript);
    const off = { enabled: false };
    const instance = new Human({
      backend: 'wasm',
      wasmPath: files.wasmDir,
      modelBasePath: `file://${files.faceModelsDir}/`,
      cacheModels: false,
      warmup: 'none',
      debug: false,
      // Each call is a new picture: no reuse of, or smoothing with, the previous one (Human's video mode).
      cacheSensitivity: 0,
      skipAllowed: false,
      filter: off,
      face: { enabled: true, detector: { rotation: true, maxDetected: 20, minConfidence: 0.5, skipFrames: 0, skipTime: 0, return: false }, mesh: { enabled: true }, iris: off, description: off, emotion: off, antispoof: off, liveness: off, attention: off },
      body: off,
      hand: off,
      object: off,
      gesture: off,
      segmentation: off,
    });
    await instance.load();
    return instance;
  })();
  const detector = await human;
  const { rgb, width, height } = request;
  const input = tf.tensor4d(Int32Array.from(rgb), [1, height, width, 3], 'int32');
  try {
    const result = await detector.detect(input);
    const found: DetectedFace[] = (result.face as any[]).map((face) => ({
      box: face.box,
      // The mesh's silhouette: the oval from the hairline round the chin.
      outline: ((face.annotations?.silhouette ?? []) as number[][]).map((point) => [point[0]!, point[1]!] as [number, number]),
      score: face.score,
    }));
    return { id: request.id, ok: true, faces: found };
  } finally {
    input.dispose();
  }
}

async function general(request: InferenceRequest): Promise<InferenceResponse> {
  const model = files.general;
  if (!model) throw new Error('no general model is installed');
  const ort = require('onnxruntime-node');
  generalSession ??= (async () => {
    const bytes = model.kind === 'file' ? await fs.readFile(model.path) : Buffer.concat(await Promise.all(model.chunks.map((chunk) => fs.readFile(path.join(model.dir, chunk)))));
    // The arena keeps its peak for the life of the process; without it a run peaks lower (docs/regions.md).
    return ort.InferenceSession.create(bytes, { enableCpuMemArena: false, graphOptimizationLevel: 'all' });
  })();
  const session = await generalSession;
  const { rgb, width, height } = request;
  const plane = width * height;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    // ISNet's normalisation: (value − 128) / 256, channels first.
    input[i] = (rgb[i * 3]! - 128) / 256;
    input[plane + i] = (rgb[i * 3 + 1]! - 128) / 256;
    input[2 * plane + i] = (rgb[i * 3 + 2]! - 128) / 256;
  }
  const output = await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', input, [1, 3, height, width]) });
  return { id: request.id, ok: true, mask: toBytes(output[session.outputNames[0]].data as Float32Array), maskWidth: width, maskHeight: height };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

function toBytes(values: Float32Array): Uint8Array {
  return Uint8Array.from(values, (v) => Math.round(Math.max(0, Math.min(1, v)) * 255));
}

const TASKS: Record<InferenceTask, (request: InferenceRequest) => Promise<InferenceResponse>> = { people, faces, general };

parentPort!.on('message', (request: InferenceRequest) => {
  TASKS[request.task](request).then(
    (response) => {
      const transfer = response.ok && response.mask ? [response.mask.buffer as ArrayBuffer] : [];
      parentPort!.postMessage(response, transfer);
    },
    (error: unknown) => parentPort!.postMessage({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies InferenceResponse),
  );
});
