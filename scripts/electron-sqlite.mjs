// better-sqlite3 for Electron. `npm ci` compiles better-sqlite3 for this
// Node's ABI (tests and `outpost serve` need that build), and Electron loads
// native modules only when they are built for its own ABI. So the desktop
// launcher compiles a second copy of the module against Electron's headers,
// once per Electron version, into node_modules/.cache, and hands its path to
// the app (OUTPOST_SQLITE_BINDING, read by src-main/db/database.ts through
// better-sqlite3's `nativeBinding` option). The Node build is never touched.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const BUILD_TIMEOUT_MS = 15 * 60 * 1000;

/** npm's own node-gyp (every npm ships one), else one on PATH. */
function nodeGyp() {
  const candidates = [
    process.env.npm_execpath && join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ].filter(Boolean);
  const script = candidates.find((p) => existsSync(p));
  return script ? [process.execPath, script] : ['node-gyp'];
}

/** What a failed node-gyp run says went wrong: its error line ("gyp ERR! stack Error: …"), or a compiler error. */
function reasonOf(result) {
  if (result.error) return result.error.message;
  const lines = `${result.stderr ?? ''}\n${result.stdout ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const thrown = lines.find((l) => /^gyp ERR! stack \w*Error\b/.test(l));
  if (thrown) return thrown.replace(/^gyp ERR! stack /, '');
  const compiler = lines.find((l) => /\berror\b/i.test(l) && !l.startsWith('gyp '));
  return (
    compiler ??
    lines
      .filter((l) => l.startsWith('gyp ERR!'))
      .at(0)
      ?.replace(/^gyp ERR! /, '') ??
    `node-gyp exited with code ${result.status}`
  );
}

/**
 * Path of a better_sqlite3.node built for `electronVersion`, building it on first use.
 * Throws an Error whose message says what failed (e.g. the Electron headers could not be downloaded).
 */
export function electronSqliteBinding({ root, electronVersion, say }) {
  const pkg = join(root, 'node_modules', 'better-sqlite3');
  const sqliteVersion = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version;
  const cacheRoot = process.env.OUTPOST_NATIVE_CACHE || join(root, 'node_modules', '.cache', 'outpost');
  const cacheDir = join(cacheRoot, `better-sqlite3-${sqliteVersion}-electron-${electronVersion}-${process.platform}-${process.arch}`);
  const binding = join(cacheDir, 'better_sqlite3.node');
  if (existsSync(binding)) return binding;

  say(`building the SQLite module for Electron ${electronVersion} (once; about a minute)…`);
  const work = mkdtempSync(join(tmpdir(), 'outpost-electron-sqlite-'));
  try {
    for (const part of ['package.json', 'binding.gyp', 'src', 'deps']) cpSync(join(pkg, part), join(work, part), { recursive: true });
    const [command, ...prefix] = nodeGyp();
    const result = spawnSync(
      command,
      [
        ...prefix,
        'rebuild',
        '--release',
        '--runtime=electron',
        `--target=${electronVersion}`,
        `--dist-url=${process.env.OUTPOST_ELECTRON_HEADERS_URL || 'https://electronjs.org/headers'}`,
        `--devdir=${join(cacheRoot, 'electron-gyp')}`,
      ],
      { cwd: work, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS, env: { ...process.env, npm_config_runtime: 'electron' } },
    );
    const built = join(work, 'build', 'Release', 'better_sqlite3.node');
    if (result.status !== 0 || !existsSync(built)) throw new Error(reasonOf(result));
    // Copy, then rename: an interrupted launch never leaves a half-written module in the cache.
    mkdirSync(cacheDir, { recursive: true });
    copyFileSync(built, `${binding}.partial`);
    renameSync(`${binding}.partial`, binding);
    return binding;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
