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

/** What one view's list holds; `view` says whose files these are. */
interface ListState {
  view: string | undefined;
  files: FileRecord[];
  cursor?: string;
  hasMore: boolean;
  loading: boolean;
  error?: string;
}

const freshList = (view: string | undefined): ListState => ({ view, files: [], hasMore: true, loading: false });

/**
 * The files of one Space (or all), walked page by page with the server's cursor. The state
 * carries the view it belongs to, so the render that follows a change of Space shows that Space
 * loading, never a frame of the previous one's files (an effect-driven reset came a frame late),
 * and an answer for a view the user has left is dropped.
 */
export function useFileList(api: ConsoleApi, spaceId: string | undefined): FileList {
  const [stored, setState] = useState<ListState>(() => freshList(spaceId));
  const state = stored.view === spaceId ? stored : freshList(spaceId);
  /** Changes the list only while it still belongs to `view`; a list of another view starts fresh. */
  const change = useCallback(
    (view: string | undefined, update: (s: ListState) => ListState) =>
      setState((current) => update(current.view === view ? current : freshList(view))),
    [],
  );

  const loadMore = useCallback(() => {
    if (state.loading || !state.hasMore) return;
    const view = spaceId;
    change(view, (s) => ({ ...s, loading: true, error: undefined }));
    api.files({ spaceId: view, cursor: state.cursor, limit: PAGE_SIZE }).then(
      (page) =>
        setState((s) => {
          if (s.view !== view) return s;
          const known = new Set(s.files.map((f) => f.fileId));
          const files = [...s.files, ...page.files.filter((f) => !known.has(f.fileId))];
          return { view, files, cursor: page.pagination.cursor || undefined, hasMore: page.pagination.hasMore, loading: false };
        }),
      (failure: unknown) => setState((s) => (s.view === view ? { ...s, loading: false, error: describeError(failure) } : s)),
    );
  }, [api, spaceId, change, state.loading, state.hasMore, state.cursor]);

  const add = useCallback(
    (file: FileRecord) => {
      if (spaceId && file.workspaceId !== spaceId) return;
      change(spaceId, (s) => {
        if (s.files.some((f) => f.fileId === file.fileId)) return s;
        // Uploads finish in any order: each goes where the server's order puts it.
        const at = s.files.findIndex((f) => isNewer(file, f));
        return { ...s, files: at === -1 ? [...s.files, file] : [...s.files.slice(0, at), file, ...s.files.slice(at)] };
      });
    },
    [spaceId, change],
  );
  const remove = useCallback((fileId: string) => setState((s) => ({ ...s, files: s.files.filter((f) => f.fileId !== fileId) })), []);

  return { files: state.files, hasMore: state.hasMore, loading: state.loading, error: state.error, loadMore, add, remove };
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
