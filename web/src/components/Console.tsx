import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError, type ConsoleApi, type OperationInfo, type Space } from '../api.ts';
import { Usage } from './Usage.tsx';
import { useFileList, useRoute, useUploads } from '../state.ts';
import { FileDialog } from './FileDialog.tsx';
import { FileGrid } from './FileGrid.tsx';
import { FolderIcon, GridIcon, LogoutIcon, Logo, PlusIcon, UploadIcon } from './icons.tsx';
import { UploadTray } from './UploadTray.tsx';

interface Props {
  api: ConsoleApi;
  onSignOut(): void;
}

export function Console({ api, onSignOut }: Props) {
  const [route, go] = useRoute();
  const [spaces, setSpaces] = useState<Space[]>([]);
  const [spacesError, setSpacesError] = useState<string>();
  const [catalogue, setCatalogue] = useState<OperationInfo[]>([]);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);

  useEffect(() => {
    api.spaces().then(setSpaces, (error: unknown) => setSpacesError(describeError(error)));
    api.operations().then(setCatalogue, () => setCatalogue([]));
  }, [api]);

  const space = spaces.find((s) => s.id === route.spaceId);
  const spaceName = route.spaceId ? (space?.name ?? 'this Space') : 'all Spaces';
  const list = useFileList(api, route.spaceId);
  const { uploads, start, clearFinished } = useUploads(api, list.add);
  // Uploads from "All files" go to the Space named default, which every account has.
  const uploadSpaceId = route.spaceId ?? spaces.find((s) => s.name === 'default')?.id;

  const upload = useCallback((files: readonly File[]) => files.length > 0 && start(files, uploadSpaceId), [start, uploadSpaceId]);
  const openFile = useCallback((fileId: string) => go({ ...route, fileId }), [go, route]);

  // Files dropped anywhere on the page are uploaded into the Space on screen.
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const over = (e: DragEvent) => hasFiles(e) && e.preventDefault();
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      upload([...(e.dataTransfer?.files ?? [])]);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [upload]);

  const title = route.spaceId ? (space?.name ?? 'Space') : 'All files';

  return (
    <div class="shell">
      <header class="topbar">
        <a class="brand" href="#/all" aria-label="Tessera, all files">
          <Logo /> <span>Tessera</span>
        </a>
        <label class="space-select">
          <span class="sr-only">Space</span>
          <select value={route.spaceId ?? ''} onChange={(e) => go({ spaceId: (e.target as HTMLSelectElement).value || undefined })}>
            <option value="">All files</option>
            {spaces.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <div class="topbar-actions">
          <button class="button primary" type="button" onClick={() => picker.current?.click()}>
            <UploadIcon /> <span class="label">Upload</span>
          </button>
          <button class="button ghost" type="button" onClick={onSignOut} title="Sign out">
            <LogoutIcon /> <span class="label">Sign out</span>
          </button>
        </div>
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          data-testid="file-picker"
          onChange={(e) => {
            const input = e.target as HTMLInputElement;
            upload([...(input.files ?? [])]);
            input.value = '';
          }}
        />
      </header>
      <nav class="sidebar" aria-label="Spaces">
        <a class={`nav-item ${route.spaceId ? '' : 'active'}`} href="#/all" aria-current={route.spaceId ? undefined : 'page'}>
          <GridIcon /> All files
        </a>
        <h2 class="nav-heading">Spaces</h2>
        {spacesError && <p class="form-error">{spacesError}</p>}
        {spaces.map((s) => (
          <a key={s.id} class={`nav-item ${route.spaceId === s.id ? 'active' : ''}`} href={`#/spaces/${encodeURIComponent(s.id)}`} aria-current={route.spaceId === s.id ? 'page' : undefined}>
            <FolderIcon /> <span class="nav-text">{s.name}</span>
            {s.encryption === 'none' && (
              <span class="badge" title="Public: on Walrus its files are stored unencrypted, readable by anyone with their quiltPatchId">
                public
              </span>
            )}
          </a>
        ))}
        <NewSpace api={api} onCreated={(created) => {
          setSpaces((all) => [...all, created]);
          go({ spaceId: created.id });
        }} />
        <Usage api={api} version={`${uploads.filter((u) => u.status === 'done').length}:${route.fileId ?? ''}:${list.files.length}`} />
      </nav>
      <main class="content">
        <div class="content-head">
          <h1>{title}</h1>
          <p class="muted">
            {route.spaceId ? 'Newest first. Drop files here to add them to this Space.' : 'Every file of yours, newest first. Drops go to the default Space.'}
          </p>
        </div>
        <FileGrid api={api} list={list} spaceName={spaceName} onOpen={openFile} onPickFiles={() => picker.current?.click()} />
      </main>
      <UploadTray uploads={uploads} onClear={clearFinished} onOpen={openFile} />
      {dragging && (
        <div class="drop-overlay" aria-hidden="true">
          <div>
            <UploadIcon size={40} />
            <p>Drop to upload to {route.spaceId ? (space?.name ?? 'this Space') : 'default'}</p>
          </div>
        </div>
      )}
      {route.fileId && (
        <FileDialog
          key={route.fileId}
          api={api}
          fileId={route.fileId}
          spaces={spaces}
          catalogue={catalogue}
          onClose={() => go({ spaceId: route.spaceId })}
          onOpen={openFile}
          onDeleted={(fileId) => {
            list.remove(fileId);
            go({ spaceId: route.spaceId });
          }}
          onCreated={list.add}
        />
      )}
    </div>
  );
}

function NewSpace({ api, onCreated }: { api: ConsoleApi; onCreated(space: Space): void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [isPublic, setPublic] = useState(false);
  const [error, setError] = useState<string>();
  if (!open) {
    return (
      <button class="nav-item add" type="button" onClick={() => setOpen(true)}>
        <PlusIcon /> New Space
      </button>
    );
  }
  return (
    <form
      class="new-space"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!name.trim()) return;
        try {
          onCreated(await api.createSpace(name.trim(), isPublic ? 'none' : 'sealed'));
          setName('');
          setPublic(false);
          setOpen(false);
          setError(undefined);
        } catch (failure) {
          setError(describeError(failure));
        }
      }}
    >
      <input
        aria-label="Name of the new Space"
        placeholder="Space name"
        value={name}
        maxLength={100}
        autofocus
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
      />
      <button class="button small primary" type="submit">
        Create
      </button>
      <label class="new-space-public" title="On the Walrus engine, files of a public Space are stored unencrypted: anyone with a file's quiltPatchId reads it">
        <input type="checkbox" checked={isPublic} onChange={(e) => setPublic((e.target as HTMLInputElement).checked)} /> Public (not encrypted on Walrus)
      </label>
      {error && <p class="form-error">{error}</p>}
    </form>
  );
}
