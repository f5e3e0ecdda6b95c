import { formatBytes } from '../format.ts';
import type { Upload } from '../state.ts';
import { AlertIcon, CheckIcon, CloseIcon } from './icons.tsx';

export function UploadTray({ uploads, onClear, onOpen }: { uploads: Upload[]; onClear(): void; onOpen(fileId: string): void }) {
  if (uploads.length === 0) return null;
  const active = uploads.filter((u) => u.status === 'queued' || u.status === 'uploading').length;
  const failed = uploads.filter((u) => u.status === 'failed').length;
  const title = active > 0 ? `Uploading ${active} of ${uploads.length}` : failed > 0 ? `${failed} of ${uploads.length} refused` : `${uploads.length} uploaded`;
  return (
    <aside class="tray" aria-label="Uploads">
      <header class="tray-head">
        <strong aria-live="polite">{title}</strong>
        {active === 0 && (
          <button class="icon-button" type="button" onClick={onClear} aria-label="Close the upload list">
            <CloseIcon size={16} />
          </button>
        )}
      </header>
      <ul class="tray-list">
        {uploads.map((upload) => (
          <li key={upload.id} class={`tray-item ${upload.status}`}>
            <div class="tray-row">
              <span class="tray-name" title={upload.name}>
                {upload.status === 'done' && upload.file ? (
                  <button class="link" type="button" onClick={() => onOpen(upload.file!.fileId)}>
                    {upload.name}
                  </button>
                ) : (
                  upload.name
                )}
              </span>
              <span class="tray-state">
                {upload.status === 'done' ? <CheckIcon size={16} /> : upload.status === 'failed' ? <AlertIcon size={16} /> : upload.status === 'queued' ? 'waiting' : `${Math.round(upload.progress * 100)}%`}
              </span>
            </div>
            {upload.status === 'failed' ? (
              <p class="tray-error" role="alert">
                {upload.message}
              </p>
            ) : (
              <div class="progress" role="progressbar" aria-label={`${upload.name} (${formatBytes(upload.size)})`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(upload.progress * 100)}>
                <div class="progress-bar" style={{ width: `${upload.progress * 100}%` }} />
              </div>
            )}
          </li>
        ))}
      </ul>
    </aside>
  );
}
