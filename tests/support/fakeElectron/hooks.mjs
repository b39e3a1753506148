// Module hooks: `electron` resolves to the stand-in; every resolved module is logged.
import { appendFileSync } from 'node:fs';

const FAKE = new URL('./electron.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  const resolved = specifier === 'electron' ? { url: FAKE, shortCircuit: true } : await next(specifier, context);
  if (process.env.FAKE_ELECTRON_LOG) appendFileSync(process.env.FAKE_ELECTRON_LOG, `resolve ${resolved.url}\n`);
  return resolved;
}
