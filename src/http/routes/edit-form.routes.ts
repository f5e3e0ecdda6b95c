import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import type { OutputFormat } from '../../edits/plan.ts';
import { REQUESTABLE_OUTPUT_FORMATS } from '../../edits/output-formats.ts';
import { AppError } from '../../errors.ts';
import type { EditForm, FormImage } from '../../services/edit-form.service.ts';
import { resolveMimeType, sanitizeFileName } from '../../services/file-names.ts';
import { ownerOf } from '../auth.ts';
import { sendImagesApiError } from '../error-handler.ts';
import { MAX_PROMPT_CHARS } from './edits.routes.ts';
import { acceptedHeaders, imagesApiAnswer, jobAnswer, prefersAsync } from '../edit-answers.ts';
import { acceptMultipart } from '../multipart.ts';

/**
 * A form field of OpenAI's Images API edit, and what Tessera does with it. `values`: the values
 * accepted (any other is 400 naming the field, with `why`); absent: any value, read as the route
 * says. `ignored`: accepted and not used, for the reason given (documented in docs/api.md).
 */
interface FormField {
  values?: readonly string[];
  why?: string;
  ignored?: string;
}

export const FORM_FIELDS: Record<string, FormField> = {
  prompt: {},
  workspace_id: {},
  n: { values: ['1'], why: "Tessera's edits are deterministic: n results would be n copies of one picture; send n=1 (or leave it out) and repeat the request for another" },
  size: { values: ['auto'], why: 'the result keeps the size the prompt gives it; say the size in the prompt ("resize to 1024x1024") and send size=auto or no size' },
  quality: { values: ['auto', 'high'], why: 'Tessera renders every edit at full quality; send quality=auto, high, or none' },
  background: { values: ['auto'], why: 'say what to do with the background in the prompt ("remove the background"); send background=auto or none' },
  output_format: { values: REQUESTABLE_OUTPUT_FORMATS },
  response_format: { values: ['b64_json', 'url'] },
  stream: { values: ['false'], why: 'the answer is not streamed; for a long edit send the header Prefer: respond-async and read the job' },
  model: { ignored: "the server's planner and generative provider decide" },
  user: { ignored: 'the caller is the API key' },
};

/** File parts: `image` (also `image[]`, as the SDKs name an array of them) and `mask` (see EditFormService.prepare). */
const IMAGE_PARTS = new Set(['image', 'image[]']);
const MASK_PART = 'mask';

/** The longest prompt in bytes (UTF-8 takes up to 4 bytes a character). */
const MAX_FIELD_BYTES = 4 * MAX_PROMPT_CHARS;

/** The form, read: the images staged (streamed to the store's staging), the fields checked. */
export interface ReadForm extends EditForm {
  responseFormat: 'b64_json' | 'url';
}

/**
 * Routes a request by its body's type: `multipart/form-data` to the OpenAI form's route, any
 * other to the route without this constraint (the JSON edit, which answers 415 for the rest).
 */
export function routeByContentType(app: FastifyInstance): void {
  if (app.hasConstraintStrategy('contentType')) return;
  const handlers = new Map<string, unknown>();
  app.addConstraintStrategy({
    name: 'contentType',
    mustMatchWhenDerived: false,
    storage: () => ({
      get: (type: string) => (handlers.get(type) ?? null) as never,
      set: (type: string, store: unknown) => void handlers.set(type, store),
    }),
    deriveConstraint: (request: { headers: Record<string, string | string[] | undefined> }) =>
      /^multipart\/form-data\b/i.test(String(request.headers['content-type'] ?? '')) ? 'multipart' : 'other',
  });
}

const formError = (param: string, message: string, code: 'invalid_request' | 'unsupported_edit' | 'payload_too_large' = 'invalid_request') =>
  new AppError(code, message, { details: { param } });

/**
 * Reads the multipart body with the upload's multipart reader: each image streams into staging
 * (at most TESSERA_MAX_FILE_BYTES and TESSERA_EDIT_MAX_SOURCE_BYTES each, and
 * TESSERA_EDIT_FORM_MAX_IMAGES of them); nothing is stored yet. On a refusal the staged images are
 * released.
 */
export async function readForm(request: FastifyRequest, context: AppContext, options: { async: boolean }): Promise<ReadForm> {
  const { config, editForm } = context;
  const fields = new Map<string, string>();
  const images: FormImage[] = [];
  let mask: Buffer | undefined;
  const maxImageBytes = Math.min(config.maxFileBytes, config.editMaxSourceBytes);
  const fieldCount = Object.keys(FORM_FIELDS).length;
  try {
    const parts = request.parts({
      limits: { fields: fieldCount, fieldSize: MAX_FIELD_BYTES, files: config.editFormMaxImages + 1, parts: fieldCount + config.editFormMaxImages + 1 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname === MASK_PART) {
          if (options.async) {
            // A job runs later, maybe on another replica, and the mask is not stored: refused rather than lost.
            throw formError('mask', 'a mask is not taken with Prefer: respond-async (a job would have to store it); send the request without the header, or name the part to edit in the prompt; nothing was stored', 'unsupported_edit');
          }
          if (mask) throw formError('mask', 'mask is sent twice');
          mask = await readPart(part.file, maxImageBytes);
          continue;
        }
        if (!IMAGE_PARTS.has(part.fieldname)) throw formError(part.fieldname, `unexpected file part "${part.fieldname}": send the picture as "image"`);
        if (images.length >= config.editFormMaxImages) {
          throw formError('image', `more than ${config.editFormMaxImages} images in one edit (TESSERA_EDIT_FORM_MAX_IMAGES); send them in several requests`, 'payload_too_large');
        }
        const { staged, upright } = await editForm.stageImage(part.file, maxImageBytes);
        const name = sanitizeFileName(part.filename, 'image');
        images.push({ staged, name, mimeType: resolveMimeType(part.mimetype, name), upright });
        continue;
      }
      const field = FORM_FIELDS[part.fieldname];
      if (!field) throw formError(part.fieldname, `unknown field "${part.fieldname}"; this form takes image, prompt, ${Object.keys(FORM_FIELDS).filter((f) => f !== 'prompt').join(', ')}`);
      if (part.valueTruncated) throw formError(part.fieldname, `${part.fieldname} is longer than ${MAX_FIELD_BYTES} bytes`);
      if (fields.has(part.fieldname)) throw formError(part.fieldname, `${part.fieldname} is sent twice`);
      const value = String(part.value);
      if (field.values && !field.values.includes(value)) {
        throw formError(part.fieldname, `${part.fieldname}=${JSON.stringify(value.slice(0, 100))} is not supported: ${field.why ?? `use one of ${field.values.join(', ')}`}`);
      }
      fields.set(part.fieldname, value);
    }
    const prompt = fields.get('prompt') ?? '';
    if (prompt.length === 0) throw formError('prompt', 'prompt is required: say what to do with the image');
    if (prompt.length > MAX_PROMPT_CHARS) throw formError('prompt', `prompt is longer than ${MAX_PROMPT_CHARS} characters`);
    if (images.length === 0) throw formError('image', 'no image in the request: send the picture as a file part named "image"');
    const workspace = fields.get('workspace_id');
    if (workspace !== undefined && (workspace.length === 0 || workspace.length > 64)) throw formError('workspace_id', 'workspace_id must be the id of one of your Spaces');
    return {
      prompt,
      images,
      spaceId: workspace,
      outputFormat: fields.get('output_format') as OutputFormat | undefined,
      mask,
      responseFormat: (fields.get('response_format') ?? 'b64_json') as ReadForm['responseFormat'],
    };
  } catch (error) {
    await Promise.all(images.map((image) => image.staged.discard()));
    throw error;
  }
}

/** A file part's bytes, at most maxBytes (the mask: read whole, never stored). */
async function readPart(stream: AsyncIterable<Buffer> & { truncated?: boolean }, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > maxBytes) throw formError('mask', `the mask is over ${maxBytes} bytes (TESSERA_MAX_FILE_BYTES, TESSERA_EDIT_MAX_SOURCE_BYTES)`, 'payload_too_large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export const editFormRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = async (app, { context }) => {
  const { editForm, editJobs, config } = context;
  await acceptMultipart(app, config);

  app.post(
    '/v1/images/edits',
    {
      constraints: { contentType: 'multipart' },
      config: { scope: 'write' },
      // Described on the JSON route's entry of the OpenAPI document (openapi.ts).
      schema: { hide: true },
      errorHandler: (error, request, reply) => sendImagesApiError(error, request, reply, config),
    },
    async (request, reply) => {
      const owner = ownerOf(request);
      if (request.headers['idempotency-key'] !== undefined) {
        // Its images arrive anew with every retry, so a retry is not recognisable as one: refused
        // rather than ignored, since the caller counts on it.
        throw formError('Idempotency-Key', 'Idempotency-Key is honoured on the JSON form of this route (upload the image first, then edit it by file_id); the OpenAI form takes none');
      }
      const form = await readForm(request, context, { async: prefersAsync(request) });
      if (prefersAsync(request)) {
        const job = await editJobs.submitForm(owner, form);
        return reply.status(202).headers(acceptedHeaders(job.id)).send(await jobAnswer(request, context, job));
      }
      return imagesApiAnswer(request, context, await editForm.edit(owner, form), form.responseFormat);
    },
  );
};
