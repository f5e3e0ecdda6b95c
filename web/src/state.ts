import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError, type ConsoleApi, type FileRecord } from './api.ts';

export const PAGE_SIZE = 60;

export interface FileList {
  files: FileRecord[];
  hasMore: boolean;
  loading: boolean;
  error?: string;
  loadMore(): void;
  /** A file made here (upload, edit) shows at once, newest first, if it belongs in this view. */
  add(file: FileRecord): void;
  remove(fileId: string): void;
}

/** The files of one Space (or all), walked page by page with the server's cursor. */
export function useFileList(api: ConsoleApi, spaceId: string | undefined): FileList {
  const [files, setFiles] = useState<FileRecord[]>([]);
  const [hasMore, setHasMore] = useState(true);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const cursor = useRef<string | undefined>(undefined);
  // Answers for a view the user has left are dropped.
  const generation = useRef(0);

  const loadMore = useCallback(() => {
    if (loading || !hasMore) return;
    const mine = generation.current;
    setLoading(true);
    setError(undefined);
    api.files({ spaceId, cursor: cursor.current, limit: PAGE_SIZE }).then(
      (page) => {
        if (mine !== generation.current) return;
        cursor.current = page.pagination.cursor || undefined;
        setFiles((current) => {
          const known = new Set(current.map((f) => f.fileId));
          return [...current, ...page.files.filter((f) => !known.has(f.fileId))];
        });
        setHasMore(page.pagination.hasMore);
        setLoading(false);
      },
      (failure: unknown) => {
        if (mine !== generation.current) return;
        setError(describeError(failure));
        setLoading(false);
      },
    );
  }, [api, spaceId, loading, hasMore]);

  useEffect(() => {
    generation.current++;
    cursor.current = undefined;
    setFiles([]);
    setHasMore(true);
    setLoading(false);
    setError(undefined);
  }, [api, spaceId]);

  const add = useCallback(
    (file: FileRecord) => {
      if (spaceId && file.workspaceId !== spaceId) return;
      setFiles((current) => {
        if (current.some((f) => f.fileId === file.fileId)) return current;
        // Uploads finish in any order: each goes where the server's order puts it.
        const at = current.findIndex((f) => isNewer(file, f));
        return at === -1 ? [...current, file] : [...current.slice(0, at), file, ...current.slice(at)];
      });
    },
    [spaceId],
  );
  const remove = useCallback((fileId: string) => setFiles((current) => current.filter((f) => f.fileId !== fileId)), []);

  return { files, hasMore, loading, error, loadMore, add, remove };
}

/** The list's order: createdAt descending, then fileId descending. */
function isNewer(a: FileRecord, b: FileRecord): boolean {
  return a.createdAt === b.createdAt ? a.fileId > b.fileId : a.createdAt > b.createdAt;
}

export interface Upload {
  id: number;
  name: string;
  size: number;
  progress: number;
  status: 'queued' | 'uploading' | 'done' | 'failed';
  message?: string;
  file?: FileRecord;
}

const PARALLEL_UPLOADS = 3;

/** Files dropped or picked, sent a few at a time, each with its own progress and outcome. */
export function useUploads(api: ConsoleApi, onStored: (file: FileRecord) => void) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const queue = useRef<Array<{ id: number; file: File; spaceId: string | undefined }>>([]);
  const running = useRef(0);
  const nextId = useRef(1);
  const stored = useRef(onStored);
  stored.current = onStored;

  const update = (id: number, change: Partial<Upload>) => setUploads((all) => all.map((u) => (u.id === id ? { ...u, ...change } : u)));

  const pump = useCallback(() => {
    while (running.current < PARALLEL_UPLOADS && queue.current.length > 0) {
      const { id, file, spaceId } = queue.current.shift()!;
      running.current++;
      update(id, { status: 'uploading' });
      api
        .upload(file, spaceId, (progress) => update(id, { progress }))
        .then(
          (record) => {
            update(id, { status: 'done', progress: 1, file: record });
            stored.current(record);
          },
          (error: unknown) => update(id, { status: 'failed', message: describeError(error) }),
        )
        .finally(() => {
          running.current--;
          pump();
        });
    }
  }, [api]);

  const start = useCallback(
    (files: readonly File[], spaceId: string | undefined) => {
      const added = files.map((file) => ({ id: nextId.current++, file, spaceId }));
      setUploads((all) => [...all, ...added.map(({ id, file }) => ({ id, name: file.name, size: file.size, progress: 0, status: 'queued' as const }))]);
      queue.current.push(...added);
      pump();
    },
    [pump],
  );

  const clearFinished = useCallback(() => setUploads((all) => all.filter((u) => u.status === 'queued' || u.status === 'uploading')), []);

  return { uploads, start, clearFinished };
}

/** `#/spaces/spc_…/files/file_…`: the Space shown and the file open, so Back and links work. */
export interface Route {
  spaceId?: string;
  fileId?: string;
}

export function parseRoute(hash: string): Route {
  const route: Route = {};
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  for (let i = 0; i + 1 < parts.length; i++) {
    if (parts[i] === 'spaces') route.spaceId = parts[++i];
    else if (parts[i] === 'files') route.fileId = parts[++i];
  }
  return route;
}

export function formatRoute(route: Route): string {
  const parts = [route.spaceId ? `spaces/${encodeURIComponent(route.spaceId)}` : 'all', route.fileId ? `files/${encodeURIComponent(route.fileId)}` : ''];
  return `#/${parts.filter(Boolean).join('/')}`;
}

export function useRoute(): [Route, (route: Route) => void] {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  const go = useCallback((next: Route) => {
    location.hash = formatRoute(next);
  }, []);
  return [route, go];
}
