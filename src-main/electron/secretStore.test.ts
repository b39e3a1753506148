// The safeStorage secret store with a stand-in for Electron's safeStorage.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createMemorySecretStore, createSafeStorageSecretStore, SecretStoreUnavailableError, type SafeStorageLike } from './secretStore';

/** Reversible, but not plain text: enough to show nothing is stored in the clear. */
function fakeSafeStorage(options: { available?: boolean; backend?: string } = {}): SafeStorageLike {
  const flip = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));
  return {
    isEncryptionAvailable: () => options.available ?? true,
    encryptString: (text) => Buffer.concat([Buffer.from('v10'), flip(Buffer.from(text, 'utf8'))]),
    decryptString: (blob) => flip(blob.subarray(3)).toString('utf8'),
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
  };
}

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'outpost-secrets-'));
  dirs.push(d);
  return join(d, 'secrets');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('safeStorage secret store', () => {
  test('stores encrypted blobs, reads them back, deletes them', async () => {
    const dir = tempDir();
    const store = createSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), dir });
    expect(await store.get('remote:https://sift.example')).toBeUndefined();
    await store.set('remote:https://sift.example', 'op_secret-token');
    expect(await store.get('remote:https://sift.example')).toBe('op_secret-token');

    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{64}\.bin$/); // the name is not on disk either
    const blob = readFileSync(join(dir, files[0]));
    expect(blob.toString('utf8')).not.toContain('op_secret-token');
    expect(statSync(join(dir, files[0])).mode & 0o077).toBe(0);

    await store.set('remote:https://sift.example', 'rotated');
    expect(await store.get('remote:https://sift.example')).toBe('rotated');
    await store.delete('remote:https://sift.example');
    expect(await store.get('remote:https://sift.example')).toBeUndefined();
    await store.delete('remote:https://sift.example'); // deleting twice is fine
  });

  test('a second store over the same directory sees the secrets', async () => {
    const dir = tempDir();
    await createSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), dir }).set('k', 'v');
    expect(await createSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), dir }).get('k')).toBe('v');
  });

  test('refuses to store without OS encryption or with the basic_text backend', async () => {
    await expect(
      createSafeStorageSecretStore({ safeStorage: fakeSafeStorage({ available: false }), dir: tempDir() }).set('k', 'v'),
    ).rejects.toBeInstanceOf(SecretStoreUnavailableError);
    const weak = fakeSafeStorage({ backend: 'basic_text' });
    await expect(createSafeStorageSecretStore({ safeStorage: weak, dir: tempDir() }).set('k', 'v')).rejects.toThrow(/basic_text/);
    const allowed = createSafeStorageSecretStore({ safeStorage: weak, dir: tempDir(), allowWeakBackend: true });
    await allowed.set('k', 'v');
    expect(await allowed.get('k')).toBe('v');
  });

  test('rejects invalid names', async () => {
    const store = createSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), dir: tempDir() });
    await expect(store.set('', 'v')).rejects.toThrow(/invalid secret name/);
    await expect(store.get('a b')).rejects.toThrow(/invalid secret name/);
    await expect(store.get('line\nbreak')).rejects.toThrow(/invalid secret name/);
  });

  test('takes any remote URL as a name (~ % + and the like), never as a file name', async () => {
    const dir = tempDir();
    const store = createSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), dir });
    const name = 'remote:https://sift.example.com/~team/api%2Bv1?x=a+b';
    await store.set(name, 'key-1');
    expect(await store.get(name)).toBe('key-1');
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.bin$/)]);
  });
});

describe('memory secret store', () => {
  test('get / set / delete', async () => {
    const store = createMemorySecretStore();
    await store.set('k', 'v');
    expect(await store.get('k')).toBe('v');
    await store.delete('k');
    expect(await store.get('k')).toBeUndefined();
  });
});
