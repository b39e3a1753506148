// `npm start` on a machine without the Electron runtime: the launcher tries
// the electron package's installer, and when the download fails it exits
// non-zero with a message that says what failed and offers `npm run serve`.
// The download is pointed at a closed loopback port so it fails at once, and
// the runtime lookup (ELECTRON_OVERRIDE_DIST_PATH) at a directory of our
// choosing, so an installed runtime is never used.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const sandbox = mkdtempSync(join(tmpdir(), 'outpost-start-'));

afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

describe('npm start (scripts/start-desktop.mjs)', () => {
  test('without the runtime: tries to download it, then exits non-zero pointing at `npm run serve`', () => {
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
    // Electron 45's installer (@electron/get over fetch) says only "fetch failed"; older ones named the socket error.
    expect(result.stderr).toMatch(/downloading it failed: .*(ECONNREFUSED|fetch failed)/);
    expect(result.stderr).toContain('the desktop runtime could not be downloaded on this machine.');
    expect(result.stderr).toContain('`npm run serve` gives the same app in a browser');
  });

  test('with a runtime present, launches it on the app and passes its exit code through', () => {
    // A stand-in Electron: reports how it was started, exits 7.
    const dist = join(sandbox, 'fake-runtime');
    mkdirSync(dist, { recursive: true });
    writeFileSync(
      join(dist, 'electron'),
      '#!/bin/sh\necho "launched: $* run-as-node=${ELECTRON_RUN_AS_NODE:-unset} sqlite=${OUTPOST_SQLITE_BINDING:-unset}"\nexit 7\n',
    );
    chmodSync(join(dist, 'electron'), 0o755);
    const result = spawnSync(process.execPath, ['scripts/start-desktop.mjs', '--skip-build'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
      // A module built for Electron elsewhere: used as it is, and handed to the app.
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: sandbox,
        ELECTRON_OVERRIDE_DIST_PATH: dist,
        ELECTRON_RUN_AS_NODE: '1',
        OUTPOST_SQLITE_BINDING: '/opt/prebuilt/better_sqlite3.node',
      },
    });
    expect(result.status).toBe(7);
    expect(result.stdout.trim()).toBe(`launched: ${root} run-as-node=unset sqlite=/opt/prebuilt/better_sqlite3.node`);
    expect(result.stderr).not.toContain('cannot start');
  });

  test('with a runtime but no SQLite module for Electron: builds one against the Electron headers, and says clearly when it cannot', async () => {
    // A loopback port nobody listens on: the headers download fails at once.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const dist = join(sandbox, 'fake-runtime-2');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'electron'), '#!/bin/sh\necho launched\nexit 0\n');
    chmodSync(join(dist, 'electron'), 0o755);
    const cache = join(sandbox, 'native-cache');
    const result = spawnSync(process.execPath, ['scripts/start-desktop.mjs', '--skip-build'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: sandbox,
        ELECTRON_OVERRIDE_DIST_PATH: dist,
        OUTPOST_NATIVE_CACHE: cache,
        OUTPOST_ELECTRON_HEADERS_URL: `http://127.0.0.1:${closedPort}`,
      },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).not.toContain('launched');
    expect(result.stderr).toMatch(/building the SQLite module for Electron \d+\.\d+\.\d+ \(once; about a minute\)/);
    expect(result.stderr).toMatch(
      /cannot start the desktop app: building the SQLite module for Electron \d+\.\d+\.\d+ failed: .*ECONNREFUSED/,
    );
    expect(result.stderr).toContain('`npm run serve` gives the same app in a browser');
    // Nothing half-built is left to be mistaken for a module next time.
    expect(existsSync(cache) ? readdirSync(cache).filter((d) => d.startsWith('better-sqlite3')) : []).toEqual([]);
  });
});
