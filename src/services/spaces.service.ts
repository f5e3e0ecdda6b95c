import { isForeignKeyViolation, isUniqueViolation } from '../db/database.ts';
import { DEFAULT_SPACE_NAME } from '../db/repositories/accounts.repository.ts';
import type { SpacesRepository } from '../db/repositories/spaces.repository.ts';
import type { SpaceEncryption, SpaceRow } from '../db/schema.ts';
import { AppError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { FilesService } from './files.service.ts';
import { accountIdOf, boundSpace, type Owner } from './owner.ts';

const boundKeyRefused = (what: string) =>
  new AppError('forbidden', `this key is bound to one Space and cannot ${what}; use a key not bound to a Space`);

export class SpacesService {
  private readonly spaces: SpacesRepository;
  private readonly files: FilesService;
  constructor(
    spaces: SpacesRepository,
    files: FilesService,
  ) {
    this.spaces = spaces;
    this.files = files;
  }

  /**
   * `encryption`: `none` makes a public Space, whose new files the Walrus engine publishes as they
   * are (see docs/walrus.md); other engines keep and report the choice, and store bytes as ever.
   */
  async create(owner: Owner, rawName: string, encryption: SpaceEncryption = 'sealed'): Promise<SpaceRow> {
    if (boundSpace(owner) !== undefined) throw boundKeyRefused('create Spaces');
    const accountId = accountIdOf(owner);
    const name = rawName.trim();
    if (name.length === 0) throw new AppError('invalid_request', 'a Space needs a name that is not blank');
    const now = Date.now();
    const row = { id: newId('spc', now), account_id: accountId, name, created_at: now, encryption };
    try {
      await this.spaces.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('conflict', `a Space named "${name}" already exists`);
      throw error;
    }
    return row;
  }

  async list(owner: Owner): Promise<SpaceRow[]> {
    const bound = boundSpace(owner);
    const all = await this.spaces.list(accountIdOf(owner));
    return bound === undefined ? all : all.filter((s) => s.id === bound);
  }

  async get(owner: Owner, id: string): Promise<SpaceRow> {
    const bound = boundSpace(owner);
    const space = bound === undefined || bound === id ? await this.spaces.find(accountIdOf(owner), id) : undefined;
    if (!space) throw notFound('space', id);
    return space;
  }

  /**
   * Changes the Space's choice for files stored from now on: files already stored keep the bytes
   * they were published with (Walrus cannot take back what it served). A Space-bound key cannot.
   */
  async setEncryption(owner: Owner, id: string, encryption: SpaceEncryption): Promise<SpaceRow> {
    await this.get(owner, id);
    if (boundSpace(owner) !== undefined) throw boundKeyRefused('change how Spaces are stored');
    const changed = await this.spaces.setEncryption(accountIdOf(owner), id, encryption);
    if (!changed) throw notFound('space', id);
    return changed;
  }

  /** Refuses to drop files silently: a Space that holds files goes only with `force`. */
  async delete(owner: Owner, id: string, force: boolean): Promise<void> {
    const space = await this.get(owner, id);
    if (boundSpace(owner) !== undefined) throw boundKeyRefused('delete Spaces');
    const accountId = accountIdOf(owner);
    if (space.name === DEFAULT_SPACE_NAME) throw new AppError('conflict', 'the default Space cannot be deleted');
    if (await this.spaces.hasFiles(id)) {
      if (!force) throw new AppError('conflict', `Space ${id} still holds files; delete them first or pass force=true`);
      await this.files.deleteAllInSpace(accountId, id);
    }
    try {
      await this.spaces.delete(id);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new AppError('conflict', `a file arrived in Space ${id} while it was being deleted; try again`);
      throw error;
    }
  }
}
