// Shared by `npm start` and `npm run serve`: (re)build the app with
// electron-vite when any source is newer than the build output.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
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
