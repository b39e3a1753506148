#!/usr/bin/env node
// `npm run serve`: build the renderer if needed, then `outpost serve` on the
// user's data directory, seeding the demo dataset into an empty database.
// Extra arguments are passed on (e.g. `npm run serve -- --port 8080 --data DIR`).
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, buildIsStale } from './ensure-build.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
if (buildIsStale()) build();
const child = spawn(process.execPath, [join(root, 'bin', 'outpost.mjs'), 'serve', '--seed-if-empty', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
