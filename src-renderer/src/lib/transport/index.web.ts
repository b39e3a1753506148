// Browser transport (`outpost serve`): the typed client over HTTP on the page's
// own origin, with the API key adopted from the URL fragment.
import { httpTransport, type Client, type Transport } from '../../../../src-shared/client';
import { adoptApiKey, API_KEY_STORAGE_KEY, type KeyStorage } from './apiKey';
import type { SyncWatcher } from './syncUpdates';

/** How often the browser asks for the sync status (there is no push channel over plain HTTP). */
export const SYNC_POLL_MS = 3_000;

export interface WebTransport {
  readonly transport: Transport;
  /** False when the page was opened without `#key=...` and none is stored. */
  readonly hasKey: boolean;
  forgetKey(): void;
}

export function webTransport(win: Pick<Window, 'location' | 'history' | 'sessionStorage' | 'fetch'>): WebTransport {
  const storage: KeyStorage = win.sessionStorage;
  const key = adoptApiKey(
    {
      hash: win.location.hash,
      pathname: win.location.pathname,
      search: win.location.search,
      replace: (url) => win.history.replaceState(win.history.state, '', url),
    },
    storage,
  );
  const apiKey = () => storage.getItem(API_KEY_STORAGE_KEY) ?? key;
  const doFetch = win.fetch.bind(win);
  const baseUrl = win.location.origin;
  // (Uploads too: the shared transport sends a File as multipart/form-data.)
  return {
    transport: httpTransport({ baseUrl, apiKey, fetch: doFetch }),
    hasKey: key !== undefined,
    forgetKey: () => storage.removeItem(API_KEY_STORAGE_KEY),
  };
}

/** Sync status in the browser: GetSyncStatus now and every `intervalMs` while someone listens. */
export function pollingSyncWatcher(client: Client, intervalMs = SYNC_POLL_MS): SyncWatcher {
  return (listener) => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const status = await client.GetSyncStatus({});
        if (!stopped) listener({ kind: 'status', status, running: status.state === 'syncing' });
      } catch (error) {
        if (!stopped) listener({ kind: 'error', error });
      }
      // The next poll is timed from this answer: a slow server is never asked twice at once.
      if (!stopped) timer = setTimeout(() => void poll(), intervalMs);
    };
    void poll();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  };
}
