import { contentIdOf, type BlobsRepository } from '../db/repositories/blobs.repository.ts';
import type { BlobLocation, BlobStore, StagedBlob } from '../storage/blob-store.ts';
import type { QuiltCatalog } from '../storage/quilt-catalog.ts';
import { decodePatchId, type PatchEntry } from '../storage/quilt-format.ts';

export interface VerifyReport {
  quilts: number;
  patches: number;
  bytesChecked: number;
  blobs: number;
  files: number;
  /** Data at risk: rows whose bytes are missing or wrong, quilts or patches that fail their checks. */
  problems: string[];
  /** Garbage: quilts no row points at (older than the grace period), and dead patches in live quilts. */
  unreferencedQuilts: number;
  unreferencedPatches: number;
  reclaimableBytes: number;
  /** Quilts younger than the grace period that no row points at yet: uploads in flight. */
  inFlightQuilts: number;
  tempFiles: number;
  repaired: string[];
}

export interface GcReport {
  quiltsExamined: number;
  quiltsRewritten: number;
  quiltsRemoved: number;
  blobsMoved: number;
  bytesReclaimed: number;
  skipped: string[];
}

export interface MaintenanceOptions {
  /** Quilts and temp files younger than this may belong to an upload in flight: never touched. */
  graceMs: number;
}

interface QuiltState {
  patches: Map<string, PatchState>;
  modifiedAt: number;
  sizeBytes: number;
}

interface PatchState {
  entry: PatchEntry;
  intact: boolean;
  referenced: boolean;
}

const ROW_PAGE = 1000;
/** Files named in a problem about one blob (a blob of many files says "and more"). */
const FILES_NAMED = 3;

/** The name of the lock that lets one process at a time collect garbage (background or `tessera gc`). */
export const GC_LOCK = 'tessera-gc';

/**
 * `tessera verify` and `tessera gc`: checks every byte against its blobId and the database against
 * the quilts both ways, and rewrites quilts that are mostly dead. Safe while the server runs: a
 * quilt is only removed once no row points at it, and rows move to a new quilt only after it is
 * durable, so a crash at any step leaves at worst an unreferenced quilt for the next run.
 */
export class StorageMaintenance {
  private readonly blobs: BlobsRepository;
  private readonly store: BlobStore;
  /** The engine's quilts: files in a directory, or objects in a bucket. */
  private readonly directory: QuiltCatalog;
  private readonly options: MaintenanceOptions;
  constructor(
    blobs: BlobsRepository,
    store: BlobStore,
    directory: QuiltCatalog,
    options: MaintenanceOptions,
  ) {
    this.blobs = blobs;
    this.store = store;
    this.directory = directory;
    this.options = options;
  }

  /**
   * Walks the quilts one at a time, each checked against the rows that point into it, then the
   * quilts the rows name, a page at a time: memory holds one quilt's index and one page, however
   * many files there are.
   */
  async verify({ repair = false }: { repair?: boolean } = {}): Promise<VerifyReport> {
    const report: VerifyReport = { quilts: 0, patches: 0, bytesChecked: 0, blobs: 0, files: 0, problems: [], unreferencedQuilts: 0, unreferencedPatches: 0, reclaimableBytes: 0, inFlightQuilts: 0, tempFiles: 0, repaired: [] };
    const started = Date.now();
    const cutoff = started - this.options.graceMs;
    // Quilts written since the walk began may be met twice: those are remembered (few), not all.
    const checkedSinceStart = new Set<string>();
    for await (const quilt of this.directory.quilts()) {
      report.quilts++;
      await this.verifyQuilt(quilt.quiltId, quilt.modifiedAt, quilt.sizeBytes, cutoff, report);
      if (quilt.modifiedAt >= started) checkedSinceStart.add(quilt.quiltId);
    }

    // Rows whose quilt the walk did not meet: missing, or written after the walk passed by.
    for (let after = ''; ; ) {
      const quiltIds = await this.blobs.quiltIdsAfter(after, ROW_PAGE);
      if (quiltIds.length === 0) break;
      after = quiltIds[quiltIds.length - 1]!;
      for (const quiltId of quiltIds) {
        if (checkedSinceStart.has(quiltId)) continue;
        if (this.directory.checkBlob) {
          // Quilts that cannot be listed nor read whole (Walrus): each row's patch is read back and checked.
          report.quilts++;
          for (const row of await this.blobs.inQuilt(quiltId)) {
            const problem = await this.directory.checkBlob(row);
            if (!problem) {
              report.patches++;
              report.bytesChecked += row.size_bytes;
            } else if (await this.stillPointsAt(row.blob_id, row.quilt_patch_id)) report.problems.push(`${await this.describeBlob(row)}: ${problem}`);
          }
          continue;
        }
        const file = await this.directory.stat(quiltId);
        if (file && file.modifiedAt < started) continue; // walked above
        if (file) {
          report.quilts++;
          checkedSinceStart.add(quiltId);
          await this.verifyQuilt(quiltId, file.modifiedAt, file.sizeBytes, cutoff, report);
          continue;
        }
        for (const row of await this.blobs.inQuilt(quiltId)) {
          // A row may have been deleted or moved since it was read: only a problem if it still stands.
          if (await this.stillPointsAt(row.blob_id, row.quilt_patch_id)) report.problems.push(`blob ${contentIdOf(row.blob_id)}: its quilt ${quiltId} is missing`);
        }
      }
    }
    report.blobs = await this.blobs.count();
    report.files = await this.blobs.fileCount();

    const temps = await this.directory.tempFiles();
    report.tempFiles = temps.length;
    if (repair) {
      for (const temp of temps.filter((t) => t.modifiedAt <= cutoff)) {
        await this.directory.removeTemp(temp.name);
        report.repaired.push(`removed the stale temp file ${temp.name} (${temp.sizeBytes} bytes)`);
      }
    }
    return report;
  }

  /** One quilt: every patch hashed, every row that points into it checked, its garbage counted. */
  private async verifyQuilt(quiltId: string, modifiedAt: number, sizeBytes: number, cutoff: number, report: VerifyReport): Promise<void> {
    const quilt = await this.checkQuilt(quiltId, modifiedAt, sizeBytes, report);
    if (!quilt) return;
    for (const row of await this.blobs.inQuilt(quiltId)) {
      const problem = this.checkRow(row, quiltId, quilt);
      if (problem && (await this.stillPointsAt(row.blob_id, row.quilt_patch_id))) report.problems.push(problem);
    }
    const dead = [...quilt.patches.values()].filter((p) => !p.referenced);
    if (dead.length === quilt.patches.size && quilt.patches.size > 0) {
      if (quilt.modifiedAt > cutoff) report.inFlightQuilts++;
      else {
        report.unreferencedQuilts++;
        report.reclaimableBytes += quilt.sizeBytes;
      }
    } else {
      report.unreferencedPatches += dead.length;
      report.reclaimableBytes += dead.reduce((sum, p) => sum + p.entry.length, 0);
    }
  }

  /** Rewrites quilts whose live share is under `threshold` and removes quilts nothing points at. */
  async gc({ threshold, dryRun = false, onQuilt }: { threshold: number; dryRun?: boolean; onQuilt?: (line: string) => void }): Promise<GcReport> {
    const report: GcReport = { quiltsExamined: 0, quiltsRewritten: 0, quiltsRemoved: 0, blobsMoved: 0, bytesReclaimed: 0, skipped: [] };
    const cutoff = Date.now() - this.options.graceMs;
    for await (const quilt of this.directory.quilts()) {
      if (quilt.modifiedAt > cutoff) continue;
      report.quiltsExamined++;
      let entries: PatchEntry[];
      try {
        entries = await this.directory.index(quilt.quiltId);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') report.skipped.push(`quilt ${quilt.quiltId}: ${(error as Error).message}`);
        continue;
      }
      const total = entries.reduce((sum, e) => sum + e.length, 0);
      const alive = await this.blobs.liveIn(quilt.quiltId);
      if (alive.blobs === 0) {
        if (await this.blobs.referenced(quilt.quiltId)) continue; // a row arrived since the count
        if (!dryRun) await this.directory.remove(quilt.quiltId);
        report.quiltsRemoved++;
        report.bytesReclaimed += quilt.sizeBytes;
        onQuilt?.(`removed ${quilt.quiltId} (nothing pointed at it)`);
      } else if (total > 0 && alive.bytes / total < threshold) {
        const moved = dryRun ? alive.blobs : await this.rewrite(quilt.quiltId, report);
        if (moved === undefined) continue;
        report.quiltsRewritten++;
        report.blobsMoved += moved;
        report.bytesReclaimed += total - alive.bytes;
        onQuilt?.(`rewrote ${quilt.quiltId}: ${moved} live of ${entries.length} patches moved`);
      }
    }
    return report;
  }

  /** Copies the live patches into a new quilt, moves their rows, then removes the old quilt. */
  private async rewrite(quiltId: string, report: GcReport): Promise<number | undefined> {
    const rows = await this.blobs.inQuilt(quiltId);
    const staged: StagedBlob[] = [];
    try {
      for (const row of rows) {
        const copy = await this.store.stage(await this.store.read(row.quilt_patch_id), { maxBytes: Number.MAX_SAFE_INTEGER });
        staged.push(copy);
        if (copy.blobId !== contentIdOf(row.blob_id)) {
          report.skipped.push(`quilt ${quiltId}: blob ${row.blob_id} reads back as ${copy.blobId}; left in place (run tessera verify)`);
          return undefined;
        }
      }
      const locations: BlobLocation[] = await this.store.persist(staged);
      const moved = await this.blobs.move(
        quiltId,
        locations.map((l, i) => ({ blobId: rows[i]!.blob_id, quiltId: l.quiltId, quiltPatchId: l.quiltPatchId })),
      );
      if (!(await this.blobs.referenced(quiltId))) await this.directory.remove(quiltId);
      return moved;
    } finally {
      await Promise.all(staged.map((s) => s.discard()));
    }
  }

  /** Reads a quilt's index and hashes every patch; undefined if it vanished or is unreadable (a problem). */
  private async checkQuilt(quiltId: string, modifiedAt: number, sizeBytes: number, report: VerifyReport): Promise<QuiltState | undefined> {
    let entries: PatchEntry[];
    try {
      entries = await this.directory.index(quiltId);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // removed meanwhile (a delete or gc)
      report.problems.push(`quilt ${quiltId} is unreadable: ${(error as Error).message}`);
      return undefined;
    }
    const patches = new Map<string, PatchState>();
    let hashes: Buffer[];
    try {
      hashes = await this.directory.hashPatches(quiltId, entries);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    for (const [i, entry] of entries.entries()) {
      const intact = hashes[i]!.equals(entry.hash);
      if (!intact) report.problems.push(`quilt ${quiltId}: the patch at ${entry.offset} (${entry.length} bytes) does not match its hash`);
      patches.set(`${entry.offset}:${entry.length}`, { entry, intact, referenced: false });
      report.patches++;
      report.bytesChecked += entry.length;
    }
    return { patches, modifiedAt, sizeBytes };
  }

  private checkRow(row: { blob_id: string; quilt_id: string; quilt_patch_id: string; size_bytes: number }, quiltId: string, quilt: QuiltState): string | undefined {
    const blob = contentIdOf(row.blob_id);
    const locator = decodePatchId(row.quilt_patch_id);
    if (!locator || locator.quiltId !== row.quilt_id) return `blob ${blob}: its patch id does not name its quilt ${row.quilt_id}`;
    if (locator.quiltId !== quiltId) return `blob ${blob}: its quilt ${locator.quiltId} is missing`;
    const patch = quilt.patches.get(`${locator.offset}:${locator.length}`);
    if (!patch) return `blob ${blob}: quilt ${locator.quiltId} has no patch at ${locator.offset} (${locator.length} bytes)`;
    patch.referenced = true;
    if (patch.entry.hash.toString('base64url') !== blob) return `blob ${blob}: quilt ${locator.quiltId} holds other content at ${locator.offset}`;
    if (!patch.intact) return `blob ${blob}: its bytes in quilt ${locator.quiltId} are corrupt`;
    if (locator.length !== row.size_bytes) return `blob ${blob}: recorded as ${row.size_bytes} bytes, stored as ${locator.length}`;
    return undefined;
  }

  /**
   * A blob as its owner knows it: the files that hold it and the ids the API shows them with
   * (never the row's key, which holds the account id).
   */
  private async describeBlob(row: { blob_id: string; quilt_patch_id: string }): Promise<string> {
    const files = await this.blobs.fileIdsOf(row.blob_id, FILES_NAMED + 1);
    const named = files.length === 0 ? 'no file' : `file ${files.slice(0, FILES_NAMED).join(', ')}${files.length > FILES_NAMED ? ' and more' : ''}`;
    return `${named} (blobId ${contentIdOf(row.blob_id)}, quiltPatchId ${row.quilt_patch_id})`;
  }

  private async stillPointsAt(blobId: string, quiltPatchId: string): Promise<boolean> {
    return (await this.blobs.find(blobId))?.quilt_patch_id === quiltPatchId;
  }
}
