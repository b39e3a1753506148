// Secrets (remote API keys) for the desktop app: encrypted with Electron
// safeStorage (Keychain / DPAPI / libsecret) and stored as opaque blobs in the
// data directory, never as plain text and never in the renderer.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SecretStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** The part of Electron's `safeStorage` the store uses (injectable for tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: `basic_text` means a hard-coded key, i.e. no real protection. */
  getSelectedStorageBackend?(): string;
}

export class SecretStoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretStoreUnavailableError';
  }
}

// Names are remote URLs (`remote:<normalized url>`): any printable ASCII a URL may hold (~ % + included).
// Files are named by hash, so a name never reaches the file system.
const NAME = /^[\x21-\x7e]{1,2048}$/;

function checkName(name: string): void {
  if (!NAME.test(name)) throw new TypeError(`invalid secret name '${name}' (1-2048 printable ASCII characters, no spaces)`);
}

/** File name of a secret: a hash, so names (e.g. remote URLs) never appear on disk. */
function fileFor(dir: string, name: string): string {
  return join(dir, `${createHash('sha256').update(name).digest('hex')}.bin`);
}

export interface SafeStorageSecretStoreOptions {
  readonly safeStorage: SafeStorageLike;
  /** Directory of the encrypted blobs (e.g. `<data dir>/secrets`). */
  readonly dir: string;
  /** Accept Linux's `basic_text` backend (obfuscation only). Off by default. */
  readonly allowWeakBackend?: boolean;
}

export function createSafeStorageSecretStore(options: SafeStorageSecretStoreOptions): SecretStore {
  const { safeStorage, dir } = options;
  const assertAvailable = () => {
    if (!safeStorage.isEncryptionAvailable()) throw new SecretStoreUnavailableError('the operating system secret storage is not available');
    if (!options.allowWeakBackend && safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
      throw new SecretStoreUnavailableError('no OS keyring is available (safeStorage backend is basic_text); refusing to store secrets');
    }
  };
  return {
    async get(name) {
      checkName(name);
      const file = fileFor(dir, name);
      if (!existsSync(file)) return undefined;
      assertAvailable();
      return safeStorage.decryptString(readFileSync(file));
    },
    async set(name, value) {
      checkName(name);
      assertAvailable();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = fileFor(dir, name);
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, safeStorage.encryptString(value), { mode: 0o600 });
      renameSync(tmp, file); // atomic replace: a crash never leaves half a secret
    },
    async delete(name) {
      checkName(name);
      rmSync(fileFor(dir, name), { force: true });
    },
  };
}

/** In-memory store for tests and headless runs (nothing persists). */
export function createMemorySecretStore(): SecretStore {
  const values = new Map<string, string>();
  return {
    async get(name) {
      checkName(name);
      return values.get(name);
    },
    async set(name, value) {
      checkName(name);
      values.set(name, value);
    },
    async delete(name) {
      checkName(name);
      values.delete(name);
    },
  };
}
