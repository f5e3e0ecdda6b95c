import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ConsoleApi } from './api.ts';

/**
 * Images need the key header, so they are fetched and shown from blob: URLs. The URLs are kept
 * per file and width for the session (the browser's HTTP cache holds the bytes across sessions)
 * and released at sign-out.
 */
const urls = new Map<string, Promise<string>>();

export function imageUrl(api: ConsoleApi, fileId: string, width: number): Promise<string> {
  const key = `${fileId}:${width}`;
  let url = urls.get(key);
  if (!url) {
    url = api.thumbnail(fileId, width).then((blob) => URL.createObjectURL(blob));
    url.catch(() => urls.delete(key));
    urls.set(key, url);
  }
  return url;
}

export function releaseImages(): void {
  for (const url of urls.values()) void url.then((u) => URL.revokeObjectURL(u), () => undefined);
  urls.clear();
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
