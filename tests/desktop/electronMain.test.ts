// The desktop app's main process as built (out/main/index.js), loaded by Node
// with a stand-in `electron` module (tests/support/fakeElectron): main opens
// no database; it starts the real engine host (out/main/engineHost.js) with
// utilityProcess.fork, so a call from the renderer reaches SQLite in that
// child process. Calls from other frames are refused; the API key goes to
// safeStorage in main; sync events and the engine's state reach the window; a
// killed host is restarted; quitting closes the database.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readBridgeReply, type BridgeReply } from '../../src-shared/bridge';
import { Code } from '../../src-shared/errors';
import { currentHolder } from '../../src-main/db/dataDirLock';
import { openEngine } from '../../src-main/engine';
import { INVOKE_CHANNEL, EVENT_CHANNEL, PROFILE_CHANNEL } from '../../src-main/electron/channels';
import { demoDataDir } from '../../src-main/db/dataDir';
import { DEMO_LINK_REFUSED } from '../../src-main/db/demoProfile';
import { ShortcutReader, type KeyInput } from '../../src-renderer/src/lib/keyboard/shortcuts';
import { BUILT_HOST } from '../support/mainBundle';
import { startElectronMain, RENDERER_URL, type ElectronMain } from '../support/electronMain';
import { annotationRequest, startRemote, type RemoteServer } from '../sync/helpers';

let main: ElectronMain;
let remote: RemoteServer;

const ATML_REPORT = fileURLToPath(new URL('../fixtures/teststand/demo_test_report.xml', import.meta.url));
/** What the renderer's transport reads: the reply main forwarded (JSON text for a JSON response), parsed once. */
const call = async (operation: string, request: unknown = {}, url: string | null = RENDERER_URL): Promise<any> =>
  readBridgeReply((await main.invoke(url, INVOKE_CHANNEL, operation, request)) as BridgeReply);
const hostForks = () => main.records.filter((r) => r.api === 'utilityProcess.fork');
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The key event an Electron accelerator stands for (`CmdOrCtrl+Shift+S`, `?`), as the renderer's key reader sees it. */
function keyOf(accelerator: string): KeyInput {
  const parts = accelerator.split('+');
  const key = parts.pop()!;
  const shiftKey = parts.includes('Shift');
  return {
    key: shiftKey && key.length === 1 ? key.toUpperCase() : key.toLowerCase(),
    shiftKey,
    ctrlKey: parts.includes('CmdOrCtrl'),
    altKey: parts.includes('Alt'),
  };
}

const engineStates = () =>
  main
    .sent(EVENT_CHANNEL)
    .filter((e) => e.type === 'engine-status')
    .map((e) => e.state as string);

beforeAll(async () => {
  [main, remote] = await Promise.all([startElectronMain({ env: { FAKE_ELECTRON_OPEN_FILE: ATML_REPORT } }), startRemote()]);
  await main.waitFor('the engine host to be ready', () => engineStates().includes('ready'));
});
afterAll(async () => {
  main?.cleanup();
  await remote?.close();
});

describe('Electron main over the engine host (built bundles, stand-in electron)', () => {
  test('main starts the built engine host with utilityProcess.fork and never loads SQLite itself', () => {
    expect(hostForks()).toHaveLength(1);
    expect(hostForks()[0]).toMatchObject({ modulePath: BUILT_HOST, options: { serviceName: 'Outpost engine', stdio: 'pipe' } });
    expect(hostForks()[0].pid).not.toBe(main.child.pid);
    const log = main.moduleLog();
    expect(log.some((l) => l.endsWith('/tests/support/fakeElectron/electron.mjs'))).toBe(true);
    expect(log.filter((l) => /better-sqlite3|\.node$/.test(l))).toEqual([]);
    // The database's lock is the host's: main's process holds nothing.
    expect(currentHolder(main.dataDir)).toMatchObject({ command: 'desktop', pid: hostForks()[0].pid });
  });

  test("a call from our renderer reaches SQLite in the host: results, and the contract's error bodies", async () => {
    // A JSON response crosses main as its text: main forwards the host's reply without parsing it.
    expect(typeof (await main.invoke(RENDERER_URL, INVOKE_CHANNEL, 'GetMe', {}))).toBe('string');
    const me = await call('GetMe');
    expect(me).toMatchObject({ ok: true, data: { userEmail: 'engineer@outpost.local' } });
    // First start: the user's own profile, empty (the demo is a profile of its own, asked for).
    expect(await call('ListAnnotations', { pageSize: 5 })).toEqual({ ok: true, data: { annotations: [], nextPageToken: '' } });
    const created = await call('CreateAsset', { name: 'Desktop rig' });
    expect(created).toMatchObject({ ok: true, data: { asset: { name: 'Desktop rig' } } });
    expect(await call('GetAsset', { assetId: created.data.asset.assetId })).toEqual(created);
    const bad = await call('ListAnnotations', { pageSize: 'lots' });
    expect(bad).toMatchObject({
      ok: false,
      error: { code: Code.INVALID_ARGUMENT, details: [{ fieldViolations: [{ field: 'page_size' }] }] },
    });
    expect(await call('DropAllTables')).toMatchObject({ ok: false, error: { code: Code.UNIMPLEMENTED } });
  });

  test('a call from any other frame is refused before it reaches the host', async () => {
    for (const url of ['https://evil.example/', 'app://other/index.html', 'file:///etc/passwd', null]) {
      expect(await call('GetMe', {}, url)).toMatchObject({ ok: false, error: { code: Code.PERMISSION_DENIED } });
    }
  });

  test('the window is locked down: webPreferences, navigation and window-open denial, permissions, remote requests, the CSP', async () => {
    const window = main.records.find((r) => r.api === 'BrowserWindow')!;
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(window.options.webPreferences.preload).toMatch(/out\/preload\/index\.cjs$/);
    expect(main.records.find((r) => r.api === 'BrowserWindow.loadURL')!.url).toBe(RENDERER_URL);
    expect(main.records.find((r) => r.api === 'webContents.setWindowOpenHandler')!.result).toEqual({ action: 'deny' });
    expect(main.records.some((r) => r.api === 'app.enableSandbox')).toBe(true);
    const session = await main.session();
    expect(session).toMatchObject({
      permissionRequest: false,
      permissionCheck: false,
      devicePermission: false,
      remoteRequest: { cancel: true },
      localRequest: { cancel: false },
    });
    expect(session.headers.responseHeaders['Content-Security-Policy'][0]).toMatch(/default-src 'self'; script-src 'self'/);
  });

  test('the application menu: File, Edit, View (dev tools while unpackaged), Window, Help, with Ctrl/Cmd accelerators only', () => {
    const menu = main.records.find((r) => r.api === 'Menu.setApplicationMenu')!.template as {
      label?: string;
      role?: string;
      submenu?: { label?: string; role?: string; accelerator?: string; registerAccelerator?: boolean }[];
    }[];
    expect(menu.map((m) => m.label ?? m.role)).toEqual(['File', 'editMenu', 'View', 'windowMenu', 'Help']);
    expect(menu[0].submenu!.map((i) => i.label ?? i.role ?? 'separator')).toEqual([
      'Import Test Report…',
      'Sync Now',
      'separator',
      'Open Demo Profile',
      'separator',
      'quit',
    ]);
    expect(menu[2].submenu!.map((i) => i.role).filter(Boolean)).toEqual([
      'reload',
      'resetZoom',
      'zoomIn',
      'zoomOut',
      'togglefullscreen',
      'toggleDevTools',
    ]);
    expect(menu[4].submenu!.map((i) => i.label ?? 'separator')).toEqual([
      'Documentation',
      'Keyboard Shortcuts',
      'Open Logs Folder',
      'separator',
      'Check for Updates Automatically',
    ]);
    const registered = menu.flatMap((m) => m.submenu ?? []).filter((i) => i.accelerator && i.registerAccelerator !== false);
    expect(registered.map((i) => i.accelerator)).toEqual(['CmdOrCtrl+O', 'CmdOrCtrl+Shift+S']);
  });

  test("the menu's accelerators agree with the renderer's shortcut map: none it registers is a renderer key; the one it shows is", () => {
    const menu = main.records.find((r) => r.api === 'Menu.setApplicationMenu')!.template as {
      submenu?: { label?: string; accelerator?: string; registerAccelerator?: boolean }[];
    }[];
    const items = menu.flatMap((m) => m.submenu ?? []).filter((i) => i.accelerator);
    for (const item of items) {
      // A fresh reader each time (no pending `g` sequence): what the renderer would do with this key.
      const command = new ShortcutReader().read(keyOf(item.accelerator!));
      if (item.registerAccelerator === false) {
        // Shown, not registered: the renderer answers it (Help > Keyboard Shortcuts is the renderer's `?`).
        expect(command, item.label).toBe('help');
      } else {
        expect(command, `${item.label} (${item.accelerator}) would steal a renderer shortcut`).toBeUndefined();
      }
    }
    expect(items.find((i) => i.label === 'Keyboard Shortcuts')).toMatchObject({ accelerator: '?', registerAccelerator: false });
  });

  test("File > Import Test Report… imports the file main's own dialog picked, in the host", async () => {
    expect(await main.clickMenu('File', 'Import Test Report…')).toMatchObject({ found: true });
    await main.waitFor('the import', () => main.sent(EVENT_CHANNEL).some((e) => e.type === 'test-report-imported'));
    const imported = main.sent(EVENT_CHANNEL).find((e) => e.type === 'test-report-imported');
    const report = await call('GetTestReport', { testReportId: imported.testReportId });
    expect(report).toMatchObject({ ok: true, data: { testReport: { testReportId: imported.testReportId } } });
    expect(main.records.find((r) => r.api === 'dialog.showOpenDialog')!.options).toMatchObject({
      properties: ['openFile'],
      filters: [{ extensions: ['xml'] }],
    });
    expect(main.records.find((r) => r.api === 'dialog.showMessageBox')!.options).toMatchObject({
      type: 'info',
      message: `Imported ${report.data.testReport.name}`,
    });
  });

  test('File > Sync Now without a remote says why; Help items open the shortcuts, the logs folder and the documentation', async () => {
    await main.clickMenu('File', 'Sync Now');
    await main.waitFor('a message box', () => main.records.some((r) => r.api === 'dialog.showMessageBox' && r.options.type === 'warning'));
    expect(main.records.find((r) => r.api === 'dialog.showMessageBox' && r.options.type === 'warning')!.options).toMatchObject({
      message: 'Sync could not start',
    });
    await main.clickMenu('Help', 'Keyboard Shortcuts');
    expect(main.sent(EVENT_CHANNEL).filter((e) => e.type === 'menu-command')).toEqual([{ type: 'menu-command', command: 'help' }]);
    await main.clickMenu('Help', 'Open Logs Folder');
    expect(main.records.find((r) => r.api === 'shell.openPath')!.path).toBe(join(main.paths, 'logs'));
    // Unpackaged, the repository's README (packaged: resources/docs/README.md, checked by npm run package:check).
    await main.clickMenu('Help', 'Documentation');
    await main.waitFor('the documentation to open', () => main.records.filter((r) => r.api === 'shell.openPath').length === 2);
    const opened = main.records.filter((r) => r.api === 'shell.openPath')[1].path as string;
    expect(opened).toBe(join(REPO_ROOT, 'README.md'));
    expect(existsSync(opened)).toBe(true);
    expect(main.records.some((r) => r.api === 'shell.openExternal')).toBe(false);
  });

  test('the API key is kept by main with safeStorage, never by the host; sync status reaches the window', async () => {
    const configured = await call('ConfigureSyncRemote', { baseUrl: remote.url, apiKey: remote.token });
    expect(configured).toMatchObject({ ok: true, data: { remote: { hasApiKey: true } } });
    expect(JSON.stringify(configured)).not.toContain(remote.token);
    // Encrypted blobs under <data dir>/secrets, written by main; the plain key nowhere in the directory.
    const blobs = readdirSync(join(main.dataDir, 'secrets'));
    expect(blobs).toHaveLength(1);
    expect(readFileSync(join(main.dataDir, 'secrets', blobs[0]), 'utf8')).toMatch(/^fake-keyring:/);
    for (const entry of readdirSync(main.dataDir, { recursive: true, encoding: 'utf8' })) {
      const path = join(main.dataDir, entry);
      if (statSync(path).isFile()) expect(readFileSync(path).includes(Buffer.from(remote.token)), entry).toBe(false);
    }
    await main.waitFor('a finished sync run in the window', () =>
      main.sent(EVENT_CHANNEL).some((e) => e.type === 'sync-status' && e.running === false && e.status?.lastSuccessDate),
    );
    expect(main.sent(EVENT_CHANNEL).some((e) => e.type === 'sync-status' && e.running === true)).toBe(true);
    // File > Sync Now runs another.
    const runsBefore = main.sent(EVENT_CHANNEL).filter((e) => e.type === 'sync-status' && e.running === true).length;
    await main.clickMenu('File', 'Sync Now');
    await main.waitFor(
      'another run',
      () => main.sent(EVENT_CHANNEL).filter((e) => e.type === 'sync-status' && e.running === true).length > runsBefore,
    );
  });

  test('kill -9 of the host: the window is told, a new host is started and answers; acknowledged writes are kept', async () => {
    // The profile is a replica now: an annotation on the asset the remote sent (a replicated write, with its outbox entry).
    const written = await call('CreateAnnotation', annotationRequest('Before the crash'));
    expect(written).toMatchObject({ ok: true });
    const firstPid = hostForks()[0].pid as number;
    process.kill(firstPid, 'SIGKILL');
    await main.waitFor('a second host', () => hostForks().length === 2 && engineStates().at(-1) === 'ready');
    expect(engineStates()).toEqual(['starting', 'ready', 'restarting', 'restarting', 'ready']);
    expect(hostForks()[1].pid).not.toBe(firstPid);
    expect(await call('GetAnnotation', { annotationId: written.data.annotation.annotationId })).toEqual(written);
  });

  test('the log file is in the platform log folder: the host restart is there, the API key is not; updates are off unpackaged', async () => {
    const logFile = join(main.paths, 'logs', 'main.log');
    await main.waitFor('the log file', () => existsSync(logFile) && readFileSync(logFile, 'utf8').includes('restarting it'));
    const text = readFileSync(logFile, 'utf8');
    expect(text).toMatch(/\[error\] engine host exited with code 137; restarting it|\[error\] engine host was killed; restarting it/);
    expect(text).toContain('updates: off: not packaged');
    expect(text).not.toContain(remote.token);
    // electron-updater is not even loaded.
    expect(main.moduleLog().filter((l) => l.includes('electron-updater'))).toEqual([]);
  });

  test("'Try with demo data': the demo profile opens in its own directory, is seeded, refuses a link; the user's profile comes back untouched", async () => {
    expect(await main.invoke(RENDERER_URL, PROFILE_CHANNEL, 'current')).toEqual({ kind: 'real', dataDir: main.dataDir });
    // Only our renderer may ask, and only for the two profiles.
    await expect(main.invoke('https://evil.example/', PROFILE_CHANNEL, 'open', 'demo')).rejects.toThrow(/untrusted frame/);
    await expect(main.invoke(RENDERER_URL, PROFILE_CHANNEL, 'open', '/etc')).rejects.toThrow(/unknown profile request/);
    const forksBefore = hostForks().length;
    const reloadsBefore = main.records.filter((r) => r.api === 'webContents.reload').length;
    const demo = await main.invoke(RENDERER_URL, PROFILE_CHANNEL, 'open', 'demo');
    expect(demo).toEqual({ kind: 'demo', dataDir: demoDataDir(main.dataDir) });
    expect(hostForks()).toHaveLength(forksBefore + 1);
    expect(main.records.filter((r) => r.api === 'webContents.reload')).toHaveLength(reloadsBefore + 1);
    // The user's profile is closed (its lock released) and the demo's host holds the demo directory.
    expect(currentHolder(main.dataDir)).toBeUndefined();
    expect(currentHolder(demo.dataDir)).toMatchObject({ command: 'desktop', pid: hostForks().at(-1)!.pid });
    const page = await call('ListAnnotations', { pageSize: 5 });
    expect(page.data.annotations).toHaveLength(5);
    expect(await call('ConfigureSyncRemote', { baseUrl: remote.url, apiKey: remote.token })).toEqual({
      ok: false,
      error: { code: Code.FAILED_PRECONDITION, message: DEMO_LINK_REFUSED, details: [] },
    });
    const menu = main.records.filter((r) => r.api === 'Menu.setApplicationMenu').at(-1)!.template as { submenu?: { label?: string }[] }[];
    expect(menu[0].submenu!.map((i) => i.label)).toContain('Open My Profile');
    // Back: the user's profile with its own records (the annotation written before the crash), linked as before.
    // (Not polled with currentHolder: its probe takes the lock for a moment, and the opening host would find it busy.)
    const readies = engineStates().filter((s) => s === 'ready').length;
    await main.clickMenu('File', 'Open My Profile');
    await main.waitFor('the real profile', () => engineStates().filter((s) => s === 'ready').length > readies);
    expect(currentHolder(main.dataDir)).toMatchObject({ command: 'desktop', pid: hostForks().at(-1)!.pid });
    expect(await main.invoke(RENDERER_URL, PROFILE_CHANNEL, 'current')).toEqual({ kind: 'real', dataDir: main.dataDir });
    const own = await call('ListAnnotations', { filter: 'name == "Before the crash"' });
    expect(own.data.annotations).toHaveLength(1);
    expect(await call('GetSyncRemote')).toMatchObject({ ok: true, data: { remote: { baseUrl: remote.url } } });
  });

  test('the window remembers its size and position', async () => {
    await main.closeWindow();
    const saved = JSON.parse(readFileSync(join(main.paths, 'userData', 'window-state.json'), 'utf8'));
    expect(saved).toEqual({ x: 40, y: 30, width: 1200, height: 800, maximized: false });
  });

  test('quitting stops the host and frees the data directory', async () => {
    const hostPid = hostForks().at(-1)!.pid as number;
    expect(await main.quit()).toBe(0);
    expect(main.records.filter((r) => r.api === 'app.quit').length).toBeGreaterThanOrEqual(2);
    expect(() => process.kill(hostPid, 0)).toThrow();
    const engine = openEngine(main.dataDir);
    engine.close();
  });
});

describe('Electron main when the profile cannot be opened', () => {
  test('says why in an error box and exits, without restarting the host in a loop', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-desktop-busy-'));
    const holder = openEngine(dataDir, { holder: { command: 'serve' } });
    const busy = await startElectronMain({ dataDir });
    try {
      expect(await busy.exited).toBe(1);
      const box = busy.records.find((r) => r.api === 'dialog.showErrorBox')!;
      expect(box.title).toBe('Outpost could not start');
      expect(box.content).toBe(
        `${dataDir} is in use by outpost serve (pid ${process.pid}): stop it (or close the other Outpost window), then start Outpost again. Nothing was changed.`,
      );
      expect(busy.records.filter((r) => r.api === 'utilityProcess.fork')).toHaveLength(1);
      expect(busy.sent(EVENT_CHANNEL).map((e) => e.state)).toEqual(['starting', 'failed']);
    } finally {
      busy.cleanup();
      holder.close();
    }
  });
});
