// The CLI as a newcomer uses it: real child processes on a fresh data directory.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

const bin = join(__dirname, '..', 'bin', 'outpost.mjs');
const data = mkdtempSync(join(tmpdir(), 'outpost-cli-'));
afterAll(() => rmSync(data, { recursive: true, force: true }));

const outpost = (...args: string[]) =>
  execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, OUTPOST_DATA_DIR: '' } });

/** `outpost serve` on `dir` and a free port: the child and its URL once it listens. */
async function serve(dir: string, ...extra: string[]) {
  const child = spawn(process.execPath, [bin, 'serve', '--data', dir, '--port', '0', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  const [url, key] = await new Promise<[string, string]>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /API: (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out);
      const k = /API key: (\S+)\n/.exec(out);
      if (m && k) resolve([m[1], k[1]]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  return { child, url, key };
}

describe('outpost CLI', () => {
  it('seeds deterministically and idempotently', () => {
    const first = JSON.parse(outpost('seed', '--data', data, '--annotations', '200'));
    expect(first).toMatchObject({ annotations: 200, assets: 8, runs: 30 });
    expect(first.annotationLogs).toBeGreaterThan(200);
    const again = JSON.parse(outpost('seed', '--data', data, '--annotations', '200'));
    expect(again.annotations).toBe(0); // same ids: nothing new
  });

  it('refuses to seed demo data into a replica, which would never push it (exit 2, nothing written)', () => {
    const replica = mkdtempSync(join(tmpdir(), 'outpost-cli-replica-'));
    try {
      outpost('keys', 'create', '--data', replica); // creates the database
      const db = new Database(join(replica, 'outpost.sqlite'));
      db.prepare("INSERT OR REPLACE INTO settings(key, value) VALUES ('sync.replica', '1')").run();
      db.close();
      let failure: { status: number; stderr: string } | undefined;
      try {
        outpost('seed', '--data', replica, '--annotations', '5');
      } catch (e) {
        failure = e as { status: number; stderr: string };
      }
      expect(failure).toMatchObject({
        status: 2,
        stderr: expect.stringContaining('is a replica of its remote: demo data is only for a local profile'),
      });
      const after = new Database(join(replica, 'outpost.sqlite'), { readonly: true });
      expect(after.prepare('SELECT count(*) AS n FROM annotations').get()).toEqual({ n: 0 });
      after.close();
    } finally {
      rmSync(replica, { recursive: true, force: true });
    }
  });

  it('creates an API key and prints only the token', () => {
    const out = outpost('keys', 'create', '--data', data, '--user', 'cli@outpost.local', '--org', 'CLI Org');
    expect(out).toMatch(/^op_[A-Za-z0-9_-]{43}\n$/);
  });

  it('serves the API on loopback with the seeded data visible to a default key', async () => {
    const token = outpost('keys', 'create', '--data', data).trim();
    const { child, url } = await serve(data);
    try {
      const res = await fetch(`${url}/api/v1/annotations?page_size=5`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { annotations: unknown[] };
      expect(body.annotations).toHaveLength(5);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it("prints the owner's API key on its own line, for a script's calls (with or without the app built)", async () => {
    const { child, url, key } = await serve(data);
    try {
      expect(key).toMatch(/^op_[A-Za-z0-9_-]{43}$/);
      const me = await fetch(`${url}/api/v2/me`, { headers: { Authorization: `Bearer ${key}` } });
      expect(me.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('prints usage for itself and each command on --help (exit 0), and names what it refuses (exit 2)', () => {
    expect(outpost('--help')).toMatch(/Usage: outpost \[options\] \[command\][\s\S]*serve[\s\S]*keys[\s\S]*seed[\s\S]*sync/);
    expect(outpost('sync', '--help')).toMatch(
      /Usage: outpost sync \[options\][\s\S]*--token <key>[\s\S]*OUTPOST_REMOTE_TOKEN[\s\S]*--token-stdin/,
    );
    expect(outpost('serve', '--help')).toMatch(/--allowed-host <name\.\.\.>[\s\S]*--no-sync/);
    expect(outpost('keys', 'create', '--help')).toMatch(/--owner/);
    expect(outpost('help', 'seed')).toMatch(/Usage: outpost seed \[options\]/);
    const bad = (...args: string[]) => {
      try {
        execFileSync(process.execPath, [bin, ...args], { stdio: 'pipe', encoding: 'utf8' });
      } catch (e) {
        return { status: (e as { status: number }).status, stderr: (e as { stderr: string }).stderr };
      }
      throw new Error('expected a failure');
    };
    expect(bad('sync', '--bogus')).toMatchObject({ status: 2, stderr: expect.stringContaining("outpost: unknown option '--bogus'") });
    expect(bad('keys')).toMatchObject({ status: 2, stderr: expect.stringContaining('Usage: outpost keys') });
  });

  it('lists keys (never their tokens) and revokes one, which then answers 401', async () => {
    const keysDir = mkdtempSync(join(tmpdir(), 'outpost-cli-keys-'));
    try {
      const token = outpost('keys', 'create', '--data', keysDir, '--name', 'laptop').trim();
      outpost('keys', 'create', '--data', keysDir, '--owner', '--name', 'mine');
      const listed = JSON.parse(outpost('keys', 'list', '--data', keysDir, '--json')) as {
        id: string;
        name: string;
        owner: boolean;
        revokedDate: number | null;
      }[];
      expect(listed.map((k) => [k.name, k.owner, k.revokedDate])).toEqual([
        ['laptop', false, null],
        ['mine', true, null],
      ]);
      expect(JSON.stringify(listed)).not.toContain(token);
      expect(outpost('keys', 'list', '--data', keysDir)).toMatch(/laptop\s+created \S+Z\s+active/);
      expect(outpost('keys', 'revoke', listed[0].id.slice(0, 8), '--data', keysDir)).toContain(
        `revoked ${listed[0].id} (engineer@outpost.local, laptop)`,
      );
      expect(outpost('keys', 'list', '--data', keysDir)).toMatch(/laptop\s+created \S+Z\s+revoked \S+Z/);
      const { child, url } = await serve(keysDir, '--no-sync');
      try {
        const res = await fetch(`${url}/api/v1/annotations`, { headers: { Authorization: `Bearer ${token}` } });
        expect(res.status).toBe(401);
      } finally {
        child.kill('SIGKILL');
      }
    } finally {
      rmSync(keysDir, { recursive: true, force: true });
    }
  });

  it('explains bad usage on stderr with a non-zero exit', () => {
    expect(() => execFileSync(process.execPath, [bin, 'frobnicate'], { stdio: 'pipe' })).toThrow(/unknown command 'frobnicate'/);
    expect(() => execFileSync(process.execPath, [bin, 'serve', '--port', 'x', '--data', data], { stdio: 'pipe' })).toThrow(
      /invalid --port/,
    );
    expect(() => execFileSync(process.execPath, [bin, 'serve', '--tls-cert', 'c.pem', '--data', data], { stdio: 'pipe' })).toThrow(
      /--tls-cert and --tls-key go together/,
    );
    expect(() =>
      execFileSync(process.execPath, [bin, 'serve', '--tls-cert', 'none.pem', '--tls-key', 'none.pem', '--data', data], { stdio: 'pipe' }),
    ).toThrow(/cannot read the TLS files: .*none\.pem/);
  });
});
