#!/usr/bin/env node
// `npm run serve`: build the app if needed, then `outpost serve --demo`: the
// demo profile, in its own data directory beside the real one (seeded with the
// demo dataset when empty). Extra arguments are passed on (e.g.
// `npm run serve -- --port 8080`; `-- --data DIR` serves DIR, seeding it when empty).
// `outpost serve` alone serves the real profile and never seeds it.
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, buildIsStale } from './ensure-build.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
if (buildIsStale()) build();
const child = spawn(process.execPath, [join(root, 'bin', 'outpost.mjs'), 'serve', '--demo', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
