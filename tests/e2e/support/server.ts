// A real `outpost serve` in-process for e2e tests: fresh data directory, demo
// data (or none), the built renderer at / and the API at /api, on a loopback
// port; optionally the background sync `outpost serve` runs (src-main/cli.ts),
// with long intervals so runs happen when the test asks (connect, "Sync now")
// rather than on a timer.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, httpTransport, type Client } from '../../../src-shared/client';
import { createApiKey } from '../../../src-main/auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from '../../../src-main/auth/identity';
import { openEngine, type Engine } from '../../../src-main/engine';
import { syncReplica } from '../../../src-main/sync/assembly/syncReplica';
import { createApiServer, listen } from '../../../src-main/http/server';
import { seedDemoData, type SeedCounts } from '../../../src-main/seed/seedDemoData';
import { BackgroundSync } from '../../../src-main/sync/backgroundSync';

export interface E2eServer {
  readonly url: string;
  /** The address `outpost serve` prints: the app with the API key in the fragment. */
  readonly appUrl: string;
  readonly token: string;
  readonly engine: Engine;
  readonly client: Client;
  /** Undefined when started with `seed: false`. */
  readonly seeded: SeedCounts | undefined;
  /** Set when started with `backgroundSync: true`. */
  readonly sync: BackgroundSync | undefined;
  /** Stops answering (the port closes, open connections drop): a remote gone offline. */
  stopListening(): Promise<void>;
  /** Answers again on the same port. */
  listenAgain(): Promise<void>;
  close(): Promise<void>;
}

export interface E2eServerOptions {
  readonly annotations?: number;
  /** Load the demo dataset (default true); a replica starts empty. */
  readonly seed?: boolean;
  /** Run the background sync as `outpost serve` does. */
  readonly backgroundSync?: boolean;
  /** With background sync: how soon after a local edit it runs (default an hour: runs happen when the test asks). */
  readonly afterEditMs?: number;
}

export async function startE2eServer(staticDir: string, options: E2eServerOptions = {}): Promise<E2eServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-'));
  const engine = openEngine(dataDir, { replica: syncReplica() });
  const seeded = options.seed === false ? undefined : seedDemoData(engine.db, { annotations: options.annotations });
  const sync = options.backgroundSync
    ? new BackgroundSync({ engine, intervalMs: 3_600_000, afterEditMs: options.afterEditMs ?? 3_600_000 })
    : undefined;
  await sync?.start();
  let server: Server = createApiServer(engine, { staticDir });
  const url = await listen(server, 0, '127.0.0.1');
  const stopListening = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  const { token } = createApiKey(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME, 'e2e', { owner: true });
  return {
    url,
    appUrl: `${url}/#key=${token}`,
    token,
    engine,
    client: createClient(httpTransport({ baseUrl: url, apiKey: token })),
    seeded,
    sync,
    stopListening,
    async listenAgain() {
      server = createApiServer(engine, { staticDir });
      await listen(server, Number(new URL(url).port), '127.0.0.1');
    },
    async close() {
      await sync?.stop();
      if (server.listening) await stopListening();
      engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
