// `outpost sync` as a user runs it: progress, summary, exit code, the key kept
// in the data directory with 0600 permissions and reused by the next run.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SECRETS_FILE } from '../../src-main/sync/secretStore';
import { annotationRequest, comment, startRemote } from './helpers';

const run = promisify(execFile);
const OUTPOST = fileURLToPath(new URL('../../bin/outpost.mjs', import.meta.url));
let remote: Awaited<ReturnType<typeof startRemote>>;
let dir: string;

beforeEach(async () => {
  remote = await startRemote();
  dir = mkdtempSync(join(tmpdir(), 'outpost-cli-sync-'));
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await remote.close();
});

const outpost = (...args: string[]) =>
  run(process.execPath, [OUTPOST, ...args], { cwd: fileURLToPath(new URL('../../', import.meta.url)) });

describe('outpost sync', () => {
  test('one full sync with progress and a summary; the key is stored 0600 and reused', async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('remote one'));
    await remote.client.CreateAnnotationLog(comment(annotation.annotationId, 'hello'));
    const first = await outpost('sync', '--data', dir, '--remote', remote.url, '--token', remote.token);
    expect(first.stdout).toMatch(/^pull\.\.\./m);
    expect(first.stdout).toMatch(/synced with http:\/\/127\.0\.0\.1:\d+ in [\d.]+ s/);
    expect(first.stdout).toMatch(/pulled: .*\d+ annotations, \d+ annotation_logs/);
    expect(first.stdout).toMatch(/waiting: 0 edits; failed: 0; open conflicts: 0/);
    const secrets = join(dir, SECRETS_FILE);
    expect(existsSync(secrets)).toBe(true);
    expect(statSync(secrets).mode & 0o777).toBe(0o600);

    const again = await outpost('sync', '--data', dir, '--json');
    const summary = JSON.parse(again.stdout);
    expect(summary).toMatchObject({ ok: true, pending: 0, failedEntries: 0 });
  });

  test('the key can come from OUTPOST_REMOTE_TOKEN or standard input, never only the command line', async () => {
    const viaEnv = await run(process.execPath, [OUTPOST, 'sync', '--data', dir, '--remote', remote.url, '--json'], {
      env: { ...process.env, OUTPOST_REMOTE_TOKEN: remote.token },
    });
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ ok: true });
    const other = mkdtempSync(join(tmpdir(), 'outpost-cli-sync-stdin-'));
    try {
      const child = execFile(process.execPath, [OUTPOST, 'sync', '--data', other, '--remote', remote.url, '--token-stdin', '--json']);
      child.stdin!.end(`${remote.token}\n`);
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout!.on('data', (c: Buffer) => (text += c.toString()));
        child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`exit ${code}: ${text}`))));
      });
      expect(JSON.parse(out)).toMatchObject({ ok: true });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test('a refused key exits 3 and says so, storing nothing (the link is checked first); no remote configured exits 2', async () => {
    await expect(outpost('sync', '--data', dir)).rejects.toMatchObject({ code: 2 });
    const bad = await outpost('sync', '--data', dir, '--remote', remote.url, '--token', 'op_wrong').catch((e) => e);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/not linked: .* refused the API key/);
    expect(existsSync(join(dir, SECRETS_FILE))).toBe(false);
  });

  test('a numeric option that is not a whole number in range exits 2 naming it, before anything is opened', async () => {
    for (const [flag, value, min] of [
      ['--concurrency', '0', 1],
      ['--retry-attempts', '2.5', 1],
    ] as const) {
      const bad = await outpost('sync', '--data', dir, '--remote', remote.url, '--token', remote.token, `${flag}=${value}`).catch((e) => e);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(`${flag} must be a whole number >= ${min}, got '${value}'`);
    }
    // Nothing was opened or stored: no database, no key.
    expect(existsSync(join(dir, SECRETS_FILE))).toBe(false);
    expect(existsSync(join(dir, 'outpost.sqlite'))).toBe(false);
  });
});
