// The Electron main process: the window, the protocol handler, safeStorage
// and IPC forwarding. It never opens the database: the engine (SQLite, every
// service, the outbox, background sync) runs in the engine host, a
// utilityProcess (host/main.ts -> out/main/engineHost.js) that main starts,
// forwards every renderer call to, answers secret requests for, and restarts
// when it dies. The renderer stays locked down: sandboxed, context-isolated,
// strict CSP, no remote content, no navigation, no new windows, no permissions.
// Also here: the application menu, the log file, auto-update checks and the
// window's remembered size and position.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, net, protocol, safeStorage, session, shell, type WebContents } from 'electron';
import { defaultDataDir } from '../db/dataDir';
import { EngineHostSupervisor } from '../host/supervisor';
import { createAppLog, type AppLog } from './appLog';
import { appMenuTemplate } from './appMenu';
import { documentationPath } from './documentation';
import type { ProfileInfo, ProfileKind } from './channels';
import { createEventPublisher, type EventPublisher } from './events';
import { registerIpcBridge, trustedSenderCheck } from './ipcBridge';
import { profileFor, registerProfileSwitch } from './profiles';
import { APP_INDEX_URL, APP_ORIGIN, APP_SCHEME, CONTENT_SECURITY_POLICY, rendererResponse } from './rendererFiles';
import { createSafeStorageSecretStore } from './secretStore';
import { loadUpdateSetting, readBuildFeedUrl, saveUpdateSetting, startUpdateChecks, type UpdateChecks } from './updates';
import { hostEnvironment } from './hostEnvironment';
import { appArmorRestrictsUserNamespaces, SANDBOX_REFUSAL_TITLE, sandboxRefusal } from './sandboxRefusal';
import { utilityHostLauncher } from './utilityHost';
import { loadWindowBounds, MIN_SIZE, saveWindowBounds } from './windowState';

const here = fileURLToPath(new URL('.', import.meta.url));
const rendererDir = join(here, '..', 'renderer');
const preloadFile = join(here, '..', 'preload', 'index.cjs');
/** The engine host's bundle, beside this one (electron.vite.config.ts builds both). */
const engineHostFile = join(here, 'engineHost.js');
/** The window icon on Linux/Windows when run from the repository (packaged builds embed build/icon.*). */
const iconFile = join(here, '..', '..', 'build', 'icon.png');
/** Set by `electron-vite dev`: the renderer comes from the Vite dev server instead of app://. */
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const rendererUrl = devServerUrl ?? APP_INDEX_URL;

// Must happen before `ready`: app:// behaves like https (standard, secure, fetchable).
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
app.enableSandbox();

let mainWindow: BrowserWindow | undefined;
let engineHost: EngineHostSupervisor | undefined;
/** The profile the window shows: the user's own at start; the demo only when asked for. */
let profile: ProfileInfo = profileFor('real', defaultDataDir());
// Electron's default log folder (app.getPath('logs')): set before it is read.
app.setAppLogsPath();
const appLog: AppLog = createAppLog(app.getPath('logs'));
const windowStateFile = join(app.getPath('userData'), 'window-state.json');
const updateSettingFile = join(app.getPath('userData'), 'update-settings.json');

/** Pushes an event to every window (`window.outpost.onEvent`): sync status and progress, the engine's state. */
const publishEvent: EventPublisher = createEventPublisher(() => BrowserWindow.getAllWindows().map((w) => w.webContents));

/** Hardening that applies to every web contents the app ever creates. */
function lockDown(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

function isLocalUrl(url: string): boolean {
  if (url.startsWith(`${APP_ORIGIN}/`) || /^(devtools|data|blob):/.test(url)) return true;
  if (!devServerUrl) return false;
  const dev = new URL(devServerUrl);
  return url.startsWith(dev.origin) || url.startsWith(`ws://${dev.host}`);
}

function configureSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  // No remote content: anything that is not our renderer is cancelled before it leaves the machine.
  ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isLocalUrl(details.url) }));
  // The same CSP on every response, including the dev server's.
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  ses.protocol.handle(APP_SCHEME, async (request) => {
    const res = await rendererResponse(rendererDir, request.url);
    return new Response(typeof res.body === 'string' ? res.body : new Uint8Array(res.body), { status: res.status, headers: res.headers });
  });
}

function createWindow(): BrowserWindow {
  const { maximized, ...bounds } = loadWindowBounds(windowStateFile);
  const win = new BrowserWindow({
    ...bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    title: 'Outpost',
    backgroundColor: '#f5f6f8',
    ...(existsSync(iconFile) ? { icon: iconFile } : {}),
    webPreferences: {
      preload: preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => {
    if (maximized) win.maximize();
    win.show();
  });
  win.on('close', () => saveWindowBounds(windowStateFile, { ...win.getNormalBounds(), maximized: win.isMaximized() }));
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = undefined;
  });
  void win.loadURL(rendererUrl);
  return win;
}

/** The engine host for `opened`; its state goes to the windows so they say when it is down. */
function createEngineHost(opened: ProfileInfo): EngineHostSupervisor {
  const { dataDir } = opened;
  // Remote API keys, encrypted with the OS keyring, stay here: the host asks for them over its port.
  const secrets = createSafeStorageSecretStore({ safeStorage, dir: join(dataDir, 'secrets') });
  return new EngineHostSupervisor({
    launch: utilityHostLauncher(engineHostFile, hostEnvironment(process.env, app.isPackaged)),
    // The real profile starts empty; only the demo profile is seeded (and is then marked, never linkable).
    init: { dataDir, seedDemoData: opened.kind === 'demo', backgroundSync: true },
    secrets,
    onEvent: publishEvent,
    onStateChange: (state, detail) => publishEvent({ type: 'engine-status', state, detail }),
    onLog: (level, message) => appLog[level](message),
  });
}

/** A message box over the window (or alone, when it is closed). */
function tell(options: Electron.MessageBoxOptions): void {
  void (mainWindow ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options));
}

/** File > Import Test Report…: the path comes from main's own dialog, never from the renderer. */
async function importTestReport(host: EngineHostSupervisor): Promise<void> {
  const options: Electron.OpenDialogOptions = {
    title: 'Import a TestStand ATML report',
    properties: ['openFile'],
    filters: [{ name: 'ATML test report', extensions: ['xml'] }],
  };
  const picked = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
  if (picked.canceled || picked.filePaths.length === 0) return;
  const result = await host.importFile(picked.filePaths[0]);
  if (!result.ok) return tell({ type: 'error', message: 'The test report could not be imported', detail: result.error.message });
  const report = (result.data as { testReport?: { testReportId?: string; name?: string } }).testReport;
  publishEvent({ type: 'test-report-imported', testReportId: report?.testReportId ?? '' });
  tell({ type: 'info', message: `Imported ${report?.name ?? 'the test report'}` });
}

/** Help › Documentation: the guide shipped with the app, in the system's viewer for it. */
async function openDocumentation(): Promise<void> {
  const path = documentationPath(app, process.resourcesPath);
  const problem = await shell.openPath(path);
  if (problem) tell({ type: 'warning', message: 'The documentation could not be opened', detail: `${problem} (${path})` });
}

async function syncNow(host: EngineHostSupervisor): Promise<void> {
  const result = await host.call('SyncNow', {});
  if (!result.ok) tell({ type: 'warning', message: 'Sync could not start', detail: result.error.message });
}

function setMenu(): void {
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate(
        {
          importTestReport: () => void (engineHost && importTestReport(engineHost)),
          syncNow: () => void (engineHost && syncNow(engineHost)),
          switchProfile: () => void switchProfile(profile.kind === 'demo' ? 'real' : 'demo'),
          openDocumentation: () => void openDocumentation(),
          showShortcuts: () => publishEvent({ type: 'menu-command', command: 'help' }),
          openLogsFolder: () => void shell.openPath(app.getPath('logs')),
          setUpdateChecks,
        },
        {
          isPackaged: app.isPackaged,
          platform: process.platform,
          profile: profile.kind,
          updateChecks: loadUpdateSetting(updateSettingFile),
        },
      ),
    ),
  );
}

let switching: Promise<ProfileInfo> | undefined;

/** Closes the open profile's engine and opens `kind`'s (the window reloads onto it). Throws a sentence if it cannot. */
function openProfile(kind: ProfileKind): Promise<ProfileInfo> {
  // One switch at a time (a double click asks twice).
  switching ??= switchTo(kind).finally(() => (switching = undefined));
  return switching;
}

async function switchTo(kind: ProfileKind): Promise<ProfileInfo> {
  if (kind === profile.kind) return profile;
  const next = profileFor(kind, defaultDataDir());
  await engineHost?.stop();
  const previous = profile;
  const host = createEngineHost(next);
  engineHost = host;
  profile = next;
  appLog.info(`opening the ${kind} profile in ${next.dataDir}`);
  try {
    await host.start();
  } catch (error) {
    // Back to the profile that was open: the window is never left without an engine.
    appLog.error(`the ${kind} profile could not be opened`, error);
    engineHost = createEngineHost(previous);
    profile = previous;
    await engineHost.start().catch((e: unknown) => appLog.error('reopening the previous profile failed', e));
    throw new Error(`The ${kind === 'demo' ? 'demo' : 'your'} profile in ${next.dataDir} could not be opened: ${(error as Error).message}`);
  } finally {
    setMenu();
  }
  mainWindow?.webContents.reload();
  return profile;
}

/** The menu's switch: the same as the window's, with a message box when it fails. */
async function switchProfile(kind: ProfileKind): Promise<void> {
  try {
    await openProfile(kind);
  } catch (error) {
    tell({ type: 'error', message: 'The profile could not be opened', detail: (error as Error).message });
  }
}

async function start(): Promise<void> {
  const host = createEngineHost(profile);
  engineHost = host;
  appLog.info(`Outpost ${app.getVersion()} starting; profile in ${profile.dataDir}`);
  setMenu();
  configureSession();
  const isTrustedSender = trustedSenderCheck([devServerUrl ?? `${APP_ORIGIN}/`]);
  registerIpcBridge(ipcMain, {
    // Always the open profile's engine (a call made while the profile is switched fails UNAVAILABLE).
    call: (operation, request) => (engineHost ?? host).forward(operation, request),
    isTrustedSender,
  });
  registerProfileSwitch(ipcMain, { isTrustedSender, current: () => profile, open: openProfile });
  // The window appears at once; its first calls wait for the profile to open.
  mainWindow = createWindow();
  await host.start();
  await applyUpdateSetting();
}

let updates: UpdateChecks | undefined;

/** (Re)starts update checks as the build and the user's setting say. */
async function applyUpdateSetting(): Promise<void> {
  updates?.stop();
  updates = await startUpdateChecks({
    feedUrl: readBuildFeedUrl(process.resourcesPath),
    isPackaged: app.isPackaged,
    enabled: loadUpdateSetting(updateSettingFile),
    isOnline: () => net.isOnline(),
    loadUpdater: async () => (await import('electron-updater')).autoUpdater,
    log: appLog,
  });
  appLog.info(`updates: ${updates.state}`);
}

/** Help › Check for Updates Automatically. */
function setUpdateChecks(on: boolean): void {
  saveUpdateSetting(updateSettingFile, on);
  setMenu();
  void applyUpdateSetting();
}

const refusal = sandboxRefusal({
  isPackaged: app.isPackaged,
  argv: process.argv,
  env: process.env,
  userNamespacesRestricted: () => appArmorRestrictsUserNamespaces(),
});

if (refusal) {
  // Nothing starts: no engine, no window. The box needs `ready` (before it, Linux prints to stderr only).
  appLog.error(`${SANDBOX_REFUSAL_TITLE}\n${refusal}`);
  console.error(`${SANDBOX_REFUSAL_TITLE}\n${refusal}`);
  void app.whenReady().then(() => {
    dialog.showErrorBox(SANDBOX_REFUSAL_TITLE, refusal);
    app.exit(1);
  });
} else if (!app.requestSingleInstanceLock()) {
  // One process per profile: a second window would be a second SQLite writer.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });
  app.on('web-contents-created', (_event, contents) => lockDown(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });
  let quitting = false;
  app.on('will-quit', (event) => {
    if (quitting || !engineHost) return;
    // The host stops sync (a run in progress is aborted; committed work stays) and closes the database.
    event.preventDefault();
    quitting = true;
    void engineHost
      .stop()
      .catch((error: unknown) => appLog.error('stopping the engine failed', error))
      .finally(() => {
        engineHost = undefined;
        app.quit();
      });
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      // E.g. the database could not be opened (a native module built for another ABI, a locked or corrupt file).
      appLog.error('could not start', error);
      dialog.showErrorBox('Outpost could not start', error instanceof Error ? error.message : String(error));
      app.exit(1);
    });
}
