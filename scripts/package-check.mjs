// `npm run package:check`: what `npm run package` would put in the installable
// app, proved on a machine that cannot download Electron. Builds the bundles,
// packs the Linux app (--dir) with electron-builder and this repository's
// electron-builder.yml, over a stand-in Electron runtime that carries a fuse
// wire as the real binary does, then checks the result: app.asar holds out/main,
// out/preload, out/renderer and the production dependencies; the .node and
// .wasm files are unpacked beside it; every fuse is flipped as configured.
// Every production dependency and each of theirs must be in app.asar (electron-builder's collector can miss
// them: see allowMissingDependencies in electron-builder.yml). The update feed the build names is in
// resources/app-update.yml. The packed better_sqlite3.node's NODE_MODULE_VERSION must be Electron's (node-abi's
// table): here, where the native rebuild for Electron cannot run (it downloads Electron's headers), the module
// is Node's, and the check says so instead of failing (--require-electron-abi makes it fail); on a release machine,
// `--packed dist/linux-unpacked` checks the ABI of the app `npm run package` made.
// Prints the unpacked size of the app's resources (goal: under 40 MB on Linux, Electron itself aside).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const asar = require('@electron/asar');
const { getCurrentFuseWire, FuseV1Options } = require('@electron/fuses');

/**
 * The production dependencies and everything they depend on, as Node resolves them from this checkout
 * (optional dependencies only when installed, e.g. a platform's prebuilt binary).
 */
function productionClosure(pkg) {
  // Node's lookup: node_modules/<name> in the package's folder, then in each folder above it.
  const locate = (name, fromDir) => {
    for (let dir = fromDir; ; dir = dirname(dir)) {
      const manifest = join(dir, 'node_modules', name, 'package.json');
      if (existsSync(manifest)) return manifest;
      if (dirname(dir) === dir) return undefined;
    }
  };
  const seen = new Map();
  const visit = (deps, optional, fromDir, from) => {
    for (const name of Object.keys(deps ?? {})) {
      const manifest = locate(name, fromDir);
      if (!manifest) {
        if (optional[name] === undefined) problems.push(`${name} (needed by ${from}) is not installed here`);
        continue;
      }
      if (seen.has(manifest)) continue;
      seen.set(manifest, { name, from });
      const dep = JSON.parse(readFileSync(manifest, 'utf8'));
      visit({ ...dep.dependencies, ...dep.optionalDependencies }, dep.optionalDependencies ?? {}, dirname(manifest), name);
    }
  };
  visit(pkg.dependencies, {}, root, 'package.json');
  return [...seen.values()];
}

// `--packed DIR`: only the ABI of an app `npm run package` made (e.g. dist/linux-unpacked), on a release machine.
const packedAt = process.argv.indexOf('--packed');
if (packedAt !== -1) {
  const dir = resolve(process.argv[packedAt + 1] ?? '');
  const found = [];
  const find = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) find(join(d, e.name));
      else if (e.name === 'better_sqlite3.node') found.push(join(d, e.name));
    }
  };
  find(dir);
  const electronVersion = require('electron/package.json').version;
  const electronAbi = Number(require('node-abi').getAbi(electronVersion, 'electron'));
  const versions = found.map((f) => Number(/node_register_module_v(\d+)/.exec(readFileSync(f).toString('latin1'))?.[1]));
  const ok = found.length > 0 && versions.every((v) => v === electronAbi);
  console.log(
    `ABI: ${ok ? 'ok' : 'FAILED'}: ${found.length} better_sqlite3.node in ${dir} with NODE_MODULE_VERSION ${versions.join(', ') || 'none'}; Electron ${electronVersion} needs ${electronAbi}`,
  );
  process.exit(ok ? 0 : 1);
}
const work = mkdtempSync(join(tmpdir(), 'outpost-package-check-'));
const problems = [];
const notes = [];
const requireElectronAbi = process.argv.includes('--require-electron-abi');
/** A stand-in feed for the check (the release workflow sets the real one). */
const FEED = process.env.OUTPOST_UPDATE_FEED || 'https://updates.outpost.invalid/desktop';

/** NODE_MODULE_VERSION of a native module: the number in the `node_register_module_v<N>` symbol it exports. */
function moduleVersionOf(file) {
  const m = /node_register_module_v(\d+)/.exec(readFileSync(file).toString('latin1'));
  return m ? Number(m[1]) : undefined;
}

function sizeOf(path) {
  const st = lstatSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, entry) => sum + sizeOf(join(path, entry)), 0);
}
try {
  const run = (cmd, args) => {
    const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, OUTPOST_UPDATE_FEED: FEED } });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}`);
  };
  run(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build']);

  // The stand-in runtime: a script carrying Electron's fuse sentinel and a wire of 8 fuses as Electron 45 ships them.
  const dist = join(work, 'electron');
  mkdirSync(join(dist, 'resources'), { recursive: true });
  const wire = Buffer.concat([Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'), Buffer.from([1, 8]), Buffer.from('10110001')]);
  writeFileSync(join(dist, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\n# '), wire, Buffer.from('\necho stand-in\n')]));
  chmodSync(join(dist, 'electron'), 0o755);

  // A node_modules that is a symlink to another checkout's (a git worktree sharing one install) hides every
  // transitive dependency from `npm ls`, which electron-builder's collector reads ("cannot find path for
  // dependency"; with allowMissingDependencies: false the build stops). Pack a staged copy of the project with a
  // real node_modules then, as a clean clone after `npm ci` has.
  let projectDir = root;
  if (lstatSync(join(root, 'node_modules')).isSymbolicLink()) {
    projectDir = join(work, 'project');
    mkdirSync(projectDir);
    for (const entry of ['package.json', 'package-lock.json', 'electron-builder.yml', 'README.md', 'docs', 'build', 'out']) {
      if (existsSync(join(root, entry))) cpSync(join(root, entry), join(projectDir, entry), { recursive: true });
    }
    run('cp', ['-a', realpathSync(join(root, 'node_modules')), join(projectDir, 'node_modules')]);
    console.log(`node_modules is a symlink: packing a staged copy in ${projectDir}`);
  }

  const out = join(work, 'dist');
  run(process.execPath, [
    join(root, 'node_modules', 'electron-builder', 'cli.js'),
    '--dir',
    '--linux',
    '--x64',
    '--publish',
    'never',
    '--projectDir',
    projectDir,
    `-c.electronDist=${dist}`,
    `-c.electronVersion=${require('electron/package.json').version}`,
    '-c.npmRebuild=false',
    `-c.directories.output=${out}`,
  ]);

  const app = join(out, 'linux-unpacked');
  const files = new Set(asar.listPackage(join(app, 'resources', 'app.asar')));
  for (const f of ['/out/main/index.js', '/out/main/engineHost.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/package.json'])
    if (!files.has(f)) problems.push(`app.asar lacks ${f}`);
  // Every package the app needs at run time, not only the direct ones: a transitive dependency electron-builder's
  // collector could not place (its "cannot find path for dependency" warning) would otherwise be missed here and
  // fail only on the laptop (better-sqlite3 needs `bindings`, electron-updater `builder-util-runtime`, …).
  const pkg = require(join(root, 'package.json'));
  const packed = new Set([...files].filter((f) => f.endsWith('/package.json')).map((f) => f.slice(0, -'/package.json'.length)));
  for (const { name, from } of productionClosure(pkg)) {
    if (![...packed].some((dir) => dir.endsWith(`/node_modules/${name}`))) problems.push(`app.asar lacks ${name} (needed by ${from})`);
  }
  // Help › Documentation opens this (src-main/electron/documentation.ts).
  if (!existsSync(join(app, 'resources', 'docs', 'README.md'))) problems.push('the user guide (resources/docs/README.md) is not packaged');
  if (!existsSync(join(app, 'resources', 'docs', 'docs', 'security.md')))
    problems.push('the docs folder (resources/docs/docs) is not packaged');
  const unpacked = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else unpacked.push(join(dir, e.name));
    }
  };
  walk(join(app, 'resources', 'app.asar.unpacked'));
  const sqliteModule = unpacked.find((f) => f.endsWith('better_sqlite3.node'));
  if (!sqliteModule) problems.push('better_sqlite3.node is not unpacked');
  else {
    const electronVersion = require('electron/package.json').version;
    const electronAbi = Number(require('node-abi').getAbi(electronVersion, 'electron'));
    const packedAbi = moduleVersionOf(sqliteModule);
    const verdict = `the packed better_sqlite3.node has NODE_MODULE_VERSION ${packedAbi}; Electron ${electronVersion} needs ${electronAbi}`;
    if (packedAbi === electronAbi) notes.push(`ABI: ok (${verdict})`);
    else if (!requireElectronAbi && packedAbi === Number(process.versions.modules))
      notes.push(
        `ABI: NOT CHECKED here: ${verdict}, and this one is Node ${process.version}'s (${packedAbi}): the rebuild for Electron needs its headers, which this machine cannot download. Everything else was checked. A release machine runs \`npm run package:check -- --packed dist/linux-unpacked\` after \`npm run package\``,
      );
    else problems.push(`ABI: ${verdict}: the packaged app could not open its database`);
  }
  // The feed named in the build (electron-builder's publish), read by electron-updater.
  const appUpdate = join(app, 'resources', 'app-update.yml');
  const appUpdateText = existsSync(appUpdate) ? readFileSync(appUpdate, 'utf8') : '';
  if (!/^provider: generic$/m.test(appUpdateText) || !appUpdateText.includes(`url: ${FEED}`))
    problems.push(`resources/app-update.yml does not name the generic feed ${FEED}: ${appUpdateText || 'missing'}`);
  else
    notes.push(
      `updates: resources/app-update.yml names ${FEED} (latest*.yml are written by the installer targets, not --dir: the release workflow checks them)`,
    );
  const resources = join(app, 'resources');
  const bytes = sizeOf(resources);
  notes.push(
    `size: ${(bytes / 1024 / 1024).toFixed(1)} MB unpacked in resources/ (app.asar ${(sizeOf(join(resources, 'app.asar')) / 1024 / 1024).toFixed(1)} MB, app.asar.unpacked ${(sizeOf(join(resources, 'app.asar.unpacked')) / 1024 / 1024).toFixed(1)} MB), Electron itself aside; goal < 40 MB`,
  );
  if (!unpacked.some((f) => f.endsWith('nodejs/cedar_wasm_bg.wasm'))) problems.push("Cedar's wasm is not unpacked");
  // Lean: one Cedar wasm, one SQLite module, no C sources, no TypeScript loader at run time.
  const everything = [...files]; // the asar's listing names its unpacked files too
  const wasm = everything.filter((f) => f.endsWith('.wasm'));
  if (wasm.length !== 1) problems.push(`${wasm.length} wasm files packed (one Cedar wasm expected): ${wasm.join(', ')}`);
  const sqliteModules = everything.filter((f) => f.endsWith('better_sqlite3.node'));
  if (sqliteModules.length !== 1)
    problems.push(`${sqliteModules.length} copies of better_sqlite3.node packed: ${sqliteModules.join(', ')}`);
  const cSources = everything.filter((f) => /\.(c|cc|cpp|h|o|a)$/.test(f));
  if (cSources.length) problems.push(`C sources or objects packed: ${cSources.slice(0, 5).join(', ')}${cSources.length > 5 ? ', …' : ''}`);
  for (const name of ['tsx', 'esbuild'])
    if ([...packed].some((dir) => dir.endsWith(`/node_modules/${name}`)))
      problems.push(`${name} is packed (the CLI runs from out/main/cli.js)`);

  const fuses = await getCurrentFuseWire(join(app, 'outpost'));
  const want = {
    RunAsNode: 48,
    EnableCookieEncryption: 49,
    EnableNodeOptionsEnvironmentVariable: 48,
    EnableNodeCliInspectArguments: 48,
    EnableEmbeddedAsarIntegrityValidation: 49,
    OnlyLoadAppFromAsar: 49,
    GrantFileProtocolExtraPrivileges: 48,
  };
  for (const [name, state] of Object.entries(want)) {
    const got = fuses[FuseV1Options[name]];
    if (got !== state) problems.push(`fuse ${name} is ${String.fromCharCode(got)}, not ${String.fromCharCode(state)}`);
  }
  console.log(`\napp.asar: ${files.size} entries; unpacked: ${unpacked.length} files; fuses: ${JSON.stringify(fuses)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (problems.length) {
  for (const note of notes) console.error(note);
  console.error(`package check FAILED:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `${notes.join('\n')}\npackage check: ok (layout, unpacked native and wasm modules, fuses, update feed${notes.some((n) => n.startsWith('ABI: ok')) ? ', ABI' : '; everything except the ABI'})`,
);
