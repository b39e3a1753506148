// Browser transport (`outpost serve`): the typed client over HTTP on the page's
// own origin, with the API key adopted from the URL fragment.
import { httpTransport, type Transport } from '../../../../src-shared/client';
import { adoptApiKey, API_KEY_STORAGE_KEY, type KeyStorage } from './apiKey';
import { withMultipart } from './multipart';

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
  return {
    transport: withMultipart(httpTransport({ baseUrl, apiKey, fetch: doFetch }), { baseUrl, apiKey, fetch: doFetch }),
    hasKey: key !== undefined,
    forgetKey: () => storage.removeItem(API_KEY_STORAGE_KEY),
  };
}
