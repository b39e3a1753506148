#!/usr/bin/env node
// `npm start`: build the desktop app if needed, then launch it with the
// Electron runtime from the `electron` package. The runtime binary is not
// installed by `npm ci` (allowScripts: electron=false), so on first use this
// tries to fetch it; where that is impossible it says so and points at
// `npm run serve`, which runs the same app in a browser.
//
// Options: --skip-build (or OUTPOST_SKIP_BUILD=1) skips the build step.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { build, buildIsStale } from './ensure-build.mjs';
import { electronSqliteBinding } from './electron-sqlite.mjs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const INSTALL_TIMEOUT_MS = 10 * 60 * 1000;

const say = (line) => process.stderr.write(`outpost: ${line}\n`);

/** Path of the Electron executable, or undefined when the runtime is not installed. */
function electronBinary() {
  try {
    const id = require.resolve('electron');
    delete require.cache[id]; // re-read after an install
    const path = require('electron');
    return typeof path === 'string' && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Runs the electron package's own installer (downloads the runtime); returns a reason when it failed. */
function installElectron() {
  const installer = join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(installer)) return 'the `electron` package is not installed (run `npm ci`)';
  say('the Electron runtime is not installed; trying to download it (node node_modules/electron/install.js)…');
  const result = spawnSync(process.execPath, [installer], {
    cwd: join(root, 'node_modules', 'electron'),
    encoding: 'utf8',
    timeout: INSTALL_TIMEOUT_MS,
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' },
  });
  if (result.error) return result.error.message;
  if (result.status !== 0) {
    const lines = `${result.stderr ?? ''}\n${result.stdout ?? ''}`
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    // The first line of the installer's error is the useful one (e.g. "RequestError: getaddrinfo ENOTFOUND github.com").
    return lines.find((l) => /error/i.test(l)) ?? lines[0] ?? `the installer exited with code ${result.status}`;
  }
  return undefined;
}

function cannotStart(reason) {
  say('cannot start the desktop app: the Electron runtime is missing.');
  say(`downloading it failed: ${reason}`);
  say('the desktop runtime could not be downloaded on this machine.');
  say('`npm run serve` gives the same app in a browser: it prints an "App: http://127.0.0.1:…/#key=…" address to open.');
  process.exit(1);
}

const skipBuild = process.argv.includes('--skip-build') || process.env.OUTPOST_SKIP_BUILD === '1';
if (!skipBuild && buildIsStale()) build();

let binary = electronBinary();
if (!binary) {
  const failure = installElectron();
  binary = electronBinary();
  if (!binary) cannotStart(failure ?? 'the installer finished but no Electron executable was found');
}

/**
 * better-sqlite3 is a native module: `npm ci` builds it for this Node, and Electron needs a build for its own
 * ABI. A separate build for Electron is made once (scripts/electron-sqlite.mjs) and passed to the app;
 * OUTPOST_SQLITE_BINDING set by the user (a module built elsewhere) is used as it is.
 */
function sqliteBindingForElectron() {
  if (process.env.OUTPOST_SQLITE_BINDING) return process.env.OUTPOST_SQLITE_BINDING;
  const abiFile = join(root, 'node_modules', 'electron', 'abi_version');
  if (existsSync(abiFile) && readFileSync(abiFile, 'utf8').trim() === process.versions.modules) return undefined;
  const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  try {
    return electronSqliteBinding({ root, electronVersion, say });
  } catch (e) {
    say(`cannot start the desktop app: building the SQLite module for Electron ${electronVersion} failed: ${e.message}`);
    say('it needs the Electron headers (https://electronjs.org/headers, or OUTPOST_ELECTRON_HEADERS_URL) and a C++ toolchain, once.');
    say('`npm run serve` gives the same app in a browser: it prints an "App: http://127.0.0.1:…/#key=…" address to open.');
    process.exit(1);
  }
}

const sqliteBinding = sqliteBindingForElectron();

const env = { ...process.env };
delete env.ELECTRON_RUN_AS_NODE; // would make Electron behave as plain Node
if (sqliteBinding) env.OUTPOST_SQLITE_BINDING = sqliteBinding;
const child = spawn(binary, [root, ...process.argv.slice(2).filter((a) => a !== '--skip-build')], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
child.on('error', (error) => {
  say(`could not launch Electron (${binary}): ${error.message}`);
  process.exit(1);
});
