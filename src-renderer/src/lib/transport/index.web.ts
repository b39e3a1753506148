// Browser transport (`outpost serve`): the typed client over HTTP on the page's
// own origin, with the API key adopted from the URL fragment. Uploads go by
// XMLHttpRequest, the one browser API that reports the bytes sent.
import { httpTransport, type Client, type Transport } from '../../../../src-shared/client';
import { adoptApiKey, API_KEY_STORAGE_KEY, type KeyStorage } from './apiKey';
import { sseChangeWatcher, type ChangeWatcher } from './changeWatchers';
import type { SyncWatcher } from './syncUpdates';
import { xhrUpload } from './xhrUpload';

/** How often the browser asks for the sync status (there is no push channel over plain HTTP). */
export const SYNC_POLL_MS = 3_000;

export interface WebTransport {
  readonly transport: Transport;
  /** False when the page was opened without `#key=...` and none is stored. */
  readonly hasKey: boolean;
  forgetKey(): void;
  /** What changed in the engine: the server's change feed (Server-Sent Events). */
  readonly watchChanges: ChangeWatcher;
}

/** What the browser transport uses of the page (XMLHttpRequest is the page's global; a spec hands in its own). */
export type WebWindow = Pick<Window, 'location' | 'history' | 'sessionStorage' | 'fetch'> & {
  readonly XMLHttpRequest?: typeof XMLHttpRequest;
};

export function webTransport(win: WebWindow): WebTransport {
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
  const viaFetch = httpTransport({ baseUrl, apiKey, fetch: doFetch });
  const upload = { baseUrl, apiKey, newXhr: () => new (win.XMLHttpRequest ?? XMLHttpRequest)() };
  return {
    transport: {
      call: (name, op, request, options) =>
        op.input === 'multipart' ? xhrUpload(upload, name, op, request, options) : viaFetch.call(name, op, request, options),
    },
    hasKey: key !== undefined,
    forgetKey: () => storage.removeItem(API_KEY_STORAGE_KEY),
    watchChanges: sseChangeWatcher(doFetch, baseUrl, apiKey),
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
