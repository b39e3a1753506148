// The browser build (`outpost serve`) gets its API key in the URL fragment
// (`#key=...`, never sent to the server in a request). It is kept in
// sessionStorage (survives a reload, not the tab) and removed from the
// address bar so it does not end up in history, bookmarks or screenshots.

export const API_KEY_STORAGE_KEY = 'outpost.apiKey';

/** The `key` parameter of a URL fragment (`#key=...` or `#a=b&key=...`), if any. */
export function keyFromFragment(hash: string): string | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const key = params.get('key')?.trim();
  return key ? key : undefined;
}

/** The fragment with `key` removed ('' when nothing else is left). */
export function fragmentWithoutKey(hash: string): string {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  params.delete('key');
  const rest = params.toString();
  return rest ? `#${rest}` : '';
}

export interface KeyStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface AddressBar {
  readonly hash: string;
  readonly pathname: string;
  readonly search: string;
  /** history.replaceState(null, '', url) */
  replace(url: string): void;
}

/**
 * Takes the key from the fragment (storing it and cleaning the address bar),
 * or falls back to the stored one. Returns undefined when there is none.
 */
export function adoptApiKey(address: AddressBar, storage: KeyStorage): string | undefined {
  const fromUrl = keyFromFragment(address.hash);
  if (fromUrl) {
    storage.setItem(API_KEY_STORAGE_KEY, fromUrl);
    address.replace(`${address.pathname}${address.search}${fragmentWithoutKey(address.hash)}`);
    return fromUrl;
  }
  return storage.getItem(API_KEY_STORAGE_KEY) ?? undefined;
}
