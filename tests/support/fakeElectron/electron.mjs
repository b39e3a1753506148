// A stand-in for the `electron` module, for running the built main bundle
// (out/main/index.js) under plain Node in a test. It records what main asks
// of Electron and reports it to the test over the fork's IPC channel
// ({kind: 'record', api, ...}); the test plays the renderer through ipcMain
// ({kind: 'invoke'}) and quits the app ({kind: 'quit'}). utilityProcess.fork
// is real: child_process.fork of the same module, with `process.parentPort`
// provided by utilityChild.mjs.
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const record = (api, detail = {}) => {
  if (process.connected) process.send({ kind: 'record', api, ...detail });
};

/** Plain data only (menu templates hold click functions). */
const plain = (value) => JSON.parse(JSON.stringify(value, (_key, v) => (typeof v === 'function' ? '[function]' : v)));

class FakeApp extends EventEmitter {
  /** FAKE_ELECTRON_PACKAGED=1 plays the packaged app (main's checks of app.isPackaged). */
  isPackaged = process.env.FAKE_ELECTRON_PACKAGED === '1';
  #quitting = false;
  enableSandbox() {
    record('app.enableSandbox');
  }
  requestSingleInstanceLock() {
    return true;
  }
  whenReady() {
    return Promise.resolve();
  }
  isReady() {
    return true;
  }
  getPath(name) {
    return join(process.env.FAKE_ELECTRON_PATHS ?? tmpdir(), name);
  }
  /** Unpackaged, Electron's app path is the project folder (where package.json is). */
  getAppPath() {
    return fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');
  }
  getVersion() {
    return '0.1.0';
  }
  getName() {
    return 'Outpost';
  }
  setAppLogsPath() {}
  quit() {
    record('app.quit');
    if (this.#quitting) return;
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    this.emit('before-quit', event);
    this.emit('will-quit', event);
    if (event.defaultPrevented) return;
    this.#quitting = true;
    record('app.exited');
    setTimeout(() => process.exit(0), 50);
  }
  exit(code) {
    record('app.exit', { code });
    setTimeout(() => process.exit(code), 50);
  }
}
export const app = new FakeApp();

class FakeWebContents extends EventEmitter {
  constructor(id) {
    super();
    this.id = id;
  }
  isDestroyed() {
    return false;
  }
  send(channel, payload) {
    record('webContents.send', { channel, payload });
  }
  reload() {
    record('webContents.reload');
  }
  setWindowOpenHandler(handler) {
    record('webContents.setWindowOpenHandler', { result: handler({ url: 'https://evil.example/' }) });
  }
}

const windows = [];
export class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return [...windows];
  }
  constructor(options) {
    super();
    this.webContents = new FakeWebContents(windows.length + 1);
    windows.push(this);
    record('BrowserWindow', { options: plain(options) });
    app.emit('web-contents-created', {}, this.webContents);
  }
  loadURL(url) {
    record('BrowserWindow.loadURL', { url });
    return Promise.resolve();
  }
  show() {}
  focus() {}
  isMinimized() {
    return false;
  }
  restore() {}
  getNormalBounds() {
    return { x: 40, y: 30, width: 1200, height: 800 };
  }
  maximize() {
    record('BrowserWindow.maximize');
  }
  close() {
    this.emit('close', { preventDefault() {} });
    windows.splice(windows.indexOf(this), 1);
    this.emit('closed');
  }
  isMaximized() {
    return false;
  }
}

const handlers = new Map();
export const ipcMain = {
  handle(channel, listener) {
    handlers.set(channel, listener);
    record('ipcMain.handle', { channel });
  },
  removeHandler(channel) {
    handlers.delete(channel);
  },
};

export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    record('protocol.registerSchemesAsPrivileged', { schemes });
  },
};

const sessionHandlers = {};
export const session = {
  defaultSession: {
    setPermissionRequestHandler: (h) => (sessionHandlers.permissionRequest = h),
    setPermissionCheckHandler: (h) => (sessionHandlers.permissionCheck = h),
    setDevicePermissionHandler: (h) => (sessionHandlers.devicePermission = h),
    webRequest: {
      onBeforeRequest: (h) => (sessionHandlers.beforeRequest = h),
      onHeadersReceived: (h) => (sessionHandlers.headersReceived = h),
    },
    protocol: {
      handle: (scheme, h) => {
        sessionHandlers.protocol = h;
        record('session.protocol.handle', { scheme });
      },
    },
  },
};

/** Reversible but never the plain text, like the OS keyring's ciphertext. */
export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (text) => Buffer.from(`fake-keyring:${Buffer.from(text).reverse().toString('base64')}`),
  decryptString: (blob) => Buffer.from(blob.toString().slice('fake-keyring:'.length), 'base64').reverse().toString(),
};

export const dialog = {
  showErrorBox(title, content) {
    record('dialog.showErrorBox', { title, content });
  },
  async showOpenDialog(windowOrOptions, maybeOptions) {
    record('dialog.showOpenDialog', { options: plain(maybeOptions ?? windowOrOptions) });
    const path = process.env.FAKE_ELECTRON_OPEN_FILE;
    return path ? { canceled: false, filePaths: [path] } : { canceled: true, filePaths: [] };
  },
  async showMessageBox(windowOrOptions, maybeOptions) {
    record('dialog.showMessageBox', { options: plain(maybeOptions ?? windowOrOptions) });
    return { response: 0 };
  },
};

export const net = {
  isOnline: () => true,
};

export const shell = {
  async openPath(path) {
    record('shell.openPath', { path });
    return '';
  },
  async openExternal(url) {
    record('shell.openExternal', { url });
  },
};

let applicationMenu;
export const Menu = {
  buildFromTemplate(template) {
    return { template };
  },
  setApplicationMenu(menu) {
    applicationMenu = menu;
    record('Menu.setApplicationMenu', { template: plain(menu.template) });
  },
};

/** Finds a menu item by its label path (e.g. ['File', 'Sync Now']). */
function menuItem(path) {
  let items = applicationMenu?.template ?? [];
  let item;
  for (const label of path) {
    item = items.find((i) => i.label === label);
    items = item?.submenu ?? [];
  }
  return item;
}

const UTILITY_CHILD = fileURLToPath(new URL('./utilityChild.mjs', import.meta.url));

/** utilityProcess.fork as a forked Node process speaking Electron's parentPort (utilityChild.mjs). */
class FakeUtilityProcess extends EventEmitter {
  constructor(modulePath, args, options) {
    super();
    this.child = fork(modulePath, args, {
      execArgv: ['--import', UTILITY_CHILD],
      env: options?.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    this.stdout = this.child.stdout;
    this.stderr = this.child.stderr;
    this.child.on('error', () => {});
    this.child.on('message', (message) => this.emit('message', message));
    this.child.on('spawn', () => this.emit('spawn'));
    this.child.on('exit', (code, signal) => this.emit('exit', code ?? (signal ? 128 + 9 : 0)));
  }
  get pid() {
    return this.child.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }
  postMessage(message) {
    if (this.child.connected) this.child.send(message, () => {});
  }
  kill() {
    return this.child.kill('SIGTERM');
  }
}

export const utilityProcess = {
  fork(modulePath, args = [], options = {}) {
    const child = new FakeUtilityProcess(modulePath, args, options);
    record('utilityProcess.fork', { modulePath, args, options: plain(options), pid: child.child.pid });
    return child;
  },
};

// The test's side: play the renderer, click menu items, quit.
process.on('message', async (message) => {
  if (message?.kind === 'invoke') {
    const handler = handlers.get(message.channel);
    const event = { senderFrame: message.url === null ? null : { url: message.url } };
    try {
      const result = handler ? await handler(event, ...message.args) : { noHandler: message.channel };
      process.send({ kind: 'invoke-result', id: message.id, result });
    } catch (error) {
      // ipcRenderer.invoke rejects with the handler's error, its message prefixed as Electron does.
      process.send({ kind: 'invoke-result', id: message.id, error: `Error invoking remote method '${message.channel}': ${error}` });
    }
  } else if (message?.kind === 'session') {
    // Asks the session's handlers what they decide (permission, a request to another origin, the CSP header).
    const answers = {};
    sessionHandlers.permissionRequest?.({}, 'media', (granted) => (answers.permissionRequest = granted));
    answers.permissionCheck = sessionHandlers.permissionCheck?.({}, 'media');
    answers.devicePermission = sessionHandlers.devicePermission?.({});
    sessionHandlers.beforeRequest?.({ url: 'https://evil.example/x.js' }, (r) => (answers.remoteRequest = r));
    sessionHandlers.beforeRequest?.({ url: 'app://outpost/index.html' }, (r) => (answers.localRequest = r));
    sessionHandlers.headersReceived?.({ responseHeaders: {} }, (r) => (answers.headers = r));
    process.send({ kind: 'session-result', id: message.id, answers });
  } else if (message?.kind === 'menu') {
    const item = menuItem(message.path);
    if (item?.click) await item.click(item, windows[0], {});
    process.send({ kind: 'menu-result', id: message.id, found: !!item, role: item?.role, accelerator: item?.accelerator });
  } else if (message?.kind === 'close-window') {
    windows[0]?.close();
    process.send({ kind: 'closed-window', id: message.id });
  } else if (message?.kind === 'quit') {
    app.quit();
  }
});
