import { isForeignKeyViolation, isUniqueViolation } from '../db/database.ts';
import { DEFAULT_SPACE_NAME } from '../db/repositories/accounts.repository.ts';
import type { SpacesRepository } from '../db/repositories/spaces.repository.ts';
import type { SpaceRow } from '../db/schema.ts';
import { AppError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { FilesService } from './files.service.ts';

export class SpacesService {
  constructor(
    private readonly spaces: SpacesRepository,
    private readonly files: FilesService,
  ) {}

  async create(accountId: string, rawName: string): Promise<SpaceRow> {
    const name = rawName.trim();
    if (name.length === 0) throw new AppError('invalid_request', 'a Space needs a name that is not blank');
    const now = Date.now();
    const row = { id: newId('spc', now), account_id: accountId, name, created_at: now };
    try {
      await this.spaces.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('conflict', `a Space named "${name}" already exists`);
      throw error;
    }
    return row;
  }

  list(accountId: string): Promise<SpaceRow[]> {
    return this.spaces.list(accountId);
  }

  async get(accountId: string, id: string): Promise<SpaceRow> {
    const space = await this.spaces.find(accountId, id);
    if (!space) throw notFound('space', id);
    return space;
  }

  /** Refuses to drop files silently: a Space that holds files goes only with `force`. */
  async delete(accountId: string, id: string, force: boolean): Promise<void> {
    const space = await this.get(accountId, id);
    if (space.name === DEFAULT_SPACE_NAME) throw new AppError('conflict', 'the default Space cannot be deleted');
    if (await this.spaces.hasFiles(id)) {
      if (!force) throw new AppError('conflict', `Space ${id} still holds files; delete them first or pass force=true`);
      await this.files.deleteAllInSpace(id);
    }
    try {
      await this.spaces.delete(id);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new AppError('conflict', `a file arrived in Space ${id} while it was being deleted; try again`);
      throw error;
    }
  }
}
