// Starts a real `outpost serve` engine on a loopback port with a fresh data
// directory, and gives tests a raw `api()` (fetch) and a typed client.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, httpTransport, type Client } from '../../src-shared/client';
import { createApiKey } from '../../src-main/auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from '../../src-main/auth/identity';
import { openEngine } from '../../src-main/engine';
import { createApiServer, listen } from '../../src-main/http/server';
import { syncReplica } from '../../src-main/sync/assembly/syncReplica';
import type { ReplicaEngine } from '../../src-main/sync/replica';

export interface TestServer {
  readonly url: string;
  readonly engine: ReplicaEngine;
  readonly dataDir: string;
  readonly token: string;
  readonly client: Client;
  /** fetch against the server with the default token; returns status and parsed JSON. */
  api(method: string, path: string, body?: unknown, token?: string | null): Promise<{ status: number; body: any; headers: Headers }>;
  clientFor(token: string): Client;
  newToken(user: string, org?: string): string;
  close(): Promise<void>;
}

export async function startTestServer(options: { dataDir?: string } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'outpost-test-'));
  const engine = openEngine(dataDir, { replica: syncReplica() });
  const server: Server = createApiServer(engine);
  const url = await listen(server, 0);
  // The data directory owner's key, as `outpost serve` prints it; newToken() makes other users' keys.
  const token = createApiKey(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME, 'owner', { owner: true }).token;
  const clientFor = (t: string) => createClient(httpTransport({ baseUrl: url, apiKey: t }));
  return {
    url,
    engine,
    dataDir,
    token,
    client: clientFor(token),
    clientFor,
    newToken: (user, org = DEFAULT_ORGANIZATION_NAME) => createApiKey(engine.db, user, org).token,
    async api(method, path, body, tok = token) {
      const headers: Record<string, string> = {};
      if (tok) headers.Authorization = `Bearer ${tok}`;
      let payload: string | undefined;
      if (body !== undefined) {
        payload = typeof body === 'string' ? body : JSON.stringify(body);
        headers['Content-Type'] = 'application/json';
      }
      const res = await fetch(url + path, { method, headers, body: payload });
      const text = await res.text();
      let json: unknown = text;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        /* non-JSON body is returned as text */
      }
      return { status: res.status, body: json, headers: res.headers };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      engine.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
