// `outpost serve --tls-cert --tls-key`: the same port answers REST over https and gRPC over TLS (ALPN h2), with a
// self-signed certificate made for the test by openssl.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '../../src-main/auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from '../../src-main/auth/identity';
import { openEngine, type Engine } from '../../src-main/engine';
import { registry } from '../../src-main/grpc/descriptors';
import { behindTls } from '../../src-main/grpc/onePort';
import { createApiServer, listen } from '../../src-main/http/server';

let dir: string;
let engine: Engine;
let front: ReturnType<typeof behindTls>;
let url: string;
let ca: Buffer;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'outpost-tls-'));
  const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'].concat([
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ]),
    { stdio: 'pipe' },
  );
  ca = readFileSync(cert);
  engine = openEngine(join(dir, 'data'));
  token = createApiKey(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME, 'tls').token;
  front = behindTls(createApiServer(engine), { cert: ca, key: readFileSync(key) });
  url = (await listen(front, 0)).replace(/^http:/, 'https:');
});
afterAll(async () => {
  await new Promise((resolve) => front.close(resolve));
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

it('answers REST over https (HTTP/1.1)', async () => {
  const body = await new Promise<string>((resolve, reject) => {
    request(`${url}/api/v1/ping`, { ca }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(`${res.statusCode} ${text}`));
    })
      .on('error', reject)
      .end();
  });
  expect(body).toBe('200 {"response":"pong"}');
});

it('answers gRPC over TLS (h2 by ALPN) on the same port', async () => {
  const transport = createGrpcTransport({ baseUrl: url, nodeOptions: { ca } });
  const annotations = createClient(registry.getService('sift.annotations.v1.AnnotationService')!, transport) as unknown as {
    listAnnotations(req: object, opt: object): Promise<{ annotations: unknown[]; nextPageToken: string }>;
  };
  const page = await annotations.listAnnotations({ pageSize: 10 }, { headers: { authorization: `Bearer ${token}` } });
  expect(page).toMatchObject({ annotations: [], nextPageToken: '' });
});
