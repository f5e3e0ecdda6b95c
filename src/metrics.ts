import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one service instance (its own registry, so tests can run many). */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'tessera_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'tessera_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template and method.',
    labelNames: ['route', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
    registers: [this.registry],
  });
  readonly quiltSeals = new Counter({
    name: 'tessera_quilt_seals_total',
    help: 'Quilts written and synced to disk.',
    registers: [this.registry],
  });
  readonly quiltPatches = new Histogram({
    name: 'tessera_quilt_patches',
    help: 'Patches (distinct blobs) per sealed quilt: how well group commit batches.',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
    registers: [this.registry],
  });
  readonly quiltSealSeconds = new Histogram({
    name: 'tessera_quilt_seal_seconds',
    help: 'Time to write, sync and publish one quilt.',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2, 10],
    registers: [this.registry],
  });
  readonly thumbnailLookups = new Counter({
    name: 'tessera_thumbnail_cache_lookups_total',
    help: 'Thumbnail requests, by whether the rendered thumbnail was already cached.',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly readCacheLookups = new Counter({
    name: 'tessera_read_cache_lookups_total',
    help: 'Reads of small files that the read cache (TESSERA_READ_CACHE_BYTES) could answer, by whether it did.',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly listCacheLookups = new Counter({
    name: 'tessera_list_cache_lookups_total',
    help: 'File-list pages asked for, by whether the page kept from an earlier request was still current (TESSERA_LIST_CACHE_BYTES).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly generativeCalls = new Counter({
    name: 'tessera_generative_calls_total',
    help: 'Calls to the generative provider, by outcome: answered, unavailable, refused, malformed.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly generativeSeconds = new Histogram({
    name: 'tessera_generative_call_seconds',
    help: 'Time of one generative provider call.',
    buckets: [0.5, 1, 2.5, 5, 10, 20, 40, 60, 120, 300],
    registers: [this.registry],
  });
  readonly modelPlannerAnswers = new Counter({
    name: 'tessera_model_planner_answers_total',
    help: 'Prompts the rules did not understand that went to the model planner, by whether its answer was used or rejected.',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly webhookAttempts = new Counter({
    name: 'tessera_webhook_attempts_total',
    help: 'Webhook delivery attempts, by what became of the delivery: delivered, retrying, failed.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly storedBytes = new Counter({
    name: 'tessera_quilt_bytes_written_total',
    help: 'Payload bytes written into quilts.',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'tessera_' });
  }

  recordSeal(seal: { patches: number; bytes: number; seconds: number }): void {
    this.quiltSeals.inc();
    this.quiltPatches.observe(seal.patches);
    this.quiltSealSeconds.observe(seal.seconds);
    this.storedBytes.inc(seal.bytes);
  }
}
