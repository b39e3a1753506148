// A real `outpost serve` in-process for e2e tests: fresh data directory, demo
// data, the built renderer at / and the API at /api, on a loopback port.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, httpTransport, type Client } from '../../../src-shared/client';
import { createApiKey } from '../../../src-main/auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from '../../../src-main/auth/identity';
import { openEngine, type Engine } from '../../../src-main/engine';
import { createApiServer, listen } from '../../../src-main/http/server';
import { seedDemoData, type SeedCounts } from '../../../src-main/seed/seedDemoData';

export interface E2eServer {
  readonly url: string;
  /** The address `outpost serve` prints: the app with the API key in the fragment. */
  readonly appUrl: string;
  readonly token: string;
  readonly engine: Engine;
  readonly client: Client;
  readonly seeded: SeedCounts;
  close(): Promise<void>;
}

export async function startE2eServer(staticDir: string, options: { annotations?: number } = {}): Promise<E2eServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-'));
  const engine = openEngine(dataDir);
  const seeded = seedDemoData(engine.db, { annotations: options.annotations });
  const server: Server = createApiServer(engine, { staticDir });
  const url = await listen(server, 0, '127.0.0.1');
  const { token } = createApiKey(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME, 'e2e');
  return {
    url,
    appUrl: `${url}/#key=${token}`,
    token,
    engine,
    client: createClient(httpTransport({ baseUrl: url, apiKey: token })),
    seeded,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
