import { createHmac, timingSafeEqual } from 'node:crypto';
import type { StoredFile } from '../db/repositories/files.repository.ts';
import { AppError, invalidRequest, notFound } from '../errors.ts';
import type { FilesService } from './files.service.ts';
import type { Owner } from './owner.ts';

/** What a link serves: the file's bytes, or a thumbnail of it. */
export type LinkKind = 'content' | 'thumbnail';

export interface LinkRequest {
  expiresInSeconds: number;
  /** Given: the link serves a thumbnail this wide instead of the bytes. */
  thumbnailWidth?: number;
  /** The bytes as an attachment (Content-Disposition), for a download button. */
  download?: boolean;
}

export interface SignedLink {
  /** Path and query, to be put after the public origin. */
  pathAndQuery: string;
  expiresAt: Date;
}

/** What a verified link grants. */
export interface LinkGrant {
  file: StoredFile;
  width?: number;
  download: boolean;
  /** Seconds left, e.g. to bound how long a browser may cache the answer. */
  secondsLeft: number;
}

export interface LinkSecrets {
  /** Signs new links and verifies them. */
  current: string;
  /** Verifies links signed before the last rotation, until they expire. */
  previous?: string;
}

export const LINK_PATHS: Record<LinkKind, (fileId: string) => string> = {
  content: (fileId) => `/links/files/${fileId}/content`,
  thumbnail: (fileId) => `/links/files/${fileId}/thumbnail`,
};

/** The query of a link as it arrives: every field a string, anything may have been changed. */
export interface LinkQuery {
  expires?: string;
  width?: string;
  download?: string;
  sig?: string;
}

const refused = (why: string) => new AppError('forbidden', `${why}; ask for a new link`);

/**
 * Signed links: a URL that serves one file (or a thumbnail of it) without a key until it
 * expires. The signature is an HMAC-SHA256 over the kind, the fileId, the expiry and the options,
 * with a secret every replica shares, so any replica verifies any link. Nothing is stored per
 * link: deleting the file stops its links at once (the file is looked up on every use), and
 * changing the secret stops them all.
 */
export class LinksService {
  private readonly files: FilesService;
  private readonly secrets: LinkSecrets;
  private readonly limits: { maxExpiresSeconds: number; thumbnailMaxWidth: number };
  constructor(
    files: FilesService,
    secrets: LinkSecrets,
    limits: { maxExpiresSeconds: number; thumbnailMaxWidth: number },
  ) {
    this.files = files;
    this.secrets = secrets;
    this.limits = limits;
  }

  async create(owner: Owner, fileId: string, request: LinkRequest, now = Date.now()): Promise<SignedLink> {
    const file = await this.files.get(owner, fileId);
    if (!Number.isSafeInteger(request.expiresInSeconds) || request.expiresInSeconds < 1 || request.expiresInSeconds > this.limits.maxExpiresSeconds) {
      throw invalidRequest(`expires_in must be 1 to ${this.limits.maxExpiresSeconds} seconds (TESSERA_LINK_MAX_EXPIRES_SECONDS)`);
    }
    const width = request.thumbnailWidth;
    if (width !== undefined && (width < 16 || width > this.limits.thumbnailMaxWidth)) throw invalidRequest(`thumbnail_width must be 16 to ${this.limits.thumbnailMaxWidth}`);
    if (width !== undefined && !file.mime_type.startsWith('image/')) throw new AppError('not_an_image', `${file.id} is ${file.mime_type}, not an image: it has no thumbnail`);
    const kind: LinkKind = width === undefined ? 'content' : 'thumbnail';
    const expires = Math.floor(now / 1000) + request.expiresInSeconds;
    const download = kind === 'content' && request.download === true;
    const query = new URLSearchParams({ expires: String(expires) });
    if (width !== undefined) query.set('width', String(width));
    if (download) query.set('download', '1');
    query.set('sig', sign(this.secrets.current, kind, file.id, expires, width, download).toString('base64url'));
    return { pathAndQuery: `${LINK_PATHS[kind](file.id)}?${query}`, expiresAt: new Date(expires * 1000) };
  }

  /**
   * Checks a link before anything is looked up, so an expired or altered link says nothing about
   * whether its file exists (403 either way); then finds the file, which may since have been deleted.
   */
  async open(kind: LinkKind, fileId: string, query: LinkQuery, now = Date.now()): Promise<LinkGrant> {
    const expires = /^\d{1,12}$/.test(query.expires ?? '') ? Number(query.expires) : undefined;
    const width = kind === 'thumbnail' && /^\d{1,5}$/.test(query.width ?? '') ? Number(query.width) : undefined;
    const download = query.download === '1';
    const presented = /^[A-Za-z0-9_-]{43}$/.test(query.sig ?? '') ? Buffer.from(query.sig!, 'base64url') : undefined;
    const wellFormed =
      expires !== undefined && presented?.length === 32 && (kind === 'thumbnail' ? width !== undefined && query.download === undefined : query.width === undefined) && (query.download === undefined || download);
    if (!wellFormed) throw refused('this link is not valid');
    const valid = [this.secrets.current, this.secrets.previous]
      .filter((secret): secret is string => secret !== undefined)
      // Every secret is tried, so the time taken does not say which one matched.
      .map((secret) => timingSafeEqual(sign(secret, kind, fileId, expires, width, download), presented))
      .includes(true);
    if (!valid) throw refused('this link is not valid');
    const secondsLeft = expires - Math.floor(now / 1000);
    if (secondsLeft <= 0) throw refused('this link has expired');
    if (width !== undefined && (width < 16 || width > this.limits.thumbnailMaxWidth)) throw refused('this link is not valid');
    const file = await this.files.findForLink(fileId);
    if (!file) throw notFound('file', fileId);
    return { file, width, download, secondsLeft };
  }
}

function sign(secret: string, kind: LinkKind, fileId: string, expires: number, width: number | undefined, download: boolean): Buffer {
  return createHmac('sha256', secret).update(['tessera-link-v1', kind, fileId, String(expires), width === undefined ? '' : String(width), download ? '1' : '0'].join('\n')).digest();
}
