// `npm start` on a machine without the Electron runtime: the launcher tries
// the electron package's installer, and when the download fails it exits
// non-zero with a message that says what failed and offers `npm run serve`.
// The download is pointed at a closed loopback port so it fails at once, and
// the runtime lookup at an empty directory so an installed runtime is ignored.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const sandbox = mkdtempSync(join(tmpdir(), 'outpost-start-'));

afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

describe('npm start without the Electron runtime', () => {
  test('tries to download it, then exits non-zero pointing at `npm run serve`', () => {
    const result = spawnSync(process.execPath, ['scripts/start-desktop.mjs', '--skip-build'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
      // A clean environment: nothing inherited but PATH.
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: sandbox,
        electron_config_cache: join(sandbox, 'cache'),
        ELECTRON_OVERRIDE_DIST_PATH: join(sandbox, 'no-runtime'),
        ELECTRON_MIRROR: 'http://127.0.0.1:9/',
      },
    });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('trying to download it (node node_modules/electron/install.js)');
    expect(result.stderr).toContain('cannot start the desktop app: the Electron runtime is missing.');
    expect(result.stderr).toMatch(/downloading it failed: .*ECONNREFUSED/);
    expect(result.stderr).toContain('the desktop runtime could not be downloaded on this machine.');
    expect(result.stderr).toContain('`npm run serve` gives the same app in a browser');
  });
});
