import type { JSX } from 'preact';

type IconProps = { size?: number } & JSX.SVGAttributes<SVGSVGElement>;

/** Line icons drawn for the console (24-unit grid, stroke in the current colour). */
function icon(paths: JSX.Element) {
  return ({ size = 18, ...rest }: IconProps) => (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width={1.8} stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" {...rest}>
      {paths}
    </svg>
  );
}

export const UploadIcon = icon(<><path d="M12 16V4" /><path d="m6 10 6-6 6 6" /><path d="M4 20h16" /></>);
export const DownloadIcon = icon(<><path d="M12 4v12" /><path d="m6 10 6 6 6-6" /><path d="M4 20h16" /></>);
export const TrashIcon = icon(<><path d="M4 7h16" /><path d="M9 7V4h6v3" /><path d="M6 7l1 13h10l1-13" /></>);
export const CloseIcon = icon(<><path d="M6 6l12 12" /><path d="M18 6 6 18" /></>);
export const FolderIcon = icon(<path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />);
export const GridIcon = icon(<><rect x="4" y="4" width="7" height="7" rx="1.5" /><rect x="13" y="4" width="7" height="7" rx="1.5" /><rect x="4" y="13" width="7" height="7" rx="1.5" /><rect x="13" y="13" width="7" height="7" rx="1.5" /></>);
export const PlusIcon = icon(<><path d="M12 5v14" /><path d="M5 12h14" /></>);
export const WandIcon = icon(<><path d="m4 20 11-11" /><path d="m13 7 2-2 2 2-2 2z" /><path d="M19 3v3M17.5 4.5h3M6 4v2M5 5h2M19 14v2M18 15h2" /></>);
export const EyeIcon = icon(<><path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" /><circle cx="12" cy="12" r="3" /></>);
export const CheckIcon = icon(<path d="m5 12 5 5 9-10" />);
export const AlertIcon = icon(<><circle cx="12" cy="12" r="9" /><path d="M12 7v6" /><path d="M12 16.5v.5" /></>);
export const LogoutIcon = icon(<><path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3" /><path d="M10 16l-4-4 4-4" /><path d="M6 12h10" /></>);
export const FileIcon = icon(<><path d="M6 3h8l4 4v14H6z" /><path d="M14 3v4h4" /></>);
export const LinkIcon = icon(<><path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" /><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" /></>);

/** The Tessera mark: four tiles of a mosaic. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect x="2" y="2" width="13" height="13" rx="3" fill="#4f46e5" />
      <rect x="17" y="2" width="13" height="13" rx="3" fill="#0ea5e9" />
      <rect x="2" y="17" width="13" height="13" rx="3" fill="#f59e0b" />
      <rect x="17" y="17" width="13" height="13" rx="3" fill="#10b981" />
    </svg>
  );
}
