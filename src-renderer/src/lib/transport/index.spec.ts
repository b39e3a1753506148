import { describe, expect, test } from 'vitest';
import { API_KEY_STORAGE_KEY } from './apiKey';
import type { OutpostBridge } from './bridge';
import { connect } from './index';

function fakeWindow(options: { hash?: string; bridge?: OutpostBridge; fetch?: typeof fetch } = {}) {
  const storage = new Map<string, string>();
  const replaced: string[] = [];
  const win = {
    outpost: options.bridge,
    location: { hash: options.hash ?? '', pathname: '/', search: '', origin: 'http://127.0.0.1:4280' },
    history: { state: null, replaceState: (_s: unknown, _t: string, url: string) => void replaced.push(url) },
    sessionStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
      removeItem: (k: string) => void storage.delete(k),
    },
    fetch: options.fetch ?? (async () => new Response('{}')),
  };
  return { win: win as unknown as Window, storage, replaced };
}

describe('connect', () => {
  test('uses IPC when the preload exposed window.outpost', async () => {
    const operations: string[] = [];
    const bridge: OutpostBridge = {
      invoke: async (operation) => (operations.push(operation), { ok: true, data: { response: 'pong' } }),
      onEvent: () => () => {},
    };
    const connection = connect(fakeWindow({ bridge }).win);
    expect(connection.platform).toBe('desktop');
    expect(connection.hasKey).toBe(true);
    await expect(connection.client.Ping()).resolves.toEqual({ response: 'pong' });
    expect(operations).toEqual(['Ping']);
  });

  test('uses HTTP on the page origin with the key from the fragment', async () => {
    const requests: { url: string; auth: string | null }[] = [];
    const fetchSpy = (async (url: URL | string, init?: RequestInit) => {
      requests.push({ url: String(url), auth: new Headers(init?.headers).get('Authorization') });
      return new Response(JSON.stringify({ annotations: [], nextPageToken: '' }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }) as typeof fetch;
    const { win, storage, replaced } = fakeWindow({ hash: '#key=op_123', fetch: fetchSpy });
    const connection = connect(win);
    expect(connection.platform).toBe('web');
    expect(connection.hasKey).toBe(true);
    expect(storage.get(API_KEY_STORAGE_KEY)).toBe('op_123');
    expect(replaced).toEqual(['/']);
    await connection.client.ListAnnotations({ pageSize: 5 });
    expect(requests).toEqual([{ url: 'http://127.0.0.1:4280/api/v1/annotations?page_size=5', auth: 'Bearer op_123' }]);
  });

  test('reports a missing key on the web', () => {
    expect(connect(fakeWindow().win).hasKey).toBe(false);
  });
});
