import { useEffect, useState } from 'preact/hooks';
import type { AccountInfo, ConsoleApi } from '../api.ts';
import { formatBytes } from '../format.ts';

/** What the account stores against its quota, refreshed whenever `version` changes (an upload, a delete). */
export function Usage({ api, version }: { api: ConsoleApi; version: string }) {
  const [account, setAccount] = useState<AccountInfo>();
  useEffect(() => {
    let live = true;
    api.account().then((a) => live && setAccount(a), () => undefined);
    return () => {
      live = false;
    };
  }, [api, version]);
  if (!account) return null;
  const bytes = Number(account.usage.bytes);
  const limit = account.limits.bytes === null ? undefined : Number(account.limits.bytes);
  const share = limit ? Math.min(1, bytes / limit) : undefined;
  return (
    <section class="usage" aria-label="Storage used">
      <h2 class="nav-heading">Storage</h2>
      <p class="usage-line" data-testid="usage">
        {formatBytes(bytes)} {limit !== undefined ? `of ${formatBytes(limit)}` : '(no limit)'} · {account.usage.files} {account.limits.files !== null ? `of ${account.limits.files} ` : ''}files
      </p>
      {share !== undefined && <progress class="usage-bar" max={1} value={share} aria-label={`${Math.round(share * 100)}% of the quota used`} />}
      {account.key.scope !== 'admin' && <p class="muted usage-line">This key can {account.key.scope === 'read' ? 'only read' : 'read and write'}.</p>}
    </section>
  );
}
