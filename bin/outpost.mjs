#!/usr/bin/env node
// `outpost` CLI entry: loads the TypeScript CLI through tsx (no build step needed).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src-main/cli.ts');
process.exitCode = await main(process.argv.slice(2));
