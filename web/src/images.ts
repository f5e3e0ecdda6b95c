import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ConsoleApi } from './api.ts';

/**
 * Images are shown from signed links: URLs that work without the key, so the browser loads,
 * decodes and caches them itself and no image is held in script memory. A link is kept per file
 * and width for most of its life, then replaced, and forgotten at sign-out.
 */
const LINK_SECONDS = 3600;
const RENEW_BEFORE_MS = 5 * 60 * 1000;
const links = new Map<string, Promise<{ url: string; expires: number }>>();

export async function imageUrl(api: ConsoleApi, fileId: string, width: number): Promise<string> {
  const key = `${fileId}:${width}`;
  const cached = links.get(key);
  if (cached) {
    const link = await cached.catch(() => undefined);
    if (link && link.expires - Date.now() > RENEW_BEFORE_MS) return link.url;
  }
  const link = api.link(fileId, { expiresIn: LINK_SECONDS, thumbnailWidth: width }).then((l) => ({ url: l.url, expires: Date.parse(l.expires_at) }));
  links.set(key, link);
  link.catch(() => links.get(key) === link && links.delete(key));
  return (await link).url;
}

/** A download the browser streams to disk itself: a short-lived signed link, opened as an attachment. */
export async function downloadFile(api: ConsoleApi, fileId: string, name: string): Promise<void> {
  const { url } = await api.link(fileId, { expiresIn: 300, download: true });
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.rel = 'noopener';
  anchor.click();
}

export function releaseImages(): void {
  links.clear();
}

export type ImageState = { status: 'idle' | 'loading' } | { status: 'ready'; url: string } | { status: 'failed'; message: string };

/** A thumbnail of `width` once `visible` turns true (cards far below the fold load nothing). */
export function useImage(api: ConsoleApi, fileId: string | undefined, width: number, visible = true): ImageState {
  const [state, setState] = useState<ImageState>({ status: 'idle' });
  useEffect(() => {
    if (!fileId || !visible) return;
    let live = true;
    setState({ status: 'loading' });
    imageUrl(api, fileId, width).then(
      (url) => live && setState({ status: 'ready', url }),
      (error: Error) => live && setState({ status: 'failed', message: error.message }),
    );
    return () => {
      live = false;
    };
  }, [api, fileId, width, visible]);
  return state;
}

/** True once the element has come within `margin` of the viewport; it stays true. */
export function useSeen<T extends Element>(margin = '300px'): [(element: T | null) => void, boolean] {
  const [seen, setSeen] = useState(false);
  const observer = useRef<IntersectionObserver>();
  const ref = useCallback((element: T | null) => {
    observer.current?.disconnect();
    if (!element || seen) return;
    observer.current = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setSeen(true);
          observer.current?.disconnect();
        }
      },
      { rootMargin: margin },
    );
    observer.current.observe(element);
  }, [seen, margin]);
  useEffect(() => () => observer.current?.disconnect(), []);
  return [ref, seen];
}

/**
 * Two sizes for cards and one for previews, doubled on sharp screens: few distinct widths keep
 * the server's thumbnail cache (keyed by width) and the browser's cache warm.
 */
export const CARD_WIDTH = (window.devicePixelRatio || 1) > 1.25 ? 640 : 320;
export const PREVIEW_WIDTH = (window.devicePixelRatio || 1) > 1.25 ? 2048 : 1280;
