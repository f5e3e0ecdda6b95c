import { Type, type Static } from 'typebox';
import { SPACE_ENCRYPTIONS } from '../db/schema.ts';
import { ERROR_REASONS, ERROR_STATUS } from '../errors.ts';

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.Union(Object.keys(ERROR_STATUS).map((code) => Type.Literal(code))),
      message: Type.String(),
      reason: Type.Optional(
        Type.Union(ERROR_REASONS.map((reason) => Type.Literal(reason)), {
          description: 'Why a 422 edit was refused (`prompt_not_understood`, `unsupported_edit`): see the table of refusal reasons in docs/api.md.',
        }),
      ),
      clause: Type.Optional(Type.String({ description: 'The part of the prompt a refusal is about, as written.' })),
    }, { additionalProperties: true }),
  },
  { $id: 'ErrorBody', description: 'Every non-2xx answer has this shape.' },
);

export const FileMetadata = Type.Object(
  {
    blobId: Type.String({ description: 'Content-derived id of the bytes: base64url SHA-256. Same bytes, same id.' }),
    quiltId: Type.String({ description: 'The quilt (immutable pack of blobs) holding the bytes.' }),
    quiltPatchId: Type.String({ description: 'Locator of the bytes inside the quilt: enough to read them without the database.' }),
  },
  { $id: 'FileMetadata' },
);

export const FileRecord = Type.Object(
  {
    fileId: Type.String({ examples: ['file_01JDFX4Q3M9Z7K8R2T5V6W7X8Y'] }),
    sizeBytes: Type.String({ pattern: '^[0-9]+$', description: 'Size in bytes, as a decimal string.' }),
    mimeType: Type.String(),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time', description: 'RFC 3339 UTC with milliseconds.' }),
    metadata: Type.Ref('FileMetadata'),
    workspaceId: Type.String({ description: 'The Space holding the file.' }),
    edit: Type.Optional(
      Type.Object(
        {
          sourceFileId: Type.String({ description: 'The file the edit started from (it may since have been deleted).' }),
          prompt: Type.String(),
          operations: Type.Array(Type.Object({ op: Type.String() }, { additionalProperties: true }), { description: 'The plan that was applied, in order.' }),
        },
        { description: 'Only on GET of one file, and only when the file is the result of an edit.' },
      ),
    ),
  },
  { $id: 'FileRecord' },
);
export type FileRecordBody = Static<typeof FileRecord>;

export const SpaceEncryptionField = Type.Union(
  SPACE_ENCRYPTIONS.map((value) => Type.Literal(value)),
  {
    description:
      'What happens to the bytes of files stored in the Space from now on when they leave for a public network (the Walrus engine): `sealed` (the default) encrypts them, so the network holds only ciphertext; `none` publishes them as they are, so any Walrus aggregator serves a file by its `quiltPatchId` to anyone who has it. Other engines keep and report the choice and store bytes the same either way.',
  },
);

export const Space = Type.Object(
  {
    id: Type.String({ examples: ['spc_01JDFX4Q3M9Z7K8R2T5V6W7X8Y'] }),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    encryption: SpaceEncryptionField,
  },
  { $id: 'Space' },
);

/** Shared schemas registered with addSchema, so the OpenAPI document names them once. */
export const sharedSchemas = [ErrorBody, FileMetadata, FileRecord, Space];

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, Type.Ref('ErrorBody')]));

export const FileIdParams = Type.Object({ fileId: Type.String({ minLength: 1, maxLength: 64 }) });
export const SpaceIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
