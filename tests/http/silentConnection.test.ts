// A connection that never sends a byte (a browser's preconnected socket) is
// neither HTTP/1.1 nor HTTP/2 yet: closing the server ends it, and left alone
// it ends after the header timeout, as a slow request would.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openEngine, type Engine } from '../../src-main/engine';
import { createApiServer, listen } from '../../src-main/http/server';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

async function serverWithSilentClient(headersTimeout?: number) {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-silent-'));
  const engine: Engine = openEngine(dir);
  const server = createApiServer(engine);
  if (headersTimeout) server.headersTimeout = headersTimeout;
  const url = new URL(await listen(server, 0, '127.0.0.1'));
  const client: Socket = connect(Number(url.port), '127.0.0.1');
  await new Promise((r) => client.once('connect', r));
  const clientClosed = new Promise<void>((r) => client.once('close', () => r()));
  client.on('error', () => {});
  cleanups.push(() => {
    client.destroy();
    server.close();
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { server, clientClosed };
}

test('closing the server ends a connection that never spoke, and the close completes', async () => {
  const { server, clientClosed } = await serverWithSilentClient();
  await new Promise((r) => setTimeout(r, 50)); // the server has accepted it
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  await clientClosed;
  expect(server.listening).toBe(false);
});

test('left alone, a silent connection is ended after the header timeout', async () => {
  const { server, clientClosed } = await serverWithSilentClient(300);
  await clientClosed;
  expect(server.listening).toBe(true);
});
