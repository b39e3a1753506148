import { describe, expect, test } from 'vitest';
import { adoptApiKey, API_KEY_STORAGE_KEY, fragmentWithoutKey, keyFromFragment, type AddressBar, type KeyStorage } from './apiKey';

function memoryStorage(initial: Record<string, string> = {}): KeyStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (k) => data[k] ?? null,
    setItem: (k, v) => void (data[k] = v),
    removeItem: (k) => void delete data[k],
  };
}

function address(hash: string): AddressBar & { replaced: string[] } {
  const replaced: string[] = [];
  return { hash, pathname: '/', search: '', replace: (url) => void replaced.push(url), replaced };
}

describe('keyFromFragment', () => {
  test('reads key= from the fragment', () => {
    expect(keyFromFragment('#key=op_abc-_123')).toBe('op_abc-_123');
    expect(keyFromFragment('#/policies&key=op_x')).toBe('op_x');
    expect(keyFromFragment('')).toBeUndefined();
    expect(keyFromFragment('#key=')).toBeUndefined();
    expect(keyFromFragment('#/annotations')).toBeUndefined();
  });

  test('fragmentWithoutKey keeps the rest', () => {
    expect(fragmentWithoutKey('#key=op_abc')).toBe('');
    expect(fragmentWithoutKey('#view=x&key=op_abc')).toBe('#view=x');
  });
});

describe('adoptApiKey', () => {
  test('stores the key from the URL and removes it from the address bar', () => {
    const storage = memoryStorage();
    const bar = address('#key=op_fresh');
    expect(adoptApiKey(bar, storage)).toBe('op_fresh');
    expect(storage.data[API_KEY_STORAGE_KEY]).toBe('op_fresh');
    expect(bar.replaced).toEqual(['/']);
  });

  test('a key in the URL replaces a stored one', () => {
    const storage = memoryStorage({ [API_KEY_STORAGE_KEY]: 'op_old' });
    expect(adoptApiKey(address('#key=op_new'), storage)).toBe('op_new');
    expect(storage.data[API_KEY_STORAGE_KEY]).toBe('op_new');
  });

  test('falls back to the stored key after a reload, without touching the address bar', () => {
    const bar = address('#/policies');
    expect(adoptApiKey(bar, memoryStorage({ [API_KEY_STORAGE_KEY]: 'op_kept' }))).toBe('op_kept');
    expect(bar.replaced).toEqual([]);
  });

  test('no key anywhere', () => {
    expect(adoptApiKey(address(''), memoryStorage())).toBeUndefined();
  });
});
