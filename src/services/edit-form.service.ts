import type { StoredFile } from '../db/repositories/files.repository.ts';
import type { EditPlan, OutputFormat } from '../edits/plan.ts';
import type { EditAnswer, EditsService } from './edits.service.ts';
import type { FilesService, IncomingFile } from './files.service.ts';
import type { Owner } from './owner.ts';

/** An edit sent as OpenAI's Images API form: the uploaded images, already staged. */
export interface EditForm {
  prompt: string;
  /** The Space the sources and results go to; undefined: the caller's default Space. */
  spaceId?: string;
  images: IncomingFile[];
  outputFormat?: OutputFormat;
}

/** The form's images stored as files, with the plan they will be edited by. */
export interface PreparedForm {
  plan: EditPlan;
  sources: StoredFile[];
}

/**
 * The OpenAI Images API form of an edit (`multipart/form-data` on `POST /v1/images/edits`): the
 * uploaded images become files of the Space, and each is edited by the prompt exactly as the JSON
 * form edits a stored file. All or nothing: the prompt is planned before anything is stored (a
 * refusal stores nothing), and a failure of any image's edit deletes the sources and the results
 * made so far.
 */
export class EditFormService {
  constructor(
    private readonly files: FilesService,
    private readonly edits: EditsService,
  ) {}

  /** Plans the prompt, then stores the images (one quilt). The staged images are released either way. */
  async prepare(owner: Owner, form: EditForm): Promise<PreparedForm> {
    let plan: EditPlan;
    try {
      plan = await this.edits.plan({ prompt: form.prompt, output_format: form.outputFormat });
    } catch (error) {
      await Promise.all(form.images.map((image) => image.staged.discard()));
      throw error;
    }
    const sources = await this.files.commit(owner, form.spaceId, form.images);
    return { plan, sources };
  }

  /** Edits each source in order; on any failure, deletes the sources and the results already made. */
  async run(owner: Owner, form: Pick<EditForm, 'prompt' | 'outputFormat'>, prepared: PreparedForm): Promise<EditAnswer[]> {
    const answers: EditAnswer[] = [];
    try {
      for (const source of prepared.sources) {
        answers.push(await this.edits.edit(owner, { prompt: form.prompt, workspace_id: source.space_id, file_id: source.id, output_format: form.outputFormat }, undefined, prepared.plan));
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
