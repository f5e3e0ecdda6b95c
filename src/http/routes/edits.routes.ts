import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { servedCatalogue } from '../../edits/catalogue.ts';
import { REQUESTABLE_OUTPUT_FORMATS } from '../../edits/output-formats.ts';
import { AppError } from '../../errors.ts';
import { ownerOf } from '../auth.ts';
import { acceptedHeaders, jobAnswer, prefersAsync } from '../edit-answers.ts';
import { errorResponses } from '../schemas.ts';

/** Fixed by the contract. */
export const MAX_PROMPT_CHARS = 4000;

const Operation = Type.Object({ op: Type.String() }, { additionalProperties: true, description: 'One step of the plan; see GET /v1/images/operations.' });

const EditBody = Type.Object(
  {
    prompt: Type.String({ minLength: 1, maxLength: MAX_PROMPT_CHARS, description: 'What to do, in plain language.', examples: ['rotate 90 degrees, make it black and white and add a red 10px border'] }),
    workspace_id: Type.String({ minLength: 1, maxLength: 64, description: 'The Space the result is stored in.' }),
    file_id: Type.String({ minLength: 1, maxLength: 64, description: 'The source image (any image file of yours).' }),
    output_format: Type.Optional(Type.Union(REQUESTABLE_OUTPUT_FORMATS.map((format) => Type.Literal(format)), { description: 'Overrides the format; default: the source\'s, or what the prompt says.' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Name of the result; its extension follows the output format.' })),
    dry_run: Type.Optional(Type.Boolean({ description: 'Return the plan and the result\'s name and type; store nothing.' })),
  },
  { additionalProperties: false },
);

const EditAnswer = Type.Object({
  file_id: Type.Optional(Type.String({ description: 'The new file (absent on a dry run).' })),
  name: Type.String(),
  mime_type: Type.String(),
  source_file_id: Type.String(),
  workspace_id: Type.String(),
  operations: Type.Array(Operation, { description: 'The plan that was (or would be) applied, in order.' }),
  dry_run: Type.Boolean(),
  regions_unchecked: Type.Optional(
    Type.Array(Type.Union([Type.Literal('background'), Type.Literal('subject'), Type.Literal('face')]), {
      description: 'On a dry run whose plan edits regions: they were not looked for (a dry run plans only), so the edit may still be 422 region_not_found.',
    }),
  ),
  width: Type.Optional(Type.Integer()),
  height: Type.Optional(Type.Integer()),
  size_bytes: Type.Optional(Type.Integer()),
  created_at: Type.Optional(Type.String({ format: 'date-time' })),
});

const EditJob = Type.Object(
  {
    id: Type.String({ description: 'edit_…' }),
    object: Type.Literal('edit_job'),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')]),
    attempts: Type.Integer({ description: 'Runs begun: more than 1 after a provider outage or a runner that stopped.' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    finished_at: Type.Optional(Type.String({ format: 'date-time' })),
    result: Type.Optional(Type.Object({}, { additionalProperties: true, description: "Succeeded: the answer the edit would have given at once (the JSON edit's, or OpenAI's `{created, data}` for the form)." })),
    error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: true, description: 'Failed: the error the edit would have answered.' })),
  },
  { description: 'An edit answered later (Prefer: respond-async).' },
);

export const editsRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = async (app, { context }) => {
  const { edits } = context;
  const catalogue = servedCatalogue({ generative: Boolean(context.config.generative) });

  app.post(
    '/v1/images/edits',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['images'],
        summary: 'Edit an image with a plain-language prompt',
        description:
          'Plans the prompt into operations (see GET /v1/images/operations), applies them in the order given and stores the result as a new file in `workspace_id`. ' +
          'A clause that maps to no operation is 422 `prompt_not_understood`, with the `reason` (missing_parameter, question, statement, negation, ambiguous, limit, not_understood), the `clause` and suggestions; nothing is stored then. ' +
          'With `Idempotency-Key`, a retry with the same body returns the first answer and creates nothing; the same key with another body is 409. ' +
          'A clause that edits content ("remove the people in the background") is a `generate` step done by the generative provider when one is configured ' +
          '(else 422 `unsupported_edit`, `reason` needs_region for an edit of the background, the subject or the faces, else needs_model): over the account\'s daily budget of provider calls it is 429 `rate_limited`; a provider outage, timeout or unusable answer is 503 `provider_unavailable` with Retry-After; ' +
          'a refusal by the provider\'s content policy is 422 `unsupported_edit` with `reason` content_policy and its words in `provider_message`. A retry with the same `Idempotency-Key`, concurrent or later, never calls the provider again.',
        headers: Type.Object({
          'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
          prefer: Type.Optional(Type.String({ maxLength: 200, description: '`respond-async`: answer 202 with an edit job at once (Location: its URL) and run the edit in the background.' })),
        }),
        body: EditBody,
        response: { 200: EditAnswer, 202: EditJob, ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429, 503) },
      },
      // A body that is not JSON is 415 before anything looks at its fields.
      preValidation: async (request) => {
        const type = request.headers['content-type'] ?? '';
        if (!/^application\/json\b/i.test(type)) throw new AppError('unsupported_media_type', "send the edit request as application/json (or as multipart/form-data, OpenAI's Images API form)");
      },
    },
    async (request, reply) => {
      // A dry run stores nothing and calls no provider: answered at once whatever the preference.
      if (prefersAsync(request) && !request.body.dry_run) {
        const job = await context.editJobs.submitJson(ownerOf(request), request.body, request.headers['idempotency-key']);
        return reply.status(202).headers(acceptedHeaders(job.id)).send(await jobAnswer(request, context, job));
      }
      return edits.edit(ownerOf(request), request.body, request.headers['idempotency-key']);
    },
  );

  app.get(
    '/v1/images/edits/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['images'],
        summary: 'Read an edit job',
        description:
          'The job a `Prefer: respond-async` edit answered with (202). `status` is queued, running, succeeded (with `result`) or failed (with `error`). ' +
          'Jobs are kept TESSERA_EDIT_JOB_TTL_SECONDS after they were made, then forgotten (404); their result files stay.',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: EditJob, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => jobAnswer(request, context, await context.editJobs.get(ownerOf(request), request.params.id)),
  );

  app.get(
    '/v1/images/operations',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['images'],
        summary: 'The edits the server can perform, with example phrasings',
        response: {
          200: Type.Object({
            operations: Type.Array(
              Type.Object({
                op: Type.String(),
                group: Type.String(),
                summary: Type.String(),
                parameters: Type.Record(Type.String(), Type.String()),
                examples: Type.Array(Type.String()),
              }),
            ),
          }),
          ...errorResponses(401, 429),
        },
      },
    },
    async () => ({ operations: catalogue }),
  );
};
