import { useCallback, useState } from 'preact/hooks';
import { ConsoleApi, TesseraError } from './api.ts';
import { Console } from './components/Console.tsx';
import { SignIn } from './components/SignIn.tsx';
import { releaseImages } from './images.ts';

/** The key lives in this tab's session storage: gone when the tab closes, never in a cookie. */
const KEY_ITEM = 'tessera.apiKey';

export function App() {
  const [notice, setNotice] = useState<string>();
  const signOut = useCallback((why?: string) => {
    sessionStorage.removeItem(KEY_ITEM);
    releaseImages();
    setNotice(why);
    setApi(undefined);
  }, []);
  const connect = useCallback((key: string) => new ConsoleApi(key, () => signOut('Your API key is no longer accepted (it may have been revoked). Sign in with another key.')), [signOut]);
  const [api, setApi] = useState<ConsoleApi | undefined>(() => {
    const saved = sessionStorage.getItem(KEY_ITEM);
    return saved ? connect(saved) : undefined;
  });

  const signIn = async (key: string) => {
    const candidate = new ConsoleApi(key);
    try {
      await candidate.spaces();
    } catch (error) {
      if (error instanceof TesseraError && error.status === 401) throw new Error('That key was not accepted. Check that it was copied whole, and that it has not been revoked.');
      if (error instanceof TesseraError && error.code === 'network_error') throw new Error('The server could not be reached. Is Tessera running?');
      throw error;
    }
    sessionStorage.setItem(KEY_ITEM, key);
    setNotice(undefined);
    setApi(connect(key));
  };

  if (!api) return <SignIn onSignIn={signIn} notice={notice} />;
  return <Console api={api} onSignOut={() => signOut()} />;
}
