// One Outpost process owns a data directory (db/dataDirLock.ts): real
// `outpost` child processes on one directory. A second one is refused with a
// message naming the holder, exit code 2, touching nothing; `outpost sync`
// hands its work to a running `outpost serve`; a lock left by kill -9 is taken
// over. And the sequence that lost writes before the lock: serve on a fresh
// directory, `outpost sync` links it to a remote, a write through the server,
// a later sync sends it — the remote holds it exactly once.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { HOLDER_FILE } from '../src-main/db/dataDirLock';
import { SECRETS_FILE } from '../src-main/sync/secretStore';
import { annotationRequest, startRemote, type RemoteServer } from './sync/helpers';

const run = promisify(execFile);
const OUTPOST = fileURLToPath(new URL('../bin/outpost.mjs', import.meta.url));
const env = { ...process.env, OUTPOST_DATA_DIR: '' };
const outpost = (...args: string[]) => run(process.execPath, [OUTPOST, ...args], { env });
const failed = (...args: string[]) =>
  outpost(...args).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

interface Serve {
  readonly child: ChildProcess;
  readonly url: string;
  readonly appKey: string;
}

function serve(dir: string, ...extra: string[]): Promise<Serve> {
  const child = spawn(process.execPath, [OUTPOST, 'serve', '--data', dir, '--port', '0', ...extra], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const url = /API: (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out)?.[1];
      // The owner's session key, kept in the directory's 0600 secret file (also in the printed App URL when the renderer is built).
      if (url && /Sync: /.test(out))
        resolve({ child, url, appKey: JSON.parse(readFileSync(join(dir, SECRETS_FILE), 'utf8'))['serve.owner-session-key'] });
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

let dir: string;
let servers: ChildProcess[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'outpost-owner-'));
  servers = [];
});
afterEach(async () => {
  for (const s of servers) {
    s.kill('SIGKILL');
    await stopped(s);
  }
  rmSync(dir, { recursive: true, force: true });
});

async function started(...extra: string[]): Promise<Serve> {
  const s = await serve(dir, ...extra);
  servers.push(s.child);
  return s;
}

const inUse = (pid: number, url: string) =>
  `outpost: ${dir} is in use by outpost serve (pid ${pid}, ${url}); stop it or use another --data`;

describe('one owner per data directory', () => {
  test('beside a running serve, a second serve, seed and keys create are refused naming the holder (exit 2), and the first serves on', async () => {
    const first = await started();
    const pid = first.child.pid!;
    const count = async () => {
      const res = await fetch(`${first.url}/api/v1/annotations?page_size=1000`, { headers: { Authorization: `Bearer ${first.appKey}` } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { annotations: unknown[] }).annotations.length;
    };
    const before = await count();
    const holder = JSON.parse(readFileSync(join(dir, HOLDER_FILE), 'utf8'));
    expect(holder).toMatchObject({ pid, command: 'serve', url: first.url });

    const second = await serve(dir).then(
      (s) => (servers.push(s.child), 'started'),
      (e: Error) => e.message,
    );
    expect(second).toContain(inUse(pid, first.url));
    expect(second).toMatch(/serve exited with 2/);
    for (const args of [
      ['seed', '--data', dir, '--annotations', '5'],
      ['keys', 'create', '--data', dir],
    ]) {
      const r = await failed(...args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(inUse(pid, first.url));
      expect(r.stdout).toBe('');
    }
    expect(await count()).toBe(before);
    expect((await fetch(`${first.url}/api/v1/ping`)).status).toBe(200);
  });

  test('a lock left by kill -9 is taken over by the next process', async () => {
    const first = await started();
    first.child.kill('SIGKILL');
    await stopped(first.child);
    const r = await failed('seed', '--data', dir, '--annotations', '3');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ annotations: 3 });
  });

  test('the data directory is private to its user; the database and the key file too', async () => {
    await outpost('keys', 'create', '--data', join(dir, 'fresh'));
    expect(statSync(join(dir, 'fresh')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'fresh', 'outpost.sqlite')).mode & 0o777).toBe(0o600);
  });
});

describe('outpost sync beside a running serve', () => {
  let remote: RemoteServer;
  beforeEach(async () => {
    remote = await startRemote();
  });
  afterEach(async () => {
    await remote.close();
  });

  test('serve, then sync links it to a remote, then a write through the server: a later sync sends it, once', async () => {
    const local = await started();
    const link = await failed('sync', '--data', dir, '--remote', remote.url, '--token', remote.token);
    expect(link.stderr).toBe('');
    expect(link.code).toBe(0);
    expect(link.stdout).toContain(`${dir} is in use by outpost serve (pid ${local.child.pid}, ${local.url}): the sync runs there`);
    expect(link.stdout).toMatch(/synced with http:\/\/127\.0\.0\.1:\d+ in [\d.]+ s \(\d+ requests\)/);

    const created = await fetch(`${local.url}/api/v1/annotations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${local.appKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(annotationRequest('written through the server after the link')),
    });
    expect(created.status).toBe(200);

    // The write was recorded for the remote (before the lock, it never was): this sync, or the server's own
    // background run a moment earlier, sends it.
    const again = await failed('sync', '--data', dir);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/pushed: [01] of [01] pending edits/);
    expect(again.stdout).toMatch(/waiting: 0 edits; failed: 0/);
    const onRemote = await remote.client.ListAnnotations({ filter: 'name == "written through the server after the link"' });
    expect(onRemote.annotations).toHaveLength(1);

    // Nothing more to send: a third sync pushes nothing and the remote still holds one.
    const third = JSON.parse((await outpost('sync', '--data', dir, '--json')).stdout);
    expect(third).toMatchObject({ ok: true, pending: 0 });
    expect(
      (await remote.client.ListAnnotations({ filter: 'name == "written through the server after the link"' })).annotations,
    ).toHaveLength(1);
  });

  test('under serve --no-sync (no background runs) a sync on request still runs there; a refused key exits 3', async () => {
    await started('--no-sync');
    const bad = await failed('sync', '--data', dir, '--remote', remote.url, '--token', 'op_wrong');
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/not linked: .* refused the API key/);
    const good = await failed('sync', '--data', dir, '--remote', remote.url, '--token', remote.token, '--json');
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ ok: true, authError: false });
  });
});
