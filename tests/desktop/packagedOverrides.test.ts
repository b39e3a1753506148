// Nothing native from the environment in a packaged app (#29 item 2), on the
// built bundles: OUTPOST_SQLITE_BINDING (and Node's loader variables) are
// honoured when the app runs from the sources — `npm start` relies on it — and
// ignored when packaged: the built engine host run from inside an `app.asar`
// folder opens its database with the module it was packed with, and the built
// main, playing a packaged app, starts its host without them.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { nativeBinding, runsFromAsar } from '../../src-main/db/database';
import { LOADER_OVERRIDES } from '../../src-main/electron/hostEnvironment';
import { forkLauncher } from '../../src-main/host/nodeLaunchers';
import { EngineHostSupervisor } from '../../src-main/host/supervisor';
import { createMemorySecretStore } from '../../src-main/sync/secretStore';
import { startElectronMain } from '../support/electronMain';
import { ensureMainBuilt, mainOutDir, repoRoot } from '../support/mainBundle';

const EVIL = '/nonexistent/evil/better_sqlite3.node';
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));

/** The built host under `<tmp>/resources/app.asar/out/main` (as packaged), resolving packages from this checkout. */
function packagedCopyOfHost(): string {
  const root = mkdtempSync(join(tmpdir(), 'outpost-packaged-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const main = join(root, 'resources', 'app.asar', 'out', 'main');
  mkdirSync(main, { recursive: true });
  cpSync(mainOutDir, main, { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  return join(main, 'engineHost.js');
}

async function startHost(entry: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-override-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const supervisor = new EngineHostSupervisor({
    launch: forkLauncher(entry, { env: { ...process.env, OUTPOST_SQLITE_BINDING: EVIL } }),
    init: { dataDir },
    secrets: createMemorySecretStore(),
  });
  const started = await supervisor.start().then(
    () => 'ready',
    (error: Error) => error.message,
  );
  return { supervisor, started };
}

describe('the SQLite binding override', () => {
  test('is read only outside an asar archive', () => {
    expect(runsFromAsar('file:///opt/Outpost/resources/app.asar/out/main/engineHost.js')).toBe(true);
    expect(runsFromAsar('file:///C:/Program%20Files/Outpost/resources/app.asar/out/main/engineHost.js')).toBe(true);
    expect(runsFromAsar('file:///home/me/outpost/out/main/engineHost.js')).toBe(false);
    expect(runsFromAsar('file:///home/me/app.asar.backup/out/main/engineHost.js')).toBe(false);
    const env = { OUTPOST_SQLITE_BINDING: EVIL };
    expect(nativeBinding(env, 'file:///home/me/outpost/out/main/engineHost.js')).toEqual({ nativeBinding: EVIL });
    expect(nativeBinding(env, 'file:///opt/Outpost/resources/app.asar/out/main/engineHost.js')).toBeUndefined();
  });

  test('the built engine host from the sources honours it (and fails naming the module); packaged, it ignores it', async () => {
    await ensureMainBuilt();
    const fromSources = await startHost(join(mainOutDir, 'engineHost.js'));
    expect(fromSources.started).toContain(EVIL);
    await fromSources.supervisor.stop();

    const packaged = await startHost(packagedCopyOfHost());
    try {
      expect(packaged.started).toBe('ready');
      expect(await packaged.supervisor.call('GetMe', {})).toMatchObject({ ok: true, data: { userEmail: 'engineer@outpost.local' } });
    } finally {
      await packaged.supervisor.stop();
    }
  });
});

describe('main, packaged, starts its engine host without loader overrides', () => {
  test('OUTPOST_SQLITE_BINDING and NODE_PATH never reach the host; it opens the profile', async () => {
    const main = await startElectronMain({
      env: { FAKE_ELECTRON_PACKAGED: '1', OUTPOST_SQLITE_BINDING: EVIL, NODE_PATH: '/nonexistent/evil' },
    });
    try {
      await main.waitFor('the engine host to be ready', () => main.sent('outpost:event').some((e) => e.state === 'ready'));
      const fork = main.records.find((r) => r.api === 'utilityProcess.fork')!;
      for (const name of LOADER_OVERRIDES) expect(fork.options.env, name).not.toHaveProperty(name);
      expect(fork.options.env.OUTPOST_DATA_DIR).toBe(main.dataDir);
    } finally {
      expect(await main.quit()).toBe(0);
      main.cleanup();
    }
  });
});
