// `outpost sync` and the records made before the first link, as a user meets
// them: real `outpost` child processes. Work through `outpost serve` on a fresh
// directory, link it with `outpost sync` (handed to the running server): every
// sync says what was left behind; `--adopt-local` sends it, through the server
// too; and linking and adopting in one run here.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../../src-main/auth/identity';
import { openEngine } from '../../src-main/engine';
import { invoke } from '../../src-main/services/invoke';
import { SECRETS_FILE } from '../../src-main/sync/secretStore';
import { annotationRequest, ASSET, insertAsset, startRemote, type RemoteServer } from './helpers';

const OUTPOST = fileURLToPath(new URL('../../bin/outpost.mjs', import.meta.url));
const env = { ...process.env, OUTPOST_DATA_DIR: '' };
const outpost = (...args: string[]) =>
  promisify(execFile)(process.execPath, [OUTPOST, ...args], { env }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

let remote: RemoteServer;
let dir: string;
let server: ChildProcess | undefined;

beforeEach(async () => {
  remote = await startRemote();
  dir = mkdtempSync(join(tmpdir(), 'outpost-prelink-cli-'));
});
afterEach(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));
  }
  rmSync(dir, { recursive: true, force: true });
  await remote.close();
});

function serve(): Promise<{ url: string; key: string }> {
  server = spawn(process.execPath, [OUTPOST, 'serve', '--data', dir, '--port', '0', '--no-sync'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    server!.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const url = /API: (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out)?.[1];
      if (url && /Sync: /.test(out))
        resolve({ url, key: JSON.parse(readFileSync(join(dir, SECRETS_FILE), 'utf8'))['serve.owner-session-key'] });
    });
    server!.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

test('every sync says what was made before the link; --adopt-local sends it, through a running server and here', async () => {
  const s = await serve();
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${s.url}/api/v1${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return res.json() as Promise<Record<string, any>>;
  };
  // Offline days: the profile's own organization, before any link.
  await post('/assets', { name: ASSET });
  await post('/annotations', annotationRequest('valve chatter'));
  await post('/annotations', annotationRequest('seal weep'));

  const linked = await outpost('sync', '--data', dir, '--remote', remote.url, '--token', remote.token);
  expect(linked.code).toBe(0);
  expect(linked.stdout).toContain('the sync runs there');
  expect(linked.stdout).toMatch(/made before the link, not synced: 2 annotations \(in Field Team.*; not shown since the link\)/);
  expect(linked.stdout).toContain('send the 2 that can go to ');
  expect(linked.stdout).toContain('with: outpost sync --adopt-local');
  expect((await remote.client.ListAnnotations({})).annotations).toEqual([]);

  const adopted = await outpost('sync', '--data', dir, '--adopt-local');
  expect(adopted.code).toBe(0);
  expect(adopted.stdout).toContain('adopted: 2 annotations (queued as offline creates)');
  expect(adopted.stdout).not.toContain('made before the link');
  expect((await remote.client.ListAnnotations({})).annotations.map((a) => a.name).sort()).toEqual(['seal weep', 'valve chatter']);

  server!.kill('SIGTERM');
  await new Promise((r) => server!.once('exit', r));
  // A sync run here (no server) reports nothing left; adopting again adopts nothing (JSON says so too).
  const json = JSON.parse((await outpost('sync', '--data', dir, '--json')).stdout);
  expect(json).toMatchObject({ ok: true, preLink: { total: 0, identityKnown: true } });
  const again = await outpost('sync', '--data', dir, '--adopt-local', '--json');
  expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, adoption: { adopted: [], leftBehind: [] }, preLink: { total: 0 } });
  expect((await remote.client.ListAnnotations({})).annotations).toHaveLength(2);
  const bad = await outpost('sync', '--data', dir, '--adopt-local', 'no-such-org');
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("outpost: --adopt-local: organization_id: is not one of the remote user's organizations");
});

test('linking and adopting in one command: the first sync reads the remote user, the adoption is queued, the second sync sends it', async () => {
  const engine = openEngine(dir);
  const { userId } = ensureMember(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME);
  insertAsset(engine.db, 'a0000000-0000-4000-a000-0000000000c1', ASSET);
  await invoke(
    { engine, db: engine.db, caller: { ...loadCaller(engine.db, userId)!, owner: true } },
    'CreateAnnotation',
    annotationRequest('strut crack'),
  );
  engine.close();
  const out = await outpost('sync', '--data', dir, '--remote', remote.url, '--token', remote.token, '--adopt-local');
  expect(out.code).toBe(0);
  expect(out.stdout).toContain('adopted: 1 annotations (queued as offline creates)');
  expect(out.stdout).toMatch(/pushed: 1 of 1 pending edits/);
  expect((await remote.client.ListAnnotations({})).annotations.map((a) => a.name)).toEqual(['strut crack']);
});
