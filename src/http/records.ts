import type { StoredFile } from '../db/repositories/files.repository.ts';
import { contentIdOf } from '../db/repositories/blobs.repository.ts';
import type { SpaceRow } from '../db/schema.ts';

/** The wire form of a file (camelCase, size as a decimal string), as the seed fixes it. */
export function toFileRecord(file: StoredFile) {
  return {
    fileId: file.id,
    sizeBytes: String(file.size_bytes),
    mimeType: file.mime_type,
    name: file.name,
    createdAt: new Date(file.created_at).toISOString(),
    metadata: { blobId: contentIdOf(file.blob_id), quiltId: file.quilt_id, quiltPatchId: file.quilt_patch_id },
    workspaceId: file.space_id,
  };
}

export function toSpace(space: SpaceRow) {
  return { id: space.id, name: space.name, createdAt: new Date(space.created_at).toISOString(), encryption: space.encryption };
}
