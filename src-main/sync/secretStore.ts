// Where a remote profile's API key lives. The desktop app passes its Electron
// safeStorage implementation (src-main/electron/secretStore.ts, same shape);
// serve/CLI mode uses the file store below: one JSON file in the data
// directory, created and kept with 0600 permissions.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface SecretStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

export const SECRETS_FILE = 'sync-secrets.json';

function createFileSecretStore(file: string): SecretStore {
  const read = (): Record<string, string> => {
    if (!existsSync(file)) return {};
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  };
  const write = (data: Record<string, string>) => {
    mkdirSync(dirname(file), { recursive: true });
    if (Object.keys(data).length === 0) {
      rmSync(file, { force: true });
      return;
    }
    // Written to a private temp file and renamed: the secret is never readable by others, even briefly.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data, null, 2), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  };
  return {
    async get(name) {
      return read()[name];
    },
    async set(name, value) {
      write({ ...read(), [name]: value });
    },
    async delete(name) {
      const data = read();
      if (!(name in data)) return;
      delete data[name];
      write(data);
    },
  };
}

/** The file store of a data directory (serve / CLI mode). */
export const dataDirSecretStore = (dataDir: string) => createFileSecretStore(join(dataDir, SECRETS_FILE));

/** In memory (tests, one-shot runs that must not persist the key). */
export function createMemorySecretStore(): SecretStore {
  const data = new Map<string, string>();
  return {
    get: async (name) => data.get(name),
    set: async (name, value) => void data.set(name, value),
    delete: async (name) => void data.delete(name),
  };
}
