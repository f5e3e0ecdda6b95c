import { useEffect, useRef, useState } from 'preact/hooks';
import type { ConsoleApi, FileRecord } from '../api.ts';
import { formatAge, formatBytes, isImage, typeLabel } from '../format.ts';
import { CARD_WIDTH, useImage, useSeen } from '../images.ts';
import type { FileList } from '../state.ts';
import { AlertIcon, UploadIcon } from './icons.tsx';

const LOOKAHEAD_PX = 800;

interface Props {
  api: ConsoleApi;
  list: FileList;
  spaceName: string;
  onOpen(fileId: string): void;
  onPickFiles(): void;
}

export function FileGrid({ api, list, spaceName, onOpen, onPickFiles }: Props) {
  const [sentinel, setSentinel] = useState<HTMLDivElement | null>(null);

  // Loads the next page while the end of the grid is within a screen of the viewport. Measured
  // after each render (a short page leaves the end in view) and whenever scrolling moves it.
  const check = useRef(() => {});
  check.current = () => {
    if (!sentinel || !list.hasMore || list.loading || list.error) return;
    if (sentinel.getBoundingClientRect().top < window.innerHeight + LOOKAHEAD_PX) list.loadMore();
  };
  useEffect(() => check.current(), [sentinel, list.files.length, list.hasMore, list.loading, list.error]);
  useEffect(() => {
    if (!sentinel) return;
    const observer = new IntersectionObserver(() => check.current(), { rootMargin: `${LOOKAHEAD_PX}px` });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [sentinel]);

  const empty = list.files.length === 0 && !list.hasMore && !list.loading && !list.error;
  const firstLoad = list.files.length === 0 && (list.loading || (list.hasMore && !list.error));

  return (
    <section class="grid-area" aria-busy={list.loading ? 'true' : 'false'}>
      {empty && (
        <div class="empty">
          <div class="empty-art" aria-hidden="true">
            <span />
            <span />
            <span />
            <span />
          </div>
          <h2>No files in {spaceName} yet</h2>
          <p class="muted">Drop images anywhere on this page, or choose them from your computer.</p>
          <button class="button primary" type="button" onClick={onPickFiles}>
            <UploadIcon /> Choose files
          </button>
        </div>
      )}
      <ul class="grid" aria-label={`Files in ${spaceName}`}>
        {list.files.map((file) => (
          <FileCard key={file.fileId} api={api} file={file} onOpen={onOpen} />
        ))}
        {firstLoad && Array.from({ length: 12 }, (_, i) => <li key={`s${i}`} class="card skeleton" aria-hidden="true" />)}
      </ul>
      {list.error && (
        <div class="inline-error" role="alert">
          <AlertIcon /> {list.error}
          <button class="button small" type="button" onClick={list.loadMore}>
            Try again
          </button>
        </div>
      )}
      {list.loading && list.files.length > 0 && <p class="loading-more">Loading more…</p>}
      {!list.hasMore && list.files.length > 0 && <p class="end-note">{list.files.length === 1 ? 'One file' : `All ${list.files.length} files`} shown</p>}
      <div ref={setSentinel} class="sentinel" aria-hidden="true" />
    </section>
  );
}

function FileCard({ api, file, onOpen }: { api: ConsoleApi; file: FileRecord; onOpen(fileId: string): void }) {
  const [ref, seen] = useSeen<HTMLLIElement>();
  const image = isImage(file.mimeType);
  const thumb = useImage(api, image ? file.fileId : undefined, CARD_WIDTH, seen);
  const label = typeLabel(file.name, file.mimeType);
  return (
    <li class="card" ref={ref}>
      <button class="card-button" type="button" onClick={() => onOpen(file.fileId)} aria-label={`Open ${file.name}`}>
        <div class={`thumb ${image ? 'checker' : ''}`}>
          {thumb.status === 'ready' ? (
            <img src={thumb.url} alt="" loading="lazy" decoding="async" />
          ) : image && thumb.status !== 'failed' ? (
            <span class="thumb-loading" aria-hidden="true" />
          ) : (
            <span class={`type-badge type-${badgeTone(label)}`}>{label}</span>
          )}
        </div>
        <div class="card-text">
          <span class="card-name" title={file.name}>
            {file.name}
          </span>
          <span class="card-meta">
            {formatBytes(Number(file.sizeBytes))} · {label} · <time dateTime={file.createdAt}>{formatAge(file.createdAt)}</time>
          </span>
        </div>
      </button>
    </li>
  );
}

/** A stable colour per kind of file, so a page of PDFs and ZIPs is still easy to scan. */
function badgeTone(label: string): number {
  let hash = 0;
  for (const c of label) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return hash % 6;
}
