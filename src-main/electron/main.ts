// The Electron main process: opens the local profile database (the same data
// directory `outpost serve` uses by default), runs every renderer request
// through the IPC bridge, and keeps the renderer locked down: sandboxed,
// context-isolated, strict CSP, no remote content, no navigation, no new
// windows, no permissions.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, type WebContents } from 'electron';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../auth/identity';
import type { Caller } from '../auth/caller';
import { defaultDataDir, isReplica, openEngine, type Engine, type RequestContext } from '../engine';
import { seedDemoData } from '../seed/seedDemoData';
import { BackgroundSync } from '../sync/backgroundSync';
import { attachReplica } from '../sync/replica';
import { createEventPublisher, type EventPublisher } from './events';
import { registerIpcBridge, trustedSenderCheck } from './ipcBridge';
import { APP_INDEX_URL, APP_ORIGIN, APP_SCHEME, CONTENT_SECURITY_POLICY, rendererResponse } from './rendererFiles';
import { createSafeStorageSecretStore, type SecretStore } from './secretStore';

const here = fileURLToPath(new URL('.', import.meta.url));
const rendererDir = join(here, '..', 'renderer');
const preloadFile = join(here, '..', 'preload', 'index.cjs');
/** The window icon on Linux/Windows when run from the repository (packaged builds embed build/icon.*). */
const iconFile = join(here, '..', '..', 'build', 'icon.png');
/** Set by `electron-vite dev`: the renderer comes from the Vite dev server instead of app://. */
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const rendererUrl = devServerUrl ?? APP_INDEX_URL;

// Must happen before `ready`: app:// behaves like https (standard, secure, fetchable).
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
app.enableSandbox();

let engine: Engine | undefined;
let caller: Caller | undefined;
let mainWindow: BrowserWindow | undefined;
let backgroundSync: BackgroundSync | undefined;

/** Pushes an event to every window (`window.outpost.onEvent`), e.g. sync status. */
const publishEvent: EventPublisher = createEventPublisher(() => BrowserWindow.getAllWindows().map((w) => w.webContents));

function openProfile(secrets: SecretStore): { engine: Engine; caller: Caller } {
  const dataDir = defaultDataDir();
  mkdirSync(dataDir, { recursive: true });
  const opened = attachReplica(openEngine(dataDir, { holder: { command: 'desktop' } }), { secrets });
  const { userId } = ensureMember(opened.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME);
  // First start: a living demo dataset instead of an empty screen.
  if (!isReplica(opened.db) && !opened.db.get('SELECT 1 FROM annotations LIMIT 1')) seedDemoData(opened.db);
  const local = loadCaller(opened.db, userId);
  if (!local) throw new Error(`local user ${DEFAULT_USER_NAME} could not be loaded`);
  // The desktop's user owns the data directory.
  return { engine: opened, caller: { ...local, owner: true } };
}

/**
 * The desktop's local user; once the first sync has adopted the remote identity,
 * invoke() runs every call as that remote user instead (engine.actingCaller).
 */
function requestContext(): RequestContext {
  if (!engine || !caller) throw new Error('the profile database is not open');
  return { engine, db: engine.db, caller };
}

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
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
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
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = undefined;
  });
  void win.loadURL(rendererUrl);
  return win;
}

function start(): void {
  // Remote API keys, encrypted with the OS keyring: the engine's remote profile and the scheduler share the store.
  const secrets: SecretStore = createSafeStorageSecretStore({ safeStorage, dir: join(defaultDataDir(), 'secrets') });
  ({ engine, caller } = openProfile(secrets));
  configureSession();
  registerIpcBridge(ipcMain, {
    context: requestContext,
    isTrustedSender: trustedSenderCheck([devServerUrl ?? `${APP_ORIGIN}/`]),
    onInternalError: (operation, error) => console.error(`outpost: internal error in ${operation}:`, error),
  });
  mainWindow = createWindow();
  // Background sync: runs while a remote is configured (now or later, from the Sync view);
  // status and progress events reach window.outpost.onEvent.
  backgroundSync = new BackgroundSync({ engine, secrets, publishEvent });
  void backgroundSync.start().catch((error: unknown) => console.error('outpost: background sync could not start:', error));
}

if (!app.requestSingleInstanceLock()) {
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
    if (quitting || !backgroundSync) {
      engine?.close();
      engine = undefined;
      return;
    }
    // Stop sync first (a run in progress is aborted; committed work stays), then close the database.
    event.preventDefault();
    quitting = true;
    void backgroundSync
      .stop()
      .catch((error: unknown) => console.error('outpost: stopping sync failed:', error))
      .finally(() => {
        backgroundSync = undefined;
        app.quit();
      });
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      // E.g. the database could not be opened (a native module built for another ABI, a locked or corrupt file).
      console.error('outpost: could not start:', error);
      dialog.showErrorBox('Outpost could not start', error instanceof Error ? error.message : String(error));
      app.exit(1);
    });
}
