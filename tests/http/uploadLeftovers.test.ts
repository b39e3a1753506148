// Upload temp files are never left behind (issue #28 item 8): a connection
// reset just after the file part began, a body cut before its closing
// boundary (busboy's "Unexpected end of form"), each over and over against a
// real server; and a real `outpost serve` killed with SIGKILL mid-upload,
// whose file the next start removes (anything in the temp folder older than
// the process).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SECRETS_FILE } from '../../src-main/sync/secretStore';
import { startTestServer, type TestServer } from '../support/testServer';

const OUTPOST = fileURLToPath(new URL('../../bin/outpost.mjs', import.meta.url));
const BOUNDARY = 'leftoverboundary';

const uploadsIn = (dataDir: string) => {
  const dir = join(dataDir, 'tmp');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith('upload-')) : [];
};

/** The start of an upload: its head and the form up to the first bytes of the file part. */
function uploadStart(port: number, token: string, declaredLength: number): string {
  return (
    `POST /api/v0/remote-files/upload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${declaredLength}\r\n\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="entityId"\r\n\r\nrun-1\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="entityType"\r\n\r\nENTITY_TYPE_RUN\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`
  );
}

const open = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });

/** Polls until `done` (the server finishes a broken request on its own time); fails after `ms`. */
async function until(what: string, done: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a broken upload leaves no temp file', () => {
  let s: TestServer;
  let port: number;
  beforeAll(async () => {
    s = await startTestServer();
    port = Number(new URL(s.url).port);
  });
  afterAll(() => s?.close());

  test('a connection reset just after the file part began, 25 times over', async () => {
    for (let i = 0; i < 25; i++) {
      const socket = await open(port);
      socket.on('error', () => undefined);
      socket.write(uploadStart(port, s.token, 10_000_000));
      // Some file bytes (or none) before the reset: the write stream may not even have opened its file yet.
      if (i % 2) socket.write(Buffer.alloc(1 + i * 997, 7));
      await new Promise((r) => setTimeout(r, i % 5));
      socket.resetAndDestroy();
      await until(`no upload file after reset #${i}`, () => uploadsIn(s.dataDir).length === 0);
    }
    // Settled, not merely not yet created: nothing appears later either.
    await new Promise((r) => setTimeout(r, 200));
    expect(uploadsIn(s.dataDir)).toEqual([]);
  });

  test('a body cut before its closing boundary ("Unexpected end of form") is a 400 and leaves nothing, 25 times over', async () => {
    for (let i = 0; i < 25; i++) {
      const bytes = Buffer.alloc(i * 4001, 1);
      const head = uploadStart(port, s.token, 0);
      const bodyStart = head.indexOf('\r\n\r\n') + 4;
      const body = Buffer.concat([Buffer.from(head.slice(bodyStart)), bytes]);
      const request = head.slice(0, bodyStart).replace('Content-Length: 0', `Content-Length: ${body.length}`);
      const socket = await open(port);
      const answer = await new Promise<string>((resolve, reject) => {
        let got = '';
        socket.on('data', (c: Buffer) => {
          got += c.toString('latin1');
          if (/\r\n\r\n[\s\S]*\}$/.test(got)) resolve(got);
        });
        socket.on('error', reject);
        socket.write(request);
        socket.write(body);
      });
      socket.destroy();
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('malformed multipart request');
      expect(uploadsIn(s.dataDir)).toEqual([]);
    }
  });
});

describe('a killed server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-leftovers-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function serve(): Promise<{ child: ChildProcess; port: number; key: string }> {
    const child = spawn(process.execPath, [OUTPOST, 'serve', '--data', dataDir, '--port', '0', '--no-sync'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let log = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => {
        log += c.toString();
        const m = /API: (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(log);
        if (m && /Sync: /.test(log)) resolve(m[1]);
      });
      child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${log}`)));
    });
    const key = JSON.parse(readFileSync(join(dataDir, SECRETS_FILE), 'utf8'))['serve.owner-session-key'] as string;
    return { child, port: Number(new URL(url).port), key };
  }

  test('kill -9 mid-upload leaves the file; the next start removes it', async () => {
    const first = await serve();
    const socket = await open(first.port);
    socket.on('error', () => undefined);
    socket.write(uploadStart(first.port, first.key, 50_000_000));
    socket.write(Buffer.alloc(200_000, 3));
    await until('the upload file on disk', () => uploadsIn(dataDir).length === 1);
    const exited = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGKILL');
    await exited;
    socket.destroy();
    expect(uploadsIn(dataDir)).toHaveLength(1); // what the kill left
    const second = await serve();
    expect(uploadsIn(dataDir)).toEqual([]);
    second.child.kill('SIGKILL');
  });
});
