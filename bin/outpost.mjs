#!/usr/bin/env node
// `outpost` CLI entry: runs the built CLI (out/main/cli.js, bundled with the
// rest of the main process by electron-vite), building it first when it is
// missing or older than the sources. No TypeScript loader at run time.
import { pathToFileURL } from 'node:url';
import { BUILT_CLI, ensureMainBuilt } from '../scripts/ensure-build.mjs';

await ensureMainBuilt();
const { main } = await import(pathToFileURL(BUILT_CLI).href);
process.exitCode = await main(process.argv.slice(2));
