// Shared by `npm start` and `npm run serve`: (re)build the app with
// electron-vite when any source is newer than the build output. And for
// bin/outpost.mjs: the main-process bundles (the CLI among them) alone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stderr.write(`outpost: ${line}\n`);

/** Build outputs and the sources they come from. */
const OUTPUTS = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
const SOURCES = ['src-main', 'src-shared', 'src-renderer', 'electron.vite.config.ts', 'package.json'];

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** The built CLI (electron-vite's main build: out/main/cli.js). */
export const BUILT_CLI = join(root, 'out', 'main', 'cli.js');
const MAIN_OUTPUTS = ['out/main/index.js', 'out/main/engineHost.js', 'out/main/cli.js'];
const MAIN_SOURCES = ['src-main', 'src-shared', 'electron.vite.config.ts', 'package.json'];

function mainIsStale() {
  const outputs = MAIN_OUTPUTS.map((p) => join(root, p));
  if (!outputs.every((p) => existsSync(p))) return true;
  const oldest = Math.min(...outputs.map((p) => statSync(p).mtimeMs));
  return MAIN_SOURCES.some((s) => existsSync(join(root, s)) && newestMtime(join(root, s)) > oldest);
}

/**
 * Builds the main-process bundles when missing or older than their sources, one build at a time across
 * processes (the lock tests/support/staleBuild.ts takes for the same build; one a killed run left is taken
 * over after 5 minutes).
 */
export async function ensureMainBuilt() {
  if (!mainIsStale()) return;
  const lock = join(root, 'out', '.main-build.lock');
  mkdirSync(join(root, 'out'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 5 * 60_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (!mainIsStale()) return;
    say('building the CLI (electron-vite main build)…');
    process.env.NODE_ENV_ELECTRON_VITE = 'production'; // as `electron-vite build` sets it
    const { resolveConfig } = await import('electron-vite');
    const { build } = await import('vite');
    const resolved = await resolveConfig(
      { root, configFile: join(root, 'electron.vite.config.ts'), logLevel: 'warn' },
      'build',
      'production',
    );
    await build(resolved.config.main);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export function buildIsStale() {
  const outputs = OUTPUTS.map((p) => join(root, p));
  if (!outputs.every((p) => existsSync(p))) return true;
  const oldestOutput = Math.min(...outputs.map((p) => statSync(p).mtimeMs));
  return SOURCES.some((s) => existsSync(join(root, s)) && newestMtime(join(root, s)) > oldestOutput);
}

export function build() {
  say('building the desktop app (electron-vite build)…');
  const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const result = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    say(`the build failed (exit ${result.status ?? result.signal}); fix the errors above and run \`npm start\` again.`);
    process.exit(result.status || 1);
  }
}
