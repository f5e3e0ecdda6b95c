import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { EditJob } from '../services/edit-jobs.service.ts';
import type { EditAnswer } from '../services/edits.service.ts';
import { ownerOf } from './auth.ts';
import { originOf } from './routes/links.routes.ts';

/** One result in OpenAI's shape, with Tessera's ids beside it. */
export type ImagesApiDatum = { b64_json?: string; url?: string } & Omit<EditAnswer, 'dry_run'>;

export type ResponseFormat = 'b64_json' | 'url';

/** The answer of an edit in OpenAI's shape: `b64_json` (the bytes) or `url` (a signed link made now). */
export async function imagesApiAnswer(request: FastifyRequest, context: AppContext, answers: EditAnswer[], responseFormat: ResponseFormat) {
  const { editForm, links, config } = context;
  const owner = ownerOf(request);
  const data = await Promise.all(
    answers.map(async ({ dry_run: _dryRun, ...answer }): Promise<ImagesApiDatum> => {
      if (responseFormat === 'url') {
        const link = await links.create(owner, answer.file_id!, { expiresInSeconds: Math.min(config.editFormUrlExpiresSeconds, config.linkMaxExpiresSeconds) });
        return { url: `${config.publicUrl ?? originOf(request)}${link.pathAndQuery}`, ...answer };
      }
      return { b64_json: (await editForm.bytesOf(owner, answer.file_id!)).toString('base64'), ...answer };
    }),
  );
  const first = answers[0]!;
  return {
    created: Math.floor(Date.now() / 1000),
    data,
    output_format: first.mime_type.replace(/^image\//, ''),
    size: first.width && first.height ? `${first.width}x${first.height}` : undefined,
  };
}

/** `Prefer: respond-async` (RFC 7240), among other preferences or alone. */
export function prefersAsync(request: FastifyRequest): boolean {
  const prefer = request.headers.prefer;
  const values = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  return values.split(',').some((preference) => preference.split(';')[0]!.trim().toLowerCase() === 'respond-async');
}

/** The headers of a 202: where the job is read, and that the preference was applied. */
export function acceptedHeaders(jobId: string): Record<string, string> {
  return { location: `/v1/images/edits/${jobId}`, 'preference-applied': 'respond-async' };
}

/** A job as answered: a succeeded form job's result in OpenAI's shape (bytes or fresh links), a JSON job's as the JSON edit answers. */
export async function jobAnswer(request: FastifyRequest, context: AppContext, job: EditJob) {
  const { answers, responseFormat, kind: _kind, ...rest } = job;
  let result: object | undefined;
  if (answers) result = responseFormat ? await imagesApiAnswer(request, context, answers, responseFormat) : answers[0];
  return { ...rest, object: 'edit_job' as const, ...(result !== undefined ? { result } : {}) };
}
