import { useEffect, useRef, useState } from 'preact/hooks';
import { TesseraError, describeError, type ConsoleApi, type EditResult, type FileDetail, type FileRecord, type OperationInfo, type Space } from '../api.ts';
import { formatBytes, formatDateTime, isImage, typeLabel } from '../format.ts';
import { generativeProviders } from '../generative.ts';
import { downloadFile, PREVIEW_WIDTH, useImage } from '../images.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { EditPanel, PlanSteps } from './EditPanel.tsx';
import { AlertIcon, CloseIcon, DownloadIcon, LinkIcon, TrashIcon } from './icons.tsx';

interface Props {
  api: ConsoleApi;
  fileId: string;
  spaces: Space[];
  catalogue: OperationInfo[];
  onClose(): void;
  onOpen(fileId: string): void;
  onDeleted(fileId: string): void;
  onCreated(file: FileRecord): void;
}

type Loaded = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; file: FileDetail };

/** One file, large: preview, record, lineage, download, delete, and prompt edits. */
export function FileDialog({ api, fileId, spaces, catalogue, onClose, onOpen, onDeleted, onCreated }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [result, setResult] = useState<EditResult>();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [actionError, setActionError] = useState<string>();

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  useEffect(() => {
    let live = true;
    setLoaded({ status: 'loading' });
    setResult(undefined);
    setActionError(undefined);
    api.file(fileId).then(
      (file) => live && setLoaded({ status: 'ready', file }),
      (error: unknown) => live && setLoaded({ status: 'failed', message: error instanceof TesseraError && error.status === 404 ? 'This file does not exist (any more).' : describeError(error) }),
    );
    return () => {
      live = false;
    };
  }, [api, fileId]);

  const file = loaded.status === 'ready' ? loaded.file : undefined;

  const download = async () => {
    if (!file) return;
    setActionError(undefined);
    try {
      await downloadFile(api, file.fileId, file.name);
    } catch (error) {
      setActionError(describeError(error));
    }
  };

  const remove = async () => {
    if (!file) return;
    setDeleting(true);
    try {
      await api.deleteFile(file.fileId);
      onDeleted(file.fileId);
    } catch (error) {
      setActionError(describeError(error));
      setDeleting(false);
      setConfirming(false);
    }
  };

  const applied = (edit: EditResult) => {
    setResult(edit);
    // The grid gets the stored record (with its quilt metadata), not one made up here.
    if (edit.file_id) api.file(edit.file_id).then(onCreated, () => undefined);
  };

  return (
    <dialog
      ref={dialog}
      class="file-dialog"
      aria-label={file ? file.name : 'File'}
      onCancel={(e) => {
        e.preventDefault();
        if (!confirming) onClose();
      }}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself) closes it.
        if (e.target === dialog.current && !confirming) onClose();
      }}
    >
      <div class="file-view">
        <header class="file-head">
          <h2 title={file?.name}>{file ? file.name : loaded.status === 'failed' ? 'File unavailable' : 'Loading…'}</h2>
          <button class="icon-button" type="button" onClick={onClose} aria-label="Close">
            <CloseIcon />
          </button>
        </header>
        {loaded.status === 'failed' && (
          <div class="inline-error" role="alert">
            <AlertIcon /> {loaded.message}
          </div>
        )}
        {file && (
          <div class="file-body">
            <div class={`stage ${result ? 'compare' : ''}`}>
              {result?.file_id ? (
                <>
                  <Figure api={api} file={file} caption="Original" />
                  <Figure api={api} file={{ fileId: result.file_id, name: result.name, mimeType: result.mime_type }} caption="Result" />
                </>
              ) : (
                <Figure api={api} file={file} />
              )}
            </div>
            <div class="side">
              {result?.file_id && (
                <section class="result-note" aria-live="polite">
                  <p>
                    <strong>Saved as {result.name}</strong> in {spaces.find((s) => s.id === result.workspace_id)?.name ?? 'your Space'}
                    {result.width && result.height ? ` · ${result.width}×${result.height}` : ''}
                    {result.size_bytes ? ` · ${formatBytes(result.size_bytes)}` : ''}
                  </p>
                  <PlanSteps plan={result} catalogue={catalogue} />
                  <div class="actions">
                    <button class="button primary" type="button" onClick={() => onOpen(result.file_id!)}>
                      Open the result
                    </button>
                    <button class="button" type="button" onClick={() => setResult(undefined)}>
                      Back to the original
                    </button>
                  </div>
                </section>
              )}
              <div class="actions">
                <button class="button" type="button" onClick={() => void download()}>
                  <DownloadIcon /> Download
                </button>
                <button class="button danger-outline" type="button" onClick={() => setConfirming(true)}>
                  <TrashIcon /> Delete
                </button>
              </div>
              {actionError && (
                <p class="form-error" role="alert">
                  {actionError}
                </p>
              )}
              {file.edit && <Lineage api={api} edit={file.edit} catalogue={catalogue} onOpen={onOpen} />}
              {isImage(file.mimeType) && !result && <EditPanel api={api} file={file} spaces={spaces} catalogue={catalogue} onApplied={applied} />}
              <Record file={file} spaces={spaces} />
            </div>
          </div>
        )}
      </div>
      {confirming && file && (
        <ConfirmDialog
          title={`Delete ${file.name}?`}
          message="The file is removed from your account. This cannot be undone."
          confirmLabel="Delete"
          busy={deleting}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </dialog>
  );
}

function Figure({ api, file, caption }: { api: ConsoleApi; file: Pick<FileRecord, 'fileId' | 'name' | 'mimeType'>; caption?: string }) {
  const image = isImage(file.mimeType);
  const preview = useImage(api, image ? file.fileId : undefined, PREVIEW_WIDTH);
  return (
    <figure class="figure">
      <div class="preview">
        {preview.status === 'ready' ? (
          <img class="checker" src={preview.url} alt={caption ? `${caption}: ${file.name}` : file.name} />
        ) : image && preview.status !== 'failed' ? (
          <span class="thumb-loading" aria-label="Loading the preview" />
        ) : (
          <div class="no-preview">
            <span class="type-badge large">{typeLabel(file.name, file.mimeType)}</span>
            <span class="muted">{preview.status === 'failed' ? preview.message : 'No preview for this type; download it to open it.'}</span>
          </div>
        )}
      </div>
      {caption && <figcaption>{caption}</figcaption>}
    </figure>
  );
}

function Record({ file, spaces }: { file: FileDetail; spaces: Space[] }) {
  const rows: Array<[string, string, boolean?]> = [
    ['Size', `${formatBytes(Number(file.sizeBytes))} (${Number(file.sizeBytes).toLocaleString()} bytes)`],
    ['Type', file.mimeType],
    ['Created', formatDateTime(file.createdAt)],
    ['Space', spaces.find((s) => s.id === file.workspaceId)?.name ?? file.workspaceId],
    ['File ID', file.fileId, true],
    ['Blob ID', file.metadata.blobId, true],
    ['Quilt ID', file.metadata.quiltId, true],
    ['Quilt patch ID', file.metadata.quiltPatchId, true],
  ];
  return (
    <section class="record" aria-labelledby="record-title">
      <h3 id="record-title">Details</h3>
      <dl>
        {rows.map(([name, value, mono]) => (
          <div key={name} class="record-row">
            <dt>{name}</dt>
            <dd class={mono ? 'mono' : ''}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Lineage({ api, edit, catalogue, onOpen }: { api: ConsoleApi; edit: NonNullable<FileDetail['edit']>; catalogue: OperationInfo[]; onOpen(fileId: string): void }) {
  const [source, setSource] = useState<FileRecord | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    api.file(edit.sourceFileId).then(
      (file) => live && setSource(file),
      () => live && setSource(null),
    );
    return () => {
      live = false;
    };
  }, [api, edit.sourceFileId]);
  return (
    <section class="lineage" aria-labelledby="lineage-title">
      <h3 id="lineage-title">
        <LinkIcon /> Made by an edit
      </h3>
      <p>
        From{' '}
        {source ? (
          <button class="link" type="button" onClick={() => onOpen(source.fileId)}>
            {source.name}
          </button>
        ) : source === null ? (
          <span class="muted">a file that has since been deleted</span>
        ) : (
          <span class="muted">…</span>
        )}
      </p>
      <blockquote class="prompt-quote">{edit.prompt}</blockquote>
      {generativeProviders(edit.operations).length > 0 && (
        <p class="lineage-provider">
          Painted in part by a generative model: <span class="mono">{generativeProviders(edit.operations).join(', ')}</span>
        </p>
      )}
      <PlanSteps plan={{ operations: edit.operations, dry_run: false }} catalogue={catalogue} />
    </section>
  );
}
