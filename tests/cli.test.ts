// The CLI as a newcomer uses it: real child processes on a fresh data directory.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const bin = join(__dirname, '..', 'bin', 'outpost.mjs');
const data = mkdtempSync(join(tmpdir(), 'outpost-cli-'));
afterAll(() => rmSync(data, { recursive: true, force: true }));

const outpost = (...args: string[]) => execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, OUTPOST_DATA_DIR: '' } });

describe('outpost CLI', () => {
  it('seeds deterministically and idempotently', () => {
    const first = JSON.parse(outpost('seed', '--data', data, '--annotations', '200'));
    expect(first).toMatchObject({ annotations: 200, assets: 8, runs: 30 });
    expect(first.annotationLogs).toBeGreaterThan(200);
    const again = JSON.parse(outpost('seed', '--data', data, '--annotations', '200'));
    expect(again.annotations).toBe(0); // same ids: nothing new
  });

  it('creates an API key and prints only the token', () => {
    const out = outpost('keys', 'create', '--data', data, '--user', 'cli@outpost.local', '--org', 'CLI Org');
    expect(out).toMatch(/^op_[A-Za-z0-9_-]{43}\n$/);
  });

  it('serves the API on loopback with the seeded data visible to a default key', async () => {
    const token = outpost('keys', 'create', '--data', data).trim();
    const child = spawn(process.execPath, [bin, 'serve', '--data', data, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /API: (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out);
          if (m) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
      });
      const res = await fetch(`${url}/api/v1/annotations?page_size=5`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { annotations: unknown[] };
      expect(body.annotations).toHaveLength(5);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('explains bad usage on stderr with a non-zero exit', () => {
    expect(() => execFileSync(process.execPath, [bin, 'frobnicate'], { stdio: 'pipe' })).toThrow(/unknown command 'frobnicate'/);
    expect(() => execFileSync(process.execPath, [bin, 'serve', '--port', 'x', '--data', data], { stdio: 'pipe' })).toThrow(/invalid --port/);
  });
});
