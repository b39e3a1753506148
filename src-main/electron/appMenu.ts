// The application menu: Electron's standard roles (edit, zoom, window) plus
// Outpost's own items. Letter shortcuts belong to the renderer (j/k, g a, …:
// lib/keyboard/shortcuts.ts), so the menu registers no accelerator that
// could steal a typed letter; its own accelerators use Ctrl/Cmd, which the
// renderer leaves alone.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  importTestReport(): void;
  syncNow(): void;
  /** Opens the other profile: the demo from the user's own, the user's own from the demo. */
  switchProfile(): void;
  openDocumentation(): void;
  showShortcuts(): void;
  openLogsFolder(): void;
  /** Help › Check for Updates Automatically, turned on or off. */
  setUpdateChecks(on: boolean): void;
}

export interface MenuOptions {
  /** Dev tools only when not packaged. */
  readonly isPackaged: boolean;
  readonly platform: NodeJS.Platform;
  /** The profile the window shows. */
  readonly profile: 'real' | 'demo';
  /** The user's update setting (the checkbox's state). */
  readonly updateChecks: boolean;
}

export function appMenuTemplate(actions: MenuActions, options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Import Test Report…', accelerator: 'CmdOrCtrl+O', click: () => actions.importTestReport() },
      { label: 'Sync Now', accelerator: 'CmdOrCtrl+Shift+S', click: () => actions.syncNow() },
      { type: 'separator' },
      { label: options.profile === 'demo' ? 'Open My Profile' : 'Open Demo Profile', click: () => actions.switchProfile() },
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
      ...(options.isPackaged ? [] : [{ type: 'separator' } as const, { role: 'toggleDevTools' } as const]),
    ],
  };
  const help: MenuItemConstructorOptions = {
    label: 'Help',
    role: 'help',
    submenu: [
      { label: 'Documentation', click: () => actions.openDocumentation() },
      // The renderer's own `?` key opens the same list (shown here, not registered: `?` is typed in fields).
      { label: 'Keyboard Shortcuts', accelerator: '?', registerAccelerator: false, click: () => actions.showShortcuts() },
      { label: 'Open Logs Folder', click: () => actions.openLogsFolder() },
      { type: 'separator' },
      {
        label: 'Check for Updates Automatically',
        type: 'checkbox',
        checked: options.updateChecks,
        click: (item) => actions.setUpdateChecks(item.checked),
      },
    ],
  };
  return [...(mac ? [{ role: 'appMenu' } as const] : []), file, { role: 'editMenu' }, view, { role: 'windowMenu' }, help];
}
