#!/usr/bin/env node
// Runs a TypeScript entry point of this package with tsx's loader.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

register();
const [entry, ...rest] = process.argv.slice(2);
process.argv = [process.argv[0], entry, ...rest];
const mod = await import(pathToFileURL(resolve(entry)).href);
if (typeof mod.main === 'function') await mod.main(rest);
