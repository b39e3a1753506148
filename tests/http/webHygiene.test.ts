// What `outpost serve` does for the browser side (issue #19, items 5-7): a
// request for another Host is refused (DNS rebinding) and absolute URLs name
// the bound address; user content is never served as runnable content of this
// origin; a filter as long as the engine allows fits in the request line, and
// anything over the header limit is answered with the contract's error body.
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_FILTER_LENGTH } from '../../src-main/filter/limits';
import { MAX_HEADER_BYTES } from '../../src-main/http/server';
import { startTestServer, type TestServer } from '../support/testServer';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

/** A raw GET with the headers given (fetch would not let a test set Host). */
function get(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${s.url}${path}`, { headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('Host check (DNS rebinding)', () => {
  test.each(['evil.example:4280', 'attacker.test', '10.0.0.8:80'])(
    'Host %s is refused with PERMISSION_DENIED and the error body',
    async (host) => {
      const res = await get('/api/v1/annotations', { Host: host, Authorization: `Bearer ${s.token}` });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ code: 7, message: expect.stringContaining('DNS rebinding') });
    },
  );

  test('the bound address and localhost are served', async () => {
    const port = new URL(s.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST']) {
      expect((await get('/api/v1/ping', { Host: host })).status).toBe(200);
    }
  });

  test('download URLs name the bound address, whatever Host the request named', async () => {
    const form = new FormData();
    form.append('entityId', randomUUID());
    form.append('entityType', 'runs');
    form.append('file', new Blob(['x']), 'x.bin');
    const up = await fetch(`${s.url}/api/v0/remote-files/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.token}` },
      body: form,
    });
    const id = ((await up.json()) as { remoteFile: { remoteFileId: string } }).remoteFile.remoteFileId;
    const res = await get(`/api/v1/remote-files/${id}/download-url`, {
      Host: `localhost:${new URL(s.url).port}`,
      Authorization: `Bearer ${s.token}`,
    });
    expect(JSON.parse(res.body).downloadUrl.startsWith(`${s.url}/api/v1/remote-files/${id}/content`)).toBe(true);
  });
});

describe('user content', () => {
  test.each([
    ['evil.js', 'text/javascript', 'alert(document.domain)'],
    ['page.html', 'text/html', '<script>alert(1)</script>'],
    ['image.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
  ])('%s is served inert: bytes, attachment, nosniff, a sandbox CSP', async (name, type, content) => {
    const form = new FormData();
    form.append('entityId', randomUUID());
    form.append('entityType', 'runs');
    form.append('file', new Blob([content], { type }), name);
    const up = await fetch(`${s.url}/api/v0/remote-files/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.token}` },
      body: form,
    });
    expect(up.status).toBe(200);
    const id = ((await up.json()) as { remoteFile: { remoteFileId: string } }).remoteFile.remoteFileId;
    const { body } = await s.api('GET', `/api/v1/remote-files/${id}/download-url`);
    const res = await fetch(body.downloadUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox/);
    expect(await res.text()).toBe(content);
  });
});

describe('request size limits', () => {
  test('a filter of 500 UUIDs (the engine allows 500 list elements) fits in the query string', async () => {
    const ids = Array.from({ length: 500 }, () => `"${randomUUID()}"`).join(', ');
    const filter = `annotation_id in [${ids}]`;
    expect(filter.length).toBeLessThan(MAX_FILTER_LENGTH);
    const res = await s.api('GET', `/api/v1/annotations?filter=${encodeURIComponent(filter)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ annotations: [], nextPageToken: '' });
  });

  test('headers over the limit get 431 with the contract error body, not a bare status', async () => {
    const res = await get(`/api/v1/annotations?filter=${'x'.repeat(MAX_HEADER_BYTES + 10)}`, { Authorization: `Bearer ${s.token}` });
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toMatchObject({ code: 3, message: expect.stringContaining('request headers exceed') });
  });

  test('a HEAD over the header limit gets its 431 without a body (a client reads one as garbage after the answer)', async () => {
    const long = 'x'.repeat(MAX_HEADER_BYTES + 10);
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${s.url}/api/v1/annotations?filter=${long}`,
        { method: 'HEAD', headers: { Authorization: `Bearer ${s.token}` } },
        (r) => {
          let body = '';
          r.on('data', (c: Buffer) => (body += c.toString()));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(res).toEqual({ status: 431, body: '' });
    // On the wire: nothing after the head, also when the request line and the oversized header come in separate packets.
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(s.url).port), '127.0.0.1');
      let got = '';
      socket.on('data', (c: Buffer) => (got += c.toString('latin1')));
      socket.on('end', () => resolve(got));
      socket.on('error', reject);
      socket.write('HEAD /api/v1/annotations HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      setTimeout(() => socket.write(`X-Long: ${long}\r\n\r\n`), 50);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(raw.endsWith('\r\n\r\n')).toBe(true);
  });

  test('a JSON body over the limit is refused and the connection closed, not left half-open', async () => {
    const big = Buffer.alloc(17 * 1024 * 1024, 0x20);
    const res = await new Promise<{ status: number; connection: unknown; body: string }>((resolve, reject) => {
      const req = request(
        `${s.url}/api/v1/annotations`,
        { method: 'POST', headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' } },
        (r) => {
          let body = '';
          r.on('data', (c: Buffer) => (body += c.toString()));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, connection: r.headers.connection, body }));
        },
      );
      req.on('error', reject);
      req.end(big);
    });
    expect(res.status).toBe(400);
    expect(res.connection).toBe('close');
    expect(JSON.parse(res.body)).toMatchObject({ code: 3, details: [{ fieldViolations: [{ field: 'body' }] }] });
  });
});
