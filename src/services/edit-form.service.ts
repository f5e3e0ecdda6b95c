import type { StoredFile } from '../db/repositories/files.repository.ts';
import { CallerMaskError, maskRefusal, readCallerMask, uprightSizeOf } from '../edits/masks/caller-mask.ts';
import type { SoftMask } from '../edits/masks/segmenter.ts';
import type { EditPlan, OutputFormat } from '../edits/plan.ts';
import type { StagedBlob } from '../storage/blob-store.ts';
import { AppError } from '../errors.ts';
import type { EditAnswer, EditsService } from './edits.service.ts';
import type { FilesService, IncomingFile } from './files.service.ts';
import type { Owner } from './owner.ts';

/** An uploaded image, staged, with its size as the renderer will see it (undefined: not a readable image). */
export interface FormImage extends IncomingFile {
  upright?: { width: number; height: number };
}

/** An edit sent as OpenAI's Images API form: the uploaded images, already staged. */
export interface EditForm {
  prompt: string;
  /** The Space the sources and results go to; undefined: the caller's default Space. */
  spaceId?: string;
  images: FormImage[];
  outputFormat?: OutputFormat;
  /** The `mask` part's bytes as sent: never stored, only read (see prepare). */
  mask?: Buffer;
}

/** The form's images stored as files, with the plan they will be edited by. */
export interface PreparedForm {
  plan: EditPlan;
  sources: StoredFile[];
  /** The caller's mask, decoded: weight 255 − its alpha. */
  mask?: SoftMask;
}

const maskError = (message: string) => new AppError('invalid_request', message, { details: { param: 'mask' } });

/**
 * The OpenAI Images API form of an edit (`multipart/form-data` on `POST /v1/images/edits`): the
 * uploaded images become files of the Space, and each is edited by the prompt exactly as the JSON
 * form edits a stored file. All or nothing: the prompt is planned before anything is stored (a
 * refusal stores nothing), and a failure of any image's edit deletes the sources and the results
 * made so far.
 */
export class EditFormService {
  private readonly files: FilesService;
  private readonly edits: EditsService;
  /** TESSERA_EDIT_MAX_PIXELS: also the most pixels a mask may have. */
  private readonly maxPixels: number;
  constructor(
    files: FilesService,
    edits: EditsService,
    maxPixels: number,
  ) {
    this.files = files;
    this.edits = edits;
    this.maxPixels = maxPixels;
  }

  /**
   * Stages an uploaded image as files.stage does, and reads its size from its header on the way
   * (a mask must match it before anything is stored). Its bytes are held while it streams, as an
   * edit holds a source; at most maxBytes.
   */
  async stageImage(stream: AsyncIterable<Buffer>, maxBytes: number): Promise<{ staged: StagedBlob; upright?: { width: number; height: number } }> {
    const chunks: Buffer[] = [];
    const staged = await this.files.stage(
      (async function* () {
        for await (const chunk of stream) {
          chunks.push(chunk);
          yield chunk;
        }
      })(),
      maxBytes,
    );
    return { staged, upright: await uprightSizeOf(Buffer.concat(chunks), this.maxPixels) };
  }

  /**
   * Plans the prompt and reads the mask, then stores the images (one quilt). A refused prompt or
   * mask stores nothing; the staged images are released either way.
   */
  async prepare(owner: Owner, form: EditForm): Promise<PreparedForm> {
    let plan: EditPlan;
    let mask: SoftMask | undefined;
    try {
      plan = await this.edits.plan({ prompt: form.prompt, output_format: form.outputFormat });
      if (form.mask) mask = await this.readMask(form.mask, plan, form.images);
    } catch (error) {
      await Promise.all(form.images.map((image) => image.staged.discard()));
      throw error;
    }
    const sources = await this.files.commit(owner, form.spaceId, form.images);
    return { plan, sources, mask };
  }

  /** The mask decoded, once it is known to fit each image and to confine each step of the plan. */
  private async readMask(bytes: Buffer, plan: EditPlan, images: readonly FormImage[]): Promise<SoftMask> {
    const mask = await readCallerMask(bytes, this.maxPixels).catch((error: unknown) => {
      throw error instanceof CallerMaskError ? maskError(error.message) : error;
    });
    for (const [i, { upright, name }] of images.entries()) {
      // An image that is not one is refused by its edit (not_an_image), as without a mask.
      if (upright && (upright.width !== mask.width || upright.height !== mask.height)) {
        throw maskError(`the mask is ${mask.width}×${mask.height} but image ${i + 1} ("${name}") is ${upright.width}×${upright.height} (after its EXIF orientation): send a mask of the image's size`);
      }
    }
    const refusal = maskRefusal(plan);
    if (refusal) {
      throw new AppError(refusal.reason === 'ambiguous' ? 'prompt_not_understood' : 'unsupported_edit', refusal.message, {
        details: { param: 'mask', reason: refusal.reason, clause: refusal.clause, suggestions: [] },
      });
    }
    return mask;
  }

  /** Edits each source in order; on any failure, deletes the sources and the results already made. */
  async run(owner: Owner, form: Pick<EditForm, 'prompt' | 'outputFormat'>, prepared: PreparedForm): Promise<EditAnswer[]> {
    const answers: EditAnswer[] = [];
    try {
      for (const source of prepared.sources) {
        answers.push(await this.edits.edit(owner, { prompt: form.prompt, workspace_id: source.space_id, file_id: source.id, output_format: form.outputFormat }, undefined, prepared.plan, prepared.mask));
      }
      return answers;
    } catch (error) {
      await this.discard(owner, [...answers.map((answer) => answer.file_id!), ...prepared.sources.map((source) => source.id)]);
      throw error;
    }
  }

  async edit(owner: Owner, form: EditForm): Promise<EditAnswer[]> {
    return this.run(owner, form, await this.prepare(owner, form));
  }

  /** The bytes of a result, for `b64_json`: an edit's result is held whole anyway (its pixels are bounded by TESSERA_EDIT_MAX_PIXELS). */
  async bytesOf(owner: Owner, fileId: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.files.open(await this.files.get(owner, fileId))) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** Deletes what a failed form made; a file already gone is fine. */
  async discard(owner: Owner, fileIds: readonly string[]): Promise<void> {
    for (const id of fileIds) await this.files.delete(owner, id).catch(() => {});
  }
}
