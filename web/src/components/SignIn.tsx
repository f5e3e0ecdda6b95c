import { useState } from 'preact/hooks';
import { Logo } from './icons.tsx';

interface Props {
  onSignIn(key: string): Promise<void>;
  /** Why the user is here again, e.g. a key that stopped working. */
  notice?: string;
}

export function SignIn({ onSignIn, notice }: Props) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>(notice);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) return setError('Paste an API key to sign in.');
    setBusy(true);
    setError(undefined);
    try {
      await onSignIn(trimmed);
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  };

  return (
    <main class="signin">
      <form class="signin-card" onSubmit={submit} aria-labelledby="signin-title" novalidate>
        <div class="signin-brand">
          <Logo size={40} />
          <span>Tessera</span>
        </div>
        <h1 id="signin-title">Sign in to your files</h1>
        <p class="muted">Use an API key of your account. It stays in this tab only and is forgotten when you close it.</p>
        <label class="field">
          <span>API key</span>
          <input
            type="password"
            name="api-key"
            autocomplete="off"
            spellcheck={false}
            placeholder="tsk_…"
            value={key}
            onInput={(e) => setKey((e.target as HTMLInputElement).value)}
            aria-invalid={error ? 'true' : 'false'}
            aria-describedby={error ? 'signin-error' : 'signin-help'}
            autofocus
          />
        </label>
        {error && (
          <p class="form-error" id="signin-error" role="alert">
            {error}
          </p>
        )}
        <button class="button primary wide" type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <p class="help" id="signin-help">
          No key yet? The server printed one on its first start, or create one with <code>npx tessera keys create --account you</code>.
        </p>
      </form>
    </main>
  );
}
