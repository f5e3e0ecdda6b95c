import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { isUniqueViolation } from '../db/database.ts';
import type { EditsRepository } from '../db/repositories/edits.repository.ts';
import type { GenerativeUsageRepository } from '../db/repositories/generative-usage.repository.ts';
import type { StoredFile } from '../db/repositories/files.repository.ts';
import { executePlan, generateSteps, type GenerativeSetup } from '../edits/generative/executor.ts';
import { ProviderError } from '../edits/generative/provider.ts';
import type { WorkLimiter } from '../edits/limiter.ts';
import { RegionNotFoundError, type Segmenter, type SoftMask } from '../edits/masks/segmenter.ts';
import type { Region } from '../edits/operations/operation.ts';
import { regionOfStep } from '../edits/operations/registry.ts';
import type { EditOperation, EditPlan, OutputFormat } from '../edits/plan.ts';
import { PromptError, type Planner } from '../edits/planner/rule-planner.ts';
import { tooManyGenerateSteps } from '../edits/planner/refusal.ts';
import { ImageError, inspectImage, OUTPUT_MIME, outputFormatOf, type EditResult } from '../edits/render/index.ts';
import { AppError } from '../errors.ts';
import { sanitizeFileName } from './file-names.ts';
import type { FilesService } from './files.service.ts';
import { accountIdOf, type Owner } from './owner.ts';

export interface EditRequest {
  prompt: string;
  workspace_id: string;
  file_id: string;
  output_format?: OutputFormat;
  name?: string;
  dry_run?: boolean;
}

export interface EditLimits {
  maxPixels: number;
  maxSourceBytes: number;
  maxResultBytes: number;
  timeoutMs: number;
  idempotencyTtlMs: number;
  /** Expired Idempotency-Keys deleted per statement by the purge. */
  idempotencyPurgeBatch: number;
}

/** The answer to an edit; also what an Idempotency-Key replays. */
export interface EditAnswer {
  file_id?: string;
  name: string;
  mime_type: string;
  source_file_id: string;
  workspace_id: string;
  operations: EditOperation[];
  dry_run: boolean;
  /**
   * A dry run plans only: the regions its plan edits (background, subject, face) were not looked
   * for in the image, so the edit itself may still be 422 region_not_found. Absent otherwise.
   */
  regions_unchecked?: Region[];
  width?: number;
  height?: number;
  size_bytes?: number;
  created_at?: string;
}

export interface EditLineage {
  sourceFileId: string;
  prompt: string;
  operations: EditOperation[];
}

/** What generative edits need beside the provider: the budget and how long a claim may stand. */
export interface GenerativeEdits extends GenerativeSetup {
  usage: GenerativeUsageRepository;
  /** Provider calls per account per UTC day. */
  dailyBudget: number;
  /** Provider calls one edit may make (TESSERA_GENERATIVE_MAX_CALLS_PER_EDIT): a plan with more is refused unpaid. */
  maxCallsPerEdit: number;
  /** A claimed Idempotency-Key older than this is taken to be left by a crashed process. */
  staleClaimMs: number;
}

/** The name of the lock that lets one replica at a time purge expired Idempotency-Keys. */
export const IDEMPOTENCY_PURGE_LOCK = 'tessera-idempotency-purge';

const EXTENSION: Record<OutputFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp', avif: 'avif', gif: 'gif', tiff: 'tiff' };

/**
 * prompt → plan → pixels → a new file. The result goes through the same store and commit path as
 * an upload; its lineage (source, prompt, plan) and the Idempotency-Key's answer are written in
 * the transaction that creates it, so a crash leaves all three or none.
 */
export class EditsService {
  private readonly files: FilesService;
  private readonly edits: EditsRepository;
  private readonly planner: Planner;
  private readonly limiter: WorkLimiter;
  private readonly limits: EditLimits;
  private readonly generative?: GenerativeEdits;
  /** Locates the background, the subject and the faces for region edits; absent or off: none is found. */
  private readonly segmenter?: Segmenter;
  constructor(
    files: FilesService,
    edits: EditsRepository,
    planner: Planner,
    limiter: WorkLimiter,
    limits: EditLimits,
    generative?: GenerativeEdits,
    segmenter?: Segmenter,
  ) {
    this.files = files;
    this.edits = edits;
    this.planner = planner;
    this.limiter = limiter;
    this.limits = limits;
    this.generative = generative;
    this.segmenter = segmenter;
  }

  /**
   * `planned`: the plan of this prompt, when the caller made it already (a second planning would
   * call a model planner again). `confineTo`: the caller's mask (the OpenAI form's), checked against
   * the plan and the source by the caller; the steps without a region are confined by it.
   */
  async edit(owner: Owner, request: EditRequest, idempotencyKey?: string, planned?: EditPlan, confineTo?: SoftMask): Promise<EditAnswer> {
    const accountId = accountIdOf(owner);
    const requestHash = hashRequest(request);
    if (idempotencyKey !== undefined) {
      const replay = await this.replay(accountId, idempotencyKey, requestHash);
      if (replay) return replay;
    }
    const space = await this.files.resolveSpace(owner, request.workspace_id);
    const source = await this.files.get(owner, request.file_id);
    const plan = planned ?? (await this.plan(request));
    const overlays = await Promise.all(plan.operations.flatMap((op) => (op.op === 'watermark' ? [this.files.get(owner, op.fileId)] : [])));

    const bytes = await this.readImage(source);
    if (request.dry_run) {
      // The plan and what it would write; the header is checked, no pixel is decoded, no mask is sought.
      const { format } = await inspectImage(bytes, this.limits.maxPixels).catch((error: unknown) => {
        throw asAppError(error);
      });
      const output = outputFormatOf(plan.operations, format);
      // Cheap by design (no model runs): the regions are named as not looked for.
      const regions = [...new Set(plan.operations.flatMap((op) => regionOfStep(op) ?? []))];
      return {
        name: resultName(request.name, source.name, output),
        mime_type: OUTPUT_MIME[output],
        source_file_id: source.id,
        workspace_id: space.id,
        operations: plan.operations,
        dry_run: true,
        ...(regions.length > 0 ? { regions_unchecked: regions } : {}),
      };
    }
    const overlayBytes = new Map(await Promise.all(overlays.map(async (file) => [file.id, await this.readImage(file)] as const)));
    const calls = generateSteps(plan).length;
    // Paid work: the key is claimed first, so a concurrent retry waits for this answer instead of
    // paying again, and the budget is taken before the first call.
    let claimed = false;
    if (calls > 0 && idempotencyKey !== undefined) {
      const replay = await this.claimOrReplay(accountId, idempotencyKey, requestHash);
      if (replay) return replay;
      claimed = true;
    }
    const day = new Date().toISOString().slice(0, 10);
    let unspent = 0;
    try {
      if (calls > 0) {
        await this.reserveBudget(accountId, day, calls);
        unspent = calls;
      }
      const rendered = await executePlan(bytes, plan, {
        render: {
          maxPixels: this.limits.maxPixels,
          timeoutSeconds: Math.ceil(this.limits.timeoutMs / 1000),
          loadImage: async (fileId) => overlayBytes.get(fileId)!,
          // Masks are of the source, cached by its blobId (one computation per source and region),
          // or, after a step that moved pixels, of the image then, cached by the blobId and the steps before.
          mask: this.segmenter && ((region, at) => this.segmenter!.mask({ source: at ? at.image : bytes, blobId: at ? `${source.blob_id}+${at.key}` : source.blob_id, region, maxPixels: this.limits.maxPixels })),
          confineTo,
        },
        imageWork: this.limiter,
        generative: this.generative,
        onProviderCall: () => unspent--,
      }).catch((error: unknown) => {
        throw asAppError(error);
      });
      const name = resultName(request.name, source.name, rendered.format);
      return await this.store(owner, request, plan, source, space.id, name, rendered, idempotencyKey, requestHash, claimed);
    } catch (error) {
      if (claimed) await this.edits.releaseClaim(accountId, idempotencyKey!);
      if (unspent > 0) await this.generative!.usage.release(accountId, day, unspent);
      throw error;
    }
  }

  /** The recorded answer of an edit made with this Idempotency-Key and request, if one was made; never waits, never edits. */
  async answered(owner: Owner, request: EditRequest, key: string): Promise<EditAnswer | undefined> {
    const row = await this.edits.findIdempotent(accountIdOf(owner), key);
    return row && row.response !== '' && row.request_hash === hashRequest(request) ? (JSON.parse(row.response) as EditAnswer) : undefined;
  }

  /** A hash of the request, to tell a retry from another request under the same key. */
  static hashOf(request: unknown): string {
    return hashRequest(request as EditRequest);
  }

  /** How a file was made, when it is the result of an edit: its source, prompt and plan. */
  async lineageOf(accountId: string, fileId: string): Promise<EditLineage | undefined> {
    const row = await this.edits.findLineage(accountId, fileId);
    if (!row) return undefined;
    return { sourceFileId: row.source_file_id, prompt: row.prompt, operations: (JSON.parse(row.plan) as EditPlan).operations };
  }

  /** The plan alone: no pixels read, nothing stored. */
  async plan(request: Pick<EditRequest, 'prompt' | 'output_format'>): Promise<EditPlan> {
    let plan: EditPlan;
    try {
      plan = await this.planner.plan(request.prompt);
      // Whichever planner made it (the rule planner stops at the cap itself; a model planner may not).
      const painted = generateSteps(plan);
      const maxCalls = this.generative?.maxCallsPerEdit;
      if (maxCalls !== undefined && painted.length > maxCalls) throw tooManyGenerateSteps(maxCalls, painted[maxCalls]!.instruction);
    } catch (error) {
      if (!(error instanceof PromptError)) throw error;
      throw new AppError(error.kind === 'generative' ? 'unsupported_edit' : 'prompt_not_understood', error.message, {
        details: { reason: error.reason, clause: error.clause, suggestions: error.suggestions },
      });
    }
    // Generative steps say who will paint them; without a provider there is no one.
    const operations = plan.operations.map((op) => {
      if (op.op !== 'generate') return op;
      if (!this.generative) {
        throw new AppError('unsupported_edit', `"${op.instruction}" needs a generative image model, and none is configured on this server`, { details: { reason: 'needs_model', clause: op.instruction, suggestions: [] } });
      }
      return { op: 'generate' as const, instruction: op.instruction, ...(op.region ? { region: op.region } : {}), provider: this.generative.provider.name, model: this.generative.provider.model };
    });
    // The body's output_format has the last word over the prompt's.
    return { operations: request.output_format ? [...operations, { op: 'format', format: request.output_format }] : operations };
  }

  private async store(
    owner: Owner,
    request: EditRequest,
    plan: EditPlan,
    source: StoredFile,
    spaceId: string,
    name: string,
    rendered: EditResult,
    idempotencyKey: string | undefined,
    requestHash: string,
    claimed: boolean,
  ): Promise<EditAnswer> {
    const accountId = accountIdOf(owner);
    const staged = await this.files.stage(Readable.from([rendered.data]), this.limits.maxResultBytes);
    let answer: EditAnswer | undefined;
    try {
      await this.files.commit(owner, spaceId, [{ staged, name, mimeType: rendered.mimeType }], async (trx, [row]) => {
        answer = {
          file_id: row!.id,
          name,
          mime_type: rendered.mimeType,
          source_file_id: source.id,
          workspace_id: spaceId,
          operations: plan.operations,
          dry_run: false,
          width: rendered.width,
          height: rendered.height,
          size_bytes: rendered.data.length,
          created_at: new Date(row!.created_at).toISOString(),
        };
        await this.edits.recordLineage(trx, { file_id: row!.id, account_id: accountId, source_file_id: source.id, prompt: request.prompt, plan: JSON.stringify(plan), created_at: row!.created_at });
        if (idempotencyKey !== undefined && claimed) {
          await this.edits.completeIdempotent(trx, accountId, idempotencyKey, JSON.stringify(answer));
        } else if (idempotencyKey !== undefined) {
          await this.edits.recordIdempotent(trx, { account_id: accountId, key: idempotencyKey, request_hash: requestHash, response: JSON.stringify(answer), created_at: row!.created_at });
        }
      });
    } catch (error) {
      // Another request with the same key committed first: this one is rolled back; answer as it did.
      if (idempotencyKey !== undefined && isUniqueViolation(error)) {
        const replay = await this.replay(accountId, idempotencyKey, requestHash);
        if (replay) return replay;
      }
      throw error;
    }
    return answer!;
  }

  private async replay(accountId: string, key: string, requestHash: string): Promise<EditAnswer | undefined> {
    for (;;) {
      const previous = await this.edits.findIdempotent(accountId, key);
      if (!previous) return undefined;
      // Past its time a key is forgotten, purged or not: the request is a new one.
      const expiredBefore = Date.now() - this.limits.idempotencyTtlMs;
      if (previous.response !== '' && previous.created_at < expiredBefore) {
        await this.edits.dropExpired(accountId, key, expiredBefore);
        return undefined;
      }
      if (previous.request_hash !== requestHash) {
        throw new AppError('conflict', `the Idempotency-Key "${key}" was already used with a different request; use a new key for a new edit`);
      }
      if (previous.response !== '') return JSON.parse(previous.response) as EditAnswer;
      // Claimed by a request still calling the provider: wait for its answer rather than pay twice.
      const staleBefore = Date.now() - (this.generative?.staleClaimMs ?? 0);
      if (previous.created_at < staleBefore) {
        await this.edits.releaseClaim(accountId, key, staleBefore);
        return undefined;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Claims the key for this request, or returns the answer of the request that holds it. */
  private async claimOrReplay(accountId: string, key: string, requestHash: string): Promise<EditAnswer | undefined> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const now = Date.now();
      await this.edits.dropExpired(accountId, key, now - this.limits.idempotencyTtlMs);
      if (await this.edits.claimIdempotent({ account_id: accountId, key, request_hash: requestHash, created_at: now })) return undefined;
      const replay = await this.replay(accountId, key, requestHash);
      if (replay) return replay;
      // The holder failed and let go: try to claim it ourselves.
    }
    throw new AppError('provider_unavailable', `another request with the Idempotency-Key "${key}" keeps failing; retry shortly`, { headers: { 'retry-after': '5' } });
  }

  /**
   * Deletes the Idempotency-Keys past their time to live, a bounded batch per statement (so no
   * statement holds locks for long, nor the event loop on SQLite), until none is left. Claims are
   * kept while their request may still be working. Answers how many went.
   */
  async purgeExpiredIdempotencyKeys(now = Date.now()): Promise<number> {
    const answeredBefore = now - this.limits.idempotencyTtlMs;
    const claimBefore = now - Math.max(this.limits.idempotencyTtlMs, this.generative?.staleClaimMs ?? 0);
    let purged = 0;
    for (;;) {
      const deleted = await this.edits.purgeExpired(answeredBefore, claimBefore, this.limits.idempotencyPurgeBatch);
      purged += deleted;
      if (deleted < this.limits.idempotencyPurgeBatch) return purged;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Takes the plan's provider calls from the account's daily budget, or refuses with 429. */
  private async reserveBudget(accountId: string, day: string, calls: number): Promise<void> {
    const { usage, dailyBudget } = this.generative!;
    if (await usage.reserve(accountId, day, calls, dailyBudget)) return;
    const midnight = Date.parse(`${day}T00:00:00.000Z`) + 86_400_000;
    const used = await usage.used(accountId, day);
    throw new AppError(
      'rate_limited',
      `the daily budget of generative edits is spent: ${used} of ${dailyBudget} provider calls per account per UTC day (TESSERA_GENERATIVE_DAILY_BUDGET) are used and this edit needs ${calls}; it renews at 00:00 UTC`,
      { headers: { 'retry-after': String(Math.max(1, Math.ceil((midnight - Date.now()) / 1000))) } },
    );
  }

  /** A stored file's bytes, for decoding: bounded, since sharp needs them whole. */
  private async readImage(file: StoredFile): Promise<Buffer> {
    if (file.size_bytes > this.limits.maxSourceBytes) {
      throw new AppError('payload_too_large', `${file.id} has ${file.size_bytes} bytes; images over ${this.limits.maxSourceBytes} bytes are not edited`);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of await this.files.open(file)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
}

function asAppError(error: unknown): unknown {
  if (error instanceof ProviderError) return providerError(error);
  // "no person was found in this image": said plainly, nothing stored.
  if (error instanceof RegionNotFoundError) {
    return new AppError('unsupported_edit', error.message, { details: { reason: error.reason === 'off' ? 'needs_region' : 'region_not_found', region: error.region } });
  }
  if (!(error instanceof ImageError)) return error;
  switch (error.kind) {
    case 'not_an_image':
      return new AppError('not_an_image', error.message);
    case 'too_many_pixels':
      return new AppError('payload_too_large', error.message);
    case 'unsupported_edit':
      return new AppError('unsupported_edit', error.message);
    case 'timeout':
      return new AppError('provider_unavailable', `${error.message}; try a smaller image or fewer operations`, { headers: { 'retry-after': '5' } });
  }
}

function providerError(error: ProviderError): AppError {
  switch (error.kind) {
    case 'refused':
      return new AppError('unsupported_edit', `the generative provider refused this edit: ${error.message}`, { details: { reason: 'content_policy', provider_message: error.message } });
    case 'unavailable':
      return new AppError('provider_unavailable', `${error.message}; nothing was stored, retry later`, { headers: { 'retry-after': String(error.retryAfterSeconds ?? 5) } });
    case 'malformed':
      return new AppError('provider_unavailable', `the generative provider's answer was unusable (${error.message}); nothing was stored, retry later`, { headers: { 'retry-after': '30' } });
  }
}

/** "cat.png" edited to webp → "cat-edited.webp"; a requested name keeps its stem, with the right extension. */
function resultName(requested: string | undefined, sourceName: string, format: OutputFormat): string {
  const base = requested !== undefined ? sanitizeFileName(requested).replace(/\.[A-Za-z0-9]{1,5}$/, '') : `${sourceName.replace(/\.[A-Za-z0-9]{1,5}$/, '')}-edited`;
  return `${base || 'edited'}.${EXTENSION[format]}`;
}

/** The same body in any key order is the same request. */
function hashRequest(request: EditRequest): string {
  const canonical = JSON.stringify(Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b))));
  return createHash('sha256').update(canonical).digest('base64url');
}
