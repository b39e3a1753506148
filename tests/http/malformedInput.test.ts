// Malformed input is the request's error, never the server's (issue #28
// items 6, 7, 9): text that is not valid Unicode anywhere in a request (a lone
// surrogate in Cedar text, invalid UTF-8 in a body or a query) is a 400
// naming the field; a malformed or empty path id is 400, an unknown path 404,
// and 501 is left to a known path asked with a method it lacks; 10,000 short
// headers are over the 64 KiB header limit like one long one; an HTTP/1.1
// request without Host gets the contract's error body.
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../support/testServer';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

/** A raw request (fetch refuses malformed paths and cannot send invalid UTF-8 as text). */
function raw(method: string, path: string, body?: Buffer | string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const h: Record<string, string> = { Authorization: `Bearer ${s.token}`, ...headers };
    if (body !== undefined) {
      h['Content-Type'] = 'application/json';
      h['Content-Length'] = String(Buffer.byteLength(body));
    }
    const req = request(`${s.url}${path}`, { method, headers: h }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The bytes a client sent and the server's whole answer, over a plain socket. */
function onTheWire(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(s.url).port), '127.0.0.1');
    let got = '';
    socket.on('data', (c: Buffer) => (got += c.toString('latin1')));
    socket.on('end', () => resolve(got));
    socket.on('error', reject);
    socket.end(bytes);
  });
}

const violation = (res: { status: number; body: any }, field: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({ code: 3 });
  expect(res.body.details[0].fieldViolations.map((v: { field: string }) => v.field)).toContain(field);
  expect(res.body.message).not.toMatch(/\n\s+at /);
};

describe('text that is not valid Unicode', () => {
  test.each([
    ['POST', '/api/v1/policies:validate', '{"cedarPolicy":"\\ud800"}', 'cedar_policy'],
    [
      'POST',
      '/api/v1/policies',
      '{"name":"p","configuration":{"cedarPolicy":"permit(principal, action, resource) when { \\"\\udc00\\" == \\"\\" };"}}',
      'configuration.cedar_policy',
    ],
    ['POST', '/api/v1/assets', '{"name":"rig \\ud83d"}', 'name'],
    ['POST', '/api/v1/annotations', '{"name":"x","tags":["ok","\\ud800\\ud800"]}', 'tags[1]'],
  ])('%s %s with a lone surrogate: 400 naming %s, nothing stored', async (method, path, body, field) => {
    const before = s.engine.db.get<{ n: number }>('SELECT (SELECT count(*) FROM policies) + (SELECT count(*) FROM assets) AS n')!.n;
    violation(await raw(method, path, body), field);
    expect(s.engine.db.get<{ n: number }>('SELECT (SELECT count(*) FROM policies) + (SELECT count(*) FROM assets) AS n')!.n).toBe(before);
  });

  test('a well-formed pair (an emoji) is text like any other', async () => {
    const res = await raw(
      'POST',
      '/api/v1/policies:validate',
      JSON.stringify({ cedarPolicy: 'permit(principal, action, resource); // 🚀' }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  test('a JSON body that is not UTF-8 is refused, not read as U+FFFD', async () => {
    const res = await raw(
      'POST',
      '/api/v1/assets',
      Buffer.concat([Buffer.from('{"name":"rig '), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
    );
    violation(res, 'body');
  });

  test('a query value whose escapes are not UTF-8 is refused naming the parameter', async () => {
    violation(await raw('GET', '/api/v1/annotations?filter=name%20%3D%3D%20%22%ED%A0%80%22'), 'filter');
    violation(await raw('GET', '/api/v1/annotations?page_token=%zz'), 'page_token');
  });
});

describe('malformed and empty path ids', () => {
  test.each([
    ['GET', '/api/v1/annotations/%zz', 'annotation_id'],
    ['GET', '/api/v1/annotations/%ED%A0%80', 'annotation_id'],
    ['POST', '/api/v1/annotations/:archive', 'annotation_id'],
    ['POST', '/api/v1/annotations/%E0%A4%A:archive', 'annotation_id'],
    ['DELETE', '/api/v1/annotations/', 'annotation_id'],
    ['GET', '/api/v1/annotations//logs', 'annotation_id'],
  ])('%s %s: 400 naming %s (not 501)', async (method, path, field) => {
    violation(await raw(method, path), field);
  });

  test('a malformed id is 400 whatever the method, a path no operation has 404, and a known path with a method it lacks stays 501 Method Not Allowed (the gateway’s answer)', async () => {
    violation(await raw('POST', '/api/v1/annotations/%zz'), 'annotation_id');
    violation(await raw('OPTIONS', '/api/v1/artifacts/:unarchive'), 'artifact_id');
    expect(await raw('GET', '/api/v1/nothing-here')).toMatchObject({ status: 404 });
    expect(await raw('DELETE', '/api/v1/annotations')).toMatchObject({ status: 501, body: { code: 12, message: 'Method Not Allowed' } });
  });
});

describe('headers and Host', () => {
  test('10,000 short headers (over 64 KiB in all) get 431 with the contract body, as one long header does', async () => {
    const headers = Array.from({ length: 10_000 }, (_, i) => `X-H${i}: v\r\n`).join('');
    expect(headers.length).toBeGreaterThan(64 * 1024);
    const answer = await onTheWire(`GET /api/v1/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 3,
      message: expect.stringContaining('request headers exceed'),
    });
  });

  test('an HTTP/1.1 request without Host gets 400 with the contract body; HTTP/1.0 needs none', async () => {
    const answer = await onTheWire('GET /api/v1/ping HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ code: 3, details: [{ fieldViolations: [{ field: 'host' }] }] });
    expect(await onTheWire('GET /api/v1/ping HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });
});
