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
    createdAt: isoTimestamp(file.created_at),
    metadata: { blobId: contentIdOf(file.blob_id), quiltId: file.quilt_id, quiltPatchId: file.quilt_patch_id },
    workspaceId: file.space_id,
  };
}

export function toSpace(space: SpaceRow) {
  return { id: space.id, name: space.name, createdAt: isoTimestamp(space.created_at), encryption: space.encryption };
}

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: from here on ISO 8601 needs a sign and six year digits. */
const FOUR_DIGIT_YEARS_END_MS = 253_402_300_800_000;
let cachedDay = Number.NaN;
let cachedDayPrefix = '';

/**
 * `new Date(ms).toISOString()`, without building a Date per row: the date part is kept for the
 * last day seen (a page of a list is newest first, so its rows share few days) and the time is
 * written from digits. `toISOString` was about 90% of a list's record building (bench/list-parts.ts).
 */
export function isoTimestamp(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= FOUR_DIGIT_YEARS_END_MS) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== cachedDay) {
    cachedDayPrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    cachedDay = day;
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${cachedDayPrefix}${two(hours)}:${two(minutes)}:${two(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
