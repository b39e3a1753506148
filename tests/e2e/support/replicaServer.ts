// `outpost serve` as a fresh replica for the sync e2e test: an empty data
// directory, the built renderer, and the background sync `outpost serve`
// runs (src-main/cli.ts), with long intervals so runs happen when the test
// asks (connect, "Sync now") rather than on a timer.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, httpTransport, type Client } from '../../../src-shared/client';
import { createApiKey } from '../../../src-main/auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from '../../../src-main/auth/identity';
import { openEngine, type Engine } from '../../../src-main/engine';
import { createApiServer, listen } from '../../../src-main/http/server';
import { BackgroundSync } from '../../../src-main/sync/backgroundSync';
import { dataDirSecretStore } from '../../../src-main/sync/secretStore';

export interface ReplicaServer {
  readonly url: string;
  readonly appUrl: string;
  readonly engine: Engine;
  readonly dataDir: string;
  readonly client: Client;
  readonly sync: BackgroundSync;
  close(): Promise<void>;
}

export async function startReplicaServer(staticDir: string): Promise<ReplicaServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-replica-'));
  const engine = openEngine(dataDir);
  const sync = new BackgroundSync({ engine, secrets: dataDirSecretStore(dataDir), intervalMs: 3_600_000, afterEditMs: 3_600_000 });
  await sync.start();
  const server: Server = createApiServer(engine, { staticDir });
  const url = await listen(server, 0, '127.0.0.1');
  const { token } = createApiKey(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME, 'e2e replica');
  return {
    url,
    appUrl: `${url}/#key=${token}`,
    engine,
    dataDir,
    client: createClient(httpTransport({ baseUrl: url, apiKey: token })),
    sync,
    async close() {
      await sync.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
