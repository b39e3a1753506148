// `node --import <this> out/main/index.js`: runs the built Electron main
// bundle under plain Node with the stand-in `electron` module (electron.mjs)
// at the module boundary. Records every module the bundle resolves and every
// native addon it loads, so a test can say main never loads the database.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);

const dlopen = process.dlopen;
process.dlopen = function recordedDlopen(module, filename, ...rest) {
  if (process.env.FAKE_ELECTRON_LOG) appendFileSync(process.env.FAKE_ELECTRON_LOG, `dlopen ${filename}\n`);
  return dlopen.call(this, module, filename, ...rest);
};
