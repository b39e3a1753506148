// Requests that used to end a real `outpost serve` process (issue #19, items
// 1 and 2): a malformed percent-escape in a static path, a multipart body cut
// before its closing boundary, an upload onto a full disk. Each is answered
// with the contract's error body, leaves no temp file, and the same process
// answers the next request.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SECRETS_FILE } from '../../src-main/sync/secretStore';

const OUTPOST = fileURLToPath(new URL('../../bin/outpost.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'outpost-survives-'));
const staticDir = mkdtempSync(join(tmpdir(), 'outpost-static-'));
let child: ChildProcess;
let base: string;
let key: string;
let log = '';

beforeAll(async () => {
  mkdirSync(staticDir, { recursive: true });
  execFileSync('sh', ['-c', `echo '<!doctype html><title>app</title>' > ${join(staticDir, 'index.html')}`]);
  child = spawn(process.execPath, [OUTPOST, 'serve', '--data', dir, '--port', '0', '--static', staticDir, '--no-sync'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      log += c.toString();
      const url = /API: (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(log)?.[1];
      if (url && /Sync: /.test(log)) resolve(url);
    });
    child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${log}`)));
  });
  key = JSON.parse(readFileSync(join(dir, SECRETS_FILE), 'utf8'))['serve.owner-session-key'];
});

afterAll(() => {
  child.kill('SIGKILL');
  if (existsSync(join(dir, 'tmp')) && process.getuid?.() === 0)
    execFileSync('sh', ['-c', `umount ${join(dir, 'tmp')} 2>/dev/null || true`]);
  rmSync(dir, { recursive: true, force: true });
  rmSync(staticDir, { recursive: true, force: true });
});

/** A raw request (fetch would refuse to send a malformed path), resolved with status and body. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

async function stillServing(): Promise<void> {
  expect(child.exitCode).toBeNull();
  const ping = await raw('GET', '/api/v1/ping');
  expect(ping).toEqual({ status: 200, body: '{"response":"pong"}' });
}

const BOUNDARY = 'outpost-test-boundary';
const uploadHeaders = () => ({ Authorization: `Bearer ${key}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` });
const part = (content: Buffer) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="entityType"\r\n\r\nannotations\r\n`),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
  ]);
const uploadTemps = () => (existsSync(join(dir, 'tmp')) ? readdirSync(join(dir, 'tmp')).filter((f) => f.startsWith('upload-')) : []);

describe('outpost serve survives what used to end it', () => {
  test.each(['/%', '/%E0%A4%A', '/%c0%ae%c0%ae/etc/passwd', '/assets/%zz.js'])('GET %s is a 400 with the error body', async (path) => {
    const res = await raw('GET', path);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 3, details: [{ fieldViolations: [{ field: 'path' }] }] });
    await stillServing();
  });

  test('a multipart body cut before its closing boundary is a 400, and its temp file is gone', async () => {
    const res = await raw('POST', '/api/v0/remote-files/upload', uploadHeaders(), part(Buffer.alloc(200_000, 7)));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 3, message: expect.stringContaining('malformed multipart request') });
    expect(uploadTemps()).toEqual([]);
    await stillServing();
  });

  // A real full disk: a 256 KiB tmpfs where uploads are staged (mounting needs root, which CI has).
  test.runIf(process.getuid?.() === 0)(
    'an upload onto a full disk is RESOURCE_EXHAUSTED "disk full", and nothing is left behind',
    async () => {
      mkdirSync(join(dir, 'tmp'), { recursive: true });
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', join(dir, 'tmp')]);
      try {
        const whole = Buffer.concat([part(Buffer.alloc(1024 * 1024, 7)), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
        const res = await raw('POST', '/api/v0/remote-files/upload', uploadHeaders(), whole);
        expect(res.status).toBe(429);
        expect(JSON.parse(res.body)).toMatchObject({ code: 8, message: expect.stringContaining('disk full') });
        expect(uploadTemps()).toEqual([]);
        await stillServing();
      } finally {
        execFileSync('umount', [join(dir, 'tmp')]);
      }
    },
  );
});
