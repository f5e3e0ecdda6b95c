import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { isUniqueViolation } from '../db/database.ts';
import type { EditsRepository } from '../db/repositories/edits.repository.ts';
import type { StoredFile } from '../db/repositories/files.repository.ts';
import type { WorkLimiter } from '../edits/limiter.ts';
import type { EditOperation, EditPlan, OutputFormat } from '../edits/plan.ts';
import { PromptError, type Planner } from '../edits/planner/rule-planner.ts';
import { ImageError, inspectImage, OUTPUT_MIME, outputFormatOf, renderEdits, type EditResult } from '../edits/render/index.ts';
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

const EXTENSION: Record<OutputFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp', avif: 'avif', gif: 'gif', tiff: 'tiff' };

/**
 * prompt → plan → pixels → a new file. The result goes through the same store and commit path as
 * an upload; its lineage (source, prompt, plan) and the Idempotency-Key's answer are written in
 * the transaction that creates it, so a crash leaves all three or none.
 */
export class EditsService {
  constructor(
    private readonly files: FilesService,
    private readonly edits: EditsRepository,
    private readonly planner: Planner,
    private readonly limiter: WorkLimiter,
    private readonly limits: EditLimits,
  ) {}

  async edit(owner: Owner, request: EditRequest, idempotencyKey?: string): Promise<EditAnswer> {
    const accountId = accountIdOf(owner);
    const requestHash = hashRequest(request);
    if (idempotencyKey !== undefined) {
      const replay = await this.replay(accountId, idempotencyKey, requestHash);
      if (replay) return replay;
    }
    const space = await this.files.resolveSpace(owner, request.workspace_id);
    const source = await this.files.get(owner, request.file_id);
    const plan = await this.plan(request);
    const overlays = await Promise.all(plan.operations.flatMap((op) => (op.op === 'watermark' ? [this.files.get(owner, op.fileId)] : [])));

    const bytes = await this.readImage(source);
    if (request.dry_run) {
      // The plan and what it would write; the header is checked, no pixel is decoded.
      const { format } = await inspectImage(bytes, this.limits.maxPixels).catch((error: unknown) => {
        throw asAppError(error);
      });
      const output = outputFormatOf(plan.operations, format);
      return { name: resultName(request.name, source.name, output), mime_type: OUTPUT_MIME[output], source_file_id: source.id, workspace_id: space.id, operations: plan.operations, dry_run: true };
    }
    const overlayBytes = new Map(await Promise.all(overlays.map(async (file) => [file.id, await this.readImage(file)] as const)));
    const rendered = await this.limiter.run(() =>
      renderEdits(bytes, plan, {
        maxPixels: this.limits.maxPixels,
        timeoutSeconds: Math.ceil(this.limits.timeoutMs / 1000),
        loadImage: async (fileId) => overlayBytes.get(fileId)!,
      }).catch((error: unknown) => {
        throw asAppError(error);
      }),
    );
    const name = resultName(request.name, source.name, rendered.format);
    return this.store(owner, request, plan, source, space.id, name, rendered, idempotencyKey, requestHash);
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
    } catch (error) {
      if (!(error instanceof PromptError)) throw error;
      throw new AppError(error.kind === 'generative' ? 'unsupported_edit' : 'prompt_not_understood', error.message, {
        details: { clause: error.clause, suggestions: error.suggestions },
      });
    }
    // The body's output_format has the last word over the prompt's.
    return request.output_format ? { operations: [...plan.operations, { op: 'format', format: request.output_format }] } : plan;
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
        if (idempotencyKey !== undefined) {
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
    const previous = await this.edits.findIdempotent(accountId, key);
    if (!previous || previous.created_at < Date.now() - this.limits.idempotencyTtlMs) return undefined;
    if (previous.request_hash !== requestHash) {
      throw new AppError('conflict', `the Idempotency-Key "${key}" was already used with a different request; use a new key for a new edit`);
    }
    return JSON.parse(previous.response) as EditAnswer;
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
